"""kill -9 during an import judged by worker processes (D-207): the store opens intact and
holds all of the batch or none of it (nothing was acknowledged before the one write), and the
workers do not outlive the killed import."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from jamgate_commands.import_bench import synthetic_requests, write_export
from jamgate_core.app import open_app
from jamgate_core.models import utcnow
from jamgate_core.settings import load_settings

RECORDS = 3000


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _stored(home: Path) -> int:
    with sqlite3.connect(home / "memory.db") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    app = open_app(load_settings(home=home, store="sqlite"))
    try:
        count, cursor = 0, None
        while True:
            page = app.store.list("default", status="all", type=None, limit=1000,
                                  cursor=cursor, now=utcnow())
            count += len(page.records)
            cursor = page.next_cursor
            if cursor is None:
                return count
    finally:
        app.close()


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_kill_9_mid_import_leaves_all_or_nothing_and_no_worker(tmp_path: Path) -> None:
    export = write_export(tmp_path / "export.json", synthetic_requests(RECORDS))
    rng = random.Random(21)
    outcomes = []
    for attempt in range(3):
        home = tmp_path / f"home-{attempt}"
        process = subprocess.Popen(
            [sys.executable, "-m", "jamgate_core", "import", str(export), "--workers", "2"],
            env={**os.environ, "JAMGATE_HOME": str(home), "JAMGATE_STORE": "sqlite"},
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while not (workers := _children(process.pid)) and process.poll() is None:
            assert time.monotonic() < deadline, "the import never started its workers"
            time.sleep(0.01)
        time.sleep(rng.uniform(0.05, 1.5))
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
        deadline = time.monotonic() + 15
        while any(_alive(pid) for pid in workers):
            assert time.monotonic() < deadline, "a worker outlived the killed import"
            time.sleep(0.05)
        stored = _stored(home) if (home / "memory.db").exists() else 0
        assert stored in (0, RECORDS)
        outcomes.append(stored)
    assert 0 in outcomes  # at least one kill landed before the write
