"""Tests for the no-shouting stage, run through a real Jamgate gate without installing the
package: the stage class is added to the app's pipeline directly, as llm and datasette tests
register a plugin object with `pm.register`."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import cast

import pytest
from jamgate_no_shouting import REASON, NoShoutingStage
from pydantic import ValidationError

from jamgate_core import SaveRequest, Settings, Stage, check_contract
from jamgate_core.app import App
from jamgate_core.stage import ConfiguredStage


def gate_with(stage: NoShoutingStage) -> App:
    """A started app on the in-process store: the mandatory built-in stages, then `stage`
    (so these tests see this stage's judgement, not the built-in classifier's)."""
    app = App(Settings(store="memory", stages=["validation", "credentials"]))
    configured = ConfiguredStage(stage=cast(Stage, stage), name=NoShoutingStage.name)
    app.pipeline.stages.append(configured)
    return app.start()


@pytest.fixture(autouse=True)
def clean_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No stray JAMGATE_* settings; an empty home of our own."""
    for name in list(os.environ):
        if name.startswith("JAMGATE_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("JAMGATE_HOME", str(tmp_path))


@pytest.fixture
def gate() -> Iterator[App]:
    app = gate_with(NoShoutingStage())
    yield app
    app.close()


def test_satisfies_the_stage_contract() -> None:
    stage = NoShoutingStage()
    assert check_contract(stage, Stage) == []
    assert isinstance(stage, Stage)


@pytest.mark.parametrize("text", [
    "THIS IS ALL SHOUTING TEXT",
    "SERVER DOWN!!! CALL ME AT 555-0100",
    "ΖΩ ΣΤΗΝ ΑΘΗΝΑ ΑΠΟ ΤΟ 2019",  # Greek capitals are capitals too
])
def test_shouting_is_rejected(gate: App, text: str) -> None:
    verdict = gate.check(SaveRequest(text=text))
    assert verdict.decision == "rejected"
    assert verdict.reason_code == REASON
    assert "ordinary sentence" in verdict.message


@pytest.mark.parametrize("text", [
    "Jam lives in Athens",
    "Jam works at IBM and NASA on the ESA project",  # acronyms inside prose
    "NASA rocks",  # fewer than 8 capitals in all
    "我住在雅典，喜欢喝茶",  # no cased letters at all
    "Ζω στην Αθήνα από το 2019",
])
def test_ordinary_text_passes(gate: App, text: str) -> None:
    verdict = gate.check(SaveRequest(text=text))
    assert verdict.reason_code != REASON
    assert verdict.decision == "saved"


def test_a_rejected_save_stores_nothing(gate: App) -> None:
    verdict = gate.save(SaveRequest(text="THIS IS ALL SHOUTING TEXT"))
    assert verdict.decision == "rejected"
    assert gate.list().memories == []


def test_min_letters_option() -> None:
    app = gate_with(NoShoutingStage(NoShoutingStage.Options(min_letters=30)))
    try:
        assert app.check(SaveRequest(text="THIS IS ALL SHOUTING TEXT")).decision == "saved"
        long_shout = "THIS IS A MUCH LONGER SHOUTED TEXT THAN THE OTHER"
        assert app.check(SaveRequest(text=long_shout)).reason_code == REASON
    finally:
        app.close()


@pytest.mark.parametrize("options", [{"min_letters": 0}, {"min_leters": 3}])
def test_bad_options_are_refused(options: dict[str, int]) -> None:
    with pytest.raises(ValidationError):
        NoShoutingStage.Options(**options)
