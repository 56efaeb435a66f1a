"""Past its budget, the SQLite keyword ranking re-weighs bm25's best rows by term order and
coverage (D-394): "my landlord's aunt" is not "my aunt's landlord", though both hold the same
words; and a plain word in half the rows is left out of the ranking expression (D-395). The
stores here are tiny: the budget is lowered so that their queries pass it."""

from __future__ import annotations

from pathlib import Path

import pytest

from jamgate_adapters.stores.kit.proximity import Adjacency, reweighed
from jamgate_adapters.stores.sqlite import SqliteStore, index
from jamgate_core.testing import NOW, insert, make_record


def opened(home: Path) -> SqliteStore:
    store = SqliteStore(SqliteStore.Options(path=str(home / "memory.db")), home)
    store.open()
    return store


@pytest.fixture
def small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(index, "RANK_BUDGET", 3)


@pytest.mark.usefixtures("small_budget")
@pytest.mark.parametrize("first", [0, 1])
def test_the_owner_in_the_querys_order_comes_first(tmp_path: Path, first: int) -> None:
    """Both facts hold the same words (bm25 ties them): the order of the owner's words decides,
    whichever was saved last."""
    texts = ["My aunt's landlord waters the plants on Fridays.",
             "My landlord's aunt waters the plants on Fridays."]
    store = opened(tmp_path)
    records = [make_record(texts[(n + first) % 2], at=n) for n in range(2)]
    insert(store, *records)
    by_text = {r.text: r.id for r in records}
    for query, wanted in (("When does my landlord's aunt water the plants?", texts[1]),
                          ("When does my aunt's landlord water the plants?", texts[0]),
                          ("Wann gießt die Tante meines Vermieters?", None)):
        hits = store.search("default", query, limit=10, type=None, now=NOW)
        if wanted is not None:
            assert hits[0][0].id == by_text[wanted], query
    store.close()


@pytest.mark.usefixtures("small_budget")
def test_a_record_with_more_of_the_querys_words_gains_over_a_shorter_one(
        tmp_path: Path) -> None:
    """bm25 favours the short fact holding the thing; the one naming the owner's relation
    and the thing, in the query's order, is re-weighed above it."""
    store = opened(tmp_path)
    short = make_record("My cousin's umbrella is green.", at=0)
    long = make_record("My cousin's godfather keeps their umbrella behind the old wardrobe "
                       "in the spare bedroom.", at=1)
    insert(store, short, long)
    hits = store.search("default", "Where is my cousin's godfather's umbrella?", limit=10,
                        type=None, now=NOW)
    assert [r.id for r, _ in hits][:2] == [long.id, short.id]
    store.close()


def test_under_the_budget_bm25_alone_ranks(tmp_path: Path) -> None:
    """Few rows hold the words: bm25 ranks them all, with no re-weighing (the tie goes to the
    newer fact)."""
    store = opened(tmp_path)
    older = make_record("My landlord's aunt waters the plants on Fridays.", at=0)
    newer = make_record("My aunt's landlord waters the plants on Fridays.", at=1)
    insert(store, older, newer)
    hits = store.search("default", "When does my landlord's aunt water the plants?", limit=10,
                        type=None, now=NOW)
    assert [r.id for r, _ in hits] == [newer.id, older.id]
    store.close()


def test_adjacency_counts_ordered_pairs_of_content_words() -> None:
    order = Adjacency("Where is my landlord's aunt's umbrella?")
    # landlord s aunt s umbrella: stopwords skipped, stems matched as prefixes
    assert order.count == 4
    straight = order.weight("My landlord's aunt's umbrella is red.", None)
    swapped = order.weight("My aunt's landlord's umbrella is red.", None)
    unrelated = order.weight("The weather is fine.", None)
    assert straight > swapped > unrelated == 1.0
    assert Adjacency("umbrella").pairs == set()
    assert Adjacency("傘はどこ").weight("傘はどこ", None) == 1.0  # CJK: no pairs, no words


def test_reweighed_keeps_the_best_and_breaks_ties_by_the_rows_order() -> None:
    rows: list[tuple[str, str | None]] = [("alpha beta", None), ("beta alpha", None),
                                          ("gamma", None)]
    best = reweighed("beta alpha", rows, [1.0, 1.0, 1.0], 2)
    assert [n for n, _ in best] == [1, 0]
    assert reweighed("delta", rows, [3.0, 2.0, 1.0], 3) == [(0, 3.0), (1, 2.0), (2, 1.0)]


class _Index:
    """A connection stand-in: the highest rowid, then each term's capped count."""

    def __init__(self, highest: int, counts: dict[str, int]) -> None:
        self.highest, self.counts = highest, counts
        self.row: tuple[int, ...] = ()

    def execute(self, sql: str, params: object = ()) -> _Index:
        if "max(rowid)" in sql:
            self.row = (self.highest,)
        else:
            found: list[int] = []
            pending: list[str] = []
            for param in params:  # type: ignore[attr-defined]
                if isinstance(param, int):  # a term (or a prefix's range), then its cap
                    term = pending[0] if len(pending) == 1 else f'"{pending[0]}" *'
                    found.append(min(self.counts[term], param))
                    pending = []
                else:
                    pending.append(param)
            self.row = tuple(found)
        return self

    def fetchone(self) -> tuple[int, ...]:
        return self.row


def test_a_plain_word_in_half_the_rows_is_left_out_of_the_ranking() -> None:
    counts = {'"dentist"': 300, '"s"': 7_000, '"sister"': 2_500, '"work" *': 9_000}
    parts = list(counts)
    match = index.ranking_match(_Index(10_000, counts), parts)  # type: ignore[arg-type]
    # "s" is in 7,000 of at most 10,000 rows: out; a prefix is never counted so far: kept
    assert match == '("dentist") AND ("dentist" OR "sister" OR "work" *)'
    fewer = {**counts, '"s"': 4_000}  # under half of the rows: it keeps its weight
    match = index.ranking_match(_Index(10_000, fewer), parts)  # type: ignore[arg-type]
    assert match == f'("dentist") AND ({" OR ".join(parts)})'
    common = {'"s"': 9_000, '"is"': 9_500}  # every word common: the rarest stays the anchor
    match = index.ranking_match(_Index(10_000, common), list(common))  # type: ignore[arg-type]
    assert match == '("s") AND ("s")'
