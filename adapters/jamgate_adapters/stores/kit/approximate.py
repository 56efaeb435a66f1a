"""An approximate nearest-neighbour graph over a scope's unit vectors (`ApproximateIndex`,
hnswlib's HNSW, inner product), used only as a candidate generator: the matrix re-ranks what
it proposes with exact products (`VectorMatrix.ranked(..., index=...)`, D-185).

Rows carry the store's key; hnswlib's integer labels are this module's own (a counter), so a
key that changes gets a fresh label and its old one is marked deleted, its slot reused by a
later add. `save`/`load` write the graph and its key table as two files: the graph under a
name holding its SHA-256, and a small JSON file naming it, replaced by rename (never written
in place), so a half-written or foreign pair is recognised, never trusted. hnswlib is
imported on first use (the `ann` extra); `available()` says whether it is installed.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

# Graph parameters (D-185: measured on e5 vectors of near-template facts): links per node,
# and the build's beam width.
LINKS = 32
BUILD_BEAM = 200
FORMAT = "jamgate-hnsw-1"


@functools.cache
def available() -> bool:
    """Whether hnswlib can be imported here (asked once a process)."""
    try:
        import hnswlib  # noqa: F401
    except ImportError:
        return False
    return True


class ApproximateIndex:
    """An HNSW graph of unit float32 rows keyed like the matrix, with deletions and updates."""

    def __init__(self, dim: int, capacity: int) -> None:
        import hnswlib

        self.dim = dim
        self._graph = hnswlib.Index(space="ip", dim=dim)
        self._graph.init_index(max_elements=max(capacity, 64), M=LINKS,
                               ef_construction=BUILD_BEAM, allow_replace_deleted=True)
        self._graph.set_num_threads(1)
        self._label: dict[object, int] = {}
        self._key: dict[int, object] = {}
        self._next = 0
        self._deleted = 0
        self.header: dict[str, object] = {}  # a loaded file's header fields

    def __len__(self) -> int:
        return len(self._label)

    def __contains__(self, key: object) -> bool:
        return key in self._label

    def members(self) -> set[object]:
        """The keys the graph holds."""
        return set(self._label)

    def add(self, keys: Sequence[object], units: Any) -> None:
        """Add (or replace) rows: `units` is a float32 array of unit rows, one per key."""
        for key in keys:
            self.remove(key)
        if not len(keys):
            return
        labels = list(range(self._next, self._next + len(keys)))
        self._next += len(keys)
        live = len(self._label) + self._deleted
        if live + len(keys) > self._graph.get_max_elements():
            self._graph.resize_index(max(live + len(keys), self._graph.get_max_elements() * 2))
        self._graph.add_items(units, labels, num_threads=1, replace_deleted=self._deleted > 0)
        self._deleted = max(0, self._deleted - len(keys))
        for key, label in zip(keys, labels, strict=True):
            self._label[key] = label
            self._key[label] = key

    def remove(self, key: object) -> None:
        """Drop the row with this key (nothing when there is none); its slot is reused."""
        label = self._label.pop(key, None)
        if label is None:
            return
        del self._key[label]
        self._graph.mark_deleted(label)
        self._deleted += 1

    def vectors(self, keys: Sequence[object]) -> Any:
        """The stored rows of these keys (each must be present), as a float32 array."""
        import numpy as np

        return np.asarray(self._graph.get_items([self._label[k] for k in keys]),
                          dtype=np.float32)

    def candidates(self, direction: Any, count: int) -> list[object] | None:
        """Up to `count` keys of highest inner product with `direction` (approximate). None
        when the graph cannot fill the list even with a wider beam (hnswlib refuses such a
        query; seen on a graph of near-copies, D-333): the caller then scans exactly."""
        count = min(count, len(self._label))
        if count <= 0:
            return []
        for beam in (max(count, 64), max(8 * count, 1_024)):
            self._graph.set_ef(beam)
            try:
                labels, _ = self._graph.knn_query(direction.reshape(1, -1), k=count,
                                                  num_threads=1)
            except RuntimeError:
                continue
            return [self._key[int(label)] for label in labels[0]]
        return None

    # --- files ------------------------------------------------------------------------------

    def save(self, meta_path: Path, header: dict[str, object]) -> None:
        """Write the graph beside `meta_path` under a name holding its digest, then the JSON
        header (with `header`'s fields, the key table and the digest) by rename. Older graphs
        named by an earlier header are removed after."""
        folder = meta_path.parent
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        _remove_orphans(folder)
        scratch = folder / f".{meta_path.stem}.{os.getpid()}.tmp"
        self._graph.save_index(str(scratch))
        os.chmod(scratch, 0o600)
        digest = _digest(scratch)
        graph = folder / f"{meta_path.stem}-{digest[:16]}.hnsw"
        os.replace(scratch, graph)
        table = {"format": FORMAT, **header, "dim": self.dim, "graph": graph.name,
                 "sha256": digest, "next": self._next, "deleted": self._deleted,
                 "labels": [[label, key] for key, label in self._label.items()]}
        temp = folder / f".{meta_path.name}.{os.getpid()}.tmp"
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(table, out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, meta_path)
        for old in folder.glob(f"{meta_path.stem}-*.hnsw"):
            if old.name != graph.name:
                with contextlib.suppress(OSError):
                    old.unlink()

    @classmethod
    def load(cls, meta_path: Path, header: dict[str, object]) -> ApproximateIndex | None:
        """The graph `meta_path` names, or None when the pair is missing, unreadable, of
        another format, store, scope or length (`header` must match), or the graph's bytes do
        not have the digest its header names (checked before hnswlib reads a byte)."""
        import hnswlib

        try:
            table = json.loads(meta_path.read_text(encoding="utf-8"))
            if (not isinstance(table, dict) or table.get("format") != FORMAT
                    or any(table.get(name) != value for name, value in header.items())):
                return None
            graph = meta_path.parent / str(table["graph"])
            if "/" in str(table["graph"]) or _digest(graph) != table["sha256"]:
                return None
            labels = [(int(label), key) for label, key in table["labels"]]
            index = cls.__new__(cls)
            index.dim = int(table["dim"])
            index._graph = hnswlib.Index(space="ip", dim=index.dim)
            index._graph.load_index(str(graph), max_elements=0, allow_replace_deleted=True)
            index._graph.set_num_threads(1)
        except (OSError, ValueError, TypeError, KeyError, RuntimeError):
            return None
        index._label = {key: label for label, key in labels}
        index._key = {label: key for label, key in labels}
        index._next, index._deleted = int(table["next"]), int(table["deleted"])
        index.header = {name: value for name, value in table.items() if name != "labels"}
        if index._graph.get_current_count() != len(labels) + index._deleted:
            return None
        return index


def _remove_orphans(folder: Path) -> None:
    """Remove the scratch files (`.<name>.<pid>.tmp`) of processes that no longer run: a save
    killed midway leaves one, holding vectors."""
    for scratch in folder.glob(".*.tmp"):
        pid = scratch.name.rsplit(".", 2)[-2]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            with contextlib.suppress(OSError):
                scratch.unlink()
        except (PermissionError, OverflowError):
            continue


def _digest(path: Path) -> str:
    hasher = hashlib.sha256()
    with path.open("rb") as source:
        while chunk := source.read(1 << 20):
            hasher.update(chunk)
    return hasher.hexdigest()
