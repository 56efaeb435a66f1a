"""Several processes append to one gate log at once: no line is torn, lost or duplicated."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from jamgate_commands.gatelog import read_entries

WORKERS, APPENDS = 4, 200

WORKER = textwrap.dedent("""
    import os, sys, time
    from pathlib import Path
    from jamgate_commands.gatelog import GateLog

    path, go = sys.argv[1], sys.argv[2]
    cap, worker, appends = (int(arg) for arg in sys.argv[3:6])
    log = GateLog(Path(path), cap)
    while not os.path.exists(go):
        time.sleep(0.001)
    for seq in range(appends):
        log.append({"decision": "saved", "worker": worker, "seq": seq,
                    "text": f"w{worker}-{seq} " + "déjà vu " * 12})
""")


def run_workers(path: Path, cap: int) -> None:
    go = path.parent / "go"
    command = [sys.executable, "-c", WORKER, str(path), str(go), str(cap)]
    procs = [subprocess.Popen([*command, str(n), str(APPENDS)]) for n in range(WORKERS)]
    time.sleep(0.2)
    go.touch()
    for proc in procs:
        assert proc.wait(timeout=60) == 0


@pytest.mark.parametrize("cap", [10**9, 80_000], ids=["no-rotation", "one-rotation"])
def test_concurrent_appends_stay_whole(tmp_path: Path, cap: int) -> None:
    path = tmp_path / "gate.log"
    run_workers(path, cap)

    raw = b""
    for part in (tmp_path / "gate.log.1", path):
        if part.exists():
            raw += part.read_bytes()
    parsed = [json.loads(line) for line in raw.splitlines()]  # a torn line would not parse
    seen = sorted((e["worker"], e["seq"]) for e in parsed)
    assert seen == [(w, s) for w in range(WORKERS) for s in range(APPENDS)]
    assert len(list(read_entries(path))) == WORKERS * APPENDS
    for entry in parsed:
        assert entry["text"].startswith(f"w{entry['worker']}-{entry['seq']} ")
    assert (tmp_path / "gate.log.1").exists() == (cap < len(raw))
