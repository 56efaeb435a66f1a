"""`jamgate log`: reading recent decisions back, with filters."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from jamgate_commands import gatelog
from jamgate_commands.gatelog import GateLog, configured_log_path, store_folder
from jamgate_core.cli import Registrar
from jamgate_core.hooks import Hooks, make_plugin_manager
from jamgate_core.settings import Settings


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("JAMGATE_HOME", str(folder))
    for name in ("JAMGATE_GATE_LOG", "JAMGATE_STORE", "JAMGATE_STORE_OPTIONS"):
        monkeypatch.delenv(name, raising=False)
    return folder


def run(*argv: str) -> int:
    """Build the CLI's parser the way `jamgate` does and run `jamgate log …`."""
    pm = make_plugin_manager()
    pm.register(gatelog, name="jamgate.plugins:gatelog")
    parser = argparse.ArgumentParser(prog="jamgate")
    subparsers = parser.add_subparsers(dest="command")
    Hooks(pm).register_commands(Registrar(subparsers), subparsers)
    args = parser.parse_args(["log", *argv])
    code: int = args.func(args)
    return code


def write(path: Path, *rows: dict[str, Any], cap: int = 10**9) -> None:
    log = GateLog(path, cap)
    for row in rows:
        log.append({"ts": "2026-01-01T00:00:00.000Z", "source": "agent-inferred", **row})


ROWS: list[dict[str, Any]] = [
    {"decision": "saved", "reason": "gate.accepted", "id": "a1", "text": "fact one"},
    {"decision": "rejected", "reason": "prefilter.too_short", "text": "hey you"},
    {"decision": "duplicate", "reason": "dedup.exact", "id": "a1", "text": "fact one"},
    {"decision": "rejected", "reason": "credentials.api_key",
     "text": "[redacted: 40 characters]"},
    {"decision": "saved", "reason": "gate.accepted", "id": "b2", "scope": "work",
     "type": "project", "text": "work fact"},
    {"decision": "forgotten", "id": "a1", "length": 8, "sha256": "ab" * 32},
]


def printed_json(capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_lists_recent_decisions_oldest_first(home: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    write(home / "gate.log", *ROWS)
    assert run() == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == len(ROWS)
    assert "fact one" in out[0] and "saved" in out[0]
    assert "[work/project]" in out[4]
    assert "sha256 abababababab" in out[5] and "8 characters" in out[5]


def test_filters_by_decision_repeatable(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(home / "gate.log", *ROWS)
    assert run("--decision", "rejected", "--decision", "duplicate", "--json") == 0
    assert [e["decision"] for e in printed_json(capsys)] == ["rejected", "duplicate", "rejected"]


def test_filters_by_reason_prefix(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(home / "gate.log", *ROWS)
    run("--reason", "prefilter.", "--json")
    assert [e["text"] for e in printed_json(capsys)] == ["hey you"]
    run("--reason", "cred", "--json")
    assert [e["reason"] for e in printed_json(capsys)] == ["credentials.api_key"]


def test_filters_by_scope_with_default_for_unscoped(home: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    write(home / "gate.log", *ROWS)
    run("--scope", " WORK ", "--json")
    assert [e["id"] for e in printed_json(capsys)] == ["b2"]
    run("--scope", "default", "--json")
    assert len(printed_json(capsys)) == len(ROWS) - 1


def test_limit_keeps_the_newest(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(home / "gate.log", *({"decision": "saved", "n": n} for n in range(30)))
    run("--json")
    assert [e["n"] for e in printed_json(capsys)] == list(range(10, 30))  # default 20
    run("--limit", "3", "--json")
    assert [e["n"] for e in printed_json(capsys)] == [27, 28, 29]
    run("--limit", "0", "--json")
    assert len(printed_json(capsys)) == 30


def test_reads_the_rotated_file_too(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(home / "gate.log", *({"decision": "saved", "n": n} for n in range(40)), cap=1_000)
    assert (home / "gate.log.1").exists()
    run("--limit", "0", "--json")
    numbers = [e["n"] for e in printed_json(capsys)]
    assert numbers == sorted(numbers) and numbers[-1] == 39
    assert numbers[0] < 40 - len((home / "gate.log").read_bytes().splitlines())


def test_a_missing_log_is_calm(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run() == 0
    out = capsys.readouterr().out
    assert "No gate log yet" in out and str(home / "gate.log") in out


def test_no_matches_says_so(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(home / "gate.log", *ROWS)
    assert run("--decision", "conflict") == 0
    assert "match" in capsys.readouterr().out


def test_says_when_the_log_is_off(home: Path, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    write(home / "gate.log", *ROWS)
    monkeypatch.setenv("JAMGATE_GATE_LOG", "off")
    assert run() == 0
    assert "off" in capsys.readouterr().out


def test_finds_the_log_beside_a_store_path(home: Path, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    store = tmp_path / "elsewhere" / "memories.json"
    monkeypatch.setenv("JAMGATE_STORE", str(store))
    write(store.parent / "gate.log", {"decision": "saved", "text": "beside the store"})
    run("--json")
    assert printed_json(capsys)[0]["text"] == "beside the store"


def test_store_folder_derivation(home: Path, tmp_path: Path) -> None:
    assert store_folder(Settings()) == home  # the default sqlite store, no path
    assert store_folder(Settings(store="data/mem.db")) == home / "data"
    assert store_folder(Settings(store="sqlite", store_options={"path": str(tmp_path / "x.db")})
                        ) == tmp_path
    assert configured_log_path(Settings(store="data/mem.db")) == home / "data" / "gate.log"
    assert configured_log_path(Settings(gate_log="none")) is None


def test_help_and_bad_limit(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as shown:
        run("--help")
    assert shown.value.code == 0
    out = capsys.readouterr().out
    assert all(flag in out for flag in ("--decision", "--reason", "--limit", "--scope", "--json"))
    with pytest.raises(SystemExit) as refused:
        run("--limit", "-1")
    assert refused.value.code == 2
    with pytest.raises(SystemExit):
        run("--decision", "maybe")
