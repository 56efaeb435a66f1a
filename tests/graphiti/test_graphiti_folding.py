"""The graphiti store's keyword terms are the gate's one folding of text (schema v2), and a v1
graph has them rewritten when it is opened (see tests/stores/test_one_folding.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from jamgate_adapters.stores.graphiti import GraphitiStore
from jamgate_adapters.stores.graphiti.records import index_text
from jamgate_adapters.stores.graphiti.store import SCHEMA_VERSION
from jamgate_core.testing import NOW, insert, make_record

SPELLINGS = [  # saved as written, found by the other spelling
    ("Die Straße ist lang", "STRASSE"),
    ("Ο ΔΡΟΜΟΣ ΕΙΝΑΙ ΣΤΕΝΟΣ", "δρόμος"),
    ("The ﬁle lives in the ofﬁce", "office"),
    ("İstanbul köprüleri", "istanbul"),
    ("東京は時々雨が降ります", "時々"),
]


def opened(falkor: Any, group_prefix: str, home: Path) -> GraphitiStore:
    store = GraphitiStore(GraphitiStore.Options(**falkor.options(group_prefix=group_prefix)),
                          home)
    store.open()
    return store


@pytest.fixture
def store(falkor: Any, group_prefix: str, tmp_path: Path) -> Iterator[GraphitiStore]:
    built = opened(falkor, group_prefix, tmp_path)
    yield built
    built.close()


def _found(store: GraphitiStore, scope: str, query: str) -> list[str]:
    return [r.id for r, _ in store.search(scope, query, limit=5, type=None, now=NOW)]


def test_each_spelling_finds_the_other(store: GraphitiStore) -> None:
    for n, (text, query) in enumerate(SPELLINGS):
        record = make_record(text, at=n, scope=f"spelling-{n}")
        insert(store, record)
        assert _found(store, record.scope, query) == [record.id], (text, query)


def test_a_v1_graph_has_its_terms_rewritten_on_open(falkor: Any, group_prefix: str,
                                                    tmp_path: Path) -> None:
    first = opened(falkor, group_prefix, tmp_path)
    records = [make_record(f"Die Straße Nummer {n}", at=n) for n in range(3)]
    insert(first, *records)
    key = f"{group_prefix}:schema"

    async def as_v1() -> None:  # terms folded some other way, as v1 might have
        graph = first.graph
        await graph.redis.set(key, "1")
        driver = await graph.driver(first.group("default"))
        await driver.execute_query("MATCH ()-[e:RELATES_TO]->() WHERE e.group_id = $gid "
                                   "SET e.jamgate_terms = 'stale'", gid=first.group("default"))

    first._run(as_v1())
    assert _found(first, "default", "strasse") == []
    first.close()
    again = opened(falkor, group_prefix, tmp_path)
    try:
        assert int(again._run(again.graph.redis.get(key))) == SCHEMA_VERSION == 2

        async def terms() -> dict[str, str]:
            driver = await again.graph.driver(again.group("default"))
            result = await driver.execute_query(
                "MATCH ()-[e:RELATES_TO]->() WHERE e.group_id = $gid "
                "RETURN e.uuid AS id, e.jamgate_terms AS terms", gid=again.group("default"))
            return {row["id"]: row["terms"] for row in result[0]}

        assert again._run(terms()) == {r.id: index_text(r) for r in records}
        assert set(_found(again, "default", "strasse")) == {r.id for r in records}
    finally:
        again.close()
