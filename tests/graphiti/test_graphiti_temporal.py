"""Supersession as Graphiti itself sees it: validity fields and its own temporal filters."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from jamgate_adapters.stores.graphiti import GraphitiStore
from jamgate_core.contracts import Preconditions, WritePlan
from jamgate_core.errors import ConfigError
from jamgate_core.testing import NOW, T0, make_record


@pytest.fixture
def store(falkor: Any, group_prefix: str, tmp_path: Path) -> Iterator[GraphitiStore]:
    opened = GraphitiStore(GraphitiStore.Options(**falkor.options(group_prefix=group_prefix)),
                           tmp_path)
    opened.open()
    yield opened
    opened.close()


def _graphiti_search(store: GraphitiStore, scope: str, query: str, filters: Any) -> list[str]:
    """Graphiti's own BM25 edge search over the scope's group, with `filters`."""
    from graphiti_core.search.search import search
    from graphiti_core.search.search_config import (
        EdgeReranker,
        EdgeSearchConfig,
        EdgeSearchMethod,
        SearchConfig,
    )

    from jamgate_adapters.stores.graphiti.runtime import make_clients

    gid = store.group(scope)

    async def run() -> list[str]:
        driver = await store.graph.driver(gid)
        config = SearchConfig(edge_config=EdgeSearchConfig(
            search_methods=[EdgeSearchMethod.bm25], reranker=EdgeReranker.rrf), limit=10)
        results = await search(make_clients(driver, None), query, [gid], config, filters,
                               driver=driver)
        return sorted(edge.uuid for edge in results.edges)

    return store._run(run())


def test_supersession_sets_graphiti_validity_and_its_filters_agree(
        store: GraphitiStore) -> None:
    from graphiti_core.edges import EntityEdge
    from graphiti_core.search.search_filters import (
        ComparisonOperator,
        DateFilter,
        SearchFilters,
    )

    old = make_record("Jam lives in Paris", scope="amir/greek", subject="home")
    store.write(WritePlan(scope="amir/greek", now=old.created_at, insert=old),
                Preconditions(scope="amir/greek"))
    moved = T0 + timedelta(hours=5)
    new = make_record("Jam lives in Berlin", scope="amir/greek", subject="home",
                      at=5 * 3600 * 1000)
    store.write(WritePlan(scope="amir/greek", now=moved, insert=new, retire=(old.id,)),
                Preconditions(scope="amir/greek", by_subject={"home": frozenset({old.id})}))

    gid = store.group("amir/greek")

    async def edge(uuid: str) -> Any:
        return await EntityEdge.get_by_uuid(await store.graph.driver(gid), uuid)

    old_edge, new_edge = store._run(edge(old.id)), store._run(edge(new.id))
    assert old_edge.invalid_at == moved and old_edge.expired_at == moved
    assert old_edge.valid_at == old.created_at and old_edge.fact == old.text
    assert new_edge.invalid_at is None and new_edge.expired_at is None
    assert new_edge.attributes["jamgate_status"] == "active"

    # Graphiti's "current facts" filter hides the superseded edge; without it, it is there.
    current = SearchFilters(expired_at=[[DateFilter(
        comparison_operator=ComparisonOperator.is_null)]])
    assert _graphiti_search(store, "amir/greek", "Jam lives", current) == [new.id]
    assert _graphiti_search(store, "amir/greek", "Jam lives", SearchFilters()) == sorted(
        [old.id, new.id])

    # "What was true at t?" with Graphiti's valid_at/invalid_at filters.
    def true_at(moment: Any) -> SearchFilters:
        return SearchFilters(
            valid_at=[[DateFilter(date=moment,
                                  comparison_operator=ComparisonOperator.less_than_equal)]],
            invalid_at=[[DateFilter(comparison_operator=ComparisonOperator.is_null)],
                        [DateFilter(date=moment,
                                    comparison_operator=ComparisonOperator.greater_than)]],
        )

    assert _graphiti_search(store, "amir/greek", "Jam lives",
                            true_at(T0 + timedelta(hours=1))) == [old.id]
    assert _graphiti_search(store, "amir/greek", "Jam lives",
                            true_at(NOW)) == [new.id]

    # and Jamgate reads the same history back
    retired = store.get("amir/greek", old.id)
    assert retired is not None and retired.status == "superseded"
    assert retired.superseded_by == new.id and retired.superseded_at == moved


def test_each_memory_has_a_provenance_episode(store: GraphitiStore) -> None:
    from graphiti_core.nodes import EpisodicNode

    record = make_record("Jam prefers tea", subject="drink", provenance="import:test")
    store.write(WritePlan(scope="default", now=NOW, insert=record), Preconditions(scope="default"))
    gid = store.group("default")

    async def episode() -> Any:
        return await EpisodicNode.get_by_uuid(await store.graph.driver(gid), f"{record.id}.episode")

    found = store._run(episode())
    assert found.content == record.text and found.entity_edges == [record.id]
    assert "import:test" in found.source_description
    store.delete("default", record.id)
    with pytest.raises(Exception, match="not found"):
        store._run(episode())


def test_an_embedder_is_required() -> None:
    with pytest.raises(ConfigError, match="JAMGATE_EMBEDDER"):
        GraphitiStore().bind_embedder(None)


def test_nothing_listens_there_is_a_clear_error(tmp_path: Path) -> None:
    from jamgate_core.errors import StoreUnavailable

    store = GraphitiStore(GraphitiStore.Options(host="127.0.0.1", port=1), tmp_path)
    with pytest.raises(StoreUnavailable, match="Start FalkorDB"):
        store.open()


def test_graphiti_is_imported_only_when_the_store_opens(tmp_path: Path) -> None:
    import subprocess

    code = (
        "import sys\n"
        "from jamgate_core.app import open_app\n"
        "import jamgate_adapters.stores.graphiti\n"
        "app = open_app()\n"
        "app.save(__import__('jamgate_core.models').models.SaveRequest(text='Jam likes tea'))\n"
        "app.close()\n"
        "print('graphiti_core' in sys.modules, 'falkordb' in sys.modules)\n"
    )
    env = {"JAMGATE_HOME": str(tmp_path), "JAMGATE_EMBEDDER": "none", "PATH": "/usr/bin"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=120, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_store_calls_from_many_threads(store: GraphitiStore) -> None:
    """The contract is synchronous and the server calls from worker threads."""
    from concurrent.futures import ThreadPoolExecutor

    records = [make_record(f"Jam fact number {n}", at=n) for n in range(12)]

    def save(record: Any) -> None:
        store.write(WritePlan(scope="default", now=NOW, insert=record),
                    Preconditions(scope="default", by_key={record.key: frozenset()}))

    with ThreadPoolExecutor(4) as pool:
        list(pool.map(save, records))
        found = list(pool.map(lambda r: store.get("default", r.id), records))
    assert found == records
    assert asyncio.get_event_loop_policy() is not None  # no loop leaked into this thread
