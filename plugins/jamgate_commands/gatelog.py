"""The gate log: one JSON line per decision, kept beside the store, never sent anywhere.

A `jamgate.plugins` module. At startup it registers a `GateLog` writer with the app's plugin
manager (when the log is on); the writer observes `jamgate_decision` and `jamgate_forgotten`.
It also contributes the `jamgate log` command, which reads recent decisions back.

Writes are best-effort: an unwritable log warns once on stderr and never fails a save. Each
line stays under `MAX_LINE_BYTES` and is appended with one `os.write` on an `O_APPEND`
descriptor, so lines from several processes never interleave (an import holds its lines and
writes `BUFFERED_LINES` whole lines a write, `buffered`). When the file reaches its cap
it is renamed to `<path>.1`, so at most about twice the cap is kept on disk. The file, its
rotation and its lock `<path>.lock` are created 0600 in a folder created 0700.

A forget records the record's length and SHA-256, never its text, and first erases the text
from the lines already written (`GateLog.erase`): every line about the record (its id), and
every line about no record whose text is the record's, loses its `text` and is marked
`"erased": true`, in the current and the rotated file; a torn line holding the text is
dropped. Each changed line is overwritten in place, padded with spaces to its old length (a
line that would not fit makes the file be rewritten and replaced atomically). Appends hold a
shared `flock` on `<path>.lock` while they open and write; rotation and erasure hold it
exclusively, so no line appended meanwhile is lost. Between lines the lock and the log stay
open (`OpenLog`): an append checks under the lock that the log is still the file at its path
and below its cap, else opens both anew.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import logging
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jamgate_commands.gatelog_files import (
    ELLIPSIS,
    OpenLog,
    encode,
    locked,
    orphaned_temps,
    rewrite,
)
from jamgate_core.files import make_private_dir, open_private
from jamgate_core.hooks import Hooks
from jamgate_core.hookspecs import hookimpl
from jamgate_core.models import DEFAULT_SCOPE, canonical_scope, iso, utcnow

_log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from jamgate_core.app import App
    from jamgate_core.contracts import Register
    from jamgate_core.models import Candidate, MemoryRecord, Verdict
    from jamgate_core.settings import Settings

MAX_LINE_BYTES = 4000
BUFFERED_LINES = 256
WRITER_NAME = "gatelog-writer"
DECISIONS = (
    "saved", "superseded", "duplicate", "conflict", "possible_duplicate", "rejected", "forgotten",
)
_META_CLIP = 32
_IDS_CLIP = 10

Redactor = Callable[[str, str], str]


def default_redact(text: str, reason_code: str) -> str:
    """The core's redaction, used when no plugin manager is at hand."""
    return f"[redacted: {len(text)} characters]"


# ---- where the log lives ------------------------------------------------------------------


def store_folder(settings: Settings) -> Path:
    """The folder of the configured store's file: its `path` option's parent, else home."""
    _name, options = settings.store_choice()
    path = options.get("path")
    return Path(str(path)).parent if path else settings.home


def configured_log_path(settings: Settings) -> Path | None:
    """Where the settings put the gate log, or None when it is off."""
    return settings.gate_log_path(store_folder(settings))


# ---- the lines ----------------------------------------------------------------------------


def _clip(value: str, limit: int) -> str:
    return value if len(value) <= limit else value[:limit] + ELLIPSIS


def fit_line(entry: dict[str, Any], text_key: str = "text") -> bytes:
    """`entry` as one JSON line under `MAX_LINE_BYTES`, cutting its text (marked with `…`).

    If the metadata alone is too long, its strings are clipped too.
    """
    line = encode(entry)
    if len(line) < MAX_LINE_BYTES:
        return line
    text = str(entry.get(text_key, ""))[:MAX_LINE_BYTES]
    lo, hi, best = 0, len(text), None
    while lo <= hi:  # the longest prefix that fits
        mid = (lo + hi) // 2
        candidate = encode({**entry, text_key: text[:mid] + ELLIPSIS})
        if len(candidate) < MAX_LINE_BYTES:
            best, lo = candidate, mid + 1
        else:
            hi = mid - 1
    if best is not None:
        return best
    clipped: dict[str, Any] = {}
    for key, value in entry.items():
        if isinstance(value, str) and key not in ("ts", "decision"):
            value = _clip(value, _META_CLIP)
        elif isinstance(value, list):
            value = [_clip(str(item), _META_CLIP) for item in value[:_IDS_CLIP]]
        clipped[key] = value
    clipped[text_key] = ELLIPSIS
    return encode(clipped)


def _compact(entry: dict[str, Any]) -> dict[str, Any]:
    """Drop empty optional keys, keeping the order."""
    return {k: v for k, v in entry.items() if v not in (None, "", [])}


def decision_entry(verdict: Verdict, candidate: Candidate, text: str, origin: str,
                   redact: bool) -> dict[str, Any]:
    """The log entry of one judged save; `text` is already redacted when it must be."""
    subject = candidate.subject
    scope = None if candidate.scope == DEFAULT_SCOPE else candidate.scope
    if redact and not candidate.subject_given:
        subject = None  # it may have been derived from the text
    client = candidate.client.name if candidate.client else None
    if redact and verdict.reason_code.startswith("secret."):
        subject = scope = client = None  # the secret may be in any of them
    return _compact({
        "ts": iso(utcnow()),
        "decision": verdict.decision,
        "reason": verdict.reason_code,
        "id": verdict.id,
        "type": candidate.type,
        "subject": subject,
        "source": candidate.source,
        "scope": scope,
        "client": client,
        "origin": origin,
        "superseded": list(verdict.superseded_ids),
        "text": text,
    })


def forgotten_entry(record: MemoryRecord, origin: str) -> dict[str, Any]:
    """The log entry of a forget: the record's metadata, length and hash, never its text."""
    return _compact({
        "ts": iso(utcnow()),
        "decision": "forgotten",
        "id": record.id,
        "type": record.type,
        "subject": record.subject,
        "source": record.source,
        "scope": None if record.scope == DEFAULT_SCOPE else record.scope,
        "origin": origin,
        "length": len(record.text),
        "sha256": hashlib.sha256(record.text.encode("utf-8", "surrogatepass")).hexdigest(),
    })


class GateLog:
    """Appends decision lines to one file; a pluggy plugin of one app's manager."""

    def __init__(self, path: Path, max_bytes: int, redact: Redactor = default_redact) -> None:
        self.path = Path(path)
        self.max_bytes = max_bytes
        self.redact = redact
        self._warned = False
        self._pending: list[bytes] | None = None  # lines held by `buffered`
        self._open: OpenLog | None = None  # the lock and log kept open between lines

    @hookimpl
    def jamgate_decision(self, verdict: Verdict, candidate: Candidate, redact: bool,
                         origin: str) -> None:
        text = self._redacted(candidate.text, verdict.reason_code) if redact else candidate.text
        self.append(decision_entry(verdict, candidate, text, origin, redact))

    @hookimpl
    def jamgate_forgotten(self, record: MemoryRecord, origin: str) -> None:
        self._flush()  # the lines held back are erased too
        self.erase(record)
        self.append(forgotten_entry(record, origin))

    @property
    def lock_path(self) -> Path:
        return self.path.with_name(self.path.name + ".lock")

    @property
    def rotated_path(self) -> Path:
        return self.path.with_name(self.path.name + ".1")

    def append(self, entry: dict[str, Any]) -> None:
        """Write one entry (or hold it, inside `buffered`); an OSError is reported once on
        stderr and swallowed."""
        if self._pending is None:
            return self._write(fit_line(entry))
        self._pending.append(fit_line(entry))
        if len(self._pending) >= BUFFERED_LINES:
            self._flush()

    @contextlib.contextmanager
    def buffered(self) -> Iterator[None]:
        """Hold the lines appended meanwhile and write them together, `BUFFERED_LINES` at a
        time (an import's decisions): one lock, open and stat a write instead of a line."""
        self._pending = []
        try:
            yield
        finally:
            self._flush()
            self._pending = None

    def _flush(self) -> None:
        if self._pending:
            self._write(b"".join(self._pending))
            self._pending.clear()

    @hookimpl
    def jamgate_shutdown(self, app: Any) -> None:
        self._flush()
        self.close()

    def close(self) -> None:
        """Close the descriptors kept open between lines (the next line opens them again)."""
        if self._open is not None:
            self._open.close()
            self._open = None

    def _write(self, lines: bytes) -> None:
        try:
            if self._open is None or not self._open.append(lines, self.path, self.max_bytes):
                self.close()
                self._append_anew(lines)
        except OSError as exc:
            self.close()
            self._warn(exc)

    def _append_anew(self, lines: bytes) -> None:
        """Create the folder, rotate a full log, append under the shared lock, and keep the
        lock and the log open for the next line."""
        make_private_dir(self.path.parent)
        self._rotate_if_full()
        opened = OpenLog(self.lock_path)
        try:
            with opened.shared():
                opened.log_fd = open_private(self.path, os.O_WRONLY | os.O_APPEND)
                os.write(opened.log_fd, lines)
        except BaseException:
            opened.close()
            raise
        self._open = opened

    def erase(self, record: MemoryRecord) -> int:
        """Erase `record`'s text from the lines already logged, in the rotated file and the
        current one, under the log's exclusive lock; how many lines changed. A temp file a
        killed erasure left is removed first. An OSError is reported once and swallowed."""
        if not self.path.exists() and not self.rotated_path.exists():
            return 0
        try:
            with locked(self.lock_path):
                for orphan in orphaned_temps(self.path) + orphaned_temps(self.rotated_path):
                    with contextlib.suppress(OSError):
                        os.unlink(orphan)
                return sum(rewrite(part, record) for part in (self.rotated_path, self.path))
        except OSError as exc:
            _log.warning(f"could not erase the forgotten memory's text from the gate log "
                         f"{self.path} ({exc.strerror or exc}); the memory itself is forgotten.")
            return 0

    def _warn(self, exc: OSError) -> None:
        if not self._warned:
            self._warned = True
            reason = exc.strerror or str(exc)
            _log.warning(f"cannot write the gate log {self.path} ({reason}); "
                         "saves are unaffected.")

    def _rotate_if_full(self) -> None:
        if not self._full():
            return
        with locked(self.lock_path):
            if self._full():  # another process may have rotated meanwhile
                os.replace(self.path, self.rotated_path)

    def _full(self) -> bool:
        try:
            return self.path.stat().st_size >= self.max_bytes
        except FileNotFoundError:
            return False

    def _redacted(self, text: str, reason_code: str) -> str:
        try:
            return self.redact(text, reason_code)
        except Exception:  # a broken redact plugin must not leak the text
            return default_redact(text, reason_code)


# ---- plugin hooks -------------------------------------------------------------------------


@hookimpl
def jamgate_startup(app: App) -> None:
    path = app.settings.gate_log_path(app.store_dir())
    if app.pm.get_plugin(WRITER_NAME) is not None:
        app.pm.unregister(name=WRITER_NAME)
    if path is not None:
        writer = GateLog(path, app.settings.gate_log_max_bytes, Hooks(app.pm).redact)
        app.pm.register(writer, name=WRITER_NAME)


def buffered(app: App) -> contextlib.AbstractContextManager[None]:
    """`GateLog.buffered` of the app's writer (nothing to hold when the log is off)."""
    writer = app.pm.get_plugin(WRITER_NAME)
    return writer.buffered() if isinstance(writer, GateLog) else contextlib.nullcontext()


@hookimpl
def jamgate_shutdown(app: App) -> None:
    if app.pm.get_plugin(WRITER_NAME) is not None:
        app.pm.unregister(name=WRITER_NAME)


@hookimpl
def jamgate_register_commands(register: Register) -> None:
    parser = register(
        "log", help="show recent gate decisions",
        description="Show recent gate decisions from the local gate log, oldest first.",
        func=run_log_command)
    parser.add_argument("--decision", action="append", choices=DECISIONS, metavar="D",
                        help=f"only this decision (repeatable): {', '.join(DECISIONS)}")
    parser.add_argument("--reason", metavar="PREFIX", help="only reason codes starting with it")
    parser.add_argument("--scope", metavar="S", help="only this scope")
    parser.add_argument("--limit", type=_non_negative, default=20, metavar="N",
                        help="show the newest N matches (default 20, 0 = all)")
    parser.add_argument("--json", action="store_true", help="print JSON lines")


# ---- the `jamgate log` command ------------------------------------------------------------


def _non_negative(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = -1
    if number < 0:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number ≥ 0")
    return number


def read_entries(path: Path) -> Iterator[dict[str, Any]]:
    """Every parseable entry of the rotated file then the current one, oldest first."""
    for part in (path.with_name(path.name + ".1"), path):
        try:
            with part.open("rb") as handle:
                lines = list(handle)
        except FileNotFoundError:
            continue
        for raw in lines:
            try:
                entry = json.loads(raw)
            except ValueError:
                continue  # a torn or foreign line
            if isinstance(entry, dict):
                yield entry


def select(entries: Iterable[dict[str, Any]], decisions: list[str] | None = None,
           reason: str | None = None, scope: str | None = None,
           limit: int = 20) -> list[dict[str, Any]]:
    """The newest `limit` entries (0 = all) matching every filter, oldest first."""
    wanted_scope = canonical_scope(scope) if scope is not None else None
    kept: deque[dict[str, Any]] = deque(maxlen=limit or None)
    for entry in entries:
        if decisions and entry.get("decision") not in decisions:
            continue
        if reason and not str(entry.get("reason", "")).startswith(reason):
            continue
        if wanted_scope is not None and entry.get("scope", DEFAULT_SCOPE) != wanted_scope:
            continue
        kept.append(entry)
    return list(kept)


def format_entry(entry: dict[str, Any]) -> str:
    """One entry as a line for people."""
    what = entry.get("text")
    if what is None and entry.get("erased"):
        what = "(text erased: the memory was forgotten)"
    if what is None and "sha256" in entry:
        what = f"({entry.get('length', '?')} characters, sha256 {str(entry['sha256'])[:12]})"
    about = "/".join(str(entry[k]) for k in ("scope", "type", "subject") if entry.get(k))
    parts = [
        str(entry.get("ts", "?")),
        f"{entry.get('decision', '?'):<18}",
        str(entry.get("reason", "-")),
        str(entry.get("id", "-"))[:8],
    ]
    if about:
        parts.append(f"[{about}]")
    parts.append(_clip(" ".join(str(what or "").split()), 100))
    return "  ".join(parts)


def run_log_command(args: argparse.Namespace) -> int:
    """`jamgate log`: print recent decisions. A missing or disabled log is not an error."""
    from jamgate_core.settings import load_settings

    path = configured_log_path(load_settings())
    if path is None:
        print("The gate log is off (gate_log is set to off), so no decisions are recorded.")
        return 0
    rotated = path.with_name(path.name + ".1")
    if not path.exists() and not rotated.exists():
        print(f"No gate log yet: nothing at {path}. It is written once a save is judged.")
        return 0
    entries = select(read_entries(path), args.decision, args.reason, args.scope, args.limit)
    if args.json:
        for entry in entries:
            print(json.dumps(entry, ensure_ascii=False))
    elif not entries:
        print(f"No decisions in {path} match.")
    else:
        for entry in entries:
            print(format_entry(entry))
    return 0
