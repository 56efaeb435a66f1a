"""Typographic apostrophes read as the ASCII one (D-418): "I’m", "What’s", "Tomasz’s".

Agents and phones often send U+2019 where the rules and the trained models were written with
`'`; the stages read the text through `_text.reading`, while the stored text keeps what was
sent. Checked on every text with an apostrophe in the tuning sources (train, dev, rules_dev),
never the frozen ones.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from jamgate_commands.bench_gate import load_corpus
from jamgate_core.app import App
from jamgate_core.models import SaveRequest
from jamgate_stages._text import reading

GATE2 = Path(__file__).resolve().parents[1] / "corpus" / "gate2"
TUNING = ("train", "dev", "rules_dev")


def _tuning_texts() -> list[str]:
    splits = tomllib.loads((GATE2 / "SPLITS.toml").read_text(encoding="utf-8"))
    texts = []
    for split in TUNING:
        for source in splits[split]:
            texts += [case.text for case in load_corpus(GATE2 / f"{source}.jsonl")
                      if "'" in case.text]
    return texts


@pytest.mark.parametrize("mark", ["\u2019", "\u02bc"])
def test_a_typographic_apostrophe_changes_no_verdict(app: App, mark: str) -> None:
    texts = _tuning_texts()
    assert len(texts) >= 800
    moved = []
    for text in texts:
        plain = app.check(SaveRequest(text=text, source="user-explicit"))
        curly = app.check(SaveRequest(text=text.replace("'", mark), source="user-explicit"))
        if (plain.decision, plain.reason_code) != (curly.decision, curly.reason_code):
            moved.append((text, plain.reason_code, curly.reason_code))
    assert moved == []


def test_reading_maps_only_apostrophes() -> None:
    assert reading("I\u2019m at Tomasz\u2018s, Iʼm, I\uff07m") == "I'm at Tomasz's, I'm, I'm"
    assert reading("«Grüße» “quoted” — ok") == "«Grüße» “quoted” — ok"


def test_the_stored_text_keeps_the_typographic_apostrophe(app: App) -> None:
    verdict = app.save(SaveRequest(text="I\u2019m allergic to peanuts", source="user-explicit"))
    assert verdict.decision == "saved" and verdict.memory is not None
    assert verdict.memory.text == "I\u2019m allergic to peanuts"


def test_a_question_with_a_typographic_apostrophe_is_refused(app: App) -> None:
    verdict = app.check(SaveRequest(text="What\u2019s the name of my sister\u2019s cat",
                                    source="user-explicit"))
    assert verdict.reason_code == "junk.question"
