"""The learned pair signal of the change stage (D-362 – D-366): it acts only where the rules
are silent, retires only at its threshold, names the fact below it, and never crosses the
holder, the past, a refinement or two derived slots. Only the vector mode's model ships
(D-366): these tests hold a fixed one in the lexical mode; `test_gate_pair_model.py` asks the
shipped one with the embedder.

Texts of their own, written from D-015's definition of an update and the non-update kinds; none
is a text of the update corpora.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

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


def test_only_the_vector_model_ships_and_it_reads_the_neighbourhood() -> None:
    # D-366: trained on stores of many facts; no lexical model met the bar
    shipped = _pair_search.model_for("vector")
    assert shipped is not None and shipped.context and shipped.dim == 384
    assert _pair_search.model_for("lexical") is None


def test_a_pair_s_place_among_the_neighbours() -> None:
    assert _pair.neighbourhood([0.9, 0.8, 0.85], 0) == (0.0, pytest.approx(0.05))
    assert _pair.neighbourhood([0.9, 0.8, 0.85], 1) == (2.0, pytest.approx(-0.1))
    assert _pair.neighbourhood([0.7], 0) == (0.0, pytest.approx(0.7))  # alone


@pytest.mark.parametrize(("text", "span"), [
    ("Od 2015 do 2019 roku pracowałem w Asseco.", True),
    ("2012年から2016年まで大阪に住んでいました。", True),
    ("Since 2019 I work at Comarch.", False),  # one year: not a span
    ("Between 2031 and 2034 I plan to live in Chile.", False),  # not past
])
def test_a_span_of_past_years_in_any_language(text: str, span: bool) -> None:
    assert _pair_search.names_a_span(text, None) is span


@pytest.mark.parametrize(("weight", "retired"), [(100.0, True), (-100.0, False)])
def test_a_model_that_reads_the_neighbourhood_is_asked_with_it(
        app: App, fixed_model: dict[str, _pair.PairModel | None], weight: float,
        retired: bool) -> None:
    """A model whose only weight is on the margin over the best other neighbour: alone, the
    fact stands out (a margin of its whole similarity), so the sign decides."""
    width = LEXICAL_WIDTH + 2
    weights = np.zeros(width, dtype=np.float32)
    weights[-1] = weight
    fixed_model["lexical"] = _pair.PairModel(
        "lexical", np.zeros(width, dtype=np.float32), np.ones(width, dtype=np.float32),
        weights, 0.0, 0, True)
    first = save(app, "I drive a Mazda 2.")
    after = save(app, "Pedalling to work on a Mazda cargo bike these days.")
    assert after.superseded_ids == ([first.id] if retired else [])


def test_at_the_threshold_a_fact_the_rules_miss_is_retired(
        app: App, fixed_model: dict[str, _pair.PairModel | None]) -> None:
    fixed_model["lexical"] = _fixed(0.99)
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



class _CountingView:
    """A store view whose nearest-vector read is counted."""

    def __init__(self) -> None:
        self.reads: list[int] = []

    def nearest(self, vector: list[float], limit: int = 5) -> list[tuple[str, float]]:
        self.reads.append(limit)
        return [(f"r{n}", 1.0 - n / 10) for n in range(limit)]


def _context(view: _CountingView) -> Any:
    from datetime import UTC, datetime

    from jamgate_core.settings import Settings
    from jamgate_core.stage import StageContext

    return StageContext(view=view, settings=Settings(), embedder=None,  # type: ignore[arg-type]
                        now=datetime.now(UTC))


def test_the_nearest_vectors_are_read_once_a_save() -> None:
    """The near-duplicate stage's three and the change stage's five for one vector: one read
    (D-366: the signal adds no store read); another save, vector or more: read again."""
    from jamgate_stages._nearest import nearest

    view = _CountingView()
    ctx = _context(view)
    first = nearest(ctx, [0.1, 0.2], 3)
    assert nearest(ctx, [0.1, 0.2], 5)[:3] == first and len(first) == 3
    assert view.reads == [5]
    nearest(ctx, [0.3, 0.2], 5)  # another vector
    nearest(ctx, [0.3, 0.2], 8)  # more than was read
    nearest(_context(view), [0.3, 0.2], 5)  # another save
    assert view.reads == [5, 5, 8, 5]
