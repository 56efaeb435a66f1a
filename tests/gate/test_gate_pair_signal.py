"""The learned pair signal of the change stage (D-362 – D-364): it acts only where the rules
are silent, retires only at its threshold, names the fact below it, and never crosses the
holder, the past, a refinement or two derived slots. No model ships (D-364): these tests hold
a fixed one.

Texts of their own, written from D-015's definition of an update and the non-update kinds; none
is a text of the update corpora.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np
import pytest
from gate_saves import save

from jamgate_core.app import App
from jamgate_stages import _pair, _pair_search

LEXICAL_WIDTH = len(_pair.pair_input("a b", "c d", None, None))


def _fixed(probability: float) -> _pair.PairModel:
    """A model that says `probability` of every pair."""
    zeros = np.zeros(LEXICAL_WIDTH, dtype=np.float32)
    return _pair.PairModel("lexical", zeros, np.ones(LEXICAL_WIDTH, dtype=np.float32), zeros,
                           math.log(probability / (1 - probability)))


@pytest.fixture
def fixed_model() -> Iterator[dict[str, _pair.PairModel | None]]:
    yield _pair_search.OVERRIDE
    _pair_search.OVERRIDE.pop("lexical", None)


def test_no_model_ships_so_the_stage_is_as_before() -> None:
    # D-364: the vector model retired unrelated facts in a store of many; none ships
    assert _pair_search.model_for("vector") is None
    assert _pair_search.model_for("lexical") is None


def test_at_the_threshold_a_fact_the_rules_miss_is_retired(
        app: App, fixed_model: dict[str, _pair.PairModel | None]) -> None:
    fixed_model["lexical"] = _fixed(0.97)
    first = save(app, "I drive a Mazda 2.")
    after = save(app, "Pedalling to work on a cargo bike these days.")
    assert after.decision == "superseded" and after.superseded_ids == [first.id]
    assert after.reason_code == "supersede.pair"


def test_below_the_threshold_the_fact_is_named_not_retired(
        app: App, fixed_model: dict[str, _pair.PairModel | None]) -> None:
    fixed_model["lexical"] = _fixed(0.8)
    first = save(app, "I drive a Mazda 2.")
    after = save(app, "Pedalling to work on a cargo bike these days.")
    assert after.decision == "saved" and after.superseded_ids == []
    assert [r.id for r in after.related] == [first.id]


def test_well_below_it_nothing_is_said(app: App,
                                       fixed_model: dict[str, _pair.PairModel | None]) -> None:
    fixed_model["lexical"] = _fixed(0.2)
    save(app, "I drive a Mazda 2.")
    after = save(app, "Pedalling to work on a cargo bike these days.")
    assert after.decision == "saved" and after.superseded_ids == [] and after.related == []


@pytest.mark.parametrize(("old", "new"), [
    ("I live in Porto.", "My cousin Rui lives in Braga."),  # another person
    ("I live in Porto.", "From 2012 to 2016 I lived in Faro."),  # the past
    ("I work at Sonae.", "I work at Sonae, in the retail analytics team."),  # a refinement
])
def test_even_a_sure_model_never_crosses_the_guards(
        app: App, fixed_model: dict[str, _pair.PairModel | None], old: str, new: str) -> None:
    fixed_model["lexical"] = _fixed(0.999)
    save(app, old)
    assert save(app, new).superseded_ids == []


def test_where_the_rules_retire_the_signal_is_not_asked(
        app: App, fixed_model: dict[str, _pair.PairModel | None]) -> None:
    fixed_model["lexical"] = _fixed(0.999)
    first = save(app, "I live in Porto.")
    after = save(app, "I moved to Coimbra.")
    assert after.superseded_ids == [first.id] and after.reason_code == "supersede.recency"


def test_two_slots_the_subject_stage_read_are_never_paired(
        app: App, fixed_model: dict[str, _pair.PairModel | None]) -> None:
    fixed_model["lexical"] = _fixed(0.999)
    save(app, "I live in Porto.")
    after = save(app, "My employer is Sonae.")
    assert after.superseded_ids == []
