"""Settings: the TOML file, the JAMGATE_* variables and the predecessor's names."""

from __future__ import annotations

from pathlib import Path

import pytest

from jamgate_core.errors import ConfigError
from jamgate_core.settings import BUILTIN_STAGES, load_settings


def test_defaults(jamgate_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JAMGATE_EMBEDDER")
    settings = load_settings()
    assert settings.home == jamgate_home
    assert settings.store_choice() == ("sqlite", {})
    assert settings.embedder_choice() == "auto"
    assert settings.stage_list() == list(BUILTIN_STAGES)
    assert settings.gate_log_path(None) == jamgate_home / "gate.log"
    assert settings.ttl_days() == {"identity": None, "preference": None, "project": 90.0,
                                   "state": 2.0}


def test_toml_file_and_variables(jamgate_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (jamgate_home / "jamgate.toml").write_text(
        'store = "file"\nstages_extra = ["extra-one"]\nttl_state_days = "0.5"\n'
        '[store_options]\npath = "data/mem.json"\n'
    )
    settings = load_settings()
    assert settings.store_choice() == ("file", {"path": str(jamgate_home / "data/mem.json")})
    assert settings.stage_list()[-1] == "extra-one"
    assert settings.ttl_days()["state"] == 0.5
    monkeypatch.setenv("JAMGATE_STORE", "memory")
    monkeypatch.setenv("JAMGATE_TTL_PROJECT_DAYS", "never")
    settings = load_settings()
    assert settings.store == "memory"
    assert settings.ttl_days()["project"] is None


@pytest.mark.parametrize(("value", "expected"), [
    ("/srv/memory.json", ("file", {"path": "/srv/memory.json"})),
    ("/srv/memory.db", ("sqlite", {"path": "/srv/memory.db"})),
    ("notes.json", ("file", {"path": "HOME/notes.json"})),
])
def test_store_may_be_a_path(value: str, expected: tuple[str, dict[str, str]],
                             jamgate_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JAMGATE_STORE", value)
    name, options = load_settings().store_choice()
    assert (name, {k: v.replace(str(jamgate_home), "HOME") for k, v in options.items()}) == \
        expected


@pytest.mark.parametrize("value", ["off", "OFF", "none", "0", "false"])
def test_predecessor_embeddings_off(value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JAMGATE_EMBEDDINGS", value)
    assert load_settings().embedder_choice() == "none"


def test_gate_log_off_and_path(monkeypatch: pytest.MonkeyPatch, jamgate_home: Path) -> None:
    monkeypatch.setenv("JAMGATE_GATE_LOG", "off")
    assert load_settings().gate_log_path(None) is None
    monkeypatch.setenv("JAMGATE_GATE_LOG", "logs/gate.jsonl")
    assert load_settings().gate_log_path(None) == jamgate_home / "logs/gate.jsonl"


@pytest.mark.parametrize(("toml", "message"), [
    ("stores = 'sqlite'", "stores"),
    ("store = [", "not valid TOML"),
    ("dup_threshold = 2", "dup_threshold"),
])
def test_bad_settings_are_one_clear_error(toml: str, message: str, jamgate_home: Path) -> None:
    (jamgate_home / "jamgate.toml").write_text(toml)
    with pytest.raises(ConfigError, match=message):
        load_settings()


def test_bad_ttl_is_an_error_not_a_silent_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JAMGATE_TTL_STATE_DAYS", "-3")
    with pytest.raises(ConfigError, match="ttl_state_days"):
        load_settings().ttl_days()


def test_mandatory_stages(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JAMGATE_STAGES", '["prefilter"]')
    with pytest.raises(ConfigError, match="leaves out validation"):
        load_settings().stage_list()
    monkeypatch.setenv("JAMGATE_ALLOW_UNSAFE_STAGE_LIST", "true")
    assert load_settings().stage_list() == ["prefilter"]
