"""`jamgate setup`: wire every installed client to this Jamgate, one file edit each.

Per client, in order: a remote run skips clients without an HTTP transport; a client whose
folder is missing is not installed (nothing is created); a file that cannot be edited
losslessly is skipped with the reason; a remote wiring is not replaced by a local one without
`--force`; an entry that already matches is left alone (no byte changes). Otherwise the file is
backed up to `<file>.jamgate-backup` and replaced in one rename. Only `<container>.jamgate`
changes, and inside it only the keys setup owns (a user's `env` or `autoApprove` stay) unless
the transport changes, which replaces the entry.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from jamgate_commands.clients import files, jsonedit, tomledit
from jamgate_commands.clients.catalogue import (
    SERVER_NAME,
    Client,
    Roots,
    Transport,
    build_entry,
    config_path,
    detected,
    entry_target,
    entry_transport,
)

OutcomeName = Literal["configured", "updated", "already-configured", "preserved", "skipped",
                      "not-found", "error"]
CHANGED: frozenset[str] = frozenset({"configured", "updated"})


@dataclass(frozen=True)
class Request:
    """What to wire: stdio with `argv`, or remote at `url` with `token`."""

    argv: list[str]
    url: str | None = None
    token: str | None = None
    dry_run: bool = False
    force: bool = False

    @property
    def transport(self) -> Transport:
        return "remote" if self.url else "stdio"


@dataclass
class Outcome:
    """What setup did, or would do, to one client."""

    client: Client
    outcome: OutcomeName
    path: Path | None = None
    transport: Transport | None = None
    detail: str = ""
    previous: str | None = None  # what the entry ran or reached before
    created: bool = False  # the file did not exist
    backup: Path | None = None
    diff: str = ""
    entry: dict[str, Any] = field(default_factory=dict)  # ours, for a by-hand fix

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "client": self.client.id, "label": self.client.label, "outcome": self.outcome,
            "path": str(self.path) if self.path else None, "transport": self.transport,
            "detail": self.detail or None, "previous": self.previous, "created": self.created,
            "backup": str(self.backup) if self.backup else None,
        }
        if self.diff:
            data["diff"] = self.diff
        if self.outcome == "skipped" and self.entry:
            data["entry"] = {self.client.container: {SERVER_NAME: self.entry}}
        return data


def merged_entry(row: Client, current: Any, desired: dict[str, Any]) -> dict[str, Any]:
    """The entry to write. Same transport: the current entry with the keys setup owns set to
    `desired` (others kept, in order). A new or different transport: `desired` itself."""
    if not isinstance(current, dict) or entry_transport(current) != entry_transport(desired):
        return dict(desired)
    owned = row.managed_keys() | set(desired)
    merged = {k: desired.get(k, v) for k, v in current.items() if k not in owned or k in desired}
    for key, value in desired.items():
        merged.setdefault(key, value)
    return merged


def _read_entry(row: Client, text: str | None) -> tuple[Any, str | None]:
    """(the current entry or None, a reason the file cannot be edited) from the file text."""
    if text is None or not text.strip():
        return None, None
    try:
        data = tomledit.parse(text) if row.format == "toml" else jsonedit.parse(text)
    except jsonedit.Unreadable as exc:
        return None, str(exc)
    holder = data.get(row.container) if isinstance(data, dict) else None
    return (holder.get(SERVER_NAME) if isinstance(holder, dict) else None), None


def _edit(row: Client, text: str | None, entry: dict[str, Any]) -> str:
    module = tomledit if row.format == "toml" else jsonedit
    if text is None:
        return module.fresh(row.container, SERVER_NAME, entry)
    return module.set_entry(text, row.container, SERVER_NAME, entry)


def _diff(path: Path, before: str | None, after: str) -> str:
    lines = difflib.unified_diff(
        (before or "").splitlines(keepends=True), after.splitlines(keepends=True),
        fromfile=str(path) if before is not None else "/dev/null", tofile=str(path))
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def wire(row: Client, roots: Roots, request: Request) -> Outcome:
    """Wire one client; never raises for a problem with its file (that is an outcome)."""
    transport = request.transport
    path = config_path(row, roots)
    out = Outcome(client=row, outcome="skipped", path=path, transport=transport)
    if transport == "remote" and row.remote is None:
        out.detail = f"no HTTP transport: {row.remote_note}"
        return out
    if path is None:
        out.detail = f"no known config location on {roots.platform}"
        return out
    if detected(row, roots) is None:
        out.outcome = "not-found"
        folders = " or ".join(str(roots.resolve(t)) for t in row.detect.get(roots.platform, ()))
        out.detail = f"not installed here (no {folders})"
        return out
    desired = build_entry(row, transport, request.argv, request.url, request.token)
    out.entry = desired
    try:
        return _wire_file(row, path, request, desired, out)
    except OSError as exc:
        out.outcome = "error"
        out.detail = f"{exc.strerror or exc} ({exc.filename or path})"
        return out


def _wire_file(row: Client, path: Path, request: Request, desired: dict[str, Any],
               out: Outcome) -> Outcome:
    try:
        text = files.read_text(path)
    except files.NotText as exc:
        out.detail = f"{path.name} was left untouched: {exc}"
        return out
    if text is None:
        out.created = True
    current, unreadable = _read_entry(row, text)
    if unreadable:
        out.detail = f"{path.name} was left untouched: {unreadable}"
        return out
    current_transport = entry_transport(current)
    if current is not None:
        out.previous = entry_target(current)
    if current_transport == "remote" and request.transport == "stdio" and not request.force:
        out.outcome, out.transport = "preserved", "remote"
        out.detail = (f"already wired to {out.previous}; re-run with --remote URL --token T to "
                      "update it, or --force to replace it with a local entry")
        return out
    entry = merged_entry(row, current, desired)
    if current == entry:
        out.outcome = "already-configured"
        return out
    try:
        new_text = _edit(row, text, entry)
    except jsonedit.Unreadable as exc:
        out.detail = f"{path.name} was left untouched: {exc}"
        return out
    out.outcome = "configured" if current is None else "updated"
    out.diff = _diff(path, text, new_text)
    if request.dry_run:
        return out
    if text is not None:
        out.backup = files.backup(path)
    files.write_atomic(path, new_text, private=request.token is not None)
    return out


def run_setup(clients: list[Client], roots: Roots, request: Request) -> list[Outcome]:
    """Wire each client in turn; one client's failure never stops the others."""
    return [wire(row, roots, request) for row in clients]
