"""Speed benchmark: `jamgate bench speed` prints save and recall latency (p50/p95) and peak
memory, in-process for each local store and through a stdio MCP session.

A tier is one store filled with N synthetic records (lexical only, the default stages and
gate log), then timed: saves of new texts (a third of them on a subject that already has an
active record, so they supersede), and recalls of two or three words. The store is filled
with `write_many` batches, as an import would, so the fill itself is not timed.

The stdio tier starts `python -m jamgate_core.cli serve` on a filled home and talks raw
JSON-RPC lines to it (`StdioSession`, also used by the reliability tests): a round trip as a
client sees it, without any client library's own cost.

Extension point: `PHASES` lists what a run measures. The import command (issue 8) adds its
throughput as one more phase there; an embedder's cost per save and per recall likewise.
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
    """One line of the table."""

    path: str  # "in-process" | "stdio MCP"
    store: str
    records: int
    save: Latency
    recall: Latency
    peak_mb: float

    def as_dict(self) -> dict[str, Any]:
        return {"path": self.path, "store": self.store, "records": self.records,
                "save_p50_ms": round(self.save.p50_ms, 3),
                "save_p95_ms": round(self.save.p95_ms, 3),
                "recall_p50_ms": round(self.recall.p50_ms, 3),
                "recall_p95_ms": round(self.recall.p95_ms, 3),
                "samples": len(self.save.samples), "peak_mb": round(self.peak_mb, 1)}


def peak_mb(who: int = resource.RUSAGE_SELF) -> float:
    """Peak resident memory so far, in MiB (Linux reports KiB, macOS bytes)."""
    peak = resource.getrusage(who).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def format_table(rows: Sequence[Row]) -> str:
    head = (f"{'path':<11} {'store':<7} {'records':>8}  {'save p50':>9} {'p95':>8}  "
            f"{'recall p50':>10} {'p95':>8}  {'peak MiB':>8} {'n':>4}")
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(f"{r.path:<11} {r.store:<7} {r.records:>8,}  {r.save.p50_ms:>6.2f} ms "
                     f"{r.save.p95_ms:>5.2f} ms  {r.recall.p50_ms:>7.2f} ms "
                     f"{r.recall.p95_ms:>5.2f} ms  {r.peak_mb:>8.0f} {len(r.save.samples):>4}")
    return "\n".join(lines)


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


def fill(store: Any, count: int, workload: Workload, progress: Progress) -> None:
    """Put `count` records in `store` in `write_many` batches (the import path)."""
    base = utcnow() - timedelta(milliseconds=count + 1)
    progress.start(f"fill {count:,} records", count)
    done = 0
    while done < count:
        plans, conditions = [], []
        for i in range(done, min(done + FILL_BATCH, count)):
            at = base + timedelta(milliseconds=i)
            text = workload.text()
            record = MemoryRecord(id=new_id(), text=text, subject=workload.subject(i),
                                  created_at=at, updated_at=at)
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


def filled_app(store: str, size: int, workload: Workload, progress: Progress) -> Any:
    from jamgate_core.app import open_app
    from jamgate_core.settings import load_settings

    app = open_app(load_settings(store=store_setting(store), embedder="none"))
    fill(app.store, size, workload, progress)
    return app


# ---- phases ----------------------------------------------------------------------------------

@dataclass
class Options:
    sizes: tuple[int, ...]
    stores: tuple[str, ...]
    samples: int
    mcp_size: int | None
    mcp_store: str


Phase = Callable[[Options, Progress], list[Row]]


def in_process_phase(options: Options, progress: Progress) -> list[Row]:
    """Save and recall through `App` for each local store and size."""
    rows = []
    for store in options.stores:
        for size in options.sizes:
            if size > LARGE and store != "sqlite":
                continue
            with isolated_home():
                workload = Workload()
                app = filled_app(store, size, workload, progress)
                try:
                    save, recall = time_app(app, workload, options.samples, progress,
                                            f"{store} {size:,}")
                finally:
                    app.close()
            rows.append(Row("in-process", store, size, save, recall, peak_mb()))
    return rows


def time_app(app: Any, workload: Workload, samples: int, progress: Progress,
             label: str) -> tuple[Latency, Latency]:
    for i in range(5):  # warm up: caches, the first save's compaction
        app.save(SaveRequest(text=workload.text(), subject=workload.subject(i)))
        app.recall(workload.query())
    save, recall = Latency(), Latency()
    progress.start(f"time {label}", samples)
    began = time.perf_counter()
    for i in range(samples):
        if i >= MIN_SAMPLES and time.perf_counter() - began > TIER_SECONDS:
            break
        request = SaveRequest(text=workload.text(), subject=workload.subject(i))
        start = time.perf_counter()
        verdict = app.save(request)
        save.samples.append(time.perf_counter() - start)
        if not verdict.stored:
            raise RuntimeError(f"bench save was not stored: {verdict.reason_code}")
        query = workload.query()
        start = time.perf_counter()
        app.recall(query)
        recall.samples.append(time.perf_counter() - start)
        progress.update(i + 1)
    progress.finish()
    return save, recall


def stdio_phase(options: Options, progress: Progress) -> list[Row]:
    """The same saves and recalls through `jamgate serve` over stdio, on a filled store."""
    if options.mcp_size is None:
        return []
    store, size = options.mcp_store, options.mcp_size
    with isolated_home() as home:
        workload = Workload()
        filled_app(store, size, workload, progress).close()
        env = server_env(home, store=store_setting(store))
        save, recall = Latency(), Latency()
        with StdioSession.start(env) as session:
            for _ in range(5):
                session.call("save_memory", {"text": workload.text()})
                session.call("recall_memory", {"query": workload.query()})
            progress.start(f"time stdio {store} {size:,}", options.samples)
            for i in range(options.samples):
                args: dict[str, Any] = {"text": workload.text()}
                if (subject := workload.subject(i)) is not None:
                    args["subject"] = subject
                start = time.perf_counter()
                result = session.call("save_memory", args)
                save.samples.append(time.perf_counter() - start)
                if result.get("isError") or result["structuredContent"]["decision"] not in (
                        "saved", "superseded"):
                    raise RuntimeError(f"bench save over stdio was not stored: {result}")
                start = time.perf_counter()
                session.call("recall_memory", {"query": workload.query()})
                recall.samples.append(time.perf_counter() - start)
                progress.update(i + 1)
            progress.finish()
    return [Row("stdio MCP", store, size, save, recall, peak_mb(resource.RUSAGE_CHILDREN))]


# Import throughput (issue 8) and the embedder's cost join here as phases of their own.
PHASES: list[Phase] = [in_process_phase, stdio_phase]


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


@hookimpl
def jamgate_register_benchmarks(register: Register) -> None:
    """`jamgate bench speed`: save and recall latency per store and size, and over stdio."""
    parser = register(
        "speed", help="save and recall latency (p50/p95) and peak memory",
        description="Fill each local store with synthetic records and time saves and recalls "
                    "(lexical only, default stages), in-process and through a stdio MCP "
                    f"session. Sizes above {LARGE:,} run on SQLite only.", func=run, json=True)
    parser.add_argument("--sizes", type=_ints, default=DEFAULT_SIZES,
                        help="record counts, comma-separated (default 1000,10000,100000)")
    parser.add_argument("--stores", type=_stores, default=LOCAL_STORES,
                        help="local stores, comma-separated (default sqlite,file,memory)")
    parser.add_argument("--samples", type=int, default=300,
                        help="timed saves and recalls per tier (default 300)")
    parser.add_argument("--mcp-size", type=int, default=10_000,
                        help="records for the stdio MCP tier; 0 skips it (default 10000)")
    parser.add_argument("--mcp-store", choices=LOCAL_STORES[:2], default="sqlite",
                        help="store behind the stdio server (default sqlite)")


def run(args: argparse.Namespace) -> int:
    options = Options(sizes=tuple(sorted(args.sizes)), stores=args.stores,
                      samples=max(args.samples, 1), mcp_size=args.mcp_size or None,
                      mcp_store=args.mcp_store)
    progress = Progress()
    rows: list[Row] = []
    for phase in PHASES:
        rows += phase(options, progress)
    if args.json:
        print(json.dumps([row.as_dict() for row in rows], indent=2))
    else:
        print(format_table(rows))
        print(f"\nn = timed saves and recalls per tier (up to {options.samples}; a tier stops "
              f"after {TIER_SECONDS:g} s); lexical only; peak MiB is this process's peak so far "
              "(stdio: the server's).")
    return 0
