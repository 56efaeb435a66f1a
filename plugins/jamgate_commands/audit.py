"""`jamgate audit`: what the gate would do with the memories already in a store.

Every active record is replayed, oldest first (by `created_at`), through the gate into a
shadow store (a throwaway SQLite file, for its vector index): judging a record against the
store that already holds it would make everything a duplicate. What the gate would refuse,
merge into an earlier record or retire is reported by reason, with examples, as text, JSON or
Markdown; nothing changes. `--apply` first
writes a backup export (the `jamgate` format), reads it back to verify it, then removes the
flagged records, each removal logged to the gate log (origin `audit`).

Also `jamgate bench audit`: a seeded store with planted junk, duplicates, paraphrases,
secrets and stale facts, audited and scored per planted class.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jamgate_core.contracts import Embedder, EmbedKind
from jamgate_core.errors import JamgateError
from jamgate_core.files import make_private_dir
from jamgate_core.hookspecs import hookimpl
from jamgate_core.models import (
    DEFAULT_SCOPE,
    MemoryRecord,
    SaveRequest,
    Verdict,
    canonical_scope,
    iso,
    utcnow,
)

if TYPE_CHECKING:
    from jamgate_core.app import App
    from jamgate_core.contracts import Register

ACTIONS = ("refuse", "merge", "retire")
MERGED = {"duplicate", "possible_duplicate"}
SECRET_PREFIXES = ("secret", "credential")


@dataclass(frozen=True)
class Finding:
    """One record the gate would not keep as it is."""

    action: str
    reason_code: str
    record: MemoryRecord
    message: str
    other_id: str | None = None  # merged into / retired by

    def shown_text(self, width: int = 100) -> str:
        """The record's text for a report: a secret only as its length."""
        if self.reason_code.startswith(SECRET_PREFIXES):
            return f"[redacted: {len(self.record.text)} characters]"
        text = " ".join(self.record.text.split())
        return text if len(text) <= width else text[: width - 1] + "…"

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action, "reason_code": self.reason_code, "id": self.record.id,
                "scope": self.record.scope, "text": self.shown_text(200),
                "created_at": iso(self.record.created_at), "other_id": self.other_id}


@dataclass
class AuditReport:
    """What an audit found, store-wide."""

    store: str
    scopes: list[str]
    total: int = 0
    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0
    backup: str | None = None
    applied: int = 0

    @property
    def flagged_ids(self) -> set[str]:
        return {f.record.id for f in self.findings}

    def counts(self) -> dict[str, Counter[str]]:
        """Per action, how many findings per reason code."""
        out: dict[str, Counter[str]] = {action: Counter() for action in ACTIONS}
        for finding in self.findings:
            out[finding.action][finding.reason_code] += 1
        return out

    def examples(self, limit: int) -> dict[tuple[str, str], list[Finding]]:
        grouped: dict[tuple[str, str], list[Finding]] = defaultdict(list)
        for finding in self.findings:
            bucket = grouped[(finding.action, finding.reason_code)]
            if len(bucket) < limit:
                bucket.append(finding)
        return grouped

    def to_json(self, examples: int = 3) -> dict[str, Any]:
        return {
            "store": self.store, "scopes": self.scopes, "records": self.total,
            "flagged": len(self.flagged_ids), "seconds": round(self.seconds, 2),
            "counts": {a: dict(c.most_common()) for a, c in self.counts().items()},
            "examples": [f.to_json() for group in self.examples(examples).values()
                         for f in group],
            "backup": self.backup, "applied": self.applied,
        }


# --- the replay --------------------------------------------------------------------------------

def audit_scopes(app: App, scopes: Sequence[str] | None) -> list[str]:
    """The scopes asked for, else every scope the store holds (`Store.scopes()`)."""
    if scopes:
        return sorted({canonical_scope(s) for s in scopes})
    found = sorted({canonical_scope(str(s)) for s in app.store.scopes()})
    return found or [DEFAULT_SCOPE]


def active_records(app: App, scopes: Sequence[str]) -> list[MemoryRecord]:
    """Every active record (expired ones too) of `scopes`, oldest first."""
    records: list[MemoryRecord] = []
    for scope in scopes:
        cursor = None
        while True:
            page = app.store.list(scope, status="all", type=None, limit=1000, cursor=cursor,
                                  now=utcnow())
            records += [r for r in page.records if r.status == "active"]
            cursor = page.next_cursor
            if cursor is None:
                break
    return sorted(records, key=lambda r: (r.created_at, r.id))


class CachedEmbedder:
    """The app's embedder, remembering every vector: a replay embeds each text (and the
    neighbours the near-duplicate stage compares it with) once per kind."""

    def __init__(self, embedder: Embedder) -> None:
        self.inner, self.model_id, self.dim = embedder, embedder.model_id, embedder.dim
        self._memo: dict[tuple[str, str], list[float]] = {}

    def embed(self, texts: list[str], kind: EmbedKind) -> list[list[float]]:
        missing = list(dict.fromkeys(t for t in texts if (kind, t) not in self._memo))
        if missing:
            for text, vector in zip(missing, self.inner.embed(missing, kind), strict=True):
                self._memo[(kind, text)] = vector
        return [self._memo[(kind, t)] for t in texts]


def shadow_app(app: App, folder: Path) -> App:
    """A second app with the same gate over an empty throwaway store in `folder` (SQLite,
    for its vector index), logging nothing, sharing the app's embedder (memoised)."""
    from jamgate_core.app import App as AppClass

    shadow = AppClass(app.settings.model_copy(update={
        "home": folder, "store": "sqlite", "store_options": {"path": str(folder / "shadow.db")},
        "gate_log": "off"}))
    if app.embedder is not None:
        shadow.embedder = CachedEmbedder(app.embedder)
        shadow.pipeline.embedder = shadow.embedder
    return shadow.start()


def request_of(record: MemoryRecord) -> SaveRequest:
    """The save that would have produced `record` (same id, time, trust and provenance)."""
    return SaveRequest(text=record.text, type=record.type, subject=record.subject,
                       source=record.source, scope=record.scope, client=record.client,
                       provenance=record.provenance, created_at=record.created_at,
                       id=record.id, expires_at=record.expires_at)


def judge(verdict: Verdict, record: MemoryRecord, by_id: dict[str, MemoryRecord],
          now: Any) -> list[Finding]:
    """The findings one replayed save gives."""
    if verdict.decision == "rejected" or verdict.decision == "conflict":
        return [Finding("refuse", verdict.reason_code, record, verdict.message, verdict.id)]
    if verdict.decision in MERGED:
        return [Finding("merge", verdict.reason_code, record, verdict.message, verdict.id)]
    found = [Finding("retire", verdict.reason_code, by_id[old], verdict.message, record.id)
             for old in verdict.superseded_ids if old in by_id]
    if verdict.memory is not None and verdict.memory.expires_at is not None \
            and verdict.memory.expires_at <= iso(now):
        found.append(Finding("retire", "ttl.expired", record,
                             f"Expired on {verdict.memory.expires_at}.", None))
    return found


def audit(app: App, scopes: Sequence[str] | None = None, *,
          progress: Callable[[int, int], None] | None = None) -> AuditReport:
    """Replay the store through the gate into a shadow store; change nothing."""
    started = time.monotonic()
    chosen = audit_scopes(app, scopes)
    records = active_records(app, chosen)
    report = AuditReport(store=app.store.location(), scopes=chosen, total=len(records))
    by_id = {r.id: r for r in records}
    now = utcnow()
    with tempfile.TemporaryDirectory(prefix="jamgate-audit-") as folder:
        shadow = shadow_app(app, Path(folder))
        try:
            for done, record in enumerate(records, 1):
                verdict = shadow.save(request_of(record), origin="audit")
                report.findings += judge(verdict, record, by_id, now)
                if progress is not None:
                    progress(done, len(records))
        finally:
            shadow.close()
    report.seconds = time.monotonic() - started
    return report


# --- applying ----------------------------------------------------------------------------------

def write_backup(app: App, scopes: Sequence[str], folder: Path) -> Path:
    """Export `scopes` in the `jamgate` format and read the file back; the path, or an error
    (and nothing changed) when it does not hold every record."""
    from jamgate_commands.transfer import _write_atomically, export, format_class

    make_private_dir(folder)  # 0700; the export itself is written 0600
    path = folder / f"audit-backup-{iso(utcnow()).replace(':', '')}.jsonl"
    written, _ = _write_atomically(path, lambda out: export(app, out, fmt="jamgate",
                                                            scopes=list(scopes)))
    reading = format_class("jamgate")().read(path)
    back = {(request.id, request.text) for request in reading.records}
    if back != {(r.id, r.text) for r in written} or reading.skipped:
        raise JamgateError(f"the backup {path} does not read back whole; nothing was changed. "
                           "Check the disk, then run `jamgate audit --apply` again.")
    return path


def apply(app: App, report: AuditReport, backup_folder: Path) -> AuditReport:
    """Back up, verify, then remove every flagged record, each removal logged."""
    report.backup = str(write_backup(app, report.scopes, backup_folder))
    removed: set[str] = set()
    for finding in report.findings:
        record = finding.record
        if record.id in removed:
            continue
        gone = app.store.delete(record.scope, record.id)
        if gone is not None:
            removed.add(record.id)
            app.hooks.forgotten(gone, f"audit:{finding.action}:{finding.reason_code}")
    report.applied = len(removed)
    return report


# --- rendering ---------------------------------------------------------------------------------

VERBS = {"refuse": "would refuse", "merge": "would merge into an earlier record",
         "retire": "would retire"}


def render_text(report: AuditReport, examples: int = 3) -> str:
    lines = [f"jamgate audit of {report.store}, scope(s) {', '.join(report.scopes)}: "
             f"{report.total} active records, {len(report.flagged_ids)} flagged "
             f"({report.seconds:.1f} s). Nothing was changed." if report.backup is None else
             f"jamgate audit --apply of {report.store}: removed {report.applied} of "
             f"{report.total} records; backup: {report.backup}"]
    grouped = report.examples(examples)
    for action, counts in report.counts().items():
        if not counts:
            continue
        lines.append(f"\n{VERBS[action]}: {sum(counts.values())}")
        for reason, count in counts.most_common():
            lines.append(f"  {reason}: {count}")
            for finding in grouped[(action, reason)]:
                other = f" (→ {finding.other_id})" if finding.other_id else ""
                lines.append(f"    - {finding.shown_text()} [id {finding.record.id}]{other}")
    if not report.findings:
        lines.append("The gate would keep every record as it is.")
    elif report.backup is None:
        lines.append("\nRun `jamgate audit --apply` to remove them (a verified backup first).")
    return "\n".join(lines)


def render_markdown(report: AuditReport, examples: int = 3) -> str:
    lines = [f"# Jamgate audit of {report.store}", "",
             f"- scopes: {', '.join(report.scopes)}", f"- active records: {report.total}",
             f"- flagged: {len(report.flagged_ids)}", f"- took: {report.seconds:.1f} s", ""]
    if report.backup:
        lines += [f"- applied: removed {report.applied}; backup `{report.backup}`", ""]
    lines += ["| action | reason | count |", "| --- | --- | ---: |"]
    for action, counts in report.counts().items():
        lines += [f"| {action} | `{reason}` | {count} |" for reason, count in counts.most_common()]
    lines += ["", "## Examples", ""]
    for (action, reason), group in report.examples(examples).items():
        lines.append(f"### {action}: `{reason}`")
        lines += [f"- {_cell(f.shown_text())} (`{f.record.id}`)" for f in group]
        lines.append("")
    return "\n".join(lines)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


# --- the command -------------------------------------------------------------------------------

@hookimpl
def jamgate_register_commands(register: Register) -> None:
    parser = register(
        "audit", help="report what the gate would refuse, merge or retire in the store",
        description="Replay every active memory, oldest first, through the gate into a "
                    "throwaway shadow store and report what it would refuse, merge into an "
                    "earlier memory or retire, by reason, with examples. Changes nothing "
                    "unless --apply.", func=_cmd_audit)
    parser.add_argument("--scope", action="append", default=None, metavar="SCOPE",
                        help="audit this scope (repeatable; default: every scope the store "
                             "holds)")
    parser.add_argument("--format", choices=["text", "json", "markdown"], default="text")
    parser.add_argument("--json", action="store_true", help="same as --format json")
    parser.add_argument("--examples", type=int, default=3, metavar="N",
                        help="examples shown per reason (default 3)")
    parser.add_argument("--apply", action="store_true",
                        help="remove the flagged memories, after writing and verifying a "
                             "backup export under $JAMGATE_HOME/backups")


def _cmd_audit(args: argparse.Namespace) -> int:
    app = open_bound()
    try:
        tick = _ticker() if sys.stderr.isatty() else None
        report = audit(app, args.scope, progress=tick)
        if args.apply and report.findings:
            apply(app, report, app.settings.home / "backups")
    finally:
        app.close()
    fmt = "json" if args.json else args.format
    if fmt == "json":
        print(json.dumps(report.to_json(args.examples), indent=2, ensure_ascii=False))
    elif fmt == "markdown":
        print(render_markdown(report, args.examples))
    else:
        print(render_text(report, args.examples))
    return 0


def _ticker() -> Callable[[int, int], None]:
    def tick(done: int, total: int) -> None:
        if done == total or done % 25 == 0:
            sys.stderr.write(f"\raudit {done}/{total}")
            if done == total:
                sys.stderr.write("\n")
            sys.stderr.flush()
    return tick


# --- the benchmark: a seeded store with planted problems ---------------------------------------

PLACES = ["Lisbon", "Oslo", "Kyoto", "Nairobi", "Quito", "Tbilisi", "Hanoi", "Dakar", "Lima",
          "Riga", "Accra", "Perth", "Sapporo", "Bergen", "Cusco", "Fez", "Tallinn", "Gdansk",
          "Porto", "Split", "Bruges", "Lucerne", "Salzburg", "Granada", "Bologna"]
ACTIVITIES = ["a pottery class", "a jazz festival", "a chess tournament", "a cooking course",
              "a marathon", "a hackathon", "a wedding", "a climbing trip", "a book fair",
              "a film festival", "a sailing course", "a choir concert"]
TOOLS = ["Helix", "Neovim", "Emacs", "Zed", "Kakoune", "Sublime Text", "VS Code", "IntelliJ"]
PEOPLE = ["Ana", "Bruno", "Chiara", "Dmitri", "Elif", "Farid", "Greta", "Hiro", "Ines",
          "Jonas", "Kemal", "Lena", "Mateo", "Nadia", "Omar", "Priya", "Quentin", "Rosa"]
THINGS = ["book", "film", "album", "board game", "podcast", "bakery", "hiking trail",
          "museum", "tea", "font", "keyboard", "bicycle", "painter", "poet", "opera"]
JUNK = ["what time is it?", "ok thanks!", "Sure, I can help with that.", "lol", "hmm",
        "Can you summarise this thread?", "thanks, that worked", "Hello there!",
        "Let me check that for you.", "Is the build green?"]
SECRETS = ["AKIA{n:016d}", "ghp_{n:036d}", "sk-proj-{n:048d}", "xoxb-{n:012d}-{n:012d}-abcDEF",
           "-----BEGIN RSA PRIVATE KEY----- MIIE{n:012d}"]


def _clean_fact(n: int) -> str:
    place, act = PLACES[n % len(PLACES)], ACTIVITIES[(n // len(PLACES)) % len(ACTIVITIES)]
    person = PEOPLE[(n * 7) % len(PEOPLE)]
    year = 1990 + n % 35
    templates = [
        f"Jam went to {act} in {place} with {person} in {year}.",
        f"{person} taught Jam to cook a dish from {place} in {year}.",
        f"Jam keeps a {THINGS[n % len(THINGS)]} collection that started in {place} in {year}.",
        f"Jam met {person} at {act} in {year}, near {place}.",
    ]
    return templates[n % len(templates)] + f" (note {n})"


def planted_records(count: int) -> tuple[list[MemoryRecord], dict[str, str]]:
    """About `count` records as a polluted mem0 store holds them (no Jamgate metadata), with
    the planted class of each id: clean, junk, duplicate, paraphrase, secret, stale."""
    from datetime import timedelta

    start = utcnow() - timedelta(days=400)
    records: list[MemoryRecord] = []
    labels: dict[str, str] = {}
    n_clean = int(count * 0.85)

    def add(text: str, label: str) -> None:
        at = start + timedelta(minutes=len(records))
        record = MemoryRecord(id=f"seed-{len(records):06d}", text=text, created_at=at,
                              updated_at=at, provenance="mem0")
        records.append(record)
        labels[record.id] = label

    clean_texts = [_clean_fact(n) for n in range(n_clean)]
    stale_pairs = min(len(THINGS), max(count // 100, 1))
    for n in range(stale_pairs):  # the old value first; retired by the newer one later
        add(f"My favorite {THINGS[n]} is {PLACES[n]} style.", "stale")
    rest = count - n_clean - stale_pairs * 2
    per = max(rest // 4, 1)
    for n, text in enumerate(clean_texts):
        add(text, "clean")
        if n % (n_clean // per or 1) == 0 and n // (n_clean // per or 1) < per:
            k = n // (n_clean // per or 1)
            add(JUNK[k % len(JUNK)] + ("" if k < len(JUNK) else f" #{k}"), "junk")
            add(text.upper() if k % 2 else f"  {text}  ", "duplicate")
            add(text.replace("Jam", "Jam, the user,", 1), "paraphrase")
            add("My API key is " + SECRETS[k % len(SECRETS)].format(n=k + 1), "secret")
    for n in range(stale_pairs):
        add(f"My favorite {THINGS[n]} is {PLACES[-n - 1]} style now.", "clean-newer")
    extra = n_clean
    while len(records) < count:
        add(_clean_fact(extra), "clean")
        extra += 1
    return records, labels


def score(report: AuditReport, labels: dict[str, str]) -> dict[str, dict[str, float]]:
    """Precision and recall of the audit per planted class, and the share of clean records
    flagged."""
    flagged = report.flagged_ids
    out: dict[str, dict[str, float]] = {}
    for label in ("junk", "duplicate", "paraphrase", "secret", "stale"):
        planted = {i for i, lab in labels.items() if lab == label}
        caught = planted & flagged
        out[label] = {"planted": len(planted), "caught": len(caught),
                      "recall": len(caught) / len(planted) if planted else 1.0}
    bad = {i for i, lab in labels.items() if lab not in ("clean", "clean-newer")}
    wrong = flagged - bad
    out["all"] = {"flagged": len(flagged), "precision": (len(flagged & bad) / len(flagged)
                                                         if flagged else 1.0)}
    clean = {i for i, lab in labels.items() if lab in ("clean", "clean-newer")}
    out["clean"] = {"records": len(clean), "flagged": len(wrong & clean),
                    "share": len(wrong & clean) / len(clean) if clean else 0.0}
    return out


@hookimpl
def jamgate_register_benchmarks(register: Register) -> None:
    parser = register(
        "audit", help="audit a seeded store with planted junk, duplicates, secrets, …",
        description="Seed a store in a fresh temporary JAMGATE_HOME with "
                    "--count records (planted junk, duplicates, paraphrases, secrets and stale "
                    "facts among clean ones, written around the gate), audit it, and print "
                    "how long it took and precision/recall per planted class.", func=_bench_audit)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--store", default="mem0",
                        help="the store to seed, in a temporary JAMGATE_HOME (default mem0)")
    parser.add_argument("--json", action="store_true")


def seed_store(app: App, records: Sequence[MemoryRecord]) -> dict[str, str]:
    """Write records around the gate, as a polluted store holds them; returns each record's
    id in the store. A store with `add_foreign(scope, text, created_at)` (mem0) takes them as
    another client of it would; other stores keep only what their invariants allow."""
    from jamgate_core.contracts import Preconditions, WritePlan
    from jamgate_core.errors import PreconditionFailed

    foreign = getattr(app.store, "add_foreign", None)
    ids: dict[str, str] = {}
    for record in records:
        if callable(foreign):
            ids[record.id] = foreign(record.scope, record.text, record.created_at)
            continue
        try:
            app.store.write(WritePlan(scope=record.scope, now=record.created_at, insert=record),
                            Preconditions(scope=record.scope))
        except PreconditionFailed:
            continue
        ids[record.id] = record.id
    return ids


def open_bound(settings: Any = None) -> App:
    """`open_app`, handing the embedder to a store that asks for it (`bind_embedder`) first.
    Harmless once the app does this itself."""
    from jamgate_core.app import App as AppClass
    from jamgate_core.errors import JamgateError as Failure

    app = AppClass(settings)
    bind = getattr(app.store, "bind_embedder", None)
    try:
        if callable(bind):
            bind(app.embedder)
        return app.start()
    except Failure:
        app.close()
        raise


def _bench_audit(args: argparse.Namespace) -> int:
    from jamgate_core.settings import load_settings

    with tempfile.TemporaryDirectory(prefix="jamgate-bench-audit-") as home:
        settings = load_settings().model_copy(update={
            "home": Path(home), "store": args.store, "store_options": {}, "gate_log": "off"})
        app = open_bound(settings)
        try:
            records, labels = planted_records(args.count)
            started = time.monotonic()
            ids = seed_store(app, records)
            seeded = time.monotonic() - started
            report = audit(app)
        finally:
            app.close()
    scores = score(report, {ids[i]: label for i, label in labels.items() if i in ids})
    result = {"store": report.store, "records": report.total, "seed_seconds": round(seeded, 2),
              "audit_seconds": round(report.seconds, 2),
              "records_per_second": round(report.total / report.seconds, 1)
              if report.seconds else None, "scores": scores}
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"audit of {report.total} records on {report.store}: {report.seconds:.1f} s "
              f"({result['records_per_second']}/s); seeding took {seeded:.1f} s")
        for label, figures in scores.items():
            print(f"  {label}: " + ", ".join(f"{k} {v:.3f}" if isinstance(v, float) else
                                            f"{k} {v}" for k, v in figures.items()))
    return 0
