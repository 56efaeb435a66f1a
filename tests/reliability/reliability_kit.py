"""Shared pieces of the reliability tests: the real server as a subprocess, a view of what a
store holds, test-only plugins installed as a distribution on a path, and the planted fake
credentials.

Another store joins these tests by adding an entry to `LOCAL_STORES` (a local file store) or
by giving the tests its own `store_env` (a remote store: the HTTP helper's server and the
Supabase/mem0 fakes), since everything below talks to the store through `App` or the server.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from jamgate_commands.bench_speed import ServerGone, StdioSession, server_env
from jamgate_core.app import App, open_app
from jamgate_core.models import MemoryRecord, utcnow
from jamgate_core.settings import load_settings

__all__ = ["LOCAL_STORES", "ServerGone", "StdioSession", "all_records", "credential_cases",
           "digest_tree", "install_plugins", "opened", "server_env", "spawn_server"]

# Local file-backed stores: name → the JAMGATE_STORE value that selects it in a home.
LOCAL_STORES: dict[str, str] = {"sqlite": "memory.db", "file": "memory.json"}
SERVE = [sys.executable, "-m", "jamgate_core.cli", "serve"]
ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "corpus" / "gate_cases.jsonl"


def store_path(home: Path, store: str) -> Path:
    return home / LOCAL_STORES[store]


@contextmanager
def opened(home: Path, store: str, **settings: Any) -> Iterator[App]:
    """An App over the store in `home`, as a restarted server would open it."""
    settings.setdefault("embedder", "none")
    app = open_app(load_settings(home=home, store=LOCAL_STORES.get(store, store), **settings))
    try:
        yield app
    finally:
        app.close()


def all_records(app: App, scope: str = "default") -> list[MemoryRecord]:
    """Every record in the scope, any status, read page by page."""
    records: list[MemoryRecord] = []
    cursor = None
    while True:
        page = app.store.list(scope, status="all", type=None, limit=1000, cursor=cursor,
                              now=utcnow())
        records += page.records
        cursor = page.next_cursor
        if cursor is None:
            return records


def spawn_server(env: dict[str, str], stderr: Any = subprocess.DEVNULL,
                 client: str = "reliability") -> StdioSession:
    """`jamgate serve` started and initialized (the caller closes or kills it)."""
    process = subprocess.Popen(SERVE, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=stderr)
    session = StdioSession(process)
    try:
        session.initialize(client)
    except BaseException:
        process.kill()
        process.wait()
        raise
    return session


def digest_tree(root: Path) -> dict[str, str]:
    """sha256 of every file under `root`, by relative path."""
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


# ---- test-only plugins, installed as a distribution on a path -------------------------------

def install_plugins(site: Path, module: str, source: str,
                    entry_points: dict[str, dict[str, str]]) -> Path:
    """Write `module` and a `<module>-0.1.dist-info` declaring `entry_points` into `site`
    (put it on PYTHONPATH, or sys.path, and the loader finds them like any installed ones)."""
    site.mkdir(parents=True, exist_ok=True)
    (site / f"{module}.py").write_text(textwrap.dedent(source))
    info = site / f"{module}-0.1.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {module}\nVersion: 0.1\n")
    lines = []
    for group, names in entry_points.items():
        lines.append(f"[{group}]")
        lines += [f"{name} = {target}" for name, target in names.items()]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")
    return site


# ---- planted fake credentials ---------------------------------------------------------------

def credential_cases() -> list[tuple[str, str]]:
    """(reason, text) of every credential case in the gate corpus. The texts are joined from
    `text_parts` at run time, so no credential sits in the repository as one literal."""
    cases = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        raw = json.loads(line)
        text = "".join(raw["text_parts"]) if "text_parts" in raw else raw["text"]
        reason = raw.get("reason") or ""
        if raw.get("expect") == "reject" and (reason.startswith("secret")
                                              or raw.get("category") == "credential"):
            cases.append((reason, text))
    return cases


def needles(text: str) -> set[bytes]:
    """What must never be found on disk or in output for a refused text: the text itself
    (raw and JSON-escaped) and each secret-looking token of it."""
    found = {text.encode(), json.dumps(text, ensure_ascii=False)[1:-1].encode()}
    for token in text.split():
        token = token.strip(".,;:'\"()[]")
        if len(token) >= 12 and any(c.isdigit() for c in token):
            found.add(token.encode())
    return found


def environ_without_jamgate() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("JAMGATE_")}
