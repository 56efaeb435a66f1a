"""`jamgate setup` and `jamgate status`: wire every MCP client on the machine to Jamgate.

A `jamgate.plugins` module (entry point `setup`) contributing the two commands. The modules:
`catalogue` (every client's paths and entry shapes, as data), `jsonedit` / `tomledit`
(lossless edits), `files` (backups, atomic writes), `command` (how this Jamgate is installed,
hence what clients should run), `setup`, `status` and `report`.
"""

from __future__ import annotations

import argparse
import json
import os
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from jamgate_core.hookspecs import hookimpl

if TYPE_CHECKING:
    from jamgate_core.contracts import Register

EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2


@hookimpl
def jamgate_register_commands(register: Register) -> None:
    from jamgate_commands.clients.catalogue import CLIENT_IDS

    setup = register(
        "setup", help="wire every MCP client on this machine to Jamgate",
        description="Add a jamgate entry to the MCP configuration of every installed client "
                    "(Claude Code, Claude Desktop, Cursor, Windsurf, Gemini CLI, VS Code, "
                    "Cline, the Cline CLI, Roo Code, OpenCode, Zed, Codex CLI). Idempotent; "
                    "each changed file is first copied to <file>.jamgate-backup; other "
                    "servers, keys and comments are never touched.",
        func=run_setup_command, json=True)
    setup.add_argument("--dry-run", action="store_true",
                       help="write nothing; show what would change")
    setup.add_argument("--force", action="store_true",
                       help="replace a remote wiring with a local one")
    setup.add_argument("--remote", metavar="URL",
                       help="wire clients to a Jamgate served over HTTP at URL (its /mcp "
                            "endpoint); clients without HTTP support are skipped")
    setup.add_argument("--token", metavar="T",
                       help="bearer token for --remote (default: JAMGATE_TOKEN)")
    setup.add_argument("--cursor-link", action="store_true",
                       help="print an \"Add to Cursor\" install link for this Jamgate (or "
                            "--remote URL, without its token) and change nothing")
    setup.add_argument("--client", action="append", choices=CLIENT_IDS, metavar="ID",
                       help=f"only this client (repeatable): {', '.join(CLIENT_IDS)}")
    register(
        "status", help="show which clients are wired and what Jamgate runs on",
        description="Which MCP clients are wired to Jamgate (local or remote, with which "
                    "command), where the store lives, which embedder and stages are active.",
        func=run_status_command, json=True)


def _usage(message: str) -> int:
    import sys

    print(f"jamgate setup: {message}", file=sys.stderr)
    return EXIT_USAGE


def _home_warning() -> list[str]:
    from pathlib import Path

    home = os.environ.get("JAMGATE_HOME")
    user_home = os.environ.get("HOME") or os.environ.get("USERPROFILE") or str(Path.home())
    if not home or Path(home).expanduser() == Path(user_home) / ".jamgate":
        return []
    return [f"JAMGATE_HOME is set to {home} in this shell, but clients start jamgate without "
            "it and so use ~/.jamgate. To share this data folder, set JAMGATE_HOME where your "
            "clients start too, or add it to each entry's env."]


def run_setup_command(args: argparse.Namespace) -> int:
    from jamgate_commands.clients.catalogue import CLIENTS, Roots, client
    from jamgate_commands.clients.command import detect_install
    from jamgate_commands.clients.report import setup_json, setup_text
    from jamgate_commands.clients.setup import Request, run_setup

    token = args.token or os.environ.get("JAMGATE_TOKEN") or None
    url = args.remote
    if url is not None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            return _usage(f"--remote needs an http:// or https:// URL, not {url!r}")
        if not token and not args.cursor_link:
            return _usage("remote mode needs a bearer token: pass --token T or set "
                          "JAMGATE_TOKEN (the token `jamgate serve --http` was started with)")
    elif args.token:
        return _usage("--token only applies with --remote URL")
    if args.cursor_link and url:
        token = None  # a link is shared and logged: it never carries the token
    install = detect_install()
    if args.cursor_link:
        return _print_cursor_link(install.argv, url)
    request = Request(argv=install.argv, url=url, token=token if url else None,
                      dry_run=args.dry_run, force=args.force)
    rows = [client(c) for c in dict.fromkeys(args.client)] if args.client else list(CLIENTS)
    outcomes = run_setup(rows, Roots.from_env(), request)
    warnings = [] if url else _home_warning()
    if url and urlsplit(url).scheme == "http" and urlsplit(url).hostname not in (
            "localhost", "127.0.0.1", "::1"):
        warnings.append("the URL is plain http to another host: the token travels "
                        "unencrypted; put Jamgate behind TLS (https).")
    if args.json:
        print(json.dumps(setup_json(outcomes, request, install, warnings), indent=2,
                         ensure_ascii=False))
    else:
        print(setup_text(outcomes, request, install, warnings))
    return EXIT_ERROR if any(out.outcome == "error" for out in outcomes) else EXIT_OK


def _print_cursor_link(argv: list[str], url: str | None) -> int:
    from jamgate_commands.clients.catalogue import SERVER_NAME, build_entry, client
    from jamgate_commands.clients.deeplink import cursor_link

    entry = build_entry(client("cursor"), "remote" if url else "stdio", argv, url)
    print(cursor_link(SERVER_NAME, entry))
    if url:
        print("Cursor asks for the bearer token on first connect (OAuth), or add the "
              "Authorization header in ~/.cursor/mcp.json.")
    return EXIT_OK


def run_status_command(args: argparse.Namespace) -> int:
    from jamgate_commands.clients.catalogue import CLIENTS, Roots
    from jamgate_commands.clients.command import detect_install
    from jamgate_commands.clients.report import status_json, status_text
    from jamgate_commands.clients.status import client_status, jamgate_summary

    install = detect_install()
    roots = Roots.from_env()
    items = [client_status(row, roots, install.argv) for row in CLIENTS]
    summary = jamgate_summary()
    if args.json:
        print(json.dumps(status_json(items, install, summary), indent=2, ensure_ascii=False))
    else:
        print(status_text(items, install, summary))
    return EXIT_OK
