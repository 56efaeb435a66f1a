"""A forget erases the forgotten memory's text from the gate log: the lines about it (by id) and
the lines about no record with its text lose their `text`, in the current and the rotated
file, under the log's lock, while lines appended by other processes meanwhile all survive."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

from jamgate_commands.gatelog import MAX_LINE_BYTES, GateLog, format_entry, read_entries
from jamgate_core.models import MemoryRecord, utcnow

TEXT = "Jam's sister Ilse lives at 14 Kastanienallee in Berlin"


def record(text: str = TEXT, record_id: str = "rec-1") -> MemoryRecord:
    return MemoryRecord(id=record_id, text=text, created_at=utcnow(), updated_at=utcnow())


def raw(path: Path) -> bytes:
    rotated = path.with_name(path.name + ".1")
    return (rotated.read_bytes() if rotated.exists() else b"") + path.read_bytes()


def write(log: GateLog, *rows: dict[str, Any]) -> None:
    for row in rows:
        log.append({"ts": "2026-01-01T00:00:00.000Z", **row})


def test_forget_erases_every_line_with_the_text(tmp_path: Path) -> None:
    path = tmp_path / "gate.log"
    log = GateLog(path, 10**9)
    write(log,
          {"decision": "saved", "reason": "gate.accepted", "id": "rec-1", "subject": "ilse",
           "text": TEXT},
          {"decision": "duplicate", "reason": "dedup.exact", "id": "rec-1",
           "text": TEXT.upper()},
          {"decision": "rejected", "reason": "junk.x", "text": "  " + TEXT.lower() + " "},
          {"decision": "saved", "reason": "gate.accepted", "id": "rec-2", "text": TEXT},
          {"decision": "saved", "reason": "gate.accepted", "id": "rec-3",
           "text": "Jam likes tea", "superseded": ["rec-1"]},
          {"decision": "rejected", "reason": "prefilter.too_short", "text": "hey you"})
    log.jamgate_forgotten(record(), "mcp")

    entries = list(read_entries(path))
    assert [e["decision"] for e in entries] == ["saved", "duplicate", "rejected", "saved",
                                                "saved", "rejected", "forgotten"]
    first, duplicate, refused, other, unrelated, short, forgotten = entries
    for erased in (first, duplicate, refused):
        assert "text" not in erased and erased["erased"] is True
    assert first["subject"] == "ilse" and first["id"] == "rec-1"
    # another record with the same text (another scope) keeps its line: it is not forgotten
    assert other["text"] == TEXT and "erased" not in other
    assert unrelated["text"] == "Jam likes tea" and short["text"] == "hey you"
    assert forgotten["id"] == "rec-1" and "text" not in forgotten
    holding = [line for line in raw(path).splitlines() if TEXT.lower().encode() in line.lower()]
    assert len(holding) == 1 and b'"id":"rec-2"' in holding[0]
    assert format_entry(first).endswith("(text erased: the memory was forgotten)")


def test_the_rotated_file_is_erased_too_and_stays_private(tmp_path: Path) -> None:
    path = tmp_path / "store" / "gate.log"
    log = GateLog(path, 1_500)
    write(log, {"decision": "saved", "id": "rec-1", "text": TEXT})
    written = 0
    while not path.with_name("gate.log.1").exists():
        write(log, {"decision": "saved", "id": f"other-{written}", "text": "y" * 120})
        written += 1
    write(log, {"decision": "saved", "id": f"other-{written}", "text": "y" * 120})
    rotated = path.with_name("gate.log.1")
    assert TEXT.encode() in rotated.read_bytes()

    log.jamgate_forgotten(record(), "cli")

    assert TEXT.encode() not in raw(path)
    for part in (path, rotated):
        assert stat.S_IMODE(part.stat().st_mode) == 0o600
    assert sorted(p.name for p in path.parent.iterdir()) == [
        "gate.log", "gate.log.1", "gate.log.lock"], "no temp file stays behind"
    others = [e["id"] for e in read_entries(path) if e.get("id", "").startswith("other-")]
    assert others == [f"other-{n}" for n in range(written + 1)], "no line was lost"


def test_a_cut_text_and_a_torn_line_are_erased(tmp_path: Path) -> None:
    long_text = "Jam's recovery phrase notes: " + "zebra quartz " * 600
    path = tmp_path / "gate.log"
    log = GateLog(path, 10**9)
    write(log, {"decision": "rejected", "reason": "junk.x", "text": long_text})
    assert len(path.read_bytes()) < MAX_LINE_BYTES
    with path.open("ab") as handle:  # a foreign or torn line holding the text
        handle.write(b'{"decision":"saved","text":"' + TEXT.encode() + b'"\n')
    write(log, {"decision": "saved", "id": "keep", "text": "Jam likes tea"})

    log.jamgate_forgotten(record(long_text, "rec-long"), "mcp")
    log.jamgate_forgotten(record(TEXT, "rec-1"), "mcp")

    data = path.read_bytes()
    assert b"zebra quartz" not in data and TEXT.encode() not in data
    assert [e["decision"] for e in read_entries(path)] == [
        "rejected", "saved", "forgotten", "forgotten"]


def test_a_temp_file_left_by_a_killed_erasure_is_removed(tmp_path: Path) -> None:
    path = tmp_path / "gate.log"
    log = GateLog(path, 10**9)
    write(log, {"decision": "saved", "id": "rec-1", "text": TEXT})
    orphan = tmp_path / f".gate.log.{'a' * 32}.tmp"
    orphan.write_bytes(path.read_bytes())
    log.jamgate_forgotten(record(), "mcp")
    assert not orphan.exists()
    assert TEXT.encode() not in path.read_bytes()


def test_nothing_is_rewritten_when_nothing_holds_the_text(tmp_path: Path) -> None:
    path = tmp_path / "gate.log"
    log = GateLog(path, 10**9)
    write(log, {"decision": "saved", "id": "rec-9", "text": "Jam likes tea"})
    before = os.stat(path).st_ino
    assert log.erase(record()) == 0
    assert os.stat(path).st_ino == before


APPENDER = textwrap.dedent("""
    import os, sys, time
    from pathlib import Path
    from jamgate_commands.gatelog import GateLog

    path, go, worker, appends = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    log = GateLog(path, 10**9)
    while not os.path.exists(go):
        time.sleep(0.001)
    for seq in range(appends):
        log.append({"decision": "saved", "id": f"w{worker}-{seq}", "worker": worker, "seq": seq,
                    "text": f"kept line {worker}/{seq} " + "déjà vu " * 8})
""")

FORGETTER = textwrap.dedent("""
    import os, sys, time
    from pathlib import Path
    from jamgate_commands.gatelog import GateLog
    from jamgate_core.models import MemoryRecord, utcnow

    path, go, count = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    log = GateLog(path, 10**9)
    while not os.path.exists(go):
        time.sleep(0.001)
    for n in range(count):
        text = f"forgotten secret number {n}"
        log.append({"decision": "saved", "id": f"f-{n}", "text": text})
        log.jamgate_forgotten(MemoryRecord(id=f"f-{n}", text=text, created_at=utcnow(),
                                           updated_at=utcnow()), "mcp")
""")


def test_erasures_racing_appends_from_other_processes_lose_no_line(tmp_path: Path) -> None:
    path, go = tmp_path / "gate.log", tmp_path / "go"
    workers, appends, forgets = 3, 150, 40
    procs = [subprocess.Popen([sys.executable, "-c", APPENDER, str(path), str(go), str(n),
                               str(appends)]) for n in range(workers)]
    procs.append(subprocess.Popen([sys.executable, "-c", FORGETTER, str(path), str(go),
                                   str(forgets)]))
    time.sleep(0.3)
    go.touch()
    for proc in procs:
        assert proc.wait(timeout=120) == 0

    data = raw(path)
    parsed = [json.loads(line) for line in data.splitlines()]  # no torn line
    assert b"forgotten secret number" not in data
    kept = sorted((e["worker"], e["seq"]) for e in parsed if "worker" in e)
    assert kept == [(w, s) for w in range(workers) for s in range(appends)]
    assert all(e["text"].startswith(f"kept line {e['worker']}/{e['seq']} ")
               for e in parsed if "worker" in e)
    assert sum(1 for e in parsed if e.get("decision") == "forgotten") == forgets


def test_lines_are_overwritten_where_they_lie(tmp_path: Path) -> None:
    path = tmp_path / "gate.log"
    log = GateLog(path, 10**9)
    write(log, {"decision": "saved", "id": "rec-0", "text": "Jam likes tea"},
          {"decision": "saved", "id": "rec-1", "text": TEXT},
          {"decision": "saved", "id": "rec-2", "text": "Jam likes coffee"})
    before, size = os.stat(path).st_ino, os.stat(path).st_size
    assert log.erase(record()) == 1
    assert (os.stat(path).st_ino, os.stat(path).st_size) == (before, size), "same file, same size"
    assert TEXT.encode() not in path.read_bytes()
    assert [e.get("text") for e in read_entries(path)] == ["Jam likes tea", None,
                                                           "Jam likes coffee"]


def test_a_line_too_short_to_overwrite_makes_a_whole_rewrite(tmp_path: Path) -> None:
    path = tmp_path / "gate.log"
    log = GateLog(path, 10**9)
    write(log, {"decision": "saved", "id": "r", "text": "ab"},
          {"decision": "saved", "id": "s", "text": "Jam likes tea"})
    assert log.erase(record("ab", "r")) == 1
    assert [(e["id"], e.get("text"), e.get("erased")) for e in read_entries(path)] == [
        ("r", None, True), ("s", "Jam likes tea", None)]
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.glob("*gate.log*")) == ["gate.log", "gate.log.lock"]
