"""`jamgate supabase init --print`: the SQL schema of the supabase store (a `jamgate.plugins`
module). Imports nothing beyond the standard library at start-up."""

from __future__ import annotations

import argparse
import sys
from importlib import resources
from typing import TYPE_CHECKING

from jamgate_core import hookimpl

if TYPE_CHECKING:
    from jamgate_core.contracts import Register

SCHEMA_FILE = "schema.sql"


def schema_sql() -> str:
    """The migration shipped in the package (idempotent; apply it with psql)."""
    return (resources.files("jamgate_adapters.stores.supabase") / "sql" / SCHEMA_FILE
            ).read_text(encoding="utf-8")


@hookimpl
def jamgate_register_commands(register: Register) -> None:
    parser: argparse.ArgumentParser = register(
        "supabase", help="set up a Supabase (or Postgres) database for the supabase store",
        description="Commands for the supabase store.",
        func=lambda args: _usage(parser))
    commands = parser.add_subparsers(dest="supabase_command", metavar="COMMAND")
    init = commands.add_parser(
        "init", help="print the SQL schema to apply to the database",
        description="Print the schema (tables, unique indexes, row-level security, RPC "
                    "functions). Apply it with: jamgate supabase init --print | psql "
                    "\"$DATABASE_URL\", or paste it into Supabase's SQL editor.")
    init.add_argument("--print", dest="print_sql", action="store_true",
                      help="write the SQL to standard output")
    init.set_defaults(func=run_init)


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def run_init(args: argparse.Namespace) -> int:
    if not args.print_sql:
        print("jamgate supabase init applies nothing itself: run it with --print and pipe the "
              "SQL to psql \"$DATABASE_URL\" (or paste it into Supabase's SQL editor).",
              file=sys.stderr)
        return 2
    sys.stdout.write(schema_sql())
    return 0
