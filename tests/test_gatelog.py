"""The gate log writer: fields, redaction, truncation, forgets, rotation, failures, modes."""

from __future__ import annotations

import hashlib
import json
import stat
from pathlib import Path
from typing import Any

import pytest

from jamgate_commands.gatelog import MAX_LINE_BYTES, GateLog, read_entries
from jamgate_core.models import (
    Candidate,
    ClientInfo,
    MemoryRecord,
    Verdict,
    new_id,
    parse_iso,
    utcnow,
)

SECRET = "sk-proj-Zq8Xv2Lr9Tn4Wb7Yc1Md5Pe3"


def candidate(text: str = "I moved to Berlin in 2024", **fields: Any) -> Candidate:
    return Candidate(id=new_id(), text=text, raw_length=len(text), created_at=utcnow(), **fields)


def verdict(decision: str = "saved", reason: str = "gate.accepted", **fields: Any) -> Verdict:
    return Verdict(decision=decision, reason_code=reason, message="m", **fields)  # type: ignore[arg-type]


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(raw) for raw in path.read_bytes().splitlines()]


@pytest.fixture
def log_path(tmp_path: Path) -> Path:
    return tmp_path / "store" / "gate.log"


def test_saved_line_carries_every_field_in_order(log_path: Path) -> None:
    cand = candidate(type="identity", subject="home-city", subject_given=True,
                     source="user-explicit", scope="work",
                     client=ClientInfo(name="claude-code", version="2.1"))
    GateLog(log_path, 10_000).jamgate_decision(
        verdict("superseded", "supersede.recency", id=cand.id, superseded_ids=["old-1", "old-2"]),
        cand, False, "mcp",
    )

    [entry] = lines(log_path)
    assert list(entry) == ["ts", "decision", "reason", "id", "type", "subject", "source",
                           "scope", "client", "origin", "superseded", "text"]
    assert entry["decision"] == "superseded"
    assert entry["reason"] == "supersede.recency"
    assert entry["id"] == cand.id
    assert entry["client"] == "claude-code"  # the name only
    assert entry["scope"] == "work"
    assert entry["superseded"] == ["old-1", "old-2"]
    assert entry["text"] == "I moved to Berlin in 2024"
    assert abs((utcnow() - parse_iso(entry["ts"])).total_seconds()) < 60


def test_empty_optional_keys_and_default_scope_are_omitted(log_path: Path) -> None:
    GateLog(log_path, 10_000).jamgate_decision(
        verdict("rejected", "prefilter.too_short"), candidate("hey you"), False, "rest"
    )

    [entry] = lines(log_path)
    assert set(entry) == {"ts", "decision", "reason", "source", "origin", "text"}
    assert entry["origin"] == "rest"


def test_redacted_text_never_reaches_the_file(log_path: Path) -> None:
    text = f"my openai key is {SECRET}"
    cand = candidate(text, subject=f"key-{SECRET.lower()}", subject_given=False)
    GateLog(log_path, 10_000).jamgate_decision(
        verdict("rejected", "credentials.api_key"), cand, True, "mcp"
    )

    raw = log_path.read_bytes()
    assert SECRET.encode() not in raw
    assert SECRET.lower().encode() not in raw
    assert b"sk-proj" not in raw.lower()
    [entry] = lines(log_path)
    assert entry["text"] == f"[redacted: {len(text)} characters]"
    assert "subject" not in entry  # derived from the text, so left out


def test_redaction_keeps_a_subject_the_caller_gave(log_path: Path) -> None:
    cand = candidate(f"token {SECRET}", subject="openai", subject_given=True)
    GateLog(log_path, 10_000).jamgate_decision(
        verdict("rejected", "credentials.api_key"), cand, True, "mcp"
    )
    assert lines(log_path)[0]["subject"] == "openai"


def test_a_failing_redactor_falls_back_to_the_default(log_path: Path) -> None:
    def broken(text: str, reason_code: str) -> str:
        raise RuntimeError(text)

    GateLog(log_path, 10_000, broken).jamgate_decision(
        verdict("rejected", "credentials.api_key"), candidate(SECRET), True, "mcp"
    )
    assert SECRET.encode() not in log_path.read_bytes()
    assert lines(log_path)[0]["text"] == f"[redacted: {len(SECRET)} characters]"


@pytest.mark.parametrize("unit", ["ü", "€", "😀", "\x01", "a"])
def test_long_texts_are_cut_below_the_line_limit(log_path: Path, unit: str) -> None:
    text = unit * 20_000
    GateLog(log_path, 10**9).jamgate_decision(verdict(), candidate(text), False, "mcp")

    raw = log_path.read_bytes()
    assert raw.count(b"\n") == 1
    assert MAX_LINE_BYTES - 8 <= len(raw) < MAX_LINE_BYTES
    [entry] = lines(log_path)
    assert entry["text"].endswith("…")
    assert text.startswith(entry["text"][:-1])


def test_short_texts_are_not_marked_as_cut(log_path: Path) -> None:
    text = "ü" * 1000
    GateLog(log_path, 10**9).jamgate_decision(verdict(), candidate(text), False, "mcp")
    assert lines(log_path)[0]["text"] == text


def test_huge_metadata_still_fits_one_line(log_path: Path) -> None:
    cand = candidate("x" * 5000, subject="ß" * 3000, subject_given=True, scope="s" * 3000)
    GateLog(log_path, 10**9).jamgate_decision(
        verdict(superseded_ids=[new_id() for _ in range(200)]), cand, False, "mcp"
    )
    raw = log_path.read_bytes()
    assert len(raw) < MAX_LINE_BYTES
    assert lines(log_path)[0]["decision"] == "saved"


def test_forget_logs_length_and_hash_never_the_text(log_path: Path) -> None:
    text = "The codename of the launch is Bluebird-Ω"
    now = utcnow()
    record = MemoryRecord(id=new_id(), text=text, type="project", subject="launch",
                          scope="acme", created_at=now, updated_at=now)
    GateLog(log_path, 10_000).jamgate_forgotten(record, "cli")

    raw = log_path.read_bytes()
    assert b"Bluebird" not in raw
    [entry] = lines(log_path)
    assert entry["decision"] == "forgotten"
    assert entry["id"] == record.id
    assert (entry["type"], entry["subject"], entry["scope"]) == ("project", "launch", "acme")
    assert entry["length"] == len(text)
    assert entry["sha256"] == hashlib.sha256(text.encode()).hexdigest()
    assert "text" not in entry


def test_rotation_at_the_cap_keeps_one_older_file(log_path: Path) -> None:
    cap = 2_000
    log = GateLog(log_path, cap)
    for number in range(60):
        log.append({"ts": "t", "decision": "saved", "n": number, "text": "y" * 80})

    rotated = log_path.with_name("gate.log.1")
    names = sorted(p.name for p in log_path.parent.iterdir())
    assert names == ["gate.log", "gate.log.1", "gate.log.lock"]
    assert rotated.stat().st_size >= cap
    assert log_path.stat().st_size < cap + 200
    numbers = [entry["n"] for entry in read_entries(log_path)]
    assert numbers == sorted(numbers) and numbers[-1] == 59  # oldest first, nothing reordered
    assert len(numbers) < 60  # the oldest generation was dropped


def test_the_file_is_rotated_only_once_it_reaches_the_cap(log_path: Path) -> None:
    log = GateLog(log_path, 10_000)
    for number in range(5):
        log.append({"decision": "saved", "n": number})
    assert not log_path.with_name("gate.log.1").exists()


def test_an_unwritable_location_warns_once_and_never_raises(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where a folder should be")
    log = GateLog(blocker / "gate.log", 10_000)

    for _ in range(3):
        log.jamgate_decision(verdict(), candidate(), False, "mcp")
        log.jamgate_forgotten(
            MemoryRecord(id="r1", text="t", created_at=utcnow(), updated_at=utcnow()), "mcp"
        )

    warnings = [r for r in caplog.records if r.levelname == "WARNING"]
    assert len(warnings) == 1
    err = warnings[0].getMessage()
    assert "gate log" in err and str(blocker / "gate.log") in err


def test_file_and_new_folder_are_private(tmp_path: Path) -> None:
    path = tmp_path / "fresh" / "deeper" / "gate.log"
    GateLog(path, 10_000).jamgate_decision(verdict(), candidate(), False, "mcp")

    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700


def test_unparseable_lines_are_skipped_when_reading(log_path: Path) -> None:
    log_path.parent.mkdir()
    log_path.write_bytes(b'{"decision":"saved"}\nnot json\n[1,2]\n{"decision":"rejected"}\n')
    assert [e["decision"] for e in read_entries(log_path)] == ["saved", "rejected"]


def test_buffered_lines_are_written_together_and_erased_by_a_forget(log_path: Path) -> None:
    """An import's lines are held and written BUFFERED_LINES at a time; a forget meanwhile
    first writes them, so its erasure reaches them too."""
    from jamgate_commands.gatelog import BUFFERED_LINES

    log = GateLog(log_path, 10_000_000)
    forgotten = candidate("Jam's locker code is 4417")
    with log.buffered():
        log.jamgate_decision(verdict(id=forgotten.id), forgotten, False, "import")
        assert not log_path.exists()  # held
        for n in range(BUFFERED_LINES):
            log.jamgate_decision(verdict(), candidate(f"Fact number {n}"), False, "import")
        assert len(lines(log_path)) == BUFFERED_LINES  # one full write, one line still held
        record = MemoryRecord(id=forgotten.id, text=forgotten.text, created_at=utcnow(),
                              updated_at=utcnow())
        log.jamgate_forgotten(record, "mcp")
        log.jamgate_decision(verdict(), candidate("The last fact"), False, "import")
    entries = lines(log_path)
    assert len(entries) == BUFFERED_LINES + 3
    assert [e.get("text") for e in entries[-3:]] == ["Fact number 255", None, "The last fact"]
    assert forgotten.text not in log_path.read_text(encoding="utf-8")
    assert entries[0]["erased"] is True


def test_a_log_replaced_or_removed_between_lines_is_opened_anew(log_path: Path) -> None:
    """The writer keeps the log open between lines (D-241), yet never writes into a file that
    is no longer the log: another process's rotation, an erasure's rewrite, a removed folder."""
    log = GateLog(log_path, 10_000)
    log.jamgate_decision(verdict(), candidate("first line"), False, "mcp")
    log_path.rename(log_path.with_name("elsewhere.log"))  # as a rotation does
    log.jamgate_decision(verdict(), candidate("second line"), False, "mcp")
    assert [e["text"] for e in lines(log_path)] == ["second line"]
    assert [e["text"] for e in lines(log_path.with_name("elsewhere.log"))] == ["first line"]

    for leftover in log_path.parent.iterdir():
        leftover.unlink()
    log_path.parent.rmdir()
    log.jamgate_decision(verdict(), candidate("third line"), False, "mcp")
    assert [e["text"] for e in lines(log_path)] == ["third line"]


def test_a_full_log_held_open_still_rotates(log_path: Path) -> None:
    log = GateLog(log_path, 600)
    for n in range(12):
        log.jamgate_decision(verdict(), candidate(f"line number {n}"), False, "mcp")
    rotated = log_path.with_name(log_path.name + ".1")
    texts = [e["text"] for e in lines(rotated) + lines(log_path)]
    assert texts == [f"line number {n}" for n in range(12)][-len(texts):]
    assert log_path.stat().st_size < 600 + MAX_LINE_BYTES


def test_shutdown_closes_the_descriptors_kept_open(log_path: Path) -> None:
    import os

    def open_fds() -> int:
        return len(os.listdir("/proc/self/fd"))

    before = open_fds()
    log = GateLog(log_path, 10_000)
    log.jamgate_decision(verdict(), candidate(), False, "mcp")
    assert open_fds() == before + 2  # the lock and the log
    log.jamgate_shutdown(None)
    assert open_fds() == before
    log.jamgate_decision(verdict(), candidate("after shutdown"), False, "mcp")
    assert lines(log_path)[-1]["text"] == "after shutdown"
