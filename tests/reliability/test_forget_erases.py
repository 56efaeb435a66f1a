"""A forget erases the text: after `forget_memory` through the real stdio server, no file the
store, the gate log (the rotated file too) or the OAuth state wrote holds the memory's text or
a word of it that nothing else has, while the server still runs (SQLite's -wal included) and
after it stopped; `jamgate log` no longer shows it either.

Before the forget the text is everywhere it can be: saved (and saved again, a duplicate), its
lines pushed into the rotated log, and, for the file store, full copies of the store left by a
killed writer (`.memory.json.<uuid>.tmp`) beside stale lock debris, which the next open sweeps.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from reliability_kit import LOCAL_STORES, opened, server_env, spawn_server, store_path

from jamgate_core.contracts import AuthSecret

FORGOTTEN = "Jam's grandmother was born in the village of Zvenigorodka near Kyiv"
# Words of the forgotten text found nowhere else: the store's keyword index folds words, so
# each is also looked for folded (lower case).
ITS_WORDS = ("Zvenigorodka", "grandmother")
KEPT = "Jam prefers the Helix editor for Rust work"


def grep(home: Path, extra: dict[str, bytes] | None = None) -> list[str]:
    """Where the forgotten text, or a word only it has, appears."""
    needles = {FORGOTTEN.encode(), json.dumps(FORGOTTEN, ensure_ascii=False)[1:-1].encode()}
    needles |= {w.encode() for w in ITS_WORDS} | {w.lower().encode() for w in ITS_WORDS}
    blobs = {str(p.relative_to(home)): p.read_bytes() for p in home.rglob("*") if p.is_file()}
    blobs |= extra or {}
    return sorted({name for name, blob in blobs.items() for n in needles if n in blob})


def files_of(home: Path) -> list[str]:
    return sorted(str(p.relative_to(home)) for p in home.rglob("*") if p.is_file())


def log_command(home: Path, store: str) -> bytes:
    done = subprocess.run([sys.executable, "-m", "jamgate_core.cli", "log", "--limit", "0"],
                          env=server_env(home, store=LOCAL_STORES[store]), capture_output=True,
                          timeout=60, check=True)
    return done.stdout + done.stderr


def plant_killed_writer_debris(home: Path) -> list[Path]:
    """What kill -9 during file-store writes leaves: temp copies, lock debris (old)."""
    store = home / "memory.json"
    debris = [home / f".memory.json.{uuid.uuid4()}.tmp" for _ in range(3)]
    for copy in debris:
        shutil.copyfile(store, copy)
    debris += [home / f".memory.json.lock.{uuid.uuid4().hex}",
               home / f"memory.json.lock.stale-{uuid.uuid4().hex}",
               home / f".memory.oauth.json.lock.{uuid.uuid4().hex}"]
    for lock in debris[3:]:
        lock.write_bytes(b"1700000000000 pid=1 flock")
    old = time.time() - 3600
    for path in debris:
        os.utime(path, (old, old))
    return debris


@pytest.mark.parametrize("store", sorted(LOCAL_STORES))
def test_forget_then_grep_finds_nothing(store: str, tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = server_env(home, store=LOCAL_STORES[store], gate_log_max_bytes="1500")

    first = spawn_server(env)
    saved = first.call("save_memory", {"text": FORGOTTEN, "type": "identity",
                                       "source": "user-explicit"})["structuredContent"]
    assert saved["decision"] == "saved", saved
    again = first.call("save_memory", {"text": FORGOTTEN.upper()})["structuredContent"]
    assert again["decision"] == "duplicate" and again["id"] == saved["id"]
    kept = first.call("save_memory", {"text": KEPT, "type": "preference"})["structuredContent"]
    assert kept["decision"] == "saved"
    for n in range(40):  # push the lines above into the rotated log (rotated once)
        if (home / "gate.log.1").exists():
            break
        first.call("save_memory", {"text": f"Jam's build step {n} runs the linter before tests",
                                   "type": "project"})
    first.process.send_signal(signal.SIGKILL)
    first.process.wait(timeout=30)
    first.close()
    assert (home / "gate.log.1").exists(), "the log rotated"

    with opened(home, store) as app:  # the OAuth state is written too
        now = time.time()
        app.store.oauth_save_client("client-1", json.dumps({"client_name": "agent"}), now)
        app.store.oauth_put(AuthSecret(kind="code", key="cd" * 32, client_id="client-1",
                                       grant_id="grant-1", expires_at=now + 600))
    if store == "file":
        debris = plant_killed_writer_debris(home)
    assert "gate.log.1" in grep(home), "the text is on disk before the forget"

    second = spawn_server(env)
    try:
        # The app is open once a tool has answered (the handshake may come from the start-up
        # replies before the app is opened, D-201).
        second.call("list_memories", {})
        if store == "file":
            assert not any(path.exists() for path in debris), "opening swept the debris"
        gone = second.call("forget_memory", {"id": saved["id"]})
        assert not gone.get("isError"), gone
        files = files_of(home)
        if store == "sqlite":
            assert "memory.db-wal" in files, "the server still runs"
        assert grep(home) == [], files
    finally:
        second.close()
    assert grep(home, {"jamgate log": log_command(home, store)}) == []

    # the check can fail: what was kept is still found, in the store and in the log
    haystack = b"".join(p.read_bytes() for p in home.rglob("*") if p.is_file())
    assert KEPT.encode() in haystack and b"helix" in haystack.lower()
    assert b"(text erased: the memory was forgotten)" in log_command(home, store)
    with opened(home, store) as app:
        assert app.store.oauth_client("client-1") is not None
        assert app.store.get("default", saved["id"]) is None
        assert app.store.get("default", kept["id"]) is not None
        assert app.store.integrity_check() == []
    assert store_path(home, store).exists()
