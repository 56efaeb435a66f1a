"""Past the ranking budget (D-111) the SQLite store ranks the rows holding its rarest terms on
every term of the query (D-391): a common word still orders the candidates that hold it."""

from __future__ import annotations

from pathlib import Path

import pytest

from jamgate_adapters.stores.sqlite import SqliteStore, index
from jamgate_core.testing import NOW, insert, make_record

RELATIONS = ["sister", "brother", "aunt", "uncle", "cousin", "niece", "nephew", "boss",
             "landlord", "neighbour", "flatmate", "colleague", "godson", "mother"]
THINGS = ["dentist", "vet", "tailor", "optician", "lawyer", "plumber", "mechanic", "baker",
          "barber", "doctor", "notary", "florist", "butcher", "jeweller", "cobbler"]


def filled(home: Path) -> tuple[SqliteStore, dict[str, str]]:
    store = SqliteStore(SqliteStore.Options(path=str(home / "memory.db")), home)
    store.open()
    ids: dict[str, str] = {}
    records = []
    for n, (relation, thing) in enumerate((r, t) for r in RELATIONS for t in THINGS):
        record = make_record(f"My {relation}'s {thing} is in town number {n}.", at=n)
        ids[f"{relation} {thing}"] = record.id
        records.append(record)
    insert(store, *records)
    return store, ids


def test_the_common_word_orders_the_rarest_words_rows(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """"sister" fills 15 rows and "dentist" 14: over a budget of 20, the candidates are the
    dentists' rows, and "sister" puts the sister's dentist first among them."""
    monkeypatch.setattr(index, "RANK_BUDGET", 20)
    store, ids = filled(tmp_path)
    for query, wanted in (("Where does my sister's dentist work?", "sister dentist"),
                          ("Which plumber does my godson use?", "godson plumber")):
        hits = store.search("default", query, limit=10, type=None, now=NOW)
        assert hits[0][0].id == ids[wanted], query
        assert all(("dentist" if "dentist" in query else "plumber") in r.text for r, _ in hits)
    store.close()


def test_the_expression_holds_the_rarest_terms_and_ranks_on_all() -> None:
    class Counts:
        def execute(self, sql: str, params: object = ()) -> Counts:
            self.row = (3, 500, 5_000)  # "dentist", "sister" *, "work" *
            return self

        def fetchone(self) -> tuple[int, ...]:
            return self.row

    parts = ['"dentist"', '"sister" *', '"work" *']
    match = index.ranking_match(Counts(), parts, budget=400)  # type: ignore[arg-type]
    assert match == '("dentist") AND ("dentist" OR "sister" * OR "work" *)'
    wide = index.ranking_match(Counts(), parts, budget=6_000)  # type: ignore[arg-type]
    assert wide == " OR ".join(parts)
