"""The text people read after `jamgate setup` and `jamgate status`."""

from __future__ import annotations

import json
from typing import Any

from jamgate_commands.clients.catalogue import CLIENTS, SERVER_NAME
from jamgate_commands.clients.command import Install
from jamgate_commands.clients.setup import CHANGED, Outcome, Request
from jamgate_commands.clients.status import ClientStatus

SYMBOLS = {"configured": "✓", "updated": "✓", "already-configured": "•", "preserved": "•",
           "skipped": "–", "not-found": "–", "error": "✗"}
_WIDTH = 15


def _describe(out: Outcome, dry_run: bool) -> str:
    how = f"({out.transport})" if out.transport else ""
    if out.outcome in CHANGED:
        verb = ("would configure" if dry_run else "configured") if out.outcome == "configured" \
            else ("would update" if dry_run else "updated")
        return f"{verb} {how}".strip()
    return {"already-configured": "already configured", "preserved": "left as-is",
            "skipped": "would be skipped" if dry_run else "skipped",
            "not-found": "not found", "error": "error"}[out.outcome]


def _snippet(out: Outcome) -> str:
    body = json.dumps({SERVER_NAME: out.entry}, ensure_ascii=False)
    if out.client.format == "toml":
        return f"[{out.client.container}.{SERVER_NAME}] with " + body
    return f'under "{out.client.container}": ' + body[1:-1]


def setup_text(outcomes: list[Outcome], request: Request, install: Install,
               warnings: list[str]) -> str:
    dry = request.dry_run
    lines = ["jamgate setup — dry run (no files written)" if dry else "jamgate setup"]
    if request.url:
        lines.append(f"wiring: remote {request.url}")
    else:
        lines.append(f"wiring: {' '.join(install.argv)}  ({install.note})")
    lines.append("")
    for out in outcomes:
        line = f"  {SYMBOLS[out.outcome]} {out.client.label:<{_WIDTH}} {_describe(out, dry)}"
        if out.detail:
            line += f" — {out.detail}"
        lines.append(line)
        if out.outcome in CHANGED and out.path:
            where = f"{'target' if dry else 'via'}: {out.path}"
            if out.created:
                where += " (new file)"
            if out.backup:
                where += f" (backup: {out.backup.name})"
            lines.append(" " * (_WIDTH + 5) + where)
            if out.previous:
                lines.append(" " * (_WIDTH + 5) + f"was: {out.previous}")
            if dry and out.diff:
                lines += [" " * (_WIDTH + 5) + d for d in out.diff.rstrip("\n").splitlines()]
        if out.outcome == "skipped" and out.entry and out.path:
            lines.append(" " * (_WIDTH + 5) + f"file: {out.path}")
            lines.append(" " * (_WIDTH + 5) + f"add by hand, {_snippet(out)}")
    lines.append("")
    changed = sum(out.outcome in CHANGED for out in outcomes)
    already = sum(out.outcome in ("already-configured", "preserved") for out in outcomes)
    if dry:
        lines.append(f"{changed} client(s) would change, {already} already configured. "
                     "Re-run without --dry-run to apply.")
    elif changed == 0 and already == 0:
        labels = ", ".join(row.label for row in CLIENTS)
        lines += [
            "No MCP client was wired: none was found on this machine, or each was skipped "
            "for the reason above.",
            "Jamgate itself is fine. Install and open a client once (so it creates its "
            f"settings folder) and run `jamgate setup` again. Known clients: {labels}.",
            "Any other MCP client takes the command above as a stdio server "
            "(README: Connect an MCP client).",
            "Check what was found with: jamgate status",
        ]
    else:
        tail = " Restart your client(s) to pick up jamgate." if changed else ""
        lines.append(f"Done: {changed} configured, {already} already configured.{tail}")
    lines += [f"note: {w}" for w in warnings]
    return "\n".join(lines)


def setup_json(outcomes: list[Outcome], request: Request, install: Install,
               warnings: list[str]) -> dict[str, Any]:
    return {
        "dry_run": request.dry_run,
        "mode": request.transport,
        "url": request.url,
        "command": None if request.url else install.argv,
        "install": install.kind,
        "clients": [out.as_json() for out in outcomes],
        "summary": {name: sum(out.outcome == name for out in outcomes)
                    for name in SYMBOLS},
        "warnings": warnings,
    }


_STATE_SYMBOLS = {"wired": "✓", "not-wired": "•", "not-found": "–", "unreadable": "✗"}


def _status_line(item: ClientStatus) -> list[str]:
    label = f"  {_STATE_SYMBOLS[item.state]} {item.client.label:<{_WIDTH}}"
    pad = " " * (_WIDTH + 5)
    if item.state == "not-found":
        return [f"{label} not found"]
    if item.state == "unreadable":
        return [f"{label} cannot read its config — {item.detail}", f"{pad}{item.path}"]
    if item.state == "not-wired":
        extra = f" ({item.detail})" if item.detail else ""
        return [f"{label} installed, not wired{extra}", f"{pad}{item.path}"]
    kind = "remote" if item.transport == "remote" else "local"
    lines = [f"{label} wired ({kind}): {item.target}", f"{pad}{item.path}"]
    if item.runnable is False:
        lines.append(f"{pad}! its command does not exist here: re-run `jamgate setup`")
    elif item.current is False:
        lines.append(f"{pad}(a different command from this install's; `jamgate setup` "
                     "updates it)")
    return lines


def status_text(items: list[ClientStatus], install: Install, summary: dict[str, Any]) -> str:
    lines = ["jamgate status", ""]
    for item in items:
        lines += _status_line(item)
    lines += ["", f"this install: {' '.join(install.argv)}  ({install.note})"]
    if "location" in summary:
        lines.append(f"store: {summary['store']} at {summary['location']}")
        lines.append(f"embedder: {summary['embedder']}")
        lines.append(f"stages: {', '.join(summary['stages'])}")
        lines.append(f"gate log: {summary['gate_log']}")
    else:
        lines.append(f"home: {summary.get('home', '?')}")
    if "error" in summary:
        lines.append(f"configuration problem: {summary['error']} (run `jamgate doctor`)")
    wired = sum(item.state == "wired" for item in items)
    if not wired:
        lines.append("No client is wired yet: run `jamgate setup`.")
    return "\n".join(lines)


def status_json(items: list[ClientStatus], install: Install,
                summary: dict[str, Any]) -> dict[str, Any]:
    return {"clients": [item.as_json() for item in items],
            "install": {"kind": install.kind, "command": install.argv},
            "jamgate": summary}
