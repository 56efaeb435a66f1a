"""The SQLite store's approximate indexes (D-185): for a scope whose matrix holds at least
`threshold` rows, an HNSW graph (`kit.approximate`) proposes candidates that the matrix
re-ranks exactly. The graph is saved beside the database (`<db>.ann/`) with the change-log
position it reflects, loaded on the next open and brought forward from the log; it is built in
a background thread when there is no file, the file is stale beyond the log, corrupt or
another store's. Until a graph is ready the exact scan answers: nothing is ever waited for.

A graph that applied a hard deletion (a forgotten or purged memory, whose vector a marked
deletion leaves in the graph's bytes) is never saved again; the deleting store also removes
the scope's saved files (`forget_files`), so the next open builds a clean one.
"""

from __future__ import annotations

import contextlib
import hashlib
import random
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jamgate_adapters.stores.kit import approximate
from jamgate_adapters.stores.kit.approximate import ApproximateIndex
from jamgate_adapters.stores.kit.vectors import VectorMatrix

# Rows in a scope from which the approximate index is used (measured: docs/benchmarks.md).
THRESHOLD = 50_000
# A graph that applied this many log entries since it was saved is saved again at close.
SAVE_AFTER = 5_000
# Rows whose stored vectors a loaded graph must match (a foreign file's do not).
SPOT_CHECK = 32


@dataclass
class ScopeGraph:
    """One scope's graph: being prepared in the background, or ready and following the log."""

    scope: str
    dim: int
    index: ApproximateIndex | None = None
    seen: int = 0  # the last change-log entry the graph reflects
    saved_seen: int = -1  # the position of the file on disk (-1: none written by us)
    clean: bool = True  # holds no hard-deleted vector: may be saved
    forgets: int = 0  # hard deletions in the scope seen by this store (`forget_files`)
    source: str = ""  # "file" or "built", once ready
    worker: threading.Thread | None = None
    ready: threading.Event = field(default_factory=threading.Event)
    _pending: tuple[ApproximateIndex, int, bool] | None = None


class Graphs:
    """A store's scope graphs, by (scope, vector length)."""

    def __init__(self, folder: Path, lock: Any,
                 snapshot: Callable[[str, int], tuple[VectorMatrix, int]],
                 threshold: int = THRESHOLD) -> None:
        """`snapshot(scope, dim)` gives the scope's current matrix and the last log entry it
        reflects; it is called under `lock`, the lock the matrices change under."""
        self.folder = folder
        self.threshold = threshold
        self._lock = lock
        self._snapshot = snapshot
        self._graphs: dict[tuple[str, int], ScopeGraph] = {}
        self._closed = False

    def meta_path(self, scope: str, dim: int) -> Path:
        name = hashlib.sha256(scope.encode("utf-8")).hexdigest()[:16]
        return self.folder / f"{name}-{dim}.json"

    def _header(self, scope: str) -> dict[str, object]:
        return {"scope": scope}

    def current(self, conn: sqlite3.Connection, scope: str, matrix: VectorMatrix,
                newest: int) -> ApproximateIndex | None:
        """The scope's ready graph, in step with the log up to `newest` (None: scan exactly).
        Starts the background preparation the first time a scope is large enough."""
        if len(matrix) < self.threshold or self._closed or not approximate.available():
            return None
        key = (scope, matrix.dim)
        graph = self._graphs.get(key)
        if graph is None:
            graph = self._graphs[key] = ScopeGraph(scope, matrix.dim)
            self._start(graph)
            return None
        if graph._pending is not None:
            self._install(conn, graph, matrix, newest)
        return graph.index

    def follow(self, scope: str, matrix: VectorMatrix, put: list[str], removed: list[str],
               hard: bool, newest: int) -> None:
        """Apply changes the matrix just applied to the scope's ready graph."""
        graph = self._graphs.get((scope, matrix.dim))
        if graph is None or graph.index is None:
            return
        for key in removed:
            graph.index.remove(key)
        if put:
            graph.index.add(put, matrix.units(put))
        graph.clean = graph.clean and not hard
        graph.seen = newest

    def reloaded(self, scope: str, dim: int) -> None:
        """The scope's matrix was read again whole: its ready graph must be caught up from
        the log again before it is used (it is treated as a loaded file)."""
        graph = self._graphs.get((scope, dim))
        if graph is not None and graph.index is not None:
            graph._pending = (graph.index, graph.seen, True)
            graph.index = None

    # --- preparing ----------------------------------------------------------------------------

    def _start(self, graph: ScopeGraph, load: bool = True) -> None:
        """Prepare the scope's graph in a thread: the saved file when it is sound (`load`),
        else a new graph from a snapshot of the matrix, saved when built."""
        meta, header = self.meta_path(graph.scope, graph.dim), self._header(graph.scope)

        def prepare() -> None:
            try:
                loaded = ApproximateIndex.load(meta, header) if load else None
                if loaded is not None:
                    graph._pending = (loaded, int(str(loaded.header["seen"])), True)
                    return
                with self._lock:  # a snapshot of the matrix and the log position it holds
                    matrix, seen = self._snapshot(graph.scope, graph.dim)
                    keys, units = list(matrix.keys), matrix.units()
                    forgets = graph.forgets
                built = ApproximateIndex(graph.dim, len(keys) + len(keys) // 8 + 64)
                for start in range(0, len(keys), 4_096):
                    if self._closed:
                        return
                    built.add(keys[start:start + 4_096], units[start:start + 4_096])
                del units
                clean = graph.forgets == forgets  # no forget since the snapshot
                if not self._closed and clean:
                    with contextlib.suppress(OSError):
                        built.save(meta, {**header, "seen": seen})
                        graph.saved_seen = seen
                graph.clean = clean
                graph._pending = (built, seen, False)
            except Exception:
                graph._pending = None
            finally:
                graph.ready.set()

        graph.worker = threading.Thread(target=prepare, name=f"jamgate-ann-{graph.dim}",
                                        daemon=True)
        graph.worker.start()

    def _install(self, conn: sqlite3.Connection, graph: ScopeGraph, matrix: VectorMatrix,
                 newest: int) -> None:
        """Bring a prepared graph forward from the log to `newest` and check it against the
        matrix; a loaded one that disagrees (foreign, or stale beyond the pruned log) is
        dropped and a new one built."""
        assert graph._pending is not None
        index, seen, loaded = graph._pending
        graph._pending = None
        oldest = conn.execute("SELECT min(seq) FROM record_changes").fetchone()[0]
        if seen > newest or (seen < newest and (oldest is None or seen < oldest - 1)):
            return self._rebuild(graph)  # from another store, or stale beyond the log
        changed = [row[0] for row in conn.execute(
            "SELECT DISTINCT record_id FROM record_changes WHERE seq > ? AND seq <= ? "
            "AND scope = ?", (seen, newest, graph.scope))]
        put = [key for key in changed if key in matrix]
        for key in changed:
            if key not in matrix:
                index.remove(key)
        if put:
            index.add(put, matrix.units(put))
        have, want = index.members(), set(matrix.keys)
        if have != want:
            if loaded:
                return self._rebuild(graph)
            for key in have - want:
                index.remove(key)
            extra = list(want - have)
            if extra:
                index.add(extra, matrix.units(extra))
        if loaded and matrix.keys:
            sample = random.Random(len(matrix)).sample(list(matrix.keys),
                                                       min(SPOT_CHECK, len(matrix)))
            difference = abs(index.vectors(sample) - matrix.units(sample)).max()
            if float(difference) > 1e-4:
                return self._rebuild(graph)
        matrix.track_moments()
        graph.index, graph.seen = index, newest
        graph.source = "file" if loaded and graph.source != "built" else "built"
        if loaded and graph.saved_seen < 0:
            graph.saved_seen = seen
        return None

    def _rebuild(self, graph: ScopeGraph) -> None:
        """Build the graph anew in the background; the bad file is left to be replaced by
        rename when the new one is saved (never written in place)."""
        graph.ready.clear()
        graph.source = ""
        self._start(graph, load=False)

    # --- closing ------------------------------------------------------------------------------

    def forget_files(self, scope: str) -> None:
        """A memory of `scope` was deleted for good: remove the scope's saved graphs (their
        bytes may hold its vector) and never save the graphs in memory."""
        for (named, _), graph in self._graphs.items():
            if named == scope:
                graph.clean = False
                graph.forgets += 1
        for meta in list(self.folder.glob("*.json")) if self.folder.is_dir() else []:
            with contextlib.suppress(OSError, ValueError):
                if _read_scope(meta) == scope:
                    for graph_file in self.folder.glob(f"{meta.stem}-*.hnsw"):
                        graph_file.unlink()
                    meta.unlink()

    def close(self) -> None:
        """Save each ready, clean graph that moved on by `SAVE_AFTER` entries since its file."""
        self._closed = True
        for graph in self._graphs.values():
            if (graph.index is not None and graph.clean
                    and graph.seen - graph.saved_seen >= SAVE_AFTER):
                with contextlib.suppress(OSError):
                    graph.index.save(self.meta_path(graph.scope, graph.dim),
                                     {**self._header(graph.scope), "seen": graph.seen})
        self._graphs.clear()

    def wait(self, timeout: float) -> bool:
        """Wait for every graph being prepared (tests and benchmarks); True when all are."""
        return all(graph.ready.wait(timeout) for graph in list(self._graphs.values()))

    def state(self, scope: str, dim: int) -> str:
        """"none", "preparing", "prepared" (waiting to be installed), or the ready graph's
        source: "file" or "built"."""
        graph = self._graphs.get((scope, dim))
        if graph is None:
            return "none"
        if graph.index is not None:
            return graph.source
        return "prepared" if graph._pending is not None else "preparing"


def _read_json(meta: Path) -> dict[str, Any]:
    import json

    table = json.loads(meta.read_text(encoding="utf-8"))
    if not isinstance(table, dict):
        raise ValueError("not an object")
    return table


def _read_scope(meta: Path) -> str:
    return str(_read_json(meta)["scope"])
