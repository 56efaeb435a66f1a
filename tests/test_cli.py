"""The `jamgate` command, run as a user runs it: a real subprocess on a real store."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from jamgate_core.app import open_app
from jamgate_core.models import SaveRequest

COMMANDS = ["serve", "check", "recall", "forget", "list", "expired", "compact", "plugins",
            "doctor", "log"]


def jamgate(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    return subprocess.run([sys.executable, "-m", "jamgate_core.cli", *args], input=stdin,
                          capture_output=True, text=True, env=env, timeout=60)


def test_help_lists_every_command() -> None:
    result = jamgate("--help")
    assert result.returncode == 0
    for command in COMMANDS:
        assert command in result.stdout


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help(command: str) -> None:
    result = jamgate(command, "--help")
    assert result.returncode == 0 and "usage: jamgate" in result.stdout


def test_check_prints_the_verdict_and_writes_nothing(jamgate_home: Path) -> None:
    result = jamgate("check", "Jam lives in Athens", "--subject", "location", "--json")
    assert result.returncode == 0, result.stderr
    verdict = json.loads(result.stdout)
    assert verdict["decision"] == "saved" and verdict["memory"]["subject"] == "location"
    listed = json.loads(jamgate("list", "--json").stdout)
    assert listed["memories"] == []
    assert not (jamgate_home / "gate.log").exists()


def test_check_refusal_and_usage_errors() -> None:
    result = jamgate("check", "hi", "--json")
    assert json.loads(result.stdout)["reason_code"] == "prefilter.too_short"
    result = jamgate("check", "Jam lives in Athens", "--type", "fact")
    assert result.returncode == 2 and "invalid choice" in result.stderr


def test_recall_list_forget_on_a_real_store(jamgate_home: Path) -> None:
    with open_app() as app:
        saved = app.save(SaveRequest(text="Jam prefers green tea", type="preference"))
    recalled = json.loads(jamgate("recall", "tea", "--json").stdout)
    assert [m["id"] for m in recalled["memories"]] == [saved.id]
    text = jamgate("recall", "tea").stdout
    assert f"  id: {saved.id}" in text.splitlines()
    listed = json.loads(jamgate("list", "--json").stdout)
    assert [m["id"] for m in listed["memories"]] == [saved.id]
    result = jamgate("forget", (saved.id or "")[:7])
    assert result.returncode == 1 and 'in scope "default"' in result.stderr
    result = jamgate("forget", f"id: {saved.id}", "--json")
    assert result.returncode == 0 and json.loads(result.stdout) == {"forgotten": saved.id}
    assert json.loads(jamgate("list", "--json").stdout)["memories"] == []
    log = [json.loads(line) for line in (jamgate_home / "gate.log").read_text().splitlines()]
    assert [line["decision"] for line in log] == ["saved", "forgotten"]


def test_list_pages_with_a_cursor() -> None:
    with open_app() as app:
        ids = [app.save(SaveRequest(text=f"Jam has visited city number {n}")).id
               for n in range(5)]
    first = json.loads(jamgate("list", "--limit", "3", "--json").stdout)
    second = json.loads(jamgate("list", "--limit", "3", "--cursor", first["next_cursor"],
                                "--json").stdout)
    seen = [m["id"] for m in first["memories"] + second["memories"]]
    assert seen == ids[::-1] and second["next_cursor"] is None


def test_plugins_lists_the_builtins() -> None:
    rows = json.loads(jamgate("plugins", "--json").stdout)
    names = {(row["group"], row["name"]) for row in rows if row["builtin"]}
    assert {("jamgate.stores", "sqlite"), ("jamgate.stores", "memory"),
            ("jamgate.stages", "validation"), ("jamgate.plugins", "gatelog")} <= names


def test_plugins_says_an_installed_extra_is_usable() -> None:
    """The suite's environment has every extra: mem0 is usable and says which extra it needs
    (tests/setup/test_install_paths.py checks a wheel installed without them)."""
    rows = json.loads(jamgate("plugins", "--json").stdout)
    mem0 = next(r for r in rows if (r["group"], r["name"]) == ("jamgate.stores", "mem0"))
    assert mem0["usable"] is True and mem0["extra"] == "mem0" and "install" not in mem0
    assert "(built-in; the mem0 extra is installed)" in jamgate("plugins").stdout


def test_doctor_on_a_fresh_home(jamgate_home: Path) -> None:
    result = jamgate("doctor", "--json")
    assert result.returncode == 0, result.stdout
    checks = json.loads(result.stdout)
    assert any("store: sqlite" in c["message"] for c in checks)
    assert any(c["level"] == "warning" and "lexical-only" in c["message"] for c in checks)


CORRUPT_CASES = {
    "sqlite": ("memory.db", b"SQLite format 3\x00" + os.urandom(3000)),
    "sqlite-json": ("memory.db", b'{"schemaVersion": 3, "memories": []}'),
    "json-invalid": ("memory.json", b'{"schemaVersion": 3, "memories": [{"id": "x", '),
    "json-unknown-shape": ("memory.json", b'{"nonsense": true}'),
}


@pytest.mark.parametrize("case", sorted(CORRUPT_CASES))
def test_every_command_refuses_a_corrupt_store_and_leaves_it_untouched(
        case: str, jamgate_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    name, content = CORRUPT_CASES[case]
    path = jamgate_home / name
    if name.endswith(".json"):
        monkeypatch.setenv("JAMGATE_STORE", str(path))
    path.write_bytes(content)
    digest = hashlib.sha256(content).hexdigest()
    for args in (["check", "Jam lives in Athens"], ["recall", "x"], ["list"],
                 ["forget", "0123456789abcdef"], ["doctor"]):
        result = jamgate(*args)
        assert result.returncode != 0, (args, result.stdout)
        output = result.stderr + result.stdout
        assert str(path) in output and ("backup" in output or "move it aside" in output), output
        assert hashlib.sha256(path.read_bytes()).hexdigest() == digest, args
    result = jamgate("serve", stdin="")
    assert result.returncode != 0 and str(path) in result.stderr
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest


def test_expired_and_compact(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JAMGATE_TTL_STATE_DAYS", "0")
    with open_app() as app:
        gone = app.save(SaveRequest(text="Jam is at the airport", type="state",
                                    source="user-explicit"))
        app.save(SaveRequest(text="Jam likes long train journeys", type="preference"))
    listing = json.loads(jamgate("expired", "--json").stdout)
    assert [row["memory"]["id"] for row in listing["expired"]] == [gone.id]
    text = jamgate("expired").stdout
    assert "came from the user directly" in text and f"  id: {gone.id}" in text
    assert json.loads(jamgate("compact", "--json").stdout) == {"removed": 0}
    monkeypatch.setenv("JAMGATE_COMPACT_GRACE_DAYS", "0")
    assert json.loads(jamgate("compact", "--json").stdout) == {"removed": 1}
    assert json.loads(jamgate("expired", "--json").stdout)["expired"] == []
    listed = json.loads(jamgate("list", "--status", "all", "--json").stdout)
    assert [m["text"] for m in listed["memories"]] == ["Jam likes long train journeys"]


def test_the_log_level_is_a_global_option(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "jamgate_core.cli", "--log-level", "loud",
                           "status"], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "--log-level" in done.stderr and "debug" in done.stderr
    ok = subprocess.run([sys.executable, "-m", "jamgate_core.cli", "--log-level", "DEBUG",
                         "doctor"], capture_output=True, text=True, timeout=120, check=False,
                        env={**os.environ, "HOME": str(tmp_path)})
    assert ok.returncode == 0, ok.stderr
