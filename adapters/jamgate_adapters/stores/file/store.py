"""`FileStore`: the predecessor-compatible, human-readable JSON file (`memory.json`).

One file holds every record (`jsonfile` knows its format). Reads parse it once per change
(cached by inode, mtime and size). Every write takes the cross-process lock (`kit.locking`),
re-reads the file, checks the decision's preconditions, applies the plans
(`jamgate_core.writes.apply_plan`: only the fields they change are rewritten in each record's
raw dict, so keys this code does not know survive), and replaces the file atomically and
durably; a file in an older format is backed up (verified) before its first rewrite. A file
that cannot be read is refused and never rewritten, and so is a read-only one (an atomic
rename would replace it). The file has a documented size cap: past it, inserts are refused and
the sqlite store is the way on.

Opening sweeps what a killed writer left beside the file: its temp copies
(`.memory.json.<uuid>.tmp`, each a full copy of the store, removed under the lock so none is a
live writer's) and lock debris older than the stale age (`kit.locking.sweep_debris`). A folder
the store creates is 0700, a file 0600 (docs/security.md).
"""

from __future__ import annotations

import builtins
import contextlib
import os
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from jamgate_adapters.stores.file.jsonfile import (
    CURRENT_VERSION,
    Document,
    Entry,
    changed,
    parse,
    raw_record,
    serialise,
    write_backup,
)
from jamgate_adapters.stores.kit.authstate import SidecarAuthState, sidecar_path
from jamgate_adapters.stores.kit.files import (
    atomic_write,
    orphaned_temps,
    read_only_problem,
    remove_all,
)
from jamgate_adapters.stores.kit.invariants import check_invariants, invariant_problems
from jamgate_adapters.stores.kit.locking import FileLock, lock_path_for, sweep_debris
from jamgate_adapters.stores.kit.paging import (
    check_list_args,
    decode_cursor,
    listed,
    page_of,
    resolve_prefix,
)
from jamgate_adapters.stores.kit.pending import SidecarPending, pending_path
from jamgate_adapters.stores.kit.plans import apply_plans
from jamgate_adapters.stores.kit.ranking import cosine, norm, rank_records, ranked
from jamgate_core.contracts import (
    CROSS_PROCESS,
    DURABLE,
    KEYWORD_SEARCH,
    LOCAL,
    VECTOR_SEARCH,
    Preconditions,
    WritePlan,
)
from jamgate_core.errors import (
    PreconditionFailed,
    StoreError,
    StoreUnavailable,
)
from jamgate_core.files import make_private_dir
from jamgate_core.models import MemoryRecord, Page, iso
from jamgate_core.settings import default_home

T = TypeVar("T")
StatKey = tuple[int, int, int]


@dataclass
class _Snapshot:
    """A parsed file and the indexes the store's questions use (built on first need)."""

    document: Document
    _scoped: dict[str, list[Entry]] | None = field(default=None, repr=False)
    _by_id: dict[str, Entry] | None = field(default=None, repr=False)
    _newest: list[Entry] | None = field(default=None, repr=False)

    def scoped(self, scope: str) -> list[Entry]:
        """The entries of one scope, in file order."""
        if self._scoped is None:
            groups: dict[str, list[Entry]] = {}
            for entry in self.document.entries:
                groups.setdefault(entry.record.scope, []).append(entry)
            self._scoped = groups
        return self._scoped.get(scope, [])

    def by_id(self, record_id: str) -> Entry | None:
        """The first entry with this id, in any scope."""
        if self._by_id is None:
            index: dict[str, Entry] = {}
            for entry in self.document.entries:
                index.setdefault(entry.record.id, entry)
            self._by_id = index
        return self._by_id.get(record_id)

    def newest(self) -> list[Entry]:
        """Every entry by created_at descending, ties by id descending (cached)."""
        if self._newest is None:
            self._newest = sorted(self.document.entries, key=_order, reverse=True)
        return self._newest

    def evolved(self, replaced: dict[int, Entry], added: list[Entry]) -> _Snapshot:
        """The snapshot with some entries replaced (keyed by `id()` of the old one) and others
        appended, its indexes carried over instead of rebuilt."""
        swap = replaced.get
        document = self.document
        entries = [swap(id(e), e) for e in document.entries] if replaced else list(
            document.entries)
        new = _Snapshot(Document(document.version, entries + added, document.extra))
        if self._scoped is not None:
            scoped = {scope: [swap(id(e), e) for e in group] if replaced else list(group)
                      for scope, group in self._scoped.items()}
            for entry in added:
                scoped.setdefault(entry.record.scope, []).append(entry)
            new._scoped = scoped
        if self._by_id is not None:
            by_id = dict(self._by_id)
            for entry in replaced.values():
                by_id[entry.record.id] = entry
            for entry in added:
                by_id.setdefault(entry.record.id, entry)
            new._by_id = by_id
        return new


@dataclass
class _Cached:
    key: StatKey | None
    data: bytes
    snapshot: _Snapshot


class FileStore(SidecarAuthState, SidecarPending):
    """Memories in one JSON file, safe across processes on one machine."""

    class Options(BaseModel):
        model_config = ConfigDict(extra="forbid")

        path: str | None = None
        lock_timeout_seconds: float = Field(default=30.0, ge=0)
        max_bytes: int = Field(default=20 * 1024 * 1024, gt=0)
        max_records: int | None = Field(default=None, gt=0)

    capabilities: frozenset[str]

    def __init__(self, options: FileStore.Options | None = None,
                 home: Path | None = None) -> None:
        self.options = options or self.Options()
        base = Path(home) if home is not None else default_home()
        chosen = Path(self.options.path).expanduser() if self.options.path else Path("memory.json")
        self.path = chosen if chosen.is_absolute() else base / chosen
        self.capabilities = frozenset({KEYWORD_SEARCH, VECTOR_SEARCH, CROSS_PROCESS, DURABLE,
                                       LOCAL})
        self._cache: _Cached | None = None
        self._cache_lock = threading.Lock()

    # --- lifecycle -----------------------------------------------------------------------------

    def open(self) -> None:
        """Create the folder if needed (0700) and read the file once: refuse one that cannot be
        used or is read-only; then sweep what killed writers left beside it."""
        try:
            make_private_dir(self.path.parent)
        except OSError as exc:
            raise StoreUnavailable(
                f"cannot create the folder {self.path.parent} for the memory store "
                f"({exc.strerror or exc}). Set JAMGATE_STORE to a path this user can write."
            ) from exc
        self._refuse_read_only()
        self._snapshot()
        self.sweep()

    def sweep(self) -> list[Path]:
        """Remove the leftovers of killed writers of the file and of its sidecars (OAuth, review
        queue): lock debris older than the stale age, and, under the file's lock, temp copies
        (a live writer holds the lock while its temp exists; when it is held, they wait for the
        next open) and the lock of a dead holder (taken and released). The paths removed."""
        gone: list[Path] = []
        for target in (self.path, sidecar_path(self.path), pending_path(self.path)):
            gone += sweep_debris(target)
            if not orphaned_temps(target) and not lock_path_for(target).exists():
                continue
            try:
                with FileLock(target, 0.0):
                    gone += remove_all(orphaned_temps(target))
            except StoreUnavailable:
                continue  # held by a live writer, or a read-only folder
        return gone

    def _refuse_read_only(self) -> None:
        problem = read_only_problem(self.path)
        if problem is not None:
            raise StoreUnavailable(
                f"cannot use the memory store {self.path}: {problem}. Nothing was modified: "
                "Jamgate does not write through a read-only file (replacing it would undo "
                f"the protection). Make it writable (chmod 600 {self.path}) by the user "
                "running Jamgate, or point JAMGATE_STORE at a writable path."
            )

    def close(self) -> None:
        """Drop the cached copy; every change is already on disk."""
        with self._cache_lock:
            self._cache = None

    def location(self) -> str:
        return str(self.path)

    # --- reading the file ----------------------------------------------------------------------

    def _unreadable(self, exc: OSError) -> StoreUnavailable:
        if isinstance(exc, PermissionError):
            return StoreUnavailable(
                f"permission denied reading the memory store {self.path}. The usual cause is a "
                "service running as another user than the one that created it: fix the file's "
                "owner or permissions, or set JAMGATE_STORE to a path this user owns."
            )
        return StoreUnavailable(f"cannot read the memory store {self.path}: "
                                f"{exc.strerror or exc}.")

    def _read(self, *, trust_stat: bool) -> tuple[StatKey | None, bytes]:
        """The file's identity and bytes; a missing file reads as empty. With `trust_stat`,
        an unchanged (inode, mtime, size) returns the cached bytes without reading."""
        try:
            fd = os.open(self.path, os.O_RDONLY)
        except FileNotFoundError:
            return None, b""
        except OSError as exc:
            raise self._unreadable(exc) from exc
        try:
            info = os.fstat(fd)
            key = (info.st_ino, info.st_mtime_ns, info.st_size)
            cached = self._cache
            if trust_stat and cached is not None and cached.key == key:
                return key, cached.data
            chunks = []
            while block := os.read(fd, 1 << 20):
                chunks.append(block)
            return key, b"".join(chunks)
        except OSError as exc:
            raise self._unreadable(exc) from exc
        finally:
            os.close(fd)

    def _parsed(self, key: StatKey | None, data: bytes, *, trust_stat: bool) -> _Snapshot:
        """The snapshot of `data`, reusing the cached parse when it is of the same bytes."""
        with self._cache_lock:
            cached = self._cache
        if cached is not None and ((trust_stat and cached.key == key) or cached.data == data):
            snapshot = cached.snapshot
        else:
            snapshot = _Snapshot(parse(data, self.path))
        with self._cache_lock:
            self._cache = _Cached(key, data, snapshot)
        return snapshot

    def _snapshot(self) -> _Snapshot:
        """The file as it is now (for reads; takes no lock)."""
        return self._parsed(*self._read(trust_stat=True), trust_stat=True)

    # --- reads ---------------------------------------------------------------------------------

    def by_text_key(self, scope: str, key: str) -> list[MemoryRecord]:
        return [e.record for e in self._snapshot().scoped(scope)
                if e.record.status == "active" and e.key == key]

    def by_subject(self, scope: str, subject: str) -> list[MemoryRecord]:
        return [e.record for e in self._snapshot().scoped(scope)
                if e.record.status == "active" and e.record.subject == subject]

    def get(self, scope: str, record_id: str) -> MemoryRecord | None:
        entry = self._snapshot().by_id(record_id)
        return entry.record if entry is not None and entry.record.scope == scope else None

    def resolve_id(self, scope: str, needle: str) -> list[str]:
        return resolve_prefix((e.record.id for e in self._snapshot().scoped(scope)), needle)

    def _live(self, scope: str, now: datetime, type: str | None = None) -> list[Entry]:
        return [e for e in self._snapshot().scoped(scope)
                if e.record.is_live(now) and (type is None or e.record.type == type)]

    def search(
        self, scope: str, query: str, *, limit: int, type: str | None, now: datetime,
        vector: list[float] | None = None,
    ) -> list[tuple[MemoryRecord, float]]:
        if limit <= 0:
            return []
        if not query.strip():
            newest = [e.record for e in self._snapshot().newest()
                      if e.record.scope == scope and e.record.is_live(now)
                      and (type is None or e.record.type == type)]
            return [(r, 1.0) for r in newest[:limit]]
        live = self._live(scope, now, type)
        return rank_records([e.record for e in live], query, limit, vector, now=now)

    def nearest(
        self, scope: str, vector: list[float], *, limit: int, now: datetime
    ) -> list[tuple[MemoryRecord, float]]:
        query_norm = norm(vector)
        hits = [
            (e.record, _cosine(vector, query_norm, e)) for e in self._live(scope, now)
            if e.record.embedding and len(e.record.embedding) == len(vector)
        ]
        return ranked(hits)[:max(limit, 0)]

    def scopes(self) -> builtins.list[str]:
        """Every scope holding a record (any status), sorted."""
        return sorted({e.record.scope for e in self._snapshot().document.entries})

    def integrity_check(self) -> builtins.list[str]:
        """Unreadable data, duplicate ids, invalid fields, and broken uniqueness invariants."""
        try:
            document = self._snapshot().document
        except StoreError as exc:
            return [str(exc)]
        problems: list[str] = []
        seen: set[str] = set()
        for position, entry in enumerate(document.entries):
            record_id = entry.record.id
            if record_id in seen:
                problems.append(f"record #{position}: id {record_id} is used more than once")
            seen.add(record_id)
            problems += [f"record #{position} ({record_id}): {p}" for p in entry.problems]
        return problems + invariant_problems(e.record for e in document.entries)

    def list(
        self, scope: str, *, status: str, type: str | None, limit: int, cursor: str | None,
        now: datetime,
    ) -> Page:
        check_list_args(limit, status)
        after = decode_cursor(cursor) if cursor is not None else None
        rows = [e.record for e in self._snapshot().newest()
                if e.record.scope == scope and (after is None or _order(e) < after)
                and listed(e.record, status, type, now)]
        return page_of(rows, limit)

    # --- writes --------------------------------------------------------------------------------

    def write(self, plan: WritePlan, preconditions: Preconditions) -> None:
        self.write_many([plan], [preconditions])

    def write_many(self, plans: Sequence[WritePlan],
                   preconditions: Sequence[Preconditions]) -> None:
        def change(snapshot: _Snapshot) -> tuple[_Snapshot | None, None]:
            for condition in preconditions:
                _check(snapshot, condition)
            return _applied(snapshot, plans), None

        self._modify(change, grows=any(plan.insert is not None for plan in plans))

    def delete(self, scope: str, record_id: str) -> MemoryRecord | None:
        def change(snapshot: _Snapshot) -> tuple[_Snapshot | None, MemoryRecord | None]:
            entry = snapshot.by_id(record_id)
            if entry is None or entry.record.scope != scope:
                return None, None
            document = snapshot.document
            kept = [e for e in document.entries
                    if not (e.record.id == record_id and e.record.scope == scope)]
            return _Snapshot(Document(document.version, kept, document.extra)), entry.record

        return self._modify(change, grows=False)

    def compact(self, cutoff: datetime) -> int:
        def change(snapshot: _Snapshot) -> tuple[_Snapshot | None, int]:
            document = snapshot.document
            kept = [e for e in document.entries
                    if not (e.record.status == "active" and e.record.expires_at is not None
                            and e.record.expires_at <= cutoff)]
            gone = len(document.entries) - len(kept)
            if not gone:
                return None, 0
            return _Snapshot(Document(document.version, kept, document.extra)), gone

        return self._modify(change, grows=False)

    def missing_vectors(self, model_id: str, limit: int) -> builtins.list[MemoryRecord]:
        """Active records without a vector from `model_id`, oldest first."""
        found = [e.record for e in self._snapshot().document.entries
                 if e.record.status == "active"
                 and (e.record.embedding is None or e.record.embedding_model != model_id)]
        found.sort(key=lambda r: (iso(r.created_at), r.id))
        return found[:max(limit, 0)]

    def set_vectors(self, updates: Sequence[tuple[str, str, builtins.list[float], str]]) -> int:
        """Store the vectors in one locked rewrite; returns how many records took one."""
        def change(snapshot: _Snapshot) -> tuple[_Snapshot | None, int]:
            replaced: dict[int, Entry] = {}
            for scope, record_id, vector, model_id in updates:
                entry = snapshot.by_id(record_id)
                if entry is None or entry.record.scope != scope:
                    continue
                raw = {**entry.raw, "embedding": list(vector), "embeddingModel": model_id}
                replaced[id(entry)] = Entry.of(raw)
            if not replaced:
                return None, 0
            return snapshot.evolved(replaced, []), len(replaced)

        return self._modify(change, grows=True)

    def _modify(self, change: Callable[[_Snapshot], tuple[_Snapshot | None, T]], *,
                grows: bool) -> T:
        """Under the lock: re-read, `change`, and write the result (if any) durably."""
        with FileLock(self.path, self.options.lock_timeout_seconds):
            self._refuse_read_only()
            key, data = self._read(trust_stat=False)
            snapshot = self._parsed(key, data, trust_stat=False)
            new, result = change(snapshot)
            if new is None:
                return result
            document = new.document
            out = serialise(document)
            if grows:
                self._check_cap(len(out), len(document.entries))
            if snapshot.document.version < CURRENT_VERSION and data.strip():
                write_backup(self.path, data, snapshot.document.version)
            document.version = CURRENT_VERSION
            atomic_write(self.path, out)
            with contextlib.suppress(OSError):
                info = os.stat(self.path)
                with self._cache_lock:
                    self._cache = _Cached((info.st_ino, info.st_mtime_ns, info.st_size), out, new)
        return result

    def _check_cap(self, size: int, count: int) -> None:
        cap, most = self.options.max_bytes, self.options.max_records
        if size > cap or (most is not None and count > most):
            limit = f"{cap:,} bytes" if size > cap else f"{most:,} records"
            raise StoreUnavailable(
                f"the memory store {self.path} has reached its size cap ({limit}); nothing was "
                "saved. The JSON file store is meant for small, human-readable stores: move to "
                "the sqlite store (`jamgate export`, then import the export with "
                "JAMGATE_STORE=sqlite), or raise max_bytes in store_options. Reading, listing "
                "and forgetting still work."
            )


# --- helpers ---------------------------------------------------------------------------------

def _order(entry: Entry) -> tuple[str, str]:
    """The listing key (iso created_at, id), the one cursors name (cached on the entry)."""
    if entry.order is None:
        entry.order = (iso(entry.record.created_at), entry.record.id)
    return entry.order


def _cosine(vector: list[float] | None, vector_norm: float, entry: Entry) -> float:
    embedding = entry.record.embedding
    if not vector or not embedding or len(embedding) != len(vector):
        return 0.0
    if entry.norm is None:
        entry.norm = norm(embedding)
    return cosine(vector, embedding, vector_norm, entry.norm)


def _check(snapshot: _Snapshot, preconditions: Preconditions) -> None:
    """Raise PreconditionFailed unless every recorded set of active ids is still exact."""
    keys, subjects = preconditions.by_key, preconditions.by_subject
    if not keys and not subjects:
        return
    found_keys: dict[str, set[str]] = {key: set() for key in keys}
    found_subjects: dict[str, set[str]] = {subject: set() for subject in subjects}
    for entry in snapshot.scoped(preconditions.scope):
        record = entry.record
        if record.status != "active":
            continue
        if entry.key in found_keys:
            found_keys[entry.key].add(record.id)
        if record.subject in found_subjects:
            found_subjects[record.subject].add(record.id)
    for key, ids in keys.items():
        if found_keys[key] != ids:
            raise PreconditionFailed(f"the records with text key {key!r} changed")
    for subject, ids in subjects.items():
        if found_subjects[subject] != ids:
            raise PreconditionFailed(f"the records about {subject!r} changed")


def _applied(snapshot: _Snapshot, plans: Sequence[WritePlan]) -> _Snapshot | None:
    """The snapshot after `plans`, or None when they change nothing."""
    def stored(_scope: str, record_id: str) -> MemoryRecord | None:
        entry = snapshot.by_id(record_id)
        return entry.record if entry is not None else None

    written = apply_plans(plans, stored)
    if not written:
        return None
    replaced: dict[int, Entry] = {}
    added: list[Entry] = []
    for record in written.values():
        entry = snapshot.by_id(record.id)
        if entry is None:
            added.append(Entry.of(raw_record(record)))
        else:
            replaced[id(entry)] = Entry.of(_rewritten(entry, record))
    _check_unique(snapshot, written.values(), replaced)
    return snapshot.evolved(replaced, added)


def _rewritten(entry: Entry, record: MemoryRecord) -> dict[str, Any]:
    """The entry's raw dict with the fields where `record` differs from what the entry reads
    as, and nothing else (unknown keys, and what is read leniently, stay as they are)."""
    before, after = raw_record(entry.record), raw_record(record)
    updates = {key: value for key, value in after.items() if before.get(key) != value}
    raw = changed(entry.raw, **updates)
    for key in before.keys() - after.keys():
        raw.pop(key, None)
    return raw


def _check_unique(snapshot: _Snapshot, written: Iterable[MemoryRecord],
                  replaced: dict[int, Entry]) -> None:
    """No written record that becomes active, or changes its text key or subject while
    active, may share its scope's text key or subject with another active record (the stored
    ones that could clash, as this write leaves them)."""
    clashing: list[MemoryRecord] = []
    for record in written:
        key, subject = record.key, record.subject
        entry = snapshot.by_id(record.id)
        if record.status != "active" or (
                entry is not None and entry.record.status == "active" and entry.key == key
                and entry.record.subject == subject):
            continue
        clashing += [replaced.get(id(other), other).record
                     for other in snapshot.scoped(record.scope)
                     if other.key == key or (subject is not None
                                             and other.record.subject == subject)]
    check_invariants(written, clashing)
