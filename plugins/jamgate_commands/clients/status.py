"""`jamgate status`: which clients are wired and how, and what this Jamgate runs on.

Client files are only read (JSON with comments too). The store, embedder and stages come from
the loaded configuration without opening the store, and a configuration that does not load is
reported as such: the client part never depends on it.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jamgate_commands.clients import files, jsonedit, tomledit
from jamgate_commands.clients.catalogue import (
    SERVER_NAME,
    Client,
    Roots,
    config_path,
    detected,
    entry_argv,
    entry_target,
    entry_transport,
)


@dataclass(frozen=True)
class ClientStatus:
    client: Client
    state: str  # wired, not-wired, not-found, unreadable
    path: Path | None
    transport: str | None = None
    target: str | None = None
    current: bool | None = None  # a stdio entry runs this install's command
    runnable: bool | None = None  # a stdio entry's program exists
    detail: str = ""

    def as_json(self) -> dict[str, Any]:
        return {"client": self.client.id, "label": self.client.label, "state": self.state,
                "path": str(self.path) if self.path else None, "transport": self.transport,
                "target": self.target, "current": self.current, "runnable": self.runnable,
                "detail": self.detail or None}


def _runnable(program: str) -> bool:
    path = Path(program)
    if path.is_absolute():
        return path.is_file()
    return shutil.which(program) is not None


def client_status(row: Client, roots: Roots, argv: list[str]) -> ClientStatus:
    """Read one client's config; never raises for a problem with it."""
    path = config_path(row, roots)
    if path is None or detected(row, roots) is None:
        return ClientStatus(row, "not-found", path)
    try:
        text = files.read_text(path)
        if text is None:
            return ClientStatus(row, "not-wired", path, detail="no config file yet")
        if not text.strip():
            return ClientStatus(row, "not-wired", path, detail="the config file is empty")
        data = tomledit.parse(text) if row.format == "toml" else jsonedit.parse_lenient(text)
    except (OSError, files.NotText, jsonedit.Unreadable) as exc:
        return ClientStatus(row, "unreadable", path, detail=str(exc))
    holder = data.get(row.container) if isinstance(data, dict) else None
    entry = holder.get(SERVER_NAME) if isinstance(holder, dict) else None
    if entry is None:
        return ClientStatus(row, "not-wired", path)
    transport = entry_transport(entry)
    command = entry_argv(entry)
    return ClientStatus(
        row, "wired", path, transport=transport or "unknown", target=entry_target(entry),
        current=(command == argv) if command is not None else None,
        runnable=_runnable(command[0]) if command else None,
    )


def jamgate_summary() -> dict[str, Any]:
    """Where the store lives, which embedder and stages are active — or why that is unknown."""
    try:
        from jamgate_core.app import App
        from jamgate_core.settings import load_settings

        settings = load_settings()
    except Exception as exc:
        return {"error": f"settings: {exc}"}
    summary: dict[str, Any] = {"home": str(settings.home)}
    try:
        app = App(settings)
    except Exception as exc:
        summary["error"] = str(exc)
        return summary
    try:
        summary.update(app.describe())
    except Exception as exc:
        summary["error"] = str(exc)
    finally:
        app.close()
    return summary
