"""`SupabaseStore`: memories in a Supabase (or self-hosted Postgres + PostgREST) database.

Several Jamgate processes, on several machines, can share one database. The database itself
keeps the invariants: partial unique indexes allow one active record per (scope, text key) and
per (scope, subject), and `jamgate_write` (an RPC function, one transaction) checks the
preconditions under the scope's advisory lock before it applies the plan. A failed check or a
unique violation comes back as SQLSTATE JG409 and is raised as PreconditionFailed: a retry,
never a duplicate.

The schema is `sql/schema.sql` (print it with `jamgate supabase init --print`). Keyword search
is Postgres full-text over the `terms` Jamgate folds itself (`jamgate_core.text.fold`, the
gate's own folding; CJK as bigrams and characters), re-ranked with the same BM25 as the bundled
stores; vector search is pgvector's cosine. supabase-py is imported when the store opens, never
at start-up.

Schema v2 changed how `terms` are folded (to the one folding the stages use). Opening a v1
database re-folds every row's terms in batches (`jamgate_set_terms`, from the rows' own text:
nothing else changes, so no backup is taken) and then records v2; the v2 functions come from
applying the schema file again, which leaves the recorded version alone.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from jamgate_adapters.stores.kit.columns import record_columns, record_from_columns
from jamgate_adapters.stores.kit.lexical import bm25, document_tokens, match_terms
from jamgate_adapters.stores.kit.paging import check_list_args, decode_cursor, page_of
from jamgate_adapters.stores.kit.ranking import (
    QueryHints,
    diversify,
    fuse,
    lexical_kept,
    ranked,
)
from jamgate_adapters.stores.supabase.auth import SupabaseAuthState
from jamgate_adapters.stores.supabase.cli import schema_sql
from jamgate_adapters.stores.supabase.pending import SupabasePending
from jamgate_core.contracts import (
    CROSS_PROCESS,
    DURABLE,
    KEYWORD_SEARCH,
    VECTOR_SEARCH,
    Preconditions,
    WritePlan,
)
from jamgate_core.errors import (
    PreconditionFailed,
    StoreError,
    StoreTooNew,
    StoreUnavailable,
)
from jamgate_core.models import MemoryRecord, Page, iso
from jamgate_core.version import install_command

SCHEMA_VERSION = 2
# Rows re-folded per request by the v1 → v2 migration.
MIGRATION_BATCH = 500


def migration_sql() -> str:
    """The SQL that creates (idempotently) the current schema."""
    return schema_sql()


def _vector(value: Any) -> list[float] | None:
    """PostgREST returns a pgvector column as its text form `[0.1,0.2]`."""
    if value is None:
        return None
    return [float(x) for x in (json.loads(value) if isinstance(value, str) else value)]


def _record(row: dict[str, Any]) -> MemoryRecord:
    return record_from_columns(row, _vector(row["embedding"]))


def terms_of(text: str, subject: str | None) -> str:
    """What the full-text index holds for a record: its folded tokens, space-separated."""
    return " ".join(document_tokens(text, subject))


def _row(record: MemoryRecord) -> dict[str, Any]:
    return {
        **record_columns(record),
        "embedding": json.dumps(record.embedding) if record.embedding is not None else None,
        "terms": terms_of(record.text, record.subject),
    }


def _plan(plan: WritePlan) -> dict[str, Any]:
    return {"scope": plan.scope, "now": iso(plan.now), "retire": list(plan.retire),
            "insert": _row(plan.insert) if plan.insert is not None else None,
            "upgrade": list(plan.upgrade_source) if plan.upgrade_source else None}


def _preconditions(pre: Preconditions) -> dict[str, Any]:
    return {"scope": pre.scope,
            "by_key": {k: sorted(v) for k, v in pre.by_key.items()},
            "by_subject": {k: sorted(v) for k, v in pre.by_subject.items()}}


def _tsquery(query: str) -> str | None:
    """A `to_tsquery('simple', …)` expression: the query's terms OR-ed, long ones as prefixes.
    Terms are runs of letters and digits, so they carry no tsquery syntax."""
    parts = [f"{term.text}:*" if term.prefix else term.text for term in match_terms(query)]
    return " | ".join(dict.fromkeys(parts)) or None


class SupabaseStore(SupabaseAuthState, SupabasePending):
    """Memories in Postgres behind PostgREST, reached with supabase-py."""

    class Options(BaseModel):
        model_config = ConfigDict(extra="forbid")
        url: str | None = Field(default=None, description=(
            "The project URL (https://<ref>.supabase.co); default $SUPABASE_URL."))
        key: str | None = Field(default=None, description=(
            "A service-role key; default $SUPABASE_SERVICE_ROLE_KEY, else $SUPABASE_KEY."))
        timeout_seconds: float = Field(default=10.0, gt=0, description=(
            "HTTP timeout of one PostgREST request."))

    capabilities: frozenset[str]

    def __init__(self, options: SupabaseStore.Options | None = None,
                 home: Path | None = None) -> None:
        self.options = options or self.Options()
        self.capabilities = frozenset({KEYWORD_SEARCH, VECTOR_SEARCH, CROSS_PROCESS, DURABLE})
        self.url = self.options.url or os.environ.get("SUPABASE_URL", "")
        self._key = (self.options.key or os.environ.get("SUPABASE_SERVICE_ROLE_KEY")
                     or os.environ.get("SUPABASE_KEY", ""))
        self._client: Any = None

    def location(self) -> str:
        return f"supabase {self.url or '(no url)'}"

    # --- opening -------------------------------------------------------------------------------

    def open(self) -> None:
        """Connect and check the schema version; the schema itself is applied by the owner."""
        if self._client is not None:
            return
        if not self.url or not self._key:
            raise StoreUnavailable(
                "the supabase store needs a project URL and a service-role key: set "
                "SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY (or store_options url/key)")
        try:
            from supabase import ClientOptions, create_client
        except ImportError as exc:
            raise StoreUnavailable(
                f"the supabase store needs supabase-py: {install_command('supabase')}") from exc
        try:
            self._client = create_client(self.url, self._key, options=ClientOptions(
                postgrest_client_timeout=self.options.timeout_seconds))
        except Exception as exc:
            raise StoreUnavailable(f"cannot use Supabase at {self.url}: {exc}") from exc
        version = self._rpc("jamgate_schema_version", {})
        if not isinstance(version, int):
            raise StoreError(f"{self.url} has no Jamgate schema version; apply the schema with "
                             "`jamgate supabase init --print | psql \"$DATABASE_URL\"`")
        if version > SCHEMA_VERSION:
            raise StoreTooNew(
                f"{self.url} holds Jamgate schema v{version}; this Jamgate knows up to "
                f"v{SCHEMA_VERSION}. Nothing was modified. Upgrade jamgate.")
        if version < SCHEMA_VERSION:
            self._migrate(version)

    def _migrate(self, version: int) -> None:
        """Bring the database from `version` to SCHEMA_VERSION (v1 → v2: re-fold every row's
        terms). Idempotent, so several instances opening at once do no harm; rows written
        meanwhile by this version are folded the new way already."""
        if version < 2:
            after = 0
            while True:
                rows = self._run(lambda c, start=after: c.table("jamgate_memories")
                                 .select("seq,text,subject").gt("seq", start).order("seq")
                                 .limit(MIGRATION_BATCH).execute().data, "migrate")
                if not rows:
                    break
                self._rpc("jamgate_set_terms", {"p_rows": [
                    {"seq": row["seq"], "terms": terms_of(row["text"], row["subject"])}
                    for row in rows]})
                after = rows[-1]["seq"]
        self._rpc("jamgate_set_schema_version", {"p_from": version, "p_to": SCHEMA_VERSION})

    def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            session = getattr(client.postgrest, "session", None)
            if session is not None:
                session.close()

    # --- requests ------------------------------------------------------------------------------

    def _rpc(self, name: str, params: dict[str, Any]) -> Any:
        return self._run(lambda c: c.rpc(name, params).execute().data, name)

    def _table(self, table: str = "jamgate_memories") -> Any:
        return self._connected().table(table)

    def _connected(self) -> Any:
        if self._client is None:
            raise StoreUnavailable("the supabase store is not open")
        return self._client

    def _run(self, call: Any, what: str) -> Any:
        from postgrest.exceptions import APIError

        client = self._connected()
        try:
            return call(client)
        except APIError as exc:
            code = str(exc.code or "")
            if code == "JG409":
                raise PreconditionFailed(f"{exc.message}; nothing was changed") from exc
            if code == "JG500":
                raise StoreError(f"{exc.message}; nothing was changed") from exc
            if code in ("PGRST202", "42883"):
                raise StoreError(
                    f"{self.url} lacks the function {what}: apply the schema with "
                    "`jamgate supabase init --print | psql \"$DATABASE_URL\"`") from exc
            raise StoreError(f"Supabase refused {what}: {code} {exc.message}") from exc
        except OSError as exc:
            raise StoreUnavailable(f"cannot reach Supabase at {self.url}: {exc}") from exc
        except Exception as exc:
            if type(exc).__module__.startswith("httpx"):
                raise StoreUnavailable(f"cannot reach Supabase at {self.url}: {exc}") from exc
            raise

    def _select(self, build: Any, what: str) -> list[MemoryRecord]:
        rows = self._run(lambda c: build(c.table("jamgate_memories").select("*")).execute()
                         .data, what)
        return [_record(row) for row in rows]

    def _records(self, name: str, params: dict[str, Any]) -> list[MemoryRecord]:
        return [_record(row) for row in self._rpc(name, params) or []]

    # --- reads ---------------------------------------------------------------------------------

    def by_text_key(self, scope: str, key: str) -> list[MemoryRecord]:
        return self._records("jamgate_active",
                             {"p_scope": scope, "p_column": "text_key", "p_value": key})

    def by_subject(self, scope: str, subject: str) -> list[MemoryRecord]:
        return self._records("jamgate_active",
                             {"p_scope": scope, "p_column": "subject", "p_value": subject})

    def get(self, scope: str, record_id: str) -> MemoryRecord | None:
        found = self._select(lambda q: q.eq("scope", scope).eq("id", record_id), "get")
        return found[0] if found else None

    def resolve_id(self, scope: str, needle: str) -> list[str]:
        return sorted(str(i) for i in self._rpc("jamgate_resolve",
                                                {"p_scope": scope, "p_needle": needle}) or [])

    def search(
        self, scope: str, query: str, *, limit: int, type: str | None, now: datetime,
        vector: list[float] | None = None,
    ) -> list[tuple[MemoryRecord, float]]:
        """Full-text candidates re-ranked like the bundled stores (BM25 over the candidates,
        fused with the scope-standardised cosine when `vector` is given)."""
        if limit <= 0:
            return []
        if not query.strip():
            page = self._records("jamgate_list", {
                "p_scope": scope, "p_status": "active", "p_type": type, "p_now": iso(now),
                "p_at": None, "p_id": None, "p_limit": limit})
            return [(r, 1.0) for r in page]
        pool = max(limit * 4, 40)
        found: dict[str, MemoryRecord] = {}
        expression = _tsquery(query)
        if expression is not None:
            for record in self._records("jamgate_keyword", {
                    "p_scope": scope, "p_query": expression, "p_type": type,
                    "p_now": iso(now), "p_limit": pool}):
                found[record.id] = record
        records = list(found.values())
        terms = match_terms(query)
        scores = bm25(terms, [document_tokens(r.text, r.subject) for r in records])
        lexical = {r.id: s for r, s in zip(records, scores, strict=True) if s > 0}
        cosines: dict[str, float] | None = None
        stats = None
        vectors: dict[str, list[float]] = {}
        if vector:
            text = json.dumps(vector)
            near = self._rpc("jamgate_nearest", {"p_scope": scope, "p_vector": text,
                                                 "p_now": iso(now), "p_limit": pool * 2}) or []
            stat = (self._rpc("jamgate_cosine_stats", {"p_scope": scope, "p_vector": text,
                                                       "p_now": iso(now)}) or [{}])[0]
            stats = (float(stat.get("mean") or 0.0), float(stat.get("spread") or 0.0))
            cosines = {row["id"]: float(row["similarity"]) for row in near}
            missing = [i for i in cosines if i not in found]
            if missing:
                for record in self._select(lambda q: q.eq("scope", scope).in_("id", missing),
                                           "search"):
                    if type is None or record.type == type:
                        found[record.id] = record
            cosines = {i: c for i, c in cosines.items() if i in found}
            vectors = {i: r.embedding for i, r in found.items()
                       if r.embedding and len(r.embedding) == len(vector)}
        hints = QueryHints(query, now)
        bonus = {i: hints.bonus(r.type, r.created_at) for i, r in found.items()}
        fused = fuse(lexical, cosines, bonus, stats)
        hits = diversify(ranked((found[i], s) for i, s in fused.items())[:pool], vectors or None)
        return lexical_kept(hits, lexical, bonus, found, limit) if cosines else hits[:limit]

    def nearest(
        self, scope: str, vector: list[float], *, limit: int, now: datetime
    ) -> list[tuple[MemoryRecord, float]]:
        """Live records with a vector of the same length, by pgvector's cosine distance."""
        if limit <= 0 or not vector:
            return []
        near = self._rpc("jamgate_nearest", {"p_scope": scope, "p_vector": json.dumps(vector),
                                             "p_now": iso(now), "p_limit": limit}) or []
        if not near:
            return []
        ids = [row["id"] for row in near]
        by_id = {r.id: r for r in self._select(lambda q: q.eq("scope", scope).in_("id", ids),
                                               "nearest")}
        hits = [(by_id[row["id"]], min(max(float(row["similarity"]), -1.0), 1.0))
                for row in near if row["id"] in by_id]
        return ranked(hits)[:limit]

    # --- reindexing ----------------------------------------------------------------------------

    def missing_vectors(self, model_id: str, limit: int) -> list[MemoryRecord]:
        """Active records without a vector from `model_id`, oldest first."""
        return self._records("jamgate_missing_vectors",
                             {"p_model": model_id, "p_limit": max(limit, 0)})

    def set_vectors(self, updates: Sequence[tuple[str, str, list[float], str]]) -> int:
        """Store the vectors in one transaction; returns how many records took one."""
        payload = [{"scope": s, "id": i, "vector": json.dumps(v), "model": m}
                   for s, i, v, m in updates]
        return int(self._rpc("jamgate_set_vectors", {"p_updates": payload}) or 0)

    # --- writes --------------------------------------------------------------------------------

    def write(self, plan: WritePlan, preconditions: Preconditions) -> None:
        """Check `preconditions` and apply `plan` in one database transaction."""
        self.write_many([plan], [preconditions])

    def write_many(self, plans: Sequence[WritePlan],
                   preconditions: Sequence[Preconditions]) -> None:
        """Every precondition, then every plan, in one `jamgate_write` transaction."""
        self._rpc("jamgate_write", {"p_plans": [_plan(p) for p in plans],
                                    "p_preconditions": [_preconditions(p)
                                                        for p in preconditions]})

    def delete(self, scope: str, record_id: str) -> MemoryRecord | None:
        rows = self._run(lambda c: c.table("jamgate_memories").delete().eq("scope", scope)
                         .eq("id", record_id).execute().data, "delete")
        return _record(rows[0]) if rows else None

    def compact(self, cutoff: datetime) -> int:
        return int(self._rpc("jamgate_compact", {"p_cutoff": iso(cutoff)}) or 0)

    def integrity_check(self) -> list[str]:
        return [str(line) for line in self._rpc("jamgate_integrity", {}) or []]

    def scopes(self) -> list[str]:
        """Every scope holding a record (any status), sorted: a skip scan over the scope
        column (one request per scope, each the next scope after the last found), so no
        function beyond the v2 schema is needed."""
        found: list[str] = []
        while True:
            after = found[-1] if found else None

            def next_scope(client: Any, after: str | None = after) -> Any:
                query = client.table("jamgate_memories").select("scope")
                if after is not None:
                    query = query.gt("scope", after)
                return query.order("scope").limit(1).execute().data

            rows = self._run(next_scope, "scopes")
            if not rows:
                return sorted(found)
            found.append(str(rows[0]["scope"]))

    # --- listing (last: the name `list` shadows the builtin in annotations below it) ---

    def list(
        self, scope: str, *, status: str, type: str | None, limit: int, cursor: str | None,
        now: datetime,
    ) -> Page:
        """One page, newest first, keyset-paginated on (created_at, id)."""
        check_list_args(limit, status)
        at, after = decode_cursor(cursor) if cursor is not None else (None, None)
        rows = self._records("jamgate_list", {
            "p_scope": scope, "p_status": status, "p_type": type, "p_now": iso(now),
            "p_at": at, "p_id": after, "p_limit": limit + 1})
        return page_of(rows, limit)
