"""The `jamgate` command: a thin dispatcher.

Every command comes from a `jamgate.plugins` plugin — Jamgate's own exactly as a third
party's — through `jamgate_register_commands(register)`, and every benchmark through
`jamgate_register_benchmarks(register)`. Plugin modules keep their top-level imports light so
that `jamgate --help` answers at once.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from jamgate_core.version import __version__

if TYPE_CHECKING:
    from jamgate_core.app import App

EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2
LOG_LEVELS = ("debug", "info", "warning", "error")

Command = Callable[[argparse.Namespace], int]
AppCommand = Callable[["App", argparse.Namespace], int]


def print_json(data: Any) -> None:
    """Machine output of a command: indented JSON on stdout."""
    print(json.dumps(data, indent=2, ensure_ascii=False, default=str))


def with_app(run: AppCommand) -> Command:
    """A command that runs on the configured app, opened for it and closed after it."""

    def command(args: argparse.Namespace) -> int:
        from jamgate_core.app import open_app

        app = open_app()
        try:
            return run(app, args)
        finally:
            app.close()

    return command


class Registrar:
    """The `register` callback handed to the CLI hooks: one sub-command per call."""

    def __init__(self, subparsers: Any) -> None:
        self.subparsers = subparsers

    def __call__(self, name: str, help: str, func: Command | AppCommand, *,
                 json: bool = False, app: bool = False,
                 description: str | None = None) -> argparse.ArgumentParser:
        """Add `name`; `json` adds `--json`; `app` hands `func` the opened app first.
        Returns the parser, for the command's own arguments."""
        parser: argparse.ArgumentParser = self.subparsers.add_parser(
            name, help=help, description=description or help)
        if json:
            parser.add_argument("--json", action="store_true", help="machine-readable output")
        run = with_app(func) if app else func  # type: ignore[arg-type]
        parser.set_defaults(func=run)
        return parser


def build_parser(with_plugins: bool = True) -> argparse.ArgumentParser:
    """The whole command line: the dispatcher's own flags, then every plugin's commands."""
    parser = argparse.ArgumentParser(
        prog="jamgate",
        description="One memory for every AI agent you use, with a quality gate in the write "
                    "path. Agents reach it over MCP: run `jamgate serve` from your MCP client.",
    )
    parser.add_argument("--version", action="version", version=f"jamgate {__version__}")
    parser.add_argument("--log-level", type=str.lower, choices=LOG_LEVELS, help=(
        "diagnostics on stderr from this level up (default $JAMGATE_LOG_LEVEL, else warning)"))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    if with_plugins:
        _plugin_commands(sub)
    return parser


def _plugin_commands(sub: Any) -> None:
    """Commands and benchmarks that `jamgate.plugins` packages contribute."""
    from jamgate_core.errors import JamgateError
    from jamgate_core.hooks import Hooks, make_plugin_manager
    from jamgate_core.loader import PLUGINS, hook_plugins

    pm = make_plugin_manager()
    try:
        for name, plugin in hook_plugins():
            pm.register(plugin, name=f"{PLUGINS}:{name}")
    except JamgateError as exc:
        print(f"jamgate: {exc}", file=sys.stderr)  # before logging is set up: always shown
        return
    hooks = Hooks(pm)
    hooks.register_commands(Registrar(sub), sub)
    bench = sub.add_parser("bench", help="measure the gate, recall and speed",
                           description="Benchmarks that print figures. Each has --help.")
    bench.set_defaults(func=lambda args: bench.print_help() or EXIT_OK)
    benchmarks = bench.add_subparsers(dest="benchmark", metavar="BENCHMARK")
    hooks.register_benchmarks(Registrar(benchmarks), benchmarks)


def configure_logging(level: str | None) -> None:
    """Diagnostics to stderr from `level` up (else warning); below it with time, level, logger."""
    name = level.strip().upper() if level and level.strip().lower() in LOG_LEVELS else "WARNING"
    head = "%(asctime)s %(levelname)s %(name)s: " if name in ("DEBUG", "INFO") else "jamgate: "
    logging.basicConfig(level=name, stream=sys.stderr, format=head + "%(message)s", force=True)


def main(argv: Sequence[str] | None = None) -> int:
    from jamgate_core.errors import ConfigError, InvalidArgument, JamgateError, PluginError

    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(with_plugins=argv[:1] != ["--version"])
    args = parser.parse_args(argv)
    configure_logging(args.log_level or os.environ.get("JAMGATE_LOG_LEVEL"))
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_OK
    try:
        code: int = args.func(args)
        return code
    except BrokenPipeError:  # `jamgate … | head` closed the pipe: not an error of ours
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except JamgateError as exc:  # the command's own answer, not a diagnostic: printed
        setup = isinstance(exc, (ConfigError, PluginError))  # no command ran: no name
        print(f"jamgate{'' if setup else ' ' + args.command}: {exc}", file=sys.stderr)
        return EXIT_USAGE if setup or isinstance(exc, InvalidArgument) else EXIT_ERROR


if __name__ == "__main__":
    sys.exit(main())
