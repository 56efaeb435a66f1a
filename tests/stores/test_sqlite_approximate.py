"""The SQLite store's approximate index (D-185), with real hnswlib and real SQLite: above the
threshold recall answers what the exact scan answers, deletions and new vectors reach the graph,
a reopened store loads the saved graph, a corrupt or foreign file is rebuilt while the exact
scan answers, and another process's write reaches this process's graph through the log."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from jamgate_adapters.stores.kit.approximate import ApproximateIndex
from jamgate_adapters.stores.sqlite import graphs
from jamgate_adapters.stores.sqlite.store import SqliteStore
from jamgate_core.contracts import Preconditions, WritePlan
from jamgate_core.models import MemoryRecord, new_id, text_key, utcnow

pytest.importorskip("hnswlib")

NOW = utcnow()
DIM = 24
ROWS = 2_000
WORDS = ("amber", "birch", "cedar", "delta", "ember", "fjord", "grove", "heron")


def opened(home: Path, threshold: int = 500) -> SqliteStore:
    store = SqliteStore(SqliteStore.Options(approximate_from=threshold), home)
    store.open()
    return store


def seeded(count: int, seed: int = 7) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(20, DIM))
    rows = centres[rng.integers(0, 20, count)] + rng.normal(scale=0.6, size=(count, DIM))
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def fill(store: SqliteStore, vectors: np.ndarray, label: str = "fact") -> list[str]:
    plans, conditions, ids = [], [], []
    base = NOW - timedelta(days=1)
    for n, vector in enumerate(vectors):
        at = base + timedelta(seconds=n)
        text = f"{label} {n} {WORDS[n % len(WORDS)]} {WORDS[(n // 8) % len(WORDS)]}"
        record = MemoryRecord(id=new_id(), text=text, created_at=at, updated_at=at,
                              embedding=vector.tolist())
        plans.append(WritePlan(scope="default", now=at, insert=record))
        conditions.append(Preconditions(scope="default", by_key={text_key(text): frozenset()}))
        ids.append(record.id)
    store.write_many(plans, conditions)
    return ids


def near(store: SqliteStore, vector: np.ndarray, limit: int = 10) -> list[str]:
    return [r.id for r, _ in store.nearest("default", vector.tolist(), limit=limit, now=NOW)]


def found(store: SqliteStore, query: str, vector: np.ndarray) -> list[tuple[str, float]]:
    return [(r.id, round(score, 6)) for r, score in
            store.search("default", query, limit=10, type=None, now=NOW,
                         vector=vector.tolist())]


def ready(store: SqliteStore, probe: np.ndarray) -> str:
    """Start the scope's graph, wait for it, install it; the graph's state after."""
    graphs = store._vectors.graphs
    assert graphs is not None
    near(store, probe)
    assert graphs.wait(120)
    near(store, probe)
    return graphs.state("default", DIM)


def graph(store: SqliteStore) -> ApproximateIndex:
    assert store._vectors.graphs is not None
    index = store._vectors.graphs._graphs[("default", DIM)].index
    assert index is not None
    return index


def graph_files(home: Path) -> list[Path]:
    return sorted((home / "memory.db.ann").glob("*"))


@pytest.fixture
def home(tmp_path: Path) -> Path:
    store = opened(tmp_path)
    try:
        fill(store, seeded(ROWS))
    finally:
        store.close()
    return tmp_path


def test_above_the_threshold_answers_equal_the_exact_scan(home: Path) -> None:
    approximate, exact = opened(home), opened(home, threshold=10**9)
    try:
        queries = seeded(30, seed=99)
        assert ready(approximate, queries[0]) == "built"
        assert exact._vectors.graphs is not None
        assert exact._vectors.graphs.state("default", DIM) == "none"
        for n, query in enumerate(queries):
            assert near(approximate, query, 20) == near(exact, query, 20)
            words = f"{WORDS[n % 8]} {WORDS[(n * 3) % 8]}"
            assert found(approximate, words, query) == found(exact, words, query)
    finally:
        approximate.close()
        exact.close()


class _Unfillable:
    """hnswlib's graph as it answers a query it cannot fill (seen at 100,000 rows of
    near-copies, D-332): every `knn_query` raises the library's own RuntimeError."""

    def __init__(self, graph: Any) -> None:
        self.graph, self.queries = graph, 0

    def set_ef(self, ef: int) -> None:
        self.graph.set_ef(ef)

    def knn_query(self, *args: object, **kwargs: object) -> object:
        self.queries += 1
        raise RuntimeError("Cannot return the results in a contiguous 2D array. Probably ef "
                           "or M is too small")


def test_a_query_the_graph_cannot_fill_is_answered_by_the_exact_scan(home: Path) -> None:
    approximate, exact = opened(home), opened(home, threshold=10**9)
    try:
        queries = seeded(5, seed=41)
        assert ready(approximate, queries[0]) == "built"
        index = graph(approximate)
        unfillable = _Unfillable(index._graph)
        index._graph = unfillable
        for n, query in enumerate(queries):
            assert near(approximate, query, 20) == near(exact, query, 20)
            words = f"{WORDS[n % 8]} {WORDS[(n * 5) % 8]}"
            assert found(approximate, words, query) == found(exact, words, query)
        assert unfillable.queries == 2 * 2 * len(queries)  # a wider beam tried, then the scan
    finally:
        approximate.close()
        exact.close()


def test_deletes_and_new_vectors_reach_the_graph(home: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(graphs, "SAVE_AFTER", 1)  # a changed graph is saved at close…
    store = opened(home)
    try:
        query = seeded(1, seed=5)[0]
        assert ready(store, query) == "built"
        top = near(store, query)[0]
        assert graph_files(home)  # saved when built
        store.delete("default", top)
        assert graph_files(home) == []  # its bytes held the forgotten vector
        assert top not in near(store, query)
        assert top not in graph(store)
        # A new vector pointing at the query, then one changed to point at it.
        newcomer = fill(store, query[None, :], "newcomer")[0]
        assert near(store, query)[0] == newcomer
        victim = near(store, -query, 1)[0]
        store.set_vectors([("default", victim, (-query).tolist(), "m")])
        assert near(store, -query)[0] == victim  # the read applies the log to the graph too
        assert graph(store).vectors([victim])[0] @ -query > 0.999
    finally:
        store.close()
    assert graph_files(home) == []  # …unless it applied a forget


def test_a_reopened_store_loads_the_saved_graph_and_applies_the_log_since(home: Path) -> None:
    store = opened(home)
    query = seeded(1, seed=3)[0]
    try:
        assert ready(store, query) == "built"
    finally:
        store.close()
    assert any(path.suffix == ".hnsw" for path in graph_files(home))
    # A save killed midway left a scratch file: the next save removes it (not a live one's).
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    orphan = home / "memory.db.ann" / f".scope-24.{gone}.tmp"
    live = home / "memory.db.ann" / f".scope-24.{os.getppid()}.tmp"
    orphan.write_bytes(b"vectors")
    live.write_bytes(b"vectors")
    writer = opened(home, threshold=10**9)  # writes while no graph is open: in the log only
    try:
        added = fill(writer, query[None, :], "added")[0]
    finally:
        writer.close()
    again = opened(home)
    try:
        assert ready(again, query) == "file"
        assert near(again, query)[0] == added
        assert added in graph(again)
        graph(again).save(again._vectors.graphs.meta_path("default", DIM),  # type: ignore[union-attr]
                          {"scope": "default", "seen": 0})
        assert not orphan.exists() and live.exists()
    finally:
        again.close()
        live.unlink()


def test_a_corrupt_graph_file_is_rebuilt_while_the_exact_scan_answers(home: Path) -> None:
    store = opened(home)
    queries = seeded(5, seed=11)
    try:
        assert ready(store, queries[0]) == "built"
    finally:
        store.close()
    (corrupt,) = (path for path in graph_files(home) if path.suffix == ".hnsw")
    damaged = bytearray(corrupt.read_bytes())
    damaged[len(damaged) // 2:len(damaged) // 2 + 64] = b"\xff" * 64
    corrupt.write_bytes(bytes(damaged))
    corrupt_inode = corrupt.stat().st_ino
    again, exact = opened(home), opened(home, threshold=10**9)
    try:
        assert again._vectors.graphs is not None
        for query in queries:  # while the graph is prepared, the exact scan answers
            assert near(again, query) == near(exact, query)
        assert again._vectors.graphs.wait(120)
        assert ready(again, queries[0]) == "built"
        for query in queries:
            assert near(again, query) == near(exact, query)
        (rebuilt,) = (path for path in graph_files(home) if path.suffix == ".hnsw")
        # A new file put in place by rename (the same name when the graph is the same bytes):
        # the corrupt file was never written into.
        assert rebuilt.stat().st_ino != corrupt_inode
        assert bytes(damaged) != rebuilt.read_bytes()
    finally:
        again.close()
        exact.close()


def test_a_foreign_graph_file_is_never_trusted(home: Path, tmp_path_factory:
                                               pytest.TempPathFactory) -> None:
    other_home = tmp_path_factory.mktemp("other")
    other = opened(other_home)
    query = seeded(1, seed=4)[0]
    try:
        fill(other, seeded(ROWS, seed=8))
        assert ready(other, query) == "built"
    finally:
        other.close()
    (home / "memory.db.ann").mkdir(exist_ok=True)
    for path in graph_files(other_home):
        (home / "memory.db.ann" / path.name).write_bytes(path.read_bytes())
    store, exact = opened(home), opened(home, threshold=10**9)
    try:
        assert ready(store, query) in ("built", "preparing", "prepared")
        assert store._vectors.graphs is not None and store._vectors.graphs.wait(120)
        assert ready(store, query) == "built"
        assert near(store, query) == near(exact, query)
    finally:
        store.close()
        exact.close()


@pytest.mark.slow
def test_another_process_write_reaches_this_process_graph(home: Path) -> None:
    store = opened(home)
    query = seeded(1, seed=6)[0]
    try:
        assert ready(store, query) == "built"
        code = ("import sys, json; from pathlib import Path\n"
                "from jamgate_adapters.stores.sqlite.store import SqliteStore\n"
                "from jamgate_core.contracts import Preconditions, WritePlan\n"
                "from jamgate_core.models import MemoryRecord, utcnow\n"
                "s = SqliteStore(SqliteStore.Options(), Path(sys.argv[1])); s.open()\n"
                "now = utcnow()\n"
                "r = MemoryRecord(id='other-process', text='from elsewhere', created_at=now,"
                " updated_at=now, embedding=json.loads(sys.argv[2]))\n"
                "s.write(WritePlan(scope='default', now=now, insert=r),"
                " Preconditions('default'))\n"
                "s.close()\n")
        subprocess.run([sys.executable, "-c", code, str(home), str(query.tolist())],
                       check=True, timeout=120)
        assert near(store, query)[0] == "other-process"
        assert "other-process" in graph(store)
    finally:
        store.close()
