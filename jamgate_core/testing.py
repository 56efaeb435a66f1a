"""The store conformance suite, a pytest plugin for store authors.

(Longer than 500 lines by design: one pytest plugin, one class of contract tests, so a store
author opts in with one `-p` and subclasses one class.)

Opt in with `pytest -p jamgate_core.testing`, or `pytest_plugins = ["jamgate_core.testing"]`
in a test module; nothing registers it automatically. Then subclass `StoreConformance` and say
which store to build:

```python
from jamgate_core.testing import StoreConformance

class TestMyStore(StoreConformance):
    @pytest.fixture
    def store_spec(self):
        return ("mystore", {"some_option": 1})   # entry point name in `jamgate.stores`
```

Stores are built from the entry point with `tmp_path` as their home, so the cross-process test
can build the same store in fresh processes. To test a class that is not installed, override
the `make_store` fixture instead: it returns a function of the home directory (cross-process
checks are then skipped).

`capability_report(store)` is also what `jamgate doctor` prints about a store.
"""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest

from jamgate_core.contracts import (
    CROSS_PROCESS,
    DURABLE,
    KEYWORD_SEARCH,
    STORE_CAPABILITIES,
    VECTOR_SEARCH,
    Preconditions,
    Reindexable,
    Store,
    WritePlan,
    check_contract,
)
from jamgate_core.errors import InvalidArgument, PreconditionFailed
from jamgate_core.models import (
    ClientInfo,
    MemoryRecord,
    canonical_subject,
    iso,
    new_id,
    text_key,
    utcnow,
)

StoreSpec = tuple[str, dict[str, Any]]
StoreFactory = Callable[[Path], Store]

_WITHOUT = {
    KEYWORD_SEARCH: "no keyword_search: recall cannot rank by keywords on this store",
    VECTOR_SEARCH: "no vector_search: near-duplicate detection and semantic recall are off",
    CROSS_PROCESS: "no cross_process: run only one Jamgate process on this store at a time",
    DURABLE: "no durable: memories are lost when the process exits",
}


def capability_report(store: object) -> list[str]:
    """What a store does not declare, one line each; empty when it declares everything."""
    declared = getattr(store, "capabilities", None)
    if not isinstance(declared, frozenset):
        wrong = (f"capabilities must be a frozenset of {', '.join(STORE_CAPABILITIES)}; "
                 f"got {type(declared).__name__}")
        return [wrong, *_WITHOUT.values()]
    lines = [f"unknown capability {name!r} (known: {', '.join(STORE_CAPABILITIES)})"
             for name in sorted(n for n in declared if n not in STORE_CAPABILITIES)]
    return lines + [line for name, line in _WITHOUT.items() if name not in declared]


def build_store(spec: StoreSpec, home: Path) -> Store:
    """A store built like the app builds it: entry point class, validated Options, home."""
    name, options = spec
    found = [ep for ep in entry_points(group="jamgate.stores") if ep.name == name]
    if not found:
        raise LookupError(f"no entry point {name!r} in group jamgate.stores")
    cls = found[0].load()
    store: Store = cls(cls.Options(**options), home)
    return store


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: a test that takes more than a few seconds")


# --- records -----------------------------------------------------------------------------------

T0 = datetime(2030, 1, 1, tzinfo=UTC)
NOW = T0 + timedelta(days=1)


def make_record(text: str, *, at: int = 0, scope: str = "default", subject: str | None = None,
                record_id: str | None = None, **fields: Any) -> MemoryRecord:
    """A record created `at` milliseconds after T0 (an active one unless `status` is given)."""
    created = T0 + timedelta(milliseconds=at)
    return MemoryRecord(id=record_id or new_id(), text=text, scope=scope,
                        subject=canonical_subject(subject), created_at=created,
                        updated_at=fields.pop("updated_at", created), **fields)


def insert(store: Store, *records: MemoryRecord) -> None:
    """Write each record with no preconditions (the store's own invariants still apply)."""
    for record in records:
        store.write(WritePlan(scope=record.scope, now=record.updated_at, insert=record),
                    Preconditions(scope=record.scope))


def every_record(store: Store, scope: str, now: datetime = NOW) -> list[MemoryRecord]:
    """Every record of a scope, through the paginated listing."""
    found: list[MemoryRecord] = []
    cursor = None
    while True:
        page = store.list(scope, status="all", type=None, limit=7, cursor=cursor, now=now)
        found += page.records
        if page.next_cursor is None:
            return found
        cursor = page.next_cursor


def _ids(hits: list[tuple[MemoryRecord, float]] | list[MemoryRecord]) -> list[str]:
    return [h[0].id if isinstance(h, tuple) else h.id for h in hits]


# --- the cross-process workload ----------------------------------------------------------------

def decide_and_write(store: Store, scope: str, text: str, subject: str) -> str:
    """The gate in miniature: dedup by text key, else supersede the subject; retry on conflict.
    Returns the id the save was acknowledged with."""
    key = text_key(text)
    for _attempt in range(200):
        same = store.by_text_key(scope, key)
        about = store.by_subject(scope, subject)
        pre = Preconditions(scope=scope, by_key={key: frozenset(r.id for r in same)},
                            by_subject={subject: frozenset(r.id for r in about)})
        if same:
            return same[0].id
        now = utcnow()
        record = MemoryRecord(id=new_id(), text=text, subject=subject, scope=scope,
                              created_at=now, updated_at=now)
        try:
            store.write(WritePlan(scope=scope, now=now, insert=record,
                                  retire=tuple(r.id for r in about)), pre)
        except PreconditionFailed:
            continue
        return record.id
    raise AssertionError("a save kept failing its preconditions 200 times")


def cross_process_saver(spec: StoreSpec, home: str, worker: int, saves: int,
                        start: Any = None, results: Any = None) -> list[str]:
    """One process of the cross-process test: `saves` saves over 10 shared subjects, begun
    together with the others at the `start` barrier; (worker, ids or error) go to `results`."""
    try:
        store = build_store(spec, Path(home))
        store.open()
        try:
            if start is not None:
                start.wait(timeout=60)
            acked = [
                decide_and_write(store, "shared", f"fact {(worker * 3 + i * 7) % 23} of the "
                                 "shared project", f"subject-{(worker * 7 + i) % 10}")
                for i in range(saves)
            ]
        finally:
            store.close()
    except BaseException as exc:
        if results is not None:
            results.put((worker, f"{type(exc).__name__}: {exc}"))
        raise
    if results is not None:
        results.put((worker, acked))
    return acked


# --- the suite ---------------------------------------------------------------------------------

SCOPE_PAIRS = [("a/b", "a"), ("a", "a/b"), ("a", "b"), ("..", "default"),
               ("αβγ/日本", "default"), ("default", "αβγ/日本")]
FULL_VECTOR = [0.5, -0.25, 0.125, 1.0]


class StoreConformance:
    """The behaviour every `jamgate.stores` plugin must have. Subclass it in a test module."""

    # --- fixtures a subclass may override ------------------------------------------------------

    @pytest.fixture
    def store_spec(self) -> StoreSpec | None:
        """(entry point name, options) of the store under test."""
        return None

    @pytest.fixture
    def make_store(self, store_spec: StoreSpec | None) -> StoreFactory:
        """A function building an unopened store in a home directory."""
        if store_spec is None:
            pytest.fail("a StoreConformance subclass must provide store_spec or make_store")
        return lambda home: build_store(store_spec, home)

    @pytest.fixture
    def store_home(self, tmp_path: Path) -> Path:
        home = tmp_path / "store-home"
        home.mkdir()
        return home

    @pytest.fixture
    def store(self, make_store: StoreFactory, store_home: Path) -> Iterator[Store]:
        store = make_store(store_home)
        store.open()
        yield store
        store.close()

    @staticmethod
    def _needs(store: Store, capability: str) -> None:
        if capability not in store.capabilities:
            pytest.skip(f"the store does not declare {capability}")

    # --- contract and capabilities -------------------------------------------------------------

    def test_contract(self, store: Store) -> None:
        assert check_contract(store, Store) == []
        assert isinstance(store.location(), str) and store.location()

    def test_capabilities_declared(self, store: Store) -> None:
        assert isinstance(store.capabilities, frozenset)
        assert store.capabilities <= set(STORE_CAPABILITIES)
        report = capability_report(store)
        missing = [c for c in STORE_CAPABILITIES
                   if c not in store.capabilities and c in _WITHOUT]
        assert len(report) == len(missing)
        for capability in missing:
            assert any(capability in line for line in report)

    # --- round trips ---------------------------------------------------------------------------

    def test_round_trip_every_field(self, store: Store) -> None:
        record = make_record(
            "Jam's favourite editor is Helix", at=5, subject="Editor.Choice", type="preference",
            source="user-explicit", expires_at=T0 + timedelta(days=90),
            client=ClientInfo(name="claude-code", version="2.1.0"), provenance="import:test",
            embedding=FULL_VECTOR, embedding_model="test-model-v1",
            updated_at=T0 + timedelta(milliseconds=5),
        )
        history = make_record("Jam used vim", at=1, subject="editor-choice", status="superseded",
                              superseded_by=record.id, superseded_at=T0 + timedelta(seconds=1),
                              client=ClientInfo(name="cursor"))
        insert(store, record, history)
        assert store.get("default", record.id) == record
        assert store.get("default", history.id) == history
        assert store.by_text_key("default", record.key) == [record]
        assert store.by_subject("default", "editor-choice") == [record]
        assert store.resolve_id("default", record.id) == [record.id]

    @pytest.mark.parametrize("text", [
        "I love 🦜𝕏 emoji 😀", "x" * 31_999 + "😀", "Zoë lives in Zürich — café ☕",
        "東京に住んでいる", "line one\nline two\ttabbed", "quote \" and ' and \\ and %_*",
    ])
    def test_round_trip_text(self, store: Store, text: str) -> None:
        record = make_record(text, subject="Some Subject")
        insert(store, record)
        got = store.get("default", record.id)
        assert got is not None and got.text == text and got == record
        assert [r.id for r in store.by_text_key("default", text_key(text))] == [record.id]

    def test_reopen_keeps_everything(self, make_store: StoreFactory, store_home: Path) -> None:
        first = make_store(store_home)
        first.open()
        self._needs(first, DURABLE)
        record = make_record("Jam lives in Berlin", subject="home", embedding=FULL_VECTOR)
        insert(first, record)
        first.close()
        second = make_store(store_home)
        second.open()
        try:
            assert second.get("default", record.id) == record
        finally:
            second.close()

    # --- lookups -------------------------------------------------------------------------------

    def test_by_key_and_subject_return_active_including_expired(self, store: Store) -> None:
        expired = make_record("Build is red", subject="ci", expires_at=T0 + timedelta(hours=1))
        old = make_record("Build was green", subject="ci-old", status="superseded")
        insert(store, expired, old)
        assert store.by_text_key("default", text_key("  BUILD is   red ")) == [expired]
        assert store.by_subject("default", "ci") == [expired]
        assert store.by_text_key("default", old.key) == []
        assert store.by_subject("default", "ci-old") == []
        assert store.by_subject("default", "nothing") == []

    def test_resolve_id_prefix_lengths(self, store: Store) -> None:
        record = make_record("Jam prefers tea", record_id="0123abcd-1111-4000-8000-000000000001")
        insert(store, record)
        assert store.resolve_id("default", record.id) == [record.id]
        assert store.resolve_id("default", record.id[:8]) == [record.id]
        assert store.resolve_id("default", record.id[:7]) == []
        assert store.resolve_id("default", "0") == []

    def test_resolve_id_ambiguous_prefix(self, store: Store) -> None:
        ids = [f"feedbeef-0000-4000-8000-00000000000{i}" for i in range(3)]
        insert(store, *(make_record(f"fact {i}", record_id=i_) for i, i_ in enumerate(ids)))
        assert sorted(store.resolve_id("default", "feedbeef")) == ids
        assert sorted(store.resolve_id("default", "feedbeef-0000-4")) == ids
        assert store.resolve_id("default", ids[1]) == [ids[1]]

    @pytest.mark.parametrize("needle", ["%", "%%%%%%%%", "________", "../x", "0123abc%",
                                        "0123abcd%", "*", "0123abcd-1111-4000-8000-00000000000_"])
    def test_resolve_id_is_literal(self, store: Store, needle: str) -> None:
        insert(store, make_record("Jam prefers tea",
                                  record_id="0123abcd-1111-4000-8000-000000000001"))
        assert store.resolve_id("default", needle) == []

    # --- scopes --------------------------------------------------------------------------------

    @pytest.mark.parametrize(("mine", "other"), SCOPE_PAIRS)
    def test_scope_isolation(self, store: Store, mine: str, other: str) -> None:
        record = make_record("Jam lives in Berlin", scope=mine, subject="home",
                             record_id="5c09e0a1-0000-4000-8000-000000000001",
                             embedding=FULL_VECTOR)
        insert(store, record)
        assert store.by_text_key(other, record.key) == []
        assert store.by_subject(other, "home") == []
        assert store.get(other, record.id) is None
        assert store.resolve_id(other, record.id) == []
        assert store.resolve_id(other, record.id[:8]) == []
        assert store.search(other, "Berlin", limit=5, type=None, now=NOW) == []
        assert store.search(other, "", limit=5, type=None, now=NOW) == []
        assert store.nearest(other, FULL_VECTOR, limit=5, now=NOW) == []
        assert every_record(store, other) == []
        assert store.delete(other, record.id) is None
        # the same text and subject may be active once per scope
        twin = make_record("Jam lives in Berlin", scope=other, subject="home", at=1)
        store.write(WritePlan(scope=other, now=NOW, insert=twin),
                    Preconditions(scope=other, by_key={twin.key: frozenset()},
                                  by_subject={"home": frozenset()}))
        assert store.by_subject(other, "home") == [twin]
        assert store.by_subject(mine, "home") == [record]
        assert store.get(mine, record.id) == record

    def test_scopes_lists_every_scope_holding_a_record(self, store: Store) -> None:
        assert store.scopes() == []
        records = [
            make_record("Jam lives in Berlin", at=1),
            make_record("The build uses Bazel", scope="work/build", at=2),
            make_record("Jam used vim", scope="αβγ/日本", status="superseded", at=3),
            make_record("Jam likes tea", scope="..", at=4),
            make_record("Jam is in Kos", scope="trip", at=5, expires_at=T0 + timedelta(hours=1)),
        ]
        insert(store, *records)
        wanted = sorted({r.scope for r in records})
        assert store.scopes() == wanted
        lone = make_record("A fact alone in its scope", scope="lonely", at=6)
        insert(store, lone)
        assert store.scopes() == sorted([*wanted, "lonely"])
        assert store.delete("lonely", lone.id) is not None
        assert store.scopes() == wanted, "a scope whose last record went is not listed"
        for scope in store.scopes():
            assert every_record(store, scope), f"scope {scope!r} is listed but holds nothing"

    # --- search and nearest --------------------------------------------------------------------

    def test_search_excludes_superseded_and_expired(self, store: Store) -> None:
        self._needs(store, KEYWORD_SEARCH)
        live = make_record("Jam lives in Berlin now", subject="home", at=3)
        gone = make_record("Jam lives in Paris", subject="old-home", status="superseded", at=2)
        lapsed = make_record("Jam visits Berlin this week", expires_at=T0 + timedelta(hours=1))
        insert(store, live, gone, lapsed)
        for query in ("Berlin", "Paris", "Jam lives", ""):
            found = _ids(store.search("default", query, limit=10, type=None, now=NOW))
            assert gone.id not in found and lapsed.id not in found
        assert _ids(store.search("default", "Berlin", limit=10, type=None, now=NOW)) == [live.id]
        # before it expired, the lapsed one is live
        early = T0 + timedelta(minutes=1)
        assert lapsed.id in _ids(store.search("default", "Berlin", limit=10, type=None,
                                              now=early))

    def test_search_relevance_and_type(self, store: Store) -> None:
        self._needs(store, KEYWORD_SEARCH)
        insert(
            store,
            make_record("Jam drinks café au lait every morning", type="preference", at=1),
            make_record("The project uses Python and SQLite", type="project", at=2),
            make_record("Jam is based in Berlin", type="identity", at=3),
        )
        hits = store.search("default", "cafe", limit=5, type=None, now=NOW)
        assert [r.text for r, _ in hits] == ["Jam drinks café au lait every morning"]
        hits = store.search("default", "python sqlite project", limit=5, type=None, now=NOW)
        assert hits and hits[0][0].type == "project"
        assert all(0 < score <= 1 for _, score in hits)
        assert [s for _, s in hits] == sorted((s for _, s in hits), reverse=True)
        assert store.search("default", "Berlin", limit=5, type="project", now=NOW) == []
        assert store.search("default", "zebra", limit=5, type=None, now=NOW) == []
        assert len(store.search("default", "Jam", limit=1, type=None, now=NOW)) == 1

    def test_search_empty_query_lists_newest(self, store: Store) -> None:
        records = [make_record(f"fact number {i}", at=i % 3, record_id=f"{i:08d}-aaaa")
                   for i in range(6)]
        insert(store, *records)
        newest = sorted(records, key=lambda r: (iso(r.created_at), r.id), reverse=True)
        for query in ("", "   "):
            hits = store.search("default", query, limit=4, type=None, now=NOW)
            assert _ids(hits) == [r.id for r in newest[:4]]

    @pytest.mark.parametrize("query", [
        '"Berlin', "Berlin OR", "NEAR(Berlin", "text:Berlin", "Ber*", "^Berlin", "-Berlin",
        "(Berlin", "Berlin AND NOT", "'; DROP TABLE records; --", "%_%", "\x00Berlin", "😀",
    ])
    def test_search_takes_any_text(self, store: Store, query: str) -> None:
        record = make_record("Jam lives in Berlin")
        insert(store, record)
        hits = store.search("default", query, limit=5, type=None, now=NOW)
        assert all(0 < score <= 1 for _, score in hits)
        if KEYWORD_SEARCH in store.capabilities and "Berlin" in query:
            assert _ids(hits) == [record.id]
        assert store.get("default", record.id) == record

    def test_search_finds_cjk_substring(self, store: Store) -> None:
        self._needs(store, KEYWORD_SEARCH)
        record = make_record("東京に住んでいる")
        insert(store, record, make_record("大阪で働く", at=1))
        assert _ids(store.search("default", "東京", limit=5, type=None, now=NOW)) == [record.id]

    def test_nearest(self, store: Store) -> None:
        self._needs(store, VECTOR_SEARCH)
        near = make_record("north", embedding=[1.0, 0.0, 0.0], at=1)
        mid = make_record("north-east", embedding=[1.0, 1.0, 0.0], at=2)
        far = make_record("south", embedding=[-1.0, 0.0, 0.0], at=3)
        other_dim = make_record("flat", embedding=[1.0, 0.0], at=4)
        plain = make_record("no vector", at=5)
        lapsed = make_record("north, lapsed", embedding=[1.0, 0.0, 0.0],
                             expires_at=T0 + timedelta(hours=1))
        retired = make_record("north, retired", embedding=[1.0, 0.0, 0.0], status="superseded")
        insert(store, near, mid, far, other_dim, plain, lapsed, retired)
        hits = store.nearest("default", [2.0, 0.0, 0.0], limit=5, now=NOW)
        assert _ids(hits) == [near.id, mid.id, far.id]
        assert [round(s, 4) for _, s in hits] == [1.0, 0.7071, -1.0]
        assert _ids(store.nearest("default", [1.0, 0.0, 0.0], limit=1, now=NOW)) == [near.id]

    def test_search_blends_vectors(self, store: Store) -> None:
        self._needs(store, VECTOR_SEARCH)
        self._needs(store, KEYWORD_SEARCH)
        word = make_record("Jam likes green tea", embedding=[0.0, 1.0], at=1)
        meaning = make_record("Jam likes green tea a lot", embedding=[1.0, 0.0], at=2)
        insert(store, word, meaning)
        hits = store.search("default", "green tea", limit=5, type=None, now=NOW,
                            vector=[1.0, 0.0])
        assert _ids(hits)[0] == meaning.id
        assert all(0 < s <= 1 for _, s in hits)

    def test_missing_vectors_and_set_vectors(self, store: Store) -> None:
        if not isinstance(store, Reindexable):
            pytest.skip("the store does not implement missing_vectors/set_vectors")
        bare = make_record("no vector yet", at=1)
        other = make_record("old model", embedding=[1.0, 0.0], embedding_model="old", at=2)
        current = make_record("current model", embedding=[0.0, 1.0], embedding_model="m1", at=3)
        retired = make_record("history", status="superseded", at=0)
        elsewhere = make_record("other scope", scope="work", at=4)
        insert(store, bare, other, current, retired, elsewhere)
        missing = store.missing_vectors("m1", 10)
        assert [r.id for r in missing] == [bare.id, other.id, elsewhere.id]
        assert [r.id for r in store.missing_vectors("m1", 2)] == [bare.id, other.id]
        done = store.set_vectors([("default", bare.id, [0.6, 0.8], "m1"),
                                  ("default", other.id, [0.8, 0.6], "m1"),
                                  ("default", "no-such-id", [1.0, 0.0], "m1")])
        assert done == 2
        assert [r.id for r in store.missing_vectors("m1", 10)] == [elsewhere.id]
        stored = store.get("default", bare.id)
        assert stored is not None and stored.embedding_model == "m1"
        assert stored.embedding is not None
        assert [round(x, 4) for x in stored.embedding] == [0.6, 0.8]
        assert store.set_vectors([("default", elsewhere.id, [1.0, 0.0], "m1")]) == 0
        if VECTOR_SEARCH in store.capabilities:
            hits = store.nearest("default", [0.6, 0.8], limit=1, now=NOW)
            assert [r.id for r, _ in hits] == [bare.id]

    # --- listing -------------------------------------------------------------------------------

    def test_list_statuses(self, store: Store) -> None:
        live = make_record("live one", at=4, type="project")
        typed = make_record("live two", at=3, type="identity")
        lapsed = make_record("lapsed", at=2, type="project", expires_at=T0 + timedelta(hours=1))
        retired = make_record("retired", at=1, type="project", status="superseded")
        insert(store, live, typed, lapsed, retired)

        def listed(status: str, type: str | None = None) -> list[str]:
            page = store.list("default", status=status, type=type, limit=10, cursor=None,
                              now=NOW)
            assert page.next_cursor is None
            return [r.id for r in page.records]

        assert listed("active") == [live.id, typed.id]
        assert listed("expired") == [lapsed.id]
        assert listed("superseded") == [retired.id]
        assert listed("all") == [live.id, typed.id, lapsed.id, retired.id]
        assert listed("all", "project") == [live.id, lapsed.id, retired.id]
        assert listed("active", "project") == [live.id]

    @pytest.mark.parametrize("cursor", ["garbage", "", "eyJ4IjoxfQ", "%%%", "c1:"])
    def test_list_malformed_cursor(self, store: Store, cursor: str) -> None:
        insert(store, make_record("something"))
        with pytest.raises(InvalidArgument):
            store.list("default", status="all", type=None, limit=5, cursor=cursor, now=NOW)

    def test_pagination_concurrent_inserts(self, store: Store) -> None:
        # triples share a timestamp, so page boundaries fall inside ties
        originals = [make_record(f"original {i}", at=i // 3 * 10) for i in range(23)]
        insert(store, *originals)
        seen: list[str] = []
        cursor = None
        for page_number in range(20):
            page = store.list("default", status="all", type=None, limit=4, cursor=cursor,
                              now=NOW)
            seen += [r.id for r in page.records]
            # two newer records and one between already-listed ones land between pages
            insert(store, make_record(f"newer {page_number}a", at=10_000 + page_number * 2),
                   make_record(f"newer {page_number}b", at=10_001 + page_number * 2))
            if page.next_cursor is None:
                break
            cursor = page.next_cursor
        wanted = [r.id for r in sorted(originals, key=lambda r: (iso(r.created_at), r.id),
                                       reverse=True)]
        assert [i for i in seen if i in set(wanted)] == wanted
        assert len(seen) == len(set(seen))

    # --- writes --------------------------------------------------------------------------------

    def test_supersede(self, store: Store) -> None:
        old = make_record("Jam lives in Paris", subject="home")
        insert(store, old)
        new = make_record("Jam lives in Berlin", subject="home", at=50)
        store.write(WritePlan(scope="default", now=NOW, insert=new, retire=(old.id,)),
                    Preconditions(scope="default", by_key={new.key: frozenset()},
                                  by_subject={"home": frozenset({old.id})}))
        retired = store.get("default", old.id)
        assert retired is not None
        assert (retired.status, retired.superseded_by) == ("superseded", new.id)
        assert retired.superseded_at == NOW and retired.updated_at == NOW
        assert retired.text == old.text and retired.created_at == old.created_at
        assert store.by_subject("default", "home") == [new]

    def test_upgrade_source(self, store: Store) -> None:
        record = make_record("Jam is vegetarian", source="agent-inferred")
        insert(store, record)
        store.write(WritePlan(scope="default", now=NOW,
                              upgrade_source=(record.id, "user-explicit")),
                    Preconditions(scope="default", by_key={record.key: frozenset({record.id})}))
        got = store.get("default", record.id)
        assert got is not None and got.source == "user-explicit" and got.updated_at == NOW
        assert got.text == record.text and got.status == "active"

    def _snapshot(self, store: Store) -> list[dict[str, Any]]:
        return [
            r.model_dump() | {"embedding": r.embedding}
            for r in sorted(every_record(store, "default"), key=lambda r: r.id)
        ]

    def test_stale_key_precondition_changes_nothing(self, store: Store) -> None:
        existing = make_record("Jam lives in Berlin", subject="home")
        insert(store, existing)
        before = self._snapshot(store)
        again = make_record("jam lives in  BERLIN", at=9)
        with pytest.raises(PreconditionFailed):
            store.write(WritePlan(scope="default", now=NOW, insert=again),
                        Preconditions(scope="default", by_key={again.key: frozenset()}))
        assert self._snapshot(store) == before
        assert store.integrity_check() == []

    def test_stale_subject_precondition_changes_nothing(self, store: Store) -> None:
        first = make_record("Jam lives in Paris", subject="home")
        second = make_record("Jam likes trains", subject="travel", at=1)
        insert(store, first, second)
        before = self._snapshot(store)
        new = make_record("Jam lives in Berlin", subject="home", at=9)
        stale = [
            Preconditions(scope="default", by_key={new.key: frozenset()},
                          by_subject={"home": frozenset()}),
            Preconditions(scope="default", by_key={new.key: frozenset()},
                          by_subject={"home": frozenset({first.id}),
                                      "travel": frozenset({first.id})}),
            Preconditions(scope="default", by_key={new.key: frozenset({second.id})},
                          by_subject={"home": frozenset({first.id})}),
        ]
        for pre in stale:
            with pytest.raises(PreconditionFailed):
                store.write(WritePlan(scope="default", now=NOW, insert=new,
                                      retire=(first.id, second.id)), pre)
            assert self._snapshot(store) == before

    def test_invariant_without_preconditions(self, store: Store) -> None:
        first = make_record("Jam lives in Berlin", subject="home")
        insert(store, first)
        before = self._snapshot(store)
        for clash in (make_record("JAM LIVES IN BERLIN", at=1),
                      make_record("Jam moved to Paris", subject="home", at=2)):
            with pytest.raises(PreconditionFailed):
                insert(store, clash)
            assert self._snapshot(store) == before
        # a superseded copy (history) never clashes
        insert(store, make_record("Jam lives in Berlin", subject="home", status="superseded",
                                  at=3))
        assert store.integrity_check() == []

    def test_racing_writes_one_wins(self, store: Store) -> None:
        barrier = threading.Barrier(4)
        outcomes: list[str] = []

        def save(n: int) -> None:
            record = make_record("Jam lives in Berlin", subject="home", at=n)
            barrier.wait()
            try:
                store.write(WritePlan(scope="default", now=NOW, insert=record),
                            Preconditions(scope="default", by_key={record.key: frozenset()},
                                          by_subject={"home": frozenset()}))
                outcomes.append("won")
            except PreconditionFailed:
                outcomes.append("lost")

        threads = [threading.Thread(target=save, args=(n,)) for n in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(outcomes) == ["lost", "lost", "lost", "won"]
        assert len(store.by_subject("default", "home")) == 1

    def test_delete(self, store: Store) -> None:
        record = make_record("Jam lives in Berlin", subject="home", embedding=FULL_VECTOR)
        keep = make_record("Jam likes tea", at=1, embedding=FULL_VECTOR)
        insert(store, record, keep)
        assert store.delete("default", record.id) == record
        assert store.get("default", record.id) is None
        assert store.by_subject("default", "home") == []
        assert store.by_text_key("default", record.key) == []
        assert store.resolve_id("default", record.id) == []
        assert record.id not in _ids(store.search("default", "Berlin", limit=5, type=None,
                                                  now=NOW))
        if VECTOR_SEARCH in store.capabilities:
            assert _ids(store.nearest("default", FULL_VECTOR, limit=5, now=NOW)) == [keep.id]
        assert store.delete("default", record.id) is None
        assert [r.id for r in every_record(store, "default")] == [keep.id]
        assert store.integrity_check() == []

    def test_write_many_is_one_atomic_batch(self, store: Store) -> None:
        old = make_record("Jam lives in Athens", subject="location")
        newer = make_record("Jam lives in Berlin", at=1, subject="location")
        other = make_record("Jam likes tea", at=2, scope="work")
        store.write_many(
            [WritePlan(scope="default", now=NOW, insert=old),
             WritePlan(scope="default", now=NOW, insert=newer, retire=(old.id,)),
             WritePlan(scope="work", now=NOW, insert=other)],
            [Preconditions(scope="default", by_subject={"location": frozenset()}),
             Preconditions(scope="work", by_key={other.key: frozenset()})],
        )
        assert [r.id for r in store.by_subject("default", "location")] == [newer.id]
        retired = store.get("default", old.id)
        assert retired is not None and retired.superseded_by == newer.id
        assert store.get("work", other.id) is not None
        late = make_record("Jam lives in Lisbon", at=3, subject="location")
        extra = make_record("Jam owns a bike", at=4)
        with pytest.raises(PreconditionFailed):
            store.write_many(
                [WritePlan(scope="default", now=NOW, insert=extra),
                 WritePlan(scope="default", now=NOW, insert=late)],
                [Preconditions(scope="default", by_key={extra.key: frozenset()}),
                 Preconditions(scope="default", by_subject={"location": frozenset()})],
            )
        assert store.get("default", extra.id) is None
        assert store.get("default", late.id) is None
        with pytest.raises(PreconditionFailed):
            store.write_many([WritePlan(scope="default", now=NOW, insert=extra),
                              WritePlan(scope="default", now=NOW, insert=late)],
                             [Preconditions(scope="default")])
        assert store.get("default", extra.id) is None
        assert store.integrity_check() == []

    def test_compact_removes_only_records_expired_past_the_cutoff(self, store: Store) -> None:
        old = make_record("Jam was in Crete", expires_at=T0 + timedelta(hours=1))
        fresh = make_record("Jam is in Rhodes", at=1, expires_at=NOW + timedelta(days=3))
        forever = make_record("Jam likes tea", at=2)
        history = make_record("Jam was in Paris", at=3, status="superseded",
                              expires_at=T0 + timedelta(hours=1))
        other = make_record("Jam was in Kos", at=4, scope="work",
                            expires_at=T0 + timedelta(hours=1))
        insert(store, old, fresh, forever, history, other)
        assert store.compact(T0 + timedelta(hours=2)) == 2
        assert store.get("default", old.id) is None and store.get("work", other.id) is None
        assert store.search("default", "Crete", limit=5, type=None, now=T0) == []
        remaining = {r.id for r in every_record(store, "default")}
        assert remaining == {fresh.id, forever.id, history.id}
        assert store.compact(T0 + timedelta(hours=2)) == 0
        assert store.integrity_check() == []

    # --- processes -----------------------------------------------------------------------------

    def test_cross_process_saves(self, store_spec: StoreSpec | None, store: Store,
                                 store_home: Path) -> None:
        self._needs(store, CROSS_PROCESS)
        if store_spec is None:
            pytest.skip("needs store_spec: fresh processes build the store from its entry point")
        context = multiprocessing.get_context("spawn")
        start, results = context.Barrier(4), context.Queue()
        workers = [context.Process(target=cross_process_saver,
                                   args=(store_spec, str(store_home), n, 50, start, results))
                   for n in range(4)]
        for process in workers:
            process.start()
        outcomes = dict(results.get(timeout=120) for _ in workers)
        for process in workers:
            process.join(timeout=30)
        errors = {n: v for n, v in outcomes.items() if isinstance(v, str)}
        assert not errors, f"worker processes failed: {errors}"
        acked = list(outcomes.values())
        records = every_record(store, "shared")
        by_id = {r.id: r for r in records}
        assert {i for ids in acked for i in ids} <= set(by_id)
        for subject in {f"subject-{n}" for n in range(10)}:
            assert len(store.by_subject("shared", subject)) == 1
        active = [r for r in records if r.status == "active"]
        assert len({r.key for r in active}) == len(active)
        assert len({r.subject for r in active}) == len(active)
        assert store.integrity_check() == []
