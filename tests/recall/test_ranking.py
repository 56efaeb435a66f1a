"""Ranking in every bundled store: prefixes, typos, subject words, named types, diversity,
recency ties, determinism, and the pure-Python path when numpy is absent."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from jamgate_adapters.stores.kit import ranking
from jamgate_adapters.stores.kit.ranking import QueryHints
from jamgate_core.contracts import Preconditions, Store, WritePlan
from jamgate_core.loader import load_store
from jamgate_core.models import MemoryRecord, new_id, utcnow
from jamgate_core.settings import Settings

T0 = utcnow() - timedelta(days=1)
NOW = utcnow()


@pytest.fixture(params=["sqlite", "memory", "file"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    _, built = load_store(Settings(home=tmp_path, store=request.param))
    built.open()
    request.addfinalizer(built.close)
    return built


def put(store: Store, text: str, at: int = 0, **fields: object) -> MemoryRecord:
    stamp = T0 + timedelta(seconds=at)
    record = MemoryRecord(id=fields.pop("id", None) or new_id(), text=text,  # type: ignore[arg-type]
                          created_at=stamp, updated_at=stamp, **fields)  # type: ignore[arg-type]
    store.write(WritePlan(scope="default", now=stamp, insert=record), Preconditions("default"))
    return record


def ids(hits: list[tuple[MemoryRecord, float]]) -> list[str]:
    return [r.id for r, _ in hits]


def search(store: Store, query: str, **kw: object) -> list[tuple[MemoryRecord, float]]:
    return store.search("default", query, limit=5, type=kw.pop("type", None),  # type: ignore[arg-type]
                        now=NOW, **kw)  # type: ignore[arg-type]


def test_word_forms_match(store: Store) -> None:
    painted = put(store, "Melanie painted a sunrise over the lake")
    put(store, "Melanie runs a bakery", at=1)
    assert ids(search(store, "paintings")) == [painted.id]


@pytest.mark.parametrize("typo", ["Berlni", "berln", "Brelin"])
def test_typos_are_tolerated(store: Store, typo: str) -> None:
    berlin = put(store, "jam moved to Berlin last spring")
    put(store, "jam likes Bern cheese", at=1)
    assert ids(search(store, f"{typo} move"))[0] == berlin.id


def test_short_words_are_not_fuzzy(store: Store) -> None:
    put(store, "jam owns a cat")
    assert search(store, "cut") == []


def test_subject_words_count(store: Store) -> None:
    tagged = put(store, "jam likes it warm", subject="coffee-temperature", at=0)
    put(store, "jam likes warm weather", at=1)
    assert ids(search(store, "coffee"))[0] == tagged.id


def test_named_type_counts(store: Store) -> None:
    put(store, "jam uses dark editors at work", type="project", at=1)
    pref = put(store, "jam likes dark editors", type="preference", at=0)
    assert ids(search(store, "editor preferences"))[0] == pref.id


def test_near_identical_hits_move_behind_distinct_ones(store: Store) -> None:
    a = put(store, "jam drinks green tea every morning", at=0, embedding=[1.0, 0.0, 0.0])
    b = put(store, "Every morning jam drinks green tea.", at=1, embedding=[0.999, 0.04, 0.0])
    c = put(store, "jam drinks coffee every morning", at=2, embedding=[0.7, 0.7, 0.1])
    hits = search(store, "green tea morning", vector=[1.0, 0.0, 0.0])
    assert ids(hits)[:2] in ([a.id, c.id], [b.id, c.id])
    assert set(ids(hits)) == {a.id, b.id, c.id}
    assert [s for _, s in hits] == sorted((s for _, s in hits), reverse=True)


def test_recency_breaks_ties_and_results_are_deterministic(store: Store) -> None:
    older = put(store, "jam went hiking on Sunday", at=0)
    newer = put(store, "jam went hiking on Monday", at=1)
    first = search(store, "hiking")
    assert ids(first) == [newer.id, older.id]
    assert all(search(store, "hiking") == first for _ in range(3))


def put_at(store: Store, text: str, moment: datetime) -> MemoryRecord:
    record = MemoryRecord(id=new_id(), text=text, created_at=moment, updated_at=moment)
    store.write(WritePlan(scope="default", now=moment, insert=record), Preconditions("default"))
    return record


def test_a_named_date_puts_memories_from_then_first(store: Store) -> None:
    march = put_at(store, "jam went to a concert with Ana", datetime(2025, 3, 9, tzinfo=UTC))
    later = put_at(store, "jam went to a concert with Bo", datetime(2025, 6, 1, tzinfo=UTC))
    assert ids(search(store, "concert"))[0] == later.id  # newest first on a tie
    for query in ("which concert on 8 March 2025?", "concert in March 2025",
                  "the concert on March 8th, 2025", "concert 2025-03-08"):
        assert ids(search(store, query))[0] == march.id, query
    assert ids(search(store, "concert in 2025"))[0] == later.id  # a bare year names nothing


AT = datetime(2026, 11, 30, 15, 0, tzinfo=UTC)  # the moment of a recall, for relative dates


@pytest.mark.parametrize(("query", "first_day", "last_day"), [
    ("what happened on 9 October, 2022", date(2022, 10, 8), date(2022, 10, 16)),
    ("painting on October 13, 2023?", date(2023, 10, 12), date(2023, 10, 20)),
    ("Sept 3 2024", date(2024, 9, 2), date(2024, 9, 10)),
    ("in July 2023", date(2023, 6, 30), date(2023, 8, 7)),
    ("on 2023-12-31", date(2023, 12, 30), date(2024, 1, 7)),
    ("Was war am 9. Oktober 2022?", date(2022, 10, 8), date(2022, 10, 16)),
    ("¿qué pasó el 9 de octubre de 2022?", date(2022, 10, 8), date(2022, 10, 16)),
    ("le 1er mars 2024", date(2024, 2, 29), date(2024, 3, 8)),
    ("Τι έγινε στις 9 Οκτωβρίου 2022;", date(2022, 10, 8), date(2022, 10, 16)),
    ("im März 2023", date(2023, 2, 28), date(2023, 4, 7)),
    ("am 9.10.2022", date(2022, 10, 8), date(2022, 10, 16)),
    ("2022年10月9日に何をした?", date(2022, 10, 8), date(2022, 10, 16)),
    ("2022년 10월", date(2022, 9, 30), date(2022, 11, 7)),
    ("on 9 May 2023, not yesterday", date(2023, 5, 8), date(2023, 5, 16)),  # a date wins
    ("what did we decide yesterday?", date(2026, 11, 28), date(2026, 11, 30)),
    ("notes from today", date(2026, 11, 29), date(2026, 12, 1)),
    ("the call 3 days ago", date(2026, 11, 26), date(2026, 11, 28)),
    ("the call two days ago", date(2026, 11, 27), date(2026, 11, 29)),
    ("last week's plan", date(2026, 11, 15), date(2026, 11, 24)),
    ("this week", date(2026, 11, 23), date(2026, 12, 1)),
    ("this month", date(2026, 10, 31), date(2026, 12, 1)),
    ("last month", date(2026, 9, 30), date(2026, 11, 7)),
])
def test_query_period(query: str, first_day: date, last_day: date) -> None:
    period = QueryHints(query, AT).period
    assert period is not None
    assert (period[0].date(), (period[1] - timedelta(microseconds=1)).date()) == (
        first_day, last_day)


def test_relative_dates_need_the_moment_of_the_recall() -> None:
    assert QueryHints("what did we decide yesterday?").period is None
    assert QueryHints("on 9 May 2023").period is not None


def test_yesterday_puts_yesterdays_memory_first(store: Store) -> None:
    recent = put_at(store, "jam went to a long concert with Ana at the old hall downtown",
                    NOW - timedelta(days=1))
    tight = put_at(store, "jam loves a concert", NOW - timedelta(days=6))
    assert ids(search(store, "concert"))[0] == tight.id  # the closer keyword match
    assert ids(search(store, "the concert yesterday"))[0] == recent.id


@pytest.mark.parametrize("query", ["in 2023", "a decent 2023 season", "31 February 2023",
                                   "May I ask", "on 3 Mayonnaise 2023", "on 9/10/2022",
                                   "last weekend", "2022-13-01"])
def test_query_without_a_period(query: str) -> None:
    assert QueryHints(query, AT).period is None


def test_vector_only_match_qualifies_by_meaning(store: Store) -> None:
    target = put(store, "Ο jam μένει στην Αθήνα", embedding=[1.0, 0.1, 0.0])
    for n in range(9):
        put(store, f"unrelated fact {n}", at=n + 1, embedding=[0.0, 1.0, float(n) / 10])
    hits = search(store, "where does he live", vector=[1.0, 0.0, 0.0])
    assert ids(hits)[:1] == [target.id]
    assert all(0 < s <= 1 for _, s in hits)


def unit(*components: float) -> list[float]:
    size = sum(c * c for c in components) ** 0.5
    return [c / size for c in components]


GENERIC = unit(1.0, 0.05, 0.0)  # at the heart of the scope's one topic
SPECIFIC = unit(0.6, 0.0, 0.8)
HUB_QUERY = unit(1.0, 0.0, 0.45)  # raw cosine: generic 0.91, specific 0.88


def put_topic(store: Store) -> tuple[MemoryRecord, MemoryRecord]:
    for n in range(6):
        put(store, f"topic note {n}", at=n, embedding=unit(1.0, 0.02 * n, 0.0))
    return (put(store, "generic note", at=10, embedding=GENERIC),
            put(store, "specific note", at=11, embedding=SPECIFIC))


def test_generic_memories_are_discounted(store: Store) -> None:
    generic, specific = put_topic(store)
    hits = store.search("default", "unrelated", limit=8, type=None, now=NOW, vector=HUB_QUERY)
    assert ids(hits)[0] == specific.id
    assert generic.id in ids(hits)


def test_nearest_keeps_raw_cosines(store: Store) -> None:
    generic, specific = put_topic(store)
    near = dict((r.id, s) for r, s in store.nearest("default", HUB_QUERY, limit=8, now=NOW))
    assert near[generic.id] > near[specific.id]


def test_sqlite_vector_cache_follows_writes(tmp_path: Path) -> None:
    _, store = load_store(Settings(home=tmp_path, store="sqlite"))
    store.open()
    try:
        first = put(store, "north", embedding=[1.0, 0.0])
        assert ids(store.nearest("default", [1.0, 0.0], limit=5, now=NOW)) == [first.id]
        second = put(store, "north again", at=1, embedding=[1.0, 0.01])
        assert set(ids(store.nearest("default", [1.0, 0.0], limit=5, now=NOW))) == {
            first.id, second.id}
        store.delete("default", first.id)
        assert ids(store.nearest("default", [1.0, 0.0], limit=5, now=NOW)) == [second.id]
    finally:
        store.close()


def test_ranking_without_numpy(tmp_path: Path) -> None:
    code = """
import sys
sys.modules["numpy"] = None
from datetime import timedelta
from pathlib import Path
from jamgate_core.contracts import Preconditions, WritePlan
from jamgate_core.loader import load_store
from jamgate_core.models import MemoryRecord, new_id, utcnow
from jamgate_core.settings import Settings
from jamgate_adapters.stores.kit import vectors
assert vectors.numpy_module() is None
_, store = load_store(Settings(home=Path(sys.argv[1]), store="sqlite"))
store.open()
now = utcnow()
ids = []
for n, vec in enumerate([[1.0, 0.0], [0.0, 1.0], [0.7, 0.7]]):
    r = MemoryRecord(id=new_id(), text=f"fact {n}", created_at=now, updated_at=now, embedding=vec)
    store.write(WritePlan(scope="default", now=now, insert=r), Preconditions("default"))
    ids.append(r.id)
hits = store.nearest("default", [1.0, 0.1], limit=3, now=utcnow())
assert [h[0].id for h in hits] == [ids[0], ids[2], ids[1]], hits
found = store.search("default", "fact", limit=3, type=None, now=utcnow(), vector=[1.0, 0.0])
assert found[0][0].id == ids[0]
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True,
                         text=True, timeout=60)
    assert out.stdout.strip() == "ok", out.stderr


def test_vectors_never_push_the_keyword_best_out(store: Store,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """With a query vector, the keyword ranking's best hits keep a place in the list asked
    for, however many records the vector prefers; the rest keep the fused order (D-404)."""
    best = put(store, "the garden hose hangs behind the green books",
               embedding=unit(-1.0, 1.0, 0.0))
    for n in range(16):
        put(store, f"sibling note {n} keeps a hose", at=n + 1,
            embedding=unit(1.0, 0.01 * n, 0.0))
    for n in range(6):
        put(store, f"far note {n}", at=n + 20, embedding=unit(0.0, 0.0, 1.0))
    query = "where is the garden hose behind the books"
    assert ids(search(store, query))[0] == best.id
    asked = {"type": None, "now": NOW, "vector": unit(1.0, 0.0, 0.0)}
    hits = store.search("default", query, limit=10, **asked)  # type: ignore[arg-type]
    assert best.id in ids(hits)
    assert [s for _, s in hits] == sorted((s for _, s in hits), reverse=True)
    assert best.id not in ids(store.search("default", query, limit=3, **asked))  # type: ignore[arg-type]
    monkeypatch.setattr(ranking, "LEXICAL_KEPT_SHARE", 0.0)
    fused = ids(store.search("default", query, limit=10, **asked))  # type: ignore[arg-type]
    assert best.id not in fused
    # three places are held, but the siblings tie on their keywords: only `best` is held
    assert ids(hits) == [*fused[:9], best.id]
