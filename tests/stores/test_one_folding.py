"""One folding of text for the gate and for every store (jamgate_core.text).

A memory saved in one spelling is found with the other — German ß, Greek final sigma,
ligatures, the Turkish dotted capital I, Vietnamese diacritics, CJK iteration marks and
half-width katakana — in every local store (memory, file, sqlite). And what the stores index
for a text is what the near-duplicate stage reads in it. (The supabase and graphiti stores are
checked the same way in their own test folders, where their servers run; mem0 indexes no
terms of Jamgate's: it searches by vector only.)
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from jamgate_adapters.stores.kit.lexical import document_tokens, index_terms, query_terms
from jamgate_adapters.stores.sqlite.schema import fts_row
from jamgate_core.contracts import Store
from jamgate_core.models import MemoryRecord
from jamgate_core.testing import NOW, build_store, insert, make_record
from jamgate_core.text import fold, is_cjk, runs, words
from jamgate_stages.neardup import _STOP, shingles

# (what it tests, a text, the same text in the other spelling, a query in that other spelling)
CASES = [
    ("german sharp s", "Die Straße ist lang", "DIE STRASSE IST LANG", "strasse"),
    ("greek final sigma", "Ο ΔΡΟΜΟΣ ΕΙΝΑΙ ΣΤΕΝΟΣ", "ο δρομος ειναι στενος", "δρόμος"),
    ("ligature", "The ﬁle lives in the ﬁnance ofﬁce", "The file lives in the finance office",
     "office"),
    ("turkish dotted I", "İstanbul köprüleri", "istanbul kopruleri", "İSTANBUL"),
    ("vietnamese diacritics", "Tiếng Việt ở Hà Nội", "Tieng Viet o Ha Noi", "viet"),
    ("cjk iteration mark", "東京は時々雨が降ります", "東京は時時雨が降ります", "時々"),
    ("half-width katakana", "ﾃﾞｰﾀﾍﾞｰｽの設計", "データベースの設計", "データベース"),
]
IDS = [case[0] for case in CASES]
LOCAL_STORES = ["memory", "file", "sqlite"]


@pytest.fixture(params=LOCAL_STORES)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    built = build_store((request.param, {}), tmp_path)
    built.open()
    request.addfinalizer(built.close)
    return built


def _saved(store: Store, scope: str, texts: list[str]) -> list[MemoryRecord]:
    records = [make_record(text, at=n, scope=scope) for n, text in enumerate(texts)]
    insert(store, *records)
    return records


def _top(store: Store, scope: str, query: str) -> str | None:
    hits = store.search(scope, query, limit=3, type=None, now=NOW)
    return hits[0][0].id if hits else None


def test_each_spelling_finds_the_other_in_every_local_store(store: Store) -> None:
    """Saved as written, found by the other spelling; saved in the other, found as written."""
    written = _saved(store, "written", [case[1] for case in CASES])
    other = _saved(store, "other", [case[2] for case in CASES])
    for (label, text, spelling, query), mine, theirs in zip(CASES, written, other,
                                                             strict=True):
        assert _top(store, "written", query) == mine.id, (label, query)
        assert _top(store, "written", spelling) == mine.id, (label, spelling)
        assert _top(store, "other", text) == theirs.id, (label, text)


def test_an_iteration_mark_is_part_of_the_cjk_run(store: Store) -> None:
    """々 repeats the character before it: `時々` is one CJK run, searched as its bigram."""
    often, time_only = _saved(store, "default", ["東京は時々雨", "東京の時間"])
    hits = store.search("default", "時々", limit=5, type=None, now=NOW)
    assert [r.id for r, _ in hits] == [often.id] != [time_only.id]
    assert query_terms("時々") == ["時々"]


@pytest.mark.parametrize(("label", "text", "spelling", "query"), CASES, ids=IDS)
def test_both_spellings_index_the_same(label: str, text: str, spelling: str,
                                       query: str) -> None:
    if label != "cjk iteration mark":  # 時々 and 時時 are two spellings fold cannot unite
        assert index_terms(text) == index_terms(spelling)
        assert document_tokens(text, None) == document_tokens(spelling, None)
        assert fts_row(text, None) == fts_row(spelling, None)
    assert set(query_terms(query)) <= index_terms(text)


@pytest.mark.parametrize(("label", "text", "spelling", "query"), CASES, ids=IDS)
def test_the_near_duplicate_stage_reads_what_the_stores_index(label: str, text: str,
                                                              spelling: str,
                                                              query: str) -> None:
    for sample in (text, spelling):
        terms = index_terms(sample)
        assert shingles(sample) <= terms, label
        plain = {t for t in terms if not any(is_cjk(c) for c in t)}
        assert plain - _STOP == {s for s in shingles(sample) if not is_cjk(s[0])}, label
        assert [w for w in words(fold(sample)) if not is_cjk(w[0])] == [
            w for w in runs(fold(sample)) if not any(is_cjk(c) for c in w)]


def test_the_sqlite_index_holds_the_stages_words(tmp_path: Path) -> None:
    store = build_store(("sqlite", {}), tmp_path)
    store.open()
    try:
        records = _saved(store, "default", [case[1] for case in CASES])
    finally:
        store.close()
    conn = sqlite3.connect(tmp_path / "memory.db")
    try:
        for record in records:
            (column,) = conn.execute(
                "SELECT f.text FROM records_fts f JOIN records r ON r.seq = f.rowid "
                "WHERE r.id = ?", (record.id,)).fetchone()
            assert column.split() == runs(fold(record.text))
            latin = {s for s in shingles(record.text) if not is_cjk(s[0])}
            assert latin <= set(column.split())
    finally:
        conn.close()
