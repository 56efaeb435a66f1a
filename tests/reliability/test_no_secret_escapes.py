"""No secret escapes: planted fake credentials saved through the real stdio server are refused,
and afterwards — even after a kill -9 right after a refusal — no trace of them is found in the
whole JAMGATE_HOME tree (store, WAL, gate log, backups), the server's stderr, or an export.

The credentials are the gate corpus's credential cases, joined from `text_parts` at run time.
"""

from __future__ import annotations

import contextlib
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from reliability_kit import (
    LOCAL_STORES,
    credential_cases,
    needles,
    opened,
    server_env,
    spawn_server,
    store_path,
)

from jamgate_core.models import SaveRequest


# Every exporter's output is searched too; a new export format adds a function here.
def _export(home: Path, store: str, fmt: str) -> bytes:
    """`jamgate export --format FMT` of the whole store, as a user would run it."""
    done = subprocess.run([sys.executable, "-m", "jamgate_core.cli", "export", "--format", fmt],
                          env=server_env(home, store=LOCAL_STORES[store]), capture_output=True,
                          timeout=120, check=True)
    return done.stdout + done.stderr


def export_jamgate(home: Path, store: str) -> bytes:
    return _export(home, store, "jamgate")


def export_markdown(home: Path, store: str) -> bytes:
    return _export(home, store, "markdown")


EXPORTERS: list[Callable[[Path, str], bytes]] = [export_jamgate, export_markdown]


def leaks(blobs: dict[str, bytes], texts: list[str]) -> list[str]:
    """Where any needle of any text appears (names only: the secret is never printed)."""
    found = []
    for number, text in enumerate(texts):
        for needle in needles(text):
            found += [f"case {number} in {name}" for name, blob in blobs.items() if needle in blob]
    return sorted(set(found))


def checkpoint(home: Path, store: str) -> None:
    """Fold the WAL into the database file (so the grep sees what would persist)."""
    if store == "sqlite" and store_path(home, store).exists():
        conn = sqlite3.connect(store_path(home, store))
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.close()


def tree(home: Path) -> dict[str, bytes]:
    return {str(p.relative_to(home)): p.read_bytes() for p in home.rglob("*") if p.is_file()}


@pytest.mark.slow
@pytest.mark.parametrize("store", sorted(LOCAL_STORES))
def test_planted_credentials_leave_no_trace(store: str, tmp_path: Path) -> None:
    cases = credential_cases()
    assert len(cases) >= 30
    texts = [text for _, text in cases]
    home, stderr_path = tmp_path / "home", tmp_path / "server-stderr.txt"
    with stderr_path.open("wb") as stderr:
        session = spawn_server(server_env(home, store=LOCAL_STORES[store]), stderr=stderr)
        kept = session.call("save_memory", {"text": "Jam keeps deploy notes in the team wiki"})
        assert kept["structuredContent"]["decision"] == "saved"
        for reason, text in cases:
            for tool in ("check_memory", "save_memory"):
                result = session.call(tool, {"text": text, "type": "identity"})
                verdict = result["structuredContent"]
                assert verdict["decision"] == "rejected", (tool, reason, verdict["reason_code"])
                assert verdict["reason_code"].startswith("secret"), verdict["reason_code"]
        # A refusal, then kill -9 before the server can do anything else.
        result = session.call("save_memory", {"text": texts[0]})
        assert result["structuredContent"]["decision"] == "rejected"
        session.process.send_signal(signal.SIGKILL)
        assert session.process.wait(timeout=30) == -signal.SIGKILL
        assert session.process.stdin is not None and session.process.stdout is not None
        with contextlib.suppress(BrokenPipeError):
            session.process.stdin.close()
        session.process.stdout.close()

    # A second life on the same home, as a client reconnecting would start it.
    with stderr_path.open("ab") as stderr:
        session = spawn_server(server_env(home, store=LOCAL_STORES[store]), stderr=stderr)
        recalled = session.call("recall_memory", {"query": "wiki"})
        assert [m["id"] for m in recalled["structuredContent"]["memories"]] == [
            kept["structuredContent"]["id"]]
        for text in texts[:5]:
            assert session.call("save_memory", {"text": text})["structuredContent"][
                "decision"] == "rejected"
        session.close()

    checkpoint(home, store)
    blobs = tree(home)
    assert any("gate" in name for name in blobs), "the gate log is on by default"
    assert any(b"[redacted" in blob for blob in blobs.values()), "refusals are logged redacted"
    blobs["server stderr"] = stderr_path.read_bytes()
    for export in EXPORTERS:
        blobs[f"export by {export.__name__}"] = export(home, store)
    assert leaks(blobs, texts) == []


def test_the_grep_finds_a_planted_secret(tmp_path: Path) -> None:
    """The check above can fail: a credential written anywhere in the tree is found."""
    _, text = credential_cases()[0]
    home = tmp_path / "home"
    (home / "sub").mkdir(parents=True)
    (home / "sub" / "notes.txt").write_bytes(b"prefix " + text.encode() + b" suffix")
    assert leaks(tree(home), [text]) == ["case 0 in sub/notes.txt"]
    token = max(text.split(), key=len)
    (home / "sub" / "notes.txt").write_bytes(token.encode())
    assert leaks(tree(home), [text]) == ["case 0 in sub/notes.txt"]


@pytest.mark.parametrize("field", ["subject", "scope"])
def test_a_credential_in_another_field_is_refused(field: str, jamgate_home: Path) -> None:
    text = next(text for reason, text in credential_cases() if reason == "secret.aws_key")
    token = max(text.split(), key=len)
    with opened(jamgate_home, "memory") as app:
        verdict = app.save(SaveRequest(**{"text": "Jam keeps the cloud login in the vault",
                                          field: token}))
    assert verdict.decision == "rejected"
