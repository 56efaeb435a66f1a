"""`SqliteStore`: the default store, one SQLite file at `$JAMGATE_HOME/memory.db`.

Durability: WAL with `synchronous=NORMAL`. A committed write survives the process being
killed (even `kill -9`): it is in the WAL file, which the next open replays. Only a power loss
or OS crash can lose the last few commits; the database is never left corrupt either way.

Concurrency: every process opens its own connection. Within a process the store shares one
connection (`check_same_thread=False`) behind a lock, so any thread may call any method and
calls run one at a time. Across processes, `write` checks its preconditions and applies its
plan inside one `BEGIN IMMEDIATE` transaction, and partial UNIQUE indexes enforce one active
record per (scope, text key) and per (scope, subject) whatever a caller does.

Safety: an existing file is validated through a read-only connection before anything writes to
it; a corrupt or foreign file raises StoreCorrupt and one from a newer Jamgate StoreTooNew,
both leaving it byte-identical. A read-only file is refused. A new file is created 0600 (its
`-wal` and `-shm` take its mode), in a folder created 0700.

Forgetting erases: deleted content is overwritten (`secure_delete=ON`), `delete` merges the
keyword index so no token of a forgotten memory stays behind in it, and then checkpoints the
WAL with TRUNCATE, so the `-wal` (which held the inserted pages) is emptied while the store
stays open (docs/security.md).

Keyword index: FTS5 over the words of `jamgate_core.text.fold` (the gate's stages read text
the same way; schema v4, see `schema`), CJK as bigrams and characters beside them.

The rest of this folder: `files` (what is checked before a file is written to), `schema`
(versions and migrations), `rows` (columns, vector blobs) and `index` (FTS5 match expressions,
the cached vector matrices).
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from datetime import datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from jamgate_adapters.stores.kit import proximity
from jamgate_adapters.stores.kit.authstate import SqliteAuthState
from jamgate_adapters.stores.kit.paging import check_list_args, decode_cursor, page_of
from jamgate_adapters.stores.kit.pending import SqlitePending
from jamgate_adapters.stores.kit.ranking import (
    HUB_DISCOUNT,
    QueryHints,
    diversify,
    fuse,
    lexical_kept,
    norm,
    ranked,
)
from jamgate_adapters.stores.sqlite import files, index, schema
from jamgate_adapters.stores.sqlite.rows import (
    COLUMNS,
    LIVE,
    LIVE_R,
    insert_values,
    record_of,
    vector_blob,
)
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
from jamgate_core.models import MemoryRecord, Page, iso

_log = logging.getLogger(__name__)


class SqliteStore(SqliteAuthState, SqlitePending):
    """Memories in one SQLite database: keyword index, vectors beside the rows."""

    class Options(BaseModel):
        model_config = ConfigDict(extra="forbid")

        path: str | None = None
        timeout_seconds: float = Field(default=30.0, gt=0)
        # Rows in a scope from which recall uses the approximate index (D-185).
        approximate_from: int = Field(default=index.THRESHOLD, ge=1)

    capabilities: frozenset[str]

    def __init__(self, options: SqliteStore.Options, home: Path) -> None:
        self.options = options
        given = Path(options.path).expanduser() if options.path else Path("memory.db")
        self.path = given if given.is_absolute() else Path(home) / given
        self.capabilities = frozenset({KEYWORD_SEARCH, VECTOR_SEARCH, CROSS_PROCESS, DURABLE,
                                       LOCAL})
        self.last_backup: Path | None = None
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.RLock()
        self._vectors = self._vector_cache()
        self._common = index.CommonTerms()

    def location(self) -> str:
        return str(self.path)

    def _vector_cache(self) -> index.VectorCache:
        """The matrices and approximate indexes (saved in `<db>.ann/`) of this store."""
        return index.VectorCache(self.path.parent / (self.path.name + ".ann"), self._lock,
                                 self.options.approximate_from)

    # --- opening -------------------------------------------------------------------------------

    def open(self) -> None:
        """Validate the file (read-only), migrate it if older, then open it for writing."""
        with self._lock:
            if self._conn is not None:
                return
            files.prepare_directory(self.path)
            if self.path.exists() and self.path.stat().st_size > 0:
                files.inspect(self.path, self.options.timeout_seconds)
            files.require_writable(self.path)
            files.create_file(self.path)
            conn = self._connect()
            try:
                with self._errors():
                    self.last_backup = schema.migrate(conn, self.path)
                    conn.execute("PRAGMA journal_mode = WAL")
                    conn.execute("PRAGMA synchronous = NORMAL")
            except BaseException:
                conn.close()
                raise
            self._conn = conn

    def close(self) -> None:
        with self._lock:
            self._vectors.close()
            self._vectors = self._vector_cache()  # a reopened store starts afresh
            self._common = index.CommonTerms()
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def _connect(self) -> sqlite3.Connection:
        try:
            conn = sqlite3.connect(self.path, timeout=self.options.timeout_seconds,
                                   isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise files.unavailable(self.path, str(exc)) from exc
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout = {int(self.options.timeout_seconds * 1000)}")
        conn.execute("PRAGMA secure_delete = ON")
        conn.execute("PRAGMA foreign_keys = ON")
        return conn

    # --- plumbing ------------------------------------------------------------------------------

    @contextlib.contextmanager
    def _errors(self) -> Iterator[None]:
        """Turn SQLite failures into the store errors the app reports."""
        try:
            yield
        except sqlite3.Error as exc:
            if isinstance(exc, sqlite3.IntegrityError):
                raise
            name = getattr(exc, "sqlite_errorname", "")
            if name in files.CORRUPT:
                raise files.corrupt(self.path, str(exc)) from exc
            if name.startswith("SQLITE_BUSY") or name.startswith("SQLITE_LOCKED"):
                raise StoreUnavailable(
                    f"the store at {self.path} stayed locked by another process for "
                    f"{self.options.timeout_seconds:g} s; nothing was changed. Try again."
                ) from exc
            raise StoreUnavailable(f"the store at {self.path} failed: {exc}. "
                                   "Nothing was changed.") from exc

    @contextlib.contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        with self._lock, self._errors():
            if self._conn is None:
                raise StoreError(f"the store at {self.path} is not open; call open() first")
            yield self._conn

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._db() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                if conn.in_transaction:  # SQLite may already have rolled back (disk full)
                    conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def _records(self, sql: str, params: dict[str, object]) -> list[MemoryRecord]:
        with self._db() as conn:
            return [record_of(row) for row in conn.execute(sql, params)]

    # --- reads ---------------------------------------------------------------------------------

    def by_text_key(self, scope: str, key: str) -> list[MemoryRecord]:
        return self._records(
            f"SELECT {COLUMNS} FROM records WHERE scope = :scope AND text_key = :key "
            "AND status = 'active'", {"scope": scope, "key": key})

    def by_subject(self, scope: str, subject: str) -> list[MemoryRecord]:
        return self._records(
            f"SELECT {COLUMNS} FROM records WHERE scope = :scope AND subject = :subject "
            "AND status = 'active'", {"scope": scope, "subject": subject})

    def get(self, scope: str, record_id: str) -> MemoryRecord | None:
        found = self._records(f"SELECT {COLUMNS} FROM records WHERE scope = :scope AND id = :id",
                              {"scope": scope, "id": record_id})
        return found[0] if found else None

    def resolve_id(self, scope: str, needle: str) -> list[str]:
        """Exact id, else ids starting with an 8+ character needle (compared literally:
        no LIKE, so `%` and `_` are ordinary characters)."""
        with self._db() as conn:
            if conn.execute("SELECT 1 FROM records WHERE scope = ? AND id = ?",
                            (scope, needle)).fetchone():
                return [needle]
            if len(needle) < 8:
                return []
            rows = conn.execute(
                "SELECT id FROM records WHERE scope = ? AND id >= ? "
                "AND substr(id, 1, length(?)) = ? ORDER BY id", (scope, needle, needle, needle))
            return [row[0] for row in rows]

    def search(
        self, scope: str, query: str, *, limit: int, type: str | None, now: datetime,
        vector: list[float] | None = None, exact: bool = False,
    ) -> list[tuple[MemoryRecord, float]]:
        """Live records by relevance (see `kit.ranking`: FTS5 bm25 with prefix and typo matching,
        subject words, a named type, the scope-standardised cosine when `vector` is given,
        near-identical hits last). An empty query lists the newest. `exact` matches the
        query's words only (no prefixes, no typo widening, a small pool): the cheap look-up
        a gate stage uses to find look-alikes."""
        if limit <= 0:
            return []
        params: dict[str, object] = {"scope": scope, "now": iso(now), "type": type}
        typed = "AND (:type IS NULL OR r.type = :type)"
        if not query.strip():
            rows = self._records(
                f"SELECT {COLUMNS} FROM records r WHERE scope = :scope AND {LIVE_R} {typed} "
                "ORDER BY created_at DESC, id DESC LIMIT :limit", {**params, "limit": limit})
            return [(r, 1.0) for r in rows]
        if exact:
            return self._lookalikes(query, limit, params, typed)
        with self._lock:  # the matrices change in place: read them under the store's lock
            return self._ranked_search(scope, query, limit, type, now, vector, params, typed)

    def _ranked_search(self, scope: str, query: str, limit: int, type: str | None,
                       now: datetime, vector: list[float] | None, params: dict[str, object],
                       typed: str) -> list[tuple[MemoryRecord, float]]:
        pool = max(limit * 4, 40)
        found: dict[str, MemoryRecord] = {}
        lexical: dict[str, float] = {}
        with self._db() as conn:
            match = index.ranking_match(conn, index.match_parts(conn, query), index.RANK_BUDGET,
                                        self._common)
            if match is not None:
                rows = index.keyword_rows(conn, match, params, typed, pool)
                bm25 = [max(-row["rank"], 1e-9) for row in rows]
                # past the budget, re-weighed by term order and coverage (D-394)
                for n, score in (proximity.reweighed(
                        query, [(row["text"], row["subject"]) for row in rows], bm25, pool)
                        if index.past_budget(match) else enumerate(bm25)):
                    found[rows[n]["id"]] = record_of(rows[n])
                    lexical[rows[n]["id"]] = score
            matrix, facts = (self._vectors.matrix(conn, scope, len(vector)) if vector
                             else (None, {}))
            approximate = self._vectors.index(conn, scope, len(vector)) if vector else None
        hints = QueryHints(query, now)
        cosines: dict[str, float] | None = None
        adjusted: dict[str, float] | None = None
        stats = None
        if vector and matrix is not None:
            near = matrix.ranked(vector, now, pool * 2, also=list(lexical),
                                 discount=HUB_DISCOUNT, index=approximate)
            stats = (near.mean, near.spread)
            cosines = {str(key): similarity for key, similarity in near.hits
                       if type is None or facts[str(key)][0] == type}
            adjusted = {str(key): value for key, value in near.adjusted.items()}
        bonus = {i: hints.bonus(facts[i][0], facts[i][1]) for i in cosines or {}}
        bonus.update((i, hints.bonus(r.type, r.created_at)) for i, r in found.items())
        scores = fuse(lexical, cosines, bonus, stats, adjusted)
        stamp = {i: iso(r.created_at) for i, r in found.items()}
        by_recency = sorted(scores, key=lambda i: (stamp.get(i) or facts[i][1], i), reverse=True)
        order = sorted(by_recency, key=lambda i: -scores[i])[:pool]
        missing = [i for i in order if i not in found]
        if missing:
            for record in self._records(
                    f"SELECT {COLUMNS} FROM records WHERE scope = :scope AND id IN "
                    f"({', '.join(':m' + str(n) for n in range(len(missing)))})",
                    {"scope": scope, **{f"m{n}": i for n, i in enumerate(missing)}}):
                found[record.id] = record
        # Same words only (D-148): a vector echo here is a fact the gate kept as distinct.
        hits = diversify(ranked((found[i], scores[i]) for i in order if i in found))
        return lexical_kept(hits, lexical, bonus, found, limit) if cosines else hits[:limit]

    def _lookalikes(self, query: str, limit: int, params: dict[str, object],
                    typed: str) -> list[tuple[MemoryRecord, float]]:
        """The `exact` search: the best bm25 matches of the query's own words, newest first
        among equals, with no vectors, fusion or diversity (the caller re-scores them)."""
        with self._db() as conn:
            # A look-alike shares the text's rare words: a small budget is enough.
            match = index.lookalike_match(conn, index.match_parts(conn, query, exact=True),
                                          self._common)
            rows = ([] if match is None else
                    index.keyword_rows(conn, match, params, typed, limit, exact=True))
        return [(record_of(row), max(-row["rank"], 1e-9)) for row in rows]

    def nearest(
        self, scope: str, vector: list[float], *, limit: int, now: datetime
    ) -> list[tuple[MemoryRecord, float]]:
        """Live records with a vector of the same length, by cosine (a cached matrix scan)."""
        if limit <= 0 or not vector:
            return []
        with self._db() as conn:
            matrix, facts = self._vectors.matrix(conn, scope, len(vector))
            near = matrix.ranked(vector, now, limit + 8,
                                 index=self._vectors.index(conn, scope, len(vector))).hits
            scored = sorted(((similarity, facts[str(key)][1], str(key)) for key, similarity in
                             near), reverse=True)[:limit]
            if not scored:
                return []
            by_id = {row["id"]: record_of(row) for row in conn.execute(
                f"SELECT {COLUMNS} FROM records WHERE scope = ? AND id IN "
                f"({','.join('?' * len(scored))})", (scope, *(s[2] for s in scored)))}
        return [(by_id[record_id], similarity) for similarity, _, record_id in scored
                if record_id in by_id]

    # --- reindexing (jamgate reindex) --------------------------------------------------------

    def missing_vectors(self, model_id: str, limit: int) -> list[MemoryRecord]:
        """Active records without a vector from `model_id`, oldest first."""
        return self._records(
            f"SELECT {COLUMNS} FROM records WHERE status = 'active' AND (embedding IS NULL "
            "OR embedding_model IS NOT :model) ORDER BY seq LIMIT :limit",
            {"model": model_id, "limit": max(limit, 0)})

    def set_vectors(self, updates: Sequence[tuple[str, str, list[float], str]]) -> int:
        """Store the vectors in one transaction; returns how many records took one."""
        done = 0
        with self._transaction() as conn:
            for scope, record_id, vector, model_id in updates:
                changed = conn.execute(
                    "UPDATE records SET embedding = ?, embedding_model = ?, embedding_dim = ?, "
                    "embedding_norm = ? WHERE scope = ? AND id = ?",
                    (vector_blob(vector), model_id, len(vector), norm(vector), scope,
                     record_id))
                done += changed.rowcount
        return done

    # --- writes --------------------------------------------------------------------------------

    def write(self, plan: WritePlan, preconditions: Preconditions) -> None:
        """Check `preconditions` and apply `plan` in one BEGIN IMMEDIATE transaction."""
        self.write_many([plan], [preconditions])

    def write_many(self, plans: Sequence[WritePlan],
                   preconditions: Sequence[Preconditions]) -> None:
        """Check every precondition, then apply every plan, in one transaction."""
        current: WritePlan | None = None
        indexed: list[tuple[str, ...]] = []  # the keyword-index columns of the rows inserted
        try:
            with self._lock:
                with self._transaction() as conn:
                    for condition in preconditions:
                        self._check(conn, condition)
                    for current in plans:
                        if (columns := self._apply(conn, current)) is not None:
                            indexed.append(columns)
                    schema.prune_changes(conn)
                self._common.added(indexed)  # committed: the counts grow (D-242)
        except sqlite3.IntegrityError as exc:
            if "records.id" in str(exc):
                inserted = current.insert.id if current and current.insert else "?"
                raise StoreError(
                    f"a memory with id {inserted} already exists; nothing was changed"
                ) from exc
            raise PreconditionFailed(
                "the write would leave two active records with one text key or subject "
                f"({exc}); nothing was changed") from exc

    @staticmethod
    def _check(conn: sqlite3.Connection, preconditions: Preconditions) -> None:
        scope = preconditions.scope
        for column, wanted in (("text_key", preconditions.by_key),
                               ("subject", preconditions.by_subject)):
            for value, ids in wanted.items():
                found = frozenset(row[0] for row in conn.execute(
                    f"SELECT id FROM records WHERE scope = ? AND {column} = ? "
                    "AND status = 'active'", (scope, value)))
                if found != ids:
                    raise PreconditionFailed(
                        f"the active records with {column.replace('_', ' ')} {value!r} changed "
                        "since they were read; nothing was changed")

    @staticmethod
    def _apply(conn: sqlite3.Connection, plan: WritePlan) -> tuple[str, ...] | None:
        """Apply one plan; the keyword-index columns of the row it inserts."""
        now = iso(plan.now)
        for record_id in plan.retire:
            changed = conn.execute(
                "UPDATE records SET status = 'superseded', superseded_by = ?, superseded_at = ?, "
                "updated_at = ? WHERE scope = ? AND id = ? AND status = 'active'",
                (plan.insert.id if plan.insert else None, now, now, plan.scope, record_id))
            if changed.rowcount != 1:
                raise PreconditionFailed(
                    f"record {record_id} is no longer active in scope {plan.scope!r}")
        if plan.upgrade_source is not None:
            record_id, source = plan.upgrade_source
            changed = conn.execute(
                "UPDATE records SET source = ?, updated_at = ? WHERE scope = ? AND id = ?",
                (source, now, plan.scope, record_id))
            if changed.rowcount != 1:
                raise PreconditionFailed(f"record {record_id} is gone from {plan.scope!r}")
        if plan.insert is not None:
            values = insert_values(plan.insert)
            cursor = conn.execute(
                f"INSERT INTO records ({', '.join(values)}) "
                f"VALUES ({', '.join(':' + k for k in values)})", values)
            assert cursor.lastrowid is not None
            return schema.index_record(conn, cursor.lastrowid, plan.insert.text,
                                       plan.insert.subject)
        return None

    def delete(self, scope: str, record_id: str) -> MemoryRecord | None:
        """Remove the record, its keyword-index entries and its vector; then empty the WAL."""
        with self._lock:
            self._common.forget()  # a row leaves the keyword index
            with self._transaction() as conn:
                row = conn.execute(f"SELECT {COLUMNS} FROM records WHERE scope = ? AND id = ?",
                                   (scope, record_id)).fetchone()
                if row is None:
                    return None
                conn.execute("DELETE FROM records_fts WHERE rowid = ?", (row["seq"],))
                conn.execute("DELETE FROM records WHERE seq = ?", (row["seq"],))
                # FTS5 keeps a deleted row's tokens in old segments until they merge: merge
                # now, so secure_delete can zero them (cost grows with the index; forgets are
                # rare).
                conn.execute("INSERT INTO records_fts (records_fts) VALUES ('optimize')")
            self._vectors.forgotten(scope)  # a saved graph's bytes may hold the vector
            self.checkpoint()
            return record_of(row)

    def compact(self, cutoff: datetime) -> int:
        """Remove active records expired at or before `cutoff`, with their index entries."""
        with self._lock:
            self._common.forget()  # rows leave the keyword index
            with self._transaction() as conn:
                expired = conn.execute(
                    "SELECT seq, scope FROM records WHERE status = 'active' "
                    "AND expires_at IS NOT NULL AND expires_at <= ?", (iso(cutoff),)).fetchall()
                seqs = [row["seq"] for row in expired]
                for seq in seqs:
                    conn.execute("DELETE FROM records_fts WHERE rowid = ?", (seq,))
                    conn.execute("DELETE FROM records WHERE seq = ?", (seq,))
                if seqs:
                    conn.execute("INSERT INTO records_fts (records_fts) VALUES ('optimize')")
            for scope in {row["scope"] for row in expired}:
                self._vectors.forgotten(scope)
            if seqs:
                self.checkpoint()
            return len(seqs)

    def checkpoint(self) -> bool:
        """Copy the WAL into the database and truncate it to zero bytes (the pages a removed
        record was written in leave it). True when done; False, with a warning on stderr,
        when other connections kept it busy past the busy timeout (the next checkpoint, or
        the last connection closing, empties it)."""
        with self._db() as conn:
            busy = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
        if busy:
            _log.warning(f"could not empty the write-ahead log {self.path}-wal (other "
                         "connections are using it); the removed text leaves it at the next "
                         "checkpoint.")
        return not busy

    def scopes(self) -> list[str]:
        """Every scope holding a record (any status), sorted."""
        with self._db() as conn:
            return sorted(row[0] for row in conn.execute("SELECT DISTINCT scope FROM records"))

    # --- health --------------------------------------------------------------------------------

    def integrity_check(self) -> list[str]:
        """SQLite's integrity check, the keyword index against the rows, and the invariants."""
        problems: list[str] = []
        with self._db() as conn:
            rows = conn.execute("PRAGMA integrity_check").fetchall()
            problems += [f"sqlite: {r[0]}" for r in rows if r[0] != "ok"]
            try:
                conn.execute("INSERT INTO records_fts (records_fts) VALUES ('integrity-check')")
            except sqlite3.DatabaseError as exc:
                problems.append(f"keyword index: {exc}")
            indexed = conn.execute("SELECT count(*) FROM records_fts").fetchone()[0]
            stored = conn.execute("SELECT count(*) FROM records").fetchone()[0]
            if indexed != stored:
                problems.append(f"keyword index holds {indexed} rows for {stored} records")
            present = {r[0] for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'index'")}
            problems += [f"missing index {name}: the uniqueness invariant is not enforced"
                         for name in schema.INVARIANT_INDEXES if name not in present]
            for column in ("text_key", "subject"):
                for scope, value, count in conn.execute(
                        f"SELECT scope, {column}, count(*) FROM records WHERE status = 'active' "
                        f"AND {column} IS NOT NULL GROUP BY scope, {column} HAVING count(*) > 1"):
                    problems.append(f"scope {scope!r}: {count} active records share "
                                    f"{column.replace('_', ' ')} {value!r}")
        return problems

    # --- listing (last: the name `list` shadows the builtin in annotations below it) ---

    def list(
        self, scope: str, *, status: str, type: str | None, limit: int, cursor: str | None,
        now: datetime,
    ) -> Page:
        """One page, newest first, keyset-paginated on (created_at, id)."""
        check_list_args(limit, status)
        filters = {
            "active": LIVE,
            "superseded": "status = 'superseded'",
            "expired": "status = 'active' AND expires_at IS NOT NULL AND expires_at <= :now",
            "all": "1",
        }
        params: dict[str, object] = {"scope": scope, "now": iso(now), "type": type,
                                     "limit": limit + 1, "at": None, "id": None}
        if cursor is not None:
            params["at"], params["id"] = decode_cursor(cursor)
        rows = self._records(
            f"SELECT {COLUMNS} FROM records WHERE scope = :scope AND {filters[status]} "
            "AND (:type IS NULL OR type = :type) AND (:at IS NULL OR created_at < :at "
            "OR (created_at = :at AND id < :id)) ORDER BY created_at DESC, id DESC LIMIT :limit",
            params)
        return page_of(rows, limit)
