"""A large import's stateless stages judged ahead in worker processes (D-207).

The gate's first stages (validation … classifier) judge a record from the record alone; the
stateful ones (dedup, supersede, near-duplicate) must see the store and the batch's earlier
decisions, in order. For an import of `PARALLEL_FROM` records or more, forked worker processes
(one per core) judge the stateless stages of chunks of `CHUNK` records, each chunk's passage
texts embedded in one call where there is an embedder, while this process builds the
candidates, sends them out, and runs the remaining stages over the returned states in the
batch's order: every decision is the one a single process makes (`Pipeline._judge` resumes
from the state the worker returns).

With an embedder the workers are used only when asked for (`--workers N`): in one process
the import already embeds on two threads (D-208).

A worker only judges; it never touches the store, and nothing is written before every record
is judged. A worker that dies or fails ends the import with `ImportWorkerFailed`, nothing
written. Without `fork` (Windows, macOS), with a plugin wrapping `jamgate_run_stage` (its
effects would stay in the worker) or for a smaller import, the batch is judged here, its texts
embedded ahead (`read_ahead`).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import traceback
from collections import deque
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from datetime import datetime
from itertools import islice
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, NoReturn

from jamgate_commands.read_ahead import reading_ahead
from jamgate_core.errors import InvalidArgument, JamgateError
from jamgate_core.hooks import CORE_PLUGIN
from jamgate_core.models import Candidate, SaveRequest
from jamgate_core.pipeline import Pipeline, Prejudged, _Judgement
from jamgate_core.stage import StageContext, StoreView

if TYPE_CHECKING:
    from jamgate_core.app import App

CHUNK = 64  # records a message; with an embedder, texts an embedding call
PARALLEL_FROM = 1000  # records: below this the forks cost more than they save (measured)


class ImportWorkerFailed(JamgateError):
    """A worker process judging an import's stateless stages died or failed; nothing was
    written."""


def default_workers() -> int:
    """One worker per core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def stateless_stages(pipeline: Pipeline) -> int:
    """How many of the configured stages, from the first, declare themselves stateless."""
    count = 0
    for configured in pipeline.stages:
        if not getattr(configured.stage, "stateless", False):
            break
        count += 1
    return count


def can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods() and sys.platform != "darwin"


def workers_for(app: App, records: int, workers: int | None = None) -> int:
    """How many worker processes judge this import ahead (0: none). By default one per core
    for a lexical import, none with an embedder: its two embedding threads already hold both
    cores (D-180), and each worker would load its own second engine handle (D-208)."""
    if workers is None:
        wanted = 0 if app.pipeline.embedder is not None else default_workers()
    else:
        wanted = workers
    wrapped = any(impl.plugin_name != CORE_PLUGIN
                  for impl in app.pm.hook.jamgate_run_stage.get_hookimpls())
    if (wanted < 1 or records < PARALLEL_FROM or wrapped or not can_fork()
            or stateless_stages(app.pipeline) == 0):
        return 0
    return wanted


class _NoStore:
    """What a worker's stages see as the store: asking it anything is a stage declared
    stateless that is not, and fails (the stage's error policy decides)."""

    def __getattr__(self, name: str) -> NoReturn:
        raise RuntimeError(f"a stage declared stateless asked the store for {name!r}")


def _judge_chunk(prefix: Pipeline, chunk: list[Candidate], now: datetime) -> list[Prejudged]:
    """The prefix stages over each candidate of `chunk`; a state whose candidate did not
    change comes back without it (the caller holds it)."""
    vectors: dict[str, list[float]] = {}
    if prefix.embedder is not None:
        texts = list(dict.fromkeys(candidate.text for candidate in chunk))
        try:
            vectors = dict(zip(texts, prefix.embedder.embed(texts, "passage"), strict=True))
        except Exception:  # the stages ask one text at a time, and fail as they would here
            vectors = {}
    judged = []
    stages = len(prefix.stages)
    for candidate in chunk:
        view = StoreView(_NoStore(), candidate.scope, now)  # type: ignore[arg-type]
        ctx = StageContext(view=view, settings=prefix.settings, embedder=prefix.embedder,
                           now=now)
        if candidate.text in vectors:
            ctx._vectors[(candidate.text, "passage")] = vectors[candidate.text]
        try:
            state = prefix._judge(candidate, ctx)
        except InvalidArgument as exc:
            blank = _Judgement(candidate=None)  # type: ignore[arg-type]
            judged.append(Prejudged(stages, blank, {}, str(exc)))
            continue
        if state.candidate is candidate:
            state.candidate = None  # type: ignore[assignment]
        judged.append(Prejudged(stages, state, ctx._vectors))
    return judged


def _serve(conn: Connection, others: list[Connection], pipeline: Pipeline, stages: int,
           now: datetime) -> None:
    """A worker: judge each chunk received until None (or the end of the pipe)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    for other in others:
        other.close()
    prefix = Pipeline(pipeline.stages[:stages], pipeline.store, pipeline.embedder,
                      pipeline.settings, pipeline.hooks)
    try:
        while (chunk := conn.recv()) is not None:
            conn.send(("judged", _judge_chunk(prefix, chunk, now)))
    except (EOFError, BrokenPipeError):
        return  # the parent went away
    except BaseException as exc:
        with suppress(OSError):
            conn.send(("failed", "".join(traceback.format_exception_only(exc)).strip()))
        raise SystemExit(1) from None


class _Worker:
    def __init__(self, process: multiprocessing.process.BaseProcess, conn: Connection) -> None:
        self.process, self.conn = process, conn

    def send(self, chunk: list[Candidate] | None) -> None:
        try:
            self.conn.send(chunk)
        except OSError:
            self.fail("could not be reached")

    def receive(self) -> list[Prejudged]:
        try:
            status, payload = self.conn.recv()
        except (EOFError, OSError):
            self.fail("ended")
        if status != "judged":
            self.fail(f"failed ({payload})")
        judged: list[Prejudged] = payload
        return judged

    def fail(self, what: str) -> NoReturn:
        self.process.join(timeout=2)
        code = self.process.exitcode
        how = (f" (killed by signal {-code})" if code is not None and code < 0
               else f" (exit code {code})" if code is not None else "")
        raise ImportWorkerFailed(
            f"a worker process judging the import (pid {self.process.pid}) {what}{how} before "
            "every record was judged; nothing was written. Run the import again (`--workers 0` "
            "judges in one process).")

    def stop(self) -> None:
        if self.process.is_alive():
            with suppress(OSError):
                self.conn.send(None)
            self.process.join(timeout=2)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


class AheadJudge:
    """The pipeline's `judge_ahead` for one import: `workers` forked processes, each
    judging one chunk at a time, handed out in turn."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._running: list[_Worker] = []

    def __call__(self, pipeline: Pipeline, candidates: Iterator[Candidate], now: datetime
                 ) -> Iterator[tuple[Candidate, Prejudged | None]]:
        chunks = iter(lambda: list(islice(candidates, CHUNK)), [])
        try:
            self._start(pipeline, now)
            in_flight: deque[tuple[_Worker, list[Candidate]]] = deque()
            for worker in self._running:
                chunk = next(chunks, None)
                if chunk is None:
                    break
                worker.send(chunk)
                in_flight.append((worker, chunk))
            while in_flight:
                worker, chunk = in_flight.popleft()
                judged = worker.receive()
                following = next(chunks, None)
                if following is not None:  # the worker has nothing left to send: no deadlock
                    worker.send(following)
                    in_flight.append((worker, following))
                elif not in_flight:
                    self.stop()  # every record judged ahead: the workers end now
                for candidate, prior in zip(chunk, judged, strict=True):
                    if prior.state.candidate is None:
                        prior.state.candidate = candidate
                    yield candidate, prior
        finally:
            self.stop()

    def _start(self, pipeline: Pipeline, now: datetime) -> None:
        context = multiprocessing.get_context("fork")
        stages = stateless_stages(pipeline)
        for _ in range(self.workers):
            ours, theirs = context.Pipe()
            others = [worker.conn for worker in self._running] + [ours]
            process = context.Process(target=_serve, name="jamgate-import-judge", daemon=True,
                                      args=(theirs, others, pipeline, stages, now))
            process.start()
            theirs.close()
            self._running.append(_Worker(process, ours))

    def stop(self) -> None:
        """End every worker still running (asked first, killed after two seconds)."""
        running, self._running = self._running, []
        for worker in running:
            worker.stop()


@contextmanager
def judging_ahead(app: App, requests: Sequence[SaveRequest], now: datetime,
                  workers: int | None = None) -> Iterator[int]:
    """While the block runs, a batch save of `requests` judges its stateless stages in
    worker processes when that pays (else embeds ahead in this process); yields how many."""
    count = workers_for(app, len(requests), workers)
    if count == 0:
        with reading_ahead(app, requests, now):
            yield 0
        return
    judge = AheadJudge(count)
    app.pipeline.judge_ahead = judge
    try:
        yield count
    finally:
        app.pipeline.judge_ahead = None
        judge.stop()
