"""Passage vectors of the benchmarks' personal facts, computed once and cached as `.npy` files
(`cached_vectors`), and a large tier's remainder filled with seeded near copies of them
(`nudged`): the cost of a save or a recall depends on how many rows a matrix holds, not on
what they say, so a 100,000-record tier needs no 100,000 live embeddings."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from jamgate_core.models import utcnow

# Texts per embedder call while caching.
BATCH = 16


def cached_vectors(embedder: Any, texts: list[str], path: Path, kind: str) -> Any:
    """Vectors of `texts` (a prefix of one fixed stream), extended and saved as they are made."""
    import numpy as np

    have = np.load(path) if path.exists() else np.zeros((0, embedder.dim), dtype=np.float32)
    if len(have) >= len(texts):
        return have[:len(texts)]
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = [have]
    done = len(have)
    began = time.perf_counter()
    while done < len(texts):
        chunk = texts[done:done + BATCH]
        rows.append(np.asarray(embedder.embed(chunk, kind), dtype=np.float32))
        done += len(chunk)
        if done % 1024 == 0 or done == len(texts):
            np.save(path, np.concatenate(rows))
            rate = (done - len(have)) / (time.perf_counter() - began)
            print(f"  embedded {done:,}/{len(texts):,} ({rate:.0f}/s)", file=sys.stderr)
    return np.concatenate(rows)


def cached_count(path: Path) -> int:
    """How many vectors the cache file holds (0 when there is none)."""
    import numpy as np

    return len(np.load(path, mmap_mode="r")) if path.exists() else 0


def nudged(vectors: Any, count: int, seed: int) -> Any:
    """`count` rows: the real ones, then copies of them with seeded noise, unit length."""
    import numpy as np

    if count <= len(vectors):
        return vectors[:count]
    rng = np.random.default_rng(seed)
    extra = vectors[rng.integers(0, len(vectors), count - len(vectors))]
    extra = extra + rng.normal(0, 0.02, extra.shape).astype(np.float32)
    extra /= np.linalg.norm(extra, axis=1, keepdims=True)
    return np.concatenate([vectors, extra.astype(np.float32)])


def settle_index(store: Any, probe: list[float], progress: Any) -> None:
    """Build a large SQLite scope's approximate index now and save it (closing the app),
    so the server loads the file instead of scanning while it builds (D-185)."""
    graphs = getattr(store._vectors, "graphs", None)
    if graphs is None:
        return
    store.nearest("default", probe, limit=1, now=utcnow())
    if graphs.state("default", len(probe)) == "none":
        return
    progress.start("approximate index (build once)", 1)
    graphs.wait(3_600)
    progress.finish()
