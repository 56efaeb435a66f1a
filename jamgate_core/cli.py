"""The `jamgate` command. Imports stay lazy so `jamgate --help` answers at once."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from jamgate_core import __version__

if TYPE_CHECKING:
    from jamgate_core.app import App

EXIT_OK, EXIT_ERROR, EXIT_USAGE = 0, 1, 2


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False, default=str))


def _open_app() -> App:
    from jamgate_core.app import open_app

    return open_app()


def _with_app(run: Callable[[App, argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def command(args: argparse.Namespace) -> int:
        app = _open_app()
        try:
            return run(app, args)
        finally:
            app.close()
    return command


# ---- commands -----------------------------------------------------------------------------

def cmd_serve(args: argparse.Namespace) -> int:
    import anyio

    from jamgate_core.server.mcp import serve_stdio
    from jamgate_core.settings import load_settings

    if args.http or load_settings().http:
        from jamgate_core.server.auth import require_token
        from jamgate_core.server.http import serve_http

        require_token(load_settings())  # refuse before opening anything
        app = _open_app()
        try:
            return serve_http(app, host=args.host, port=args.port)
        finally:
            app.close()
    app = _open_app()
    try:
        if sys.stdin.isatty():
            describe = app.describe()
            print(
                f"Jamgate {__version__}: serving MCP on stdio. Store: {describe['store']} at "
                f"{describe['location']}. Waiting for an MCP client (Ctrl-C to stop); see the "
                "README for the client snippet.", file=sys.stderr,
            )
        anyio.run(serve_stdio, app)
    except KeyboardInterrupt:
        pass
    finally:
        app.close()
    return EXIT_OK


def _save_args(args: argparse.Namespace) -> dict[str, Any]:
    return {k: v for k, v in {"text": args.text, "type": args.type, "subject": args.subject,
                              "source": args.source, "scope": args.scope}.items()
            if v is not None}


def _check(app: App, args: argparse.Namespace) -> int:
    from jamgate_core.arguments import save_request
    from jamgate_core.server.render import verdict_text

    verdict = app.check(save_request(_save_args(args), tool="check"), origin="cli")
    if args.json:
        _print_json(verdict.model_dump(mode="json"))
    else:
        print(f"{verdict.decision} ({verdict.reason_code})")
        print(verdict_text(verdict))
    return EXIT_OK


def _recall(app: App, args: argparse.Namespace) -> int:
    from jamgate_core.app import RECALL_CAP
    from jamgate_core.arguments import recall_args
    from jamgate_core.server.render import recall_text

    parsed = recall_args({"query": args.query, "limit": args.limit, "scope": args.scope,
                          "type": args.type}, RECALL_CAP)
    result = app.recall(parsed.query, limit=parsed.limit, scope=parsed.scope, type=parsed.type)
    if args.json:
        _print_json(result.model_dump(mode="json"))
    else:
        print(recall_text(result))
    return EXIT_OK


def _forget(app: App, args: argparse.Namespace) -> int:
    from jamgate_core.arguments import forget_id

    result = app.forget(forget_id({"id": args.id}), scope=args.scope, origin="cli")
    if args.json:
        _print_json(result.model_dump(mode="json"))
    else:
        print(f"Forgotten: {result.forgotten}")
    return EXIT_OK


def _list(app: App, args: argparse.Namespace) -> int:
    from jamgate_core.app import LIST_CAP
    from jamgate_core.arguments import list_args
    from jamgate_core.server.render import list_text

    parsed = list_args({"scope": args.scope, "status": args.status, "type": args.type,
                        "limit": args.limit, "cursor": args.cursor}, LIST_CAP)
    result = app.list(scope=parsed.scope, status=parsed.status, type=parsed.type,
                      limit=parsed.limit, cursor=parsed.cursor)
    if args.json:
        _print_json(result.model_dump(mode="json"))
    else:
        print(list_text(result))
    return EXIT_OK


def _expired(app: App, args: argparse.Namespace) -> int:
    from jamgate_core.models import MemoryView, canonical_scope, iso

    grace = app.grace()
    records = app.expired(scope=args.scope)
    rows: list[dict[str, Any]] = [{"memory": MemoryView.of(r).model_dump(mode="json"),
             "compactable_at": iso((r.expires_at or r.created_at) + grace)} for r in records]
    scope = canonical_scope(args.scope)
    if args.json:
        _print_json({"scope": scope, "expired": rows})
        return EXIT_OK
    print(f"store: {app.store.location()}\nscope: {scope}")
    if not rows:
        print("Nothing has expired out of recall in this scope.")
        return EXIT_OK
    print(f"{len(rows)} memor{'y has' if len(rows) == 1 else 'ies have'} expired and "
          f"{'is' if len(rows) == 1 else 'are'} hidden from recall:")
    for row in rows:
        memory = row["memory"]
        print(f"- [{memory['type'] or 'untyped'}] {memory['text']}\n"
              f"  source {memory['source']} · saved {memory['created_at'][:10]}\n"
              f"  expired {(memory['expires_at'] or '')[:10]} · deletable by compaction from "
              f"{row['compactable_at'][:10]}\n  id: {memory['id']}")
    human = sum(1 for row in rows if row["memory"]["source"] != "agent-inferred")
    if human:
        print(f"\n{human} of these came from the user directly: if any should have lasted, "
              "save it again with a durable type (identity, preference, project) before its "
              "compaction date.")
    return EXIT_OK


def _compact(app: App, args: argparse.Namespace) -> int:
    removed = app.compact()
    if args.json:
        _print_json({"removed": removed})
    else:
        print(f"Removed {removed} memor{'y' if removed == 1 else 'ies'} expired more than "
              f"{app.settings.compact_grace_days:g} days ago.")
    return EXIT_OK


def cmd_plugins(args: argparse.Namespace) -> int:
    from jamgate_core.loader import GROUPS, discover

    rows = [
        {"group": info.group, "name": info.name, "target": info.target,
         "distribution": info.distribution, "builtin": info.builtin}
        for group in GROUPS for info in discover(group)
    ]
    if args.json:
        _print_json(rows)
        return EXIT_OK
    for group in GROUPS:
        print(f"{group}:")
        for row in (r for r in rows if r["group"] == group):
            origin = "built-in" if row["builtin"] else row["distribution"]
            print(f"  {row['name']:<20} {row['target']}  ({origin})")
    return EXIT_OK


def cmd_doctor(args: argparse.Namespace) -> int:
    from jamgate_core.doctor import run_doctor

    checks = run_doctor()
    if args.json:
        _print_json([{"level": level, "message": message} for level, message in checks])
    else:
        marks = {"ok": "ok  ", "warning": "warn", "error": "FAIL"}
        for level, message in checks:
            print(f"[{marks.get(level, level)}] {message}")
    return EXIT_ERROR if any(level == "error" for level, _ in checks) else EXIT_OK


# ---- parser -------------------------------------------------------------------------------

def _add_save_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("text", help="the memory, as one standalone statement")
    parser.add_argument("--type", choices=["identity", "project", "preference", "state"])
    parser.add_argument("--subject", help="what it is about, e.g. location")
    parser.add_argument("--source", choices=["agent-inferred", "user-confirmed", "user-explicit"])
    parser.add_argument("--scope", help="namespace (default: default)")


def build_parser(with_plugins: bool = True) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="jamgate",
        description="One memory for every AI agent you use, with a quality gate in the write "
                    "path. Agents reach it over MCP: run `jamgate serve` from your MCP client.",
    )
    parser.add_argument("--version", action="version", version=f"jamgate {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def add(name: str, help: str, func: Callable[[argparse.Namespace], int],
            json_flag: bool = True) -> argparse.ArgumentParser:
        command = sub.add_parser(name, help=help, description=help)
        if json_flag:
            command.add_argument("--json", action="store_true", help="machine-readable output")
        command.set_defaults(func=func)
        return command

    serve = add("serve", "run the MCP server: on stdio (what an MCP client starts), or with "
                "--http over Streamable HTTP with the REST API", cmd_serve, json_flag=False)
    serve.add_argument("--http", action="store_true",
                       help="serve over HTTP (also JAMGATE_HTTP=1); needs JAMGATE_TOKEN")
    serve.add_argument("--host", help="bind address (default 127.0.0.1, or JAMGATE_HOST)")
    serve.add_argument("--port", type=int, help="port (default 8420, or JAMGATE_PORT / PORT)")
    check = add("check", "show the verdict the gate would give a memory (writes nothing)",
                _with_app(_check))
    _add_save_args(check)
    recall = add("recall", "find memories relevant to a query", _with_app(_recall))
    recall.add_argument("query", nargs="?", default="", help="empty = the most recent")
    recall.add_argument("--limit", type=int, default=5)
    recall.add_argument("--scope")
    recall.add_argument("--type", choices=["identity", "project", "preference", "state"])
    forget = add("forget", "delete one memory by id (or an 8+ character prefix)",
                 _with_app(_forget))
    forget.add_argument("id")
    forget.add_argument("--scope")
    listing = add("list", "list memories, newest first", _with_app(_list))
    listing.add_argument("--scope")
    listing.add_argument("--status", choices=["active", "superseded", "expired", "all"],
                         default="active")
    listing.add_argument("--type", choices=["identity", "project", "preference", "state"])
    listing.add_argument("--limit", type=int, default=50)
    listing.add_argument("--cursor")
    expired = add("expired", "list memories hidden from recall because they expired",
                  _with_app(_expired))
    expired.add_argument("--scope")
    add("compact", "remove memories expired longer ago than the grace period (30 days)",
        _with_app(_compact))
    add("plugins", "list installed plugins (stores, embedders, stages, formats, hooks)",
        cmd_plugins)
    add("doctor", "check the configuration, plugins and store; exits 1 on errors", cmd_doctor)
    if with_plugins:
        _plugin_commands(sub)
    return parser


def _plugin_commands(sub: Any) -> None:
    """Commands that `jamgate.plugins` packages contribute through the CLI hook."""
    from jamgate_core.errors import JamgateError
    from jamgate_core.hooks import Hooks, make_plugin_manager
    from jamgate_core.loader import PLUGINS, hook_plugins

    pm = make_plugin_manager()
    try:
        for name, plugin in hook_plugins():
            pm.register(plugin, name=f"{PLUGINS}:{name}")
    except JamgateError as exc:
        print(f"jamgate: {exc}", file=sys.stderr)
        return
    hooks = Hooks(pm)
    hooks.register_commands(sub)
    bench = sub.add_parser("bench", help="measure the gate, recall and speed",
                           description="Benchmarks that print figures. Each has --help.")
    bench.set_defaults(func=lambda args: bench.print_help() or EXIT_OK)
    hooks.register_benchmarks(bench.add_subparsers(dest="benchmark", metavar="BENCHMARK"))


def main(argv: Sequence[str] | None = None) -> int:
    from jamgate_core.errors import ConfigError, InvalidArgument, JamgateError, PluginError

    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(with_plugins=argv[:1] != ["--version"])
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_OK
    try:
        code: int = args.func(args)
        return code
    except InvalidArgument as exc:
        print(f"jamgate {args.command}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except (ConfigError, PluginError) as exc:
        print(f"jamgate: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except JamgateError as exc:
        print(f"jamgate {args.command}: {exc}", file=sys.stderr)
        return EXIT_ERROR


if __name__ == "__main__":
    sys.exit(main())
