"""The gate log as the app wires it: a `jamgate.plugins` module driven through the hooks."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pluggy
import pytest

from jamgate_commands import gatelog
from jamgate_core.hooks import Hooks, make_plugin_manager
from jamgate_core.hookspecs import hookimpl
from jamgate_core.models import Candidate, MemoryRecord, Verdict, new_id, utcnow
from jamgate_core.settings import Settings


@dataclass
class StandInApp:
    """The three things the gate log asks of an App."""

    settings: Settings
    pm: pluggy.PluginManager
    folder: Path | None

    def store_dir(self) -> Path | None:
        return self.folder


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("JAMGATE_HOME", str(folder))
    for name in ("JAMGATE_GATE_LOG", "JAMGATE_GATE_LOG_MAX_BYTES", "JAMGATE_STORE"):
        monkeypatch.delenv(name, raising=False)
    return folder


def started(folder: Path | None, *plugins: object, **settings: Any) -> tuple[StandInApp, Hooks]:
    pm = make_plugin_manager()
    pm.register(gatelog, name="jamgate.plugins:gatelog")
    for plugin in plugins:
        pm.register(plugin)
    app = StandInApp(Settings(**settings), pm, folder)
    hooks = Hooks(pm)
    hooks.startup(app)  # type: ignore[arg-type]
    return app, hooks


def save(hooks: Hooks, text: str = "I prefer tea over coffee", *, redact: bool = False,
         decision: str = "saved") -> None:
    candidate = Candidate(id=new_id(), text=text, raw_length=len(text), created_at=utcnow())
    verdict = Verdict(decision=decision, reason_code="gate.accepted", message="m",  # type: ignore[arg-type]
                      id=candidate.id)
    hooks.decision(verdict, candidate, redact, "mcp")


def entries(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_startup_logs_beside_the_store(home: Path, tmp_path: Path) -> None:
    store = tmp_path / "store"
    app, hooks = started(store)
    save(hooks)
    record = MemoryRecord(id="r1", text="gone", created_at=utcnow(), updated_at=utcnow())
    hooks.forgotten(record, "rest")

    assert [e["decision"] for e in entries(store / "gate.log")] == ["saved", "forgotten"]
    assert app.pm.get_plugin(gatelog.WRITER_NAME) is not None


def test_a_store_without_a_folder_logs_in_home(home: Path) -> None:
    _app, hooks = started(None)
    save(hooks)
    assert entries(home / "gate.log")[0]["text"] == "I prefer tea over coffee"


def test_an_explicit_relative_path_resolves_under_home(home: Path, tmp_path: Path) -> None:
    _app, hooks = started(tmp_path / "store", gate_log="logs/decisions.jsonl")
    save(hooks)
    assert (home / "logs" / "decisions.jsonl").is_file()
    assert not (tmp_path / "store" / "gate.log").exists()


@pytest.mark.parametrize("value", ["off", "OFF", " none ", "0", "false", ""])
def test_off_disables_the_log_end_to_end(home: Path, tmp_path: Path, value: str) -> None:
    store = tmp_path / "store"
    app, hooks = started(store, gate_log=value)
    save(hooks)

    assert app.pm.get_plugin(gatelog.WRITER_NAME) is None
    assert not (store / "gate.log").exists()
    assert not (home / "gate.log").exists()


def test_off_from_the_environment(home: Path, tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JAMGATE_GATE_LOG", "off")
    _app, hooks = started(tmp_path / "store")
    save(hooks)
    assert list(tmp_path.rglob("gate.log*")) == []


def test_redaction_goes_through_the_redact_hook(home: Path, tmp_path: Path) -> None:
    class Withhold:
        @hookimpl
        def jamgate_redact(self, text: str, reason_code: str) -> str:
            return f"<withheld by policy: {reason_code}>"

    store = tmp_path / "store"
    _app, hooks = started(store, Withhold())
    save(hooks, "password is hunter2-very-secret", redact=True, decision="rejected")

    raw = (store / "gate.log").read_bytes()
    assert b"hunter2" not in raw
    assert entries(store / "gate.log")[0]["text"] == "<withheld by policy: gate.accepted>"


def test_shutdown_unregisters_the_writer(home: Path, tmp_path: Path) -> None:
    store = tmp_path / "store"
    app, hooks = started(store)
    save(hooks, "first fact to remember")
    hooks.shutdown(app)  # type: ignore[arg-type]
    save(hooks, "second fact, after shutdown")

    assert app.pm.get_plugin(gatelog.WRITER_NAME) is None
    assert [e["text"] for e in entries(store / "gate.log")] == ["first fact to remember"]


def test_each_app_has_its_own_writer(home: Path, tmp_path: Path) -> None:
    _a, hooks_a = started(tmp_path / "a")
    _b, hooks_b = started(tmp_path / "b", gate_log_max_bytes=50)
    save(hooks_a, "fact for app a")
    save(hooks_b, "fact for app b")
    save(hooks_b, "another fact for app b")

    assert [e["text"] for e in entries(tmp_path / "a" / "gate.log")] == ["fact for app a"]
    assert (tmp_path / "b" / "gate.log.1").is_file()  # b's own, smaller cap
    assert not (tmp_path / "a" / "gate.log.1").exists()


def test_starting_twice_keeps_one_writer(home: Path, tmp_path: Path) -> None:
    store = tmp_path / "store"
    app, hooks = started(store)
    hooks.startup(app)  # type: ignore[arg-type]
    save(hooks)
    assert len(entries(store / "gate.log")) == 1


def test_a_log_failure_never_fails_a_save(home: Path, tmp_path: Path,
                                          caplog: pytest.LogCaptureFixture) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("")
    _app, hooks = started(blocker)  # the log's folder is a file
    save(hooks)
    save(hooks)
    assert caplog.text.count("cannot write the gate log") == 1
