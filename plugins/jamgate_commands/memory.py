"""`jamgate check | recall | forget | list | expired | compact | plugins`: the memory from the
command line (a `jamgate.plugins` module)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from jamgate_core.cli import EXIT_OK, print_json
from jamgate_core.hookspecs import hookimpl

if TYPE_CHECKING:
    from jamgate_core.app import App
    from jamgate_core.contracts import Register

TYPES = ["identity", "project", "preference", "state"]


def _save_args(args: argparse.Namespace) -> dict[str, Any]:
    return {k: v for k, v in {"text": args.text, "type": args.type, "subject": args.subject,
                              "source": args.source, "scope": args.scope}.items()
            if v is not None}


def _check(app: App, args: argparse.Namespace) -> int:
    from jamgate_core.arguments import save_request
    from jamgate_core.render import verdict_text

    verdict = app.check(save_request(_save_args(args), tool="check"), origin="cli")
    if args.json:
        print_json(verdict.model_dump(mode="json"))
    else:
        print(f"{verdict.decision} ({verdict.reason_code}) — a dry run: nothing was written")
        lines = verdict_text(verdict).splitlines()
        if verdict.decision in ("saved", "superseded"):  # nothing was saved: no id to keep
            lines = [line.replace("Saved:", "Would be saved:", 1) for line in lines
                     if line != f"id: {verdict.id}"]
        print("\n".join(lines))
    return EXIT_OK


def _recall(app: App, args: argparse.Namespace) -> int:
    from jamgate_core.app import RECALL_CAP
    from jamgate_core.arguments import recall_args
    from jamgate_core.render import recall_text

    parsed = recall_args({"query": args.query, "limit": args.limit, "scope": args.scope,
                          "type": args.type}, RECALL_CAP)
    result = app.recall(parsed.query, limit=parsed.limit, scope=parsed.scope, type=parsed.type)
    if args.json:
        print_json(result.model_dump(mode="json"))
    else:
        print(recall_text(result))
    return EXIT_OK


def _forget(app: App, args: argparse.Namespace) -> int:
    from jamgate_core.arguments import forget_id

    result = app.forget(forget_id({"id": args.id}), scope=args.scope, origin="cli")
    if args.json:
        print_json(result.model_dump(mode="json"))
    else:
        print(f"Forgotten: {result.forgotten}")
    return EXIT_OK


def _list(app: App, args: argparse.Namespace) -> int:
    from jamgate_core.app import LIST_CAP
    from jamgate_core.arguments import list_args
    from jamgate_core.render import list_text

    parsed = list_args({"scope": args.scope, "status": args.status, "type": args.type,
                        "limit": args.limit, "cursor": args.cursor}, LIST_CAP)
    result = app.list(scope=parsed.scope, status=parsed.status, type=parsed.type,
                      limit=parsed.limit, cursor=parsed.cursor)
    if args.json:
        print_json(result.model_dump(mode="json"))
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
        print_json({"scope": scope, "expired": rows})
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
        print_json({"removed": removed})
    else:
        print(f"Removed {removed} memor{'y' if removed == 1 else 'ies'} expired more than "
              f"{app.settings.compact_grace_days:g} days ago.")
    return EXIT_OK


def cmd_plugins(args: argparse.Namespace) -> int:
    from jamgate_commands.extras import availability
    from jamgate_core.loader import GROUPS, discover

    rows = [
        {"group": info.group, "name": info.name, "target": info.target,
         "distribution": info.distribution, "builtin": info.builtin,
         **availability(info.name, info.builtin)}
        for group in GROUPS for info in discover(group)
    ]
    if args.json:
        print_json(rows)
        return EXIT_OK
    for group in GROUPS:
        print(f"{group}:")
        for row in (r for r in rows if r["group"] == group):
            origin = "built-in" if row["builtin"] else str(row["distribution"])
            if "extra" in row:
                origin += (f"; the {row['extra']} extra is installed" if row["usable"] else
                           f"; NOT USABLE: the {row['extra']} extra is not installed")
            print(f"  {row['name']:<20} {row['target']}  ({origin})")
    remedies = {str(row["extra"]): row["install"] for row in rows if not row["usable"]}
    for extra, command in sorted(remedies.items()):
        print(f"Install the {extra} extra with: {command}")
    return EXIT_OK


def _add_save_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("text", help="the memory, as one standalone statement")
    parser.add_argument("--type", choices=TYPES)
    parser.add_argument("--subject", help="what it is about, e.g. location")
    parser.add_argument("--source", choices=["agent-inferred", "user-confirmed", "user-explicit"])
    parser.add_argument("--scope", help="namespace (default: default)")


@hookimpl
def jamgate_register_commands(register: Register) -> None:
    check = register("check", "show the verdict the gate would give a memory (writes nothing)",
                     _check, json=True, app=True)
    _add_save_args(check)
    recall = register("recall", "find memories relevant to a query", _recall, json=True,
                      app=True)
    recall.add_argument("query", nargs="?", default="", help="empty = the most recent")
    recall.add_argument("--limit", type=int, default=5)
    recall.add_argument("--scope")
    recall.add_argument("--type", choices=TYPES)
    forget = register("forget", "delete one memory by id (or an 8+ character prefix)",
                      _forget, json=True, app=True)
    forget.add_argument("id")
    forget.add_argument("--scope")
    listing = register("list", "list memories, newest first", _list, json=True, app=True)
    listing.add_argument("--scope")
    listing.add_argument("--status", choices=["active", "superseded", "expired", "all"],
                         default="active")
    listing.add_argument("--type", choices=TYPES)
    listing.add_argument("--limit", type=int, default=50)
    listing.add_argument("--cursor")
    expired = register("expired", "list memories hidden from recall because they expired",
                       _expired, json=True, app=True)
    expired.add_argument("--scope")
    register("compact", "remove memories expired longer ago than the grace period (30 days)",
             _compact, json=True, app=True)
    register("plugins", "list installed plugins (stores, embedders, stages, formats, hooks)",
             cmd_plugins, json=True)
