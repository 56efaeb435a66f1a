"""`MemoryStore`: records in a dict, for tests and throwaway sessions. Nothing is persisted.

Every method holds one lock, so a write checks its preconditions and applies its plans
(`jamgate_core.writes.apply_plan`) as one step, and the store is safe to share between threads
(not between processes).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import ClassVar

from pydantic import BaseModel, ConfigDict

from jamgate_adapters.stores.kit.authstate import MemoryAuthState
from jamgate_adapters.stores.kit.invariants import check_invariants, invariant_problems
from jamgate_adapters.stores.kit.paging import (
    check_list_args,
    check_preconditions,
    decode_cursor,
    listed,
    newest_first,
    page_of,
    resolve_prefix,
)
from jamgate_adapters.stores.kit.pending import MemoryPending
from jamgate_adapters.stores.kit.plans import apply_plans
from jamgate_adapters.stores.kit.ranking import cosine, rank_records, ranked
from jamgate_core.contracts import (
    KEYWORD_SEARCH,
    LOCAL,
    VECTOR_SEARCH,
    Preconditions,
    WritePlan,
)
from jamgate_core.models import MemoryRecord, Page, iso


class MemoryStore(MemoryAuthState, MemoryPending):
    """An in-process store: fast, thread-safe, gone when the process exits."""

    class Options(BaseModel):
        model_config = ConfigDict(extra="forbid")

    capabilities: frozenset[str]
    _kind: ClassVar[str] = "in-process memory"

    def __init__(self, options: MemoryStore.Options | None = None,
                 home: Path | None = None) -> None:
        self.options = options or self.Options()
        self.capabilities = frozenset({KEYWORD_SEARCH, VECTOR_SEARCH, LOCAL})
        self._records: dict[str, MemoryRecord] = {}
        self._lock = threading.RLock()

    def open(self) -> None:
        """Nothing to open."""

    def close(self) -> None:
        """Nothing to release; the records stay until the object is dropped."""

    def location(self) -> str:
        return self._kind

    # --- reads ---------------------------------------------------------------------------------

    def _in_scope(self, scope: str) -> list[MemoryRecord]:
        with self._lock:
            return [r for r in self._records.values() if r.scope == scope]

    def by_text_key(self, scope: str, key: str) -> list[MemoryRecord]:
        return [r for r in self._in_scope(scope) if r.status == "active" and r.key == key]

    def by_subject(self, scope: str, subject: str) -> list[MemoryRecord]:
        return [r for r in self._in_scope(scope) if r.status == "active" and r.subject == subject]

    def get(self, scope: str, record_id: str) -> MemoryRecord | None:
        with self._lock:
            record = self._records.get(record_id)
        return record if record is not None and record.scope == scope else None

    def resolve_id(self, scope: str, needle: str) -> list[str]:
        return resolve_prefix((r.id for r in self._in_scope(scope)), needle)

    def search(
        self, scope: str, query: str, *, limit: int, type: str | None, now: datetime,
        vector: list[float] | None = None,
    ) -> list[tuple[MemoryRecord, float]]:
        live = [r for r in self._in_scope(scope)
                if r.is_live(now) and (type is None or r.type == type)]
        if limit <= 0:
            return []
        if not query.strip():
            return [(r, 1.0) for r in newest_first(live)[:limit]]
        return rank_records(live, query, limit, vector, now=now)

    def nearest(
        self, scope: str, vector: list[float], *, limit: int, now: datetime
    ) -> list[tuple[MemoryRecord, float]]:
        hits = [
            (r, cosine(vector, r.embedding)) for r in self._in_scope(scope)
            if r.is_live(now) and r.embedding and len(r.embedding) == len(vector)
        ]
        return ranked(hits)[:max(limit, 0)]

    # --- reindexing (jamgate reindex) --------------------------------------------------------

    def missing_vectors(self, model_id: str, limit: int) -> list[MemoryRecord]:
        """Active records without a vector from `model_id`, oldest first."""
        with self._lock:
            found = [r for r in self._records.values() if r.status == "active"
                     and (r.embedding is None or r.embedding_model != model_id)]
        found.sort(key=lambda r: (iso(r.created_at), r.id))
        return found[:max(limit, 0)]

    def set_vectors(self, updates: Sequence[tuple[str, str, list[float], str]]) -> int:
        """Store the vectors in one step; returns how many records took one."""
        with self._lock:
            updated = dict(self._records)
            done = 0
            for scope, record_id, vector, model_id in updates:
                old = updated.get(record_id)
                if old is None or old.scope != scope:
                    continue
                updated[record_id] = old.model_copy(
                    update={"embedding": list(vector), "embedding_model": model_id})
                done += 1
            self._records = updated
            return done

    # --- writes --------------------------------------------------------------------------------

    def write(self, plan: WritePlan, preconditions: Preconditions) -> None:
        self.write_many([plan], [preconditions])

    def write_many(self, plans: Sequence[WritePlan],
                   preconditions: Sequence[Preconditions]) -> None:
        with self._lock:
            for condition in preconditions:
                check_preconditions(condition, self.by_text_key, self.by_subject)
            records = self._records
            written = apply_plans(plans, lambda _scope, record_id: records.get(record_id))
            scopes = {record.scope for record in written.values()}
            check_invariants(written.values(), (r for r in records.values() if r.scope in scopes))
            self._records = {**records, **written}

    def delete(self, scope: str, record_id: str) -> MemoryRecord | None:
        with self._lock:
            record = self.get(scope, record_id)
            if record is not None:
                del self._records[record_id]
            return record

    def compact(self, cutoff: datetime) -> int:
        with self._lock:
            gone = [r.id for r in self._records.values()
                    if r.status == "active" and r.expires_at is not None and r.expires_at <= cutoff]
            for record_id in gone:
                del self._records[record_id]
            return len(gone)

    def scopes(self) -> list[str]:
        """Every scope holding a record (any status), sorted."""
        with self._lock:
            return sorted({r.scope for r in self._records.values()})

    def integrity_check(self) -> list[str]:
        with self._lock:
            return invariant_problems(self._records.values())

    # --- listing (last: the name `list` shadows the builtin in annotations below it) ---

    def list(
        self, scope: str, *, status: str, type: str | None, limit: int, cursor: str | None,
        now: datetime,
    ) -> Page:
        check_list_args(limit, status)
        rows = [r for r in newest_first(self._in_scope(scope)) if listed(r, status, type, now)]
        if cursor is not None:
            after = decode_cursor(cursor)
            rows = [r for r in rows if (iso(r.created_at), r.id) < after]
        return page_of(rows, limit)
