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
both leaving it byte-identical. Deleted text is overwritten (`secure_delete=ON`), and `delete`
merges the keyword index so no token of a forgotten memory stays behind in it.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import sys
import threading
from array import array
from collections.abc import Iterator, Sequence
from datetime import datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from jamgate_adapters.stores import _sqlite_schema as schema
from jamgate_adapters.stores._authstate import SqliteAuthState
from jamgate_adapters.stores._common import (
    HUB_DISCOUNT,
    QueryHints,
    VectorMatrix,
    check_list_args,
    decode_cursor,
    diversify,
    encode_cursor,
    fuse,
    is_cjk,
    match_terms,
    norm,
    ranked,
    record_columns,
    record_from_columns,
    typo_limit,
    typo_matches,
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
    StoreCorrupt,
    StoreError,
    StoreUnavailable,
)
from jamgate_core.models import MemoryRecord, Page, iso, parse_iso

_CORRUPT = {"SQLITE_CORRUPT", "SQLITE_NOTADB"}
_FIELDS = (
    "seq", "id", "scope", "text", "type", "subject", "source", "status", "created_at",
    "updated_at", "expires_at", "superseded_by", "superseded_at", "client_name",
    "client_version", "provenance", "embedding_model", "embedding",
)
_COLUMNS = ", ".join(_FIELDS)
_LIVE = "status = 'active' AND (expires_at IS NULL OR expires_at > :now)"
_LIVE_R = "r.status = 'active' AND (r.expires_at IS NULL OR r.expires_at > :now)"
# bm25 weights of the keyword-index columns: text, subject, CJK grams, CJK characters.
_BM25 = "bm25(records_fts, 1.0, 0.5, 1.0, 0.5)"
# A query whose terms match more rows than this is ranked on its rarest terms (`_ranking_match`).
RANK_BUDGET = 2_000
# The same for the gate's exact look-alike search: a look-alike shares the rare words.
EXACT_BUDGET = 100


def _vector_blob(vector: list[float]) -> bytes:
    packed = array("f", vector)
    if sys.byteorder == "big":
        packed.byteswap()
    return packed.tobytes()


def _blob_array(blob: bytes) -> array[float]:
    packed = array("f")
    packed.frombytes(blob)
    if sys.byteorder == "big":
        packed.byteswap()
    return packed


def _blob_vector(blob: bytes) -> list[float]:
    return _blob_array(blob).tolist()


def _quoted(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def _record(row: sqlite3.Row) -> MemoryRecord:
    blob = row["embedding"]
    return record_from_columns(row, _blob_vector(blob) if blob is not None else None)


def _insert_values(record: MemoryRecord) -> dict[str, object]:
    vector = record.embedding
    return {
        **record_columns(record),
        "embedding": _vector_blob(vector) if vector is not None else None,
        "embedding_dim": len(vector) if vector is not None else None,
        "embedding_norm": norm(vector) if vector is not None else None,
    }


class SqliteStore(SqliteAuthState):
    """Memories in one SQLite database: keyword index, vectors beside the rows."""

    class Options(BaseModel):
        model_config = ConfigDict(extra="forbid")

        path: str | None = None
        timeout_seconds: float = Field(default=30.0, gt=0)

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

    def location(self) -> str:
        return str(self.path)

    # --- opening -------------------------------------------------------------------------------

    def open(self) -> None:
        """Validate the file (read-only), migrate it if older, then open it for writing."""
        with self._lock:
            if self._conn is not None:
                return
            self._prepare_directory()
            if self.path.exists() and self.path.stat().st_size > 0:
                self._inspect()
            self._require_writable()
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
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def _prepare_directory(self) -> None:
        if self.path.is_dir():
            raise StoreUnavailable(
                f"{self.path} is a directory, not a database file. Point JAMGATE_STORE at a "
                "file path (e.g. memory.db inside it)."
            )
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise self._unavailable(f"cannot create the directory {self.path.parent} "
                                    f"({exc.strerror or exc})") from exc

    def _require_writable(self) -> None:
        folder = self.path.parent
        if not os.access(folder, os.W_OK | os.X_OK):
            raise self._unavailable(f"the directory {folder} is read-only")
        if self.path.exists() and not os.access(self.path, os.R_OK | os.W_OK):
            raise self._unavailable(f"the file {self.path} is read-only")

    def _unavailable(self, problem: str) -> StoreUnavailable:
        return StoreUnavailable(
            f"cannot use the store at {self.path}: {problem}. Nothing was modified. Make it "
            "writable by the user running Jamgate, or point JAMGATE_STORE at a writable path."
        )

    def _corrupt(self, detail: str) -> StoreCorrupt:
        return StoreCorrupt(
            f"{self.path} is not a readable Jamgate store ({detail}). Nothing was modified: "
            "Jamgate refuses to open or overwrite a store it cannot read. Restore it from a "
            f"backup ({self.path.name}.backup-*), or move it aside to start a new store."
        )

    def _inspect(self) -> None:
        """Check an existing file through a read-only connection, before anything writes."""
        try:
            with self.path.open("rb") as file:
                header = file.read(100)
        except OSError as exc:
            raise self._unavailable(f"cannot read it ({exc.strerror or exc})") from exc
        if not header.startswith(b"SQLite format 3\x00"):
            raise self._corrupt("not an SQLite database")
        # A WAL database nobody has open would get fresh -wal/-shm files from a read-only
        # connection; `immutable` reads it without them (nothing can be writing to it).
        wal_idle = header[18:20] == b"\x02\x02" and not Path(f"{self.path}-wal").exists()
        query = "mode=ro&immutable=1" if wal_idle else "mode=ro"
        try:
            probe = sqlite3.connect(f"{self.path.resolve().as_uri()}?{query}", uri=True,
                                    timeout=self.options.timeout_seconds)
        except sqlite3.Error as exc:
            raise self._unavailable(str(exc)) from exc
        try:
            check = probe.execute("PRAGMA quick_check").fetchall()
            app_id = probe.execute("PRAGMA application_id").fetchone()[0]
            version = probe.execute("PRAGMA user_version").fetchone()[0]
            tables = probe.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        except sqlite3.Error as exc:
            if getattr(exc, "sqlite_errorname", "") in _CORRUPT:
                raise self._corrupt(str(exc)) from exc
            raise self._unavailable(str(exc)) from exc
        finally:
            probe.close()
        if check != [("ok",)]:
            raise self._corrupt("integrity check: " + "; ".join(str(r[0]) for r in check[:3]))
        if app_id != schema.APPLICATION_ID and (tables or app_id):
            raise self._corrupt("an SQLite database, but not one Jamgate wrote")
        if version > schema.SCHEMA_VERSION:
            raise schema.too_new(self.path, version)

    def _connect(self) -> sqlite3.Connection:
        try:
            conn = sqlite3.connect(self.path, timeout=self.options.timeout_seconds,
                                   isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise self._unavailable(str(exc)) from exc
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
            if name in _CORRUPT:
                raise self._corrupt(str(exc)) from exc
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
            return [_record(row) for row in conn.execute(sql, params)]

    # --- reads ---------------------------------------------------------------------------------

    def by_text_key(self, scope: str, key: str) -> list[MemoryRecord]:
        return self._records(
            f"SELECT {_COLUMNS} FROM records WHERE scope = :scope AND text_key = :key "
            "AND status = 'active'", {"scope": scope, "key": key})

    def by_subject(self, scope: str, subject: str) -> list[MemoryRecord]:
        return self._records(
            f"SELECT {_COLUMNS} FROM records WHERE scope = :scope AND subject = :subject "
            "AND status = 'active'", {"scope": scope, "subject": subject})

    def get(self, scope: str, record_id: str) -> MemoryRecord | None:
        found = self._records(f"SELECT {_COLUMNS} FROM records WHERE scope = :scope AND id = :id",
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
        """Live records by relevance (see `_common`: FTS5 bm25 with prefix and typo matching,
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
                f"SELECT {_COLUMNS} FROM records r WHERE scope = :scope AND {_LIVE_R} {typed} "
                "ORDER BY created_at DESC, id DESC LIMIT :limit", {**params, "limit": limit})
            return [(r, 1.0) for r in rows]
        if exact:
            return self._lookalikes(query, limit, params, typed)
        pool = max(limit * 4, 40)
        found: dict[str, MemoryRecord] = {}
        lexical: dict[str, float] = {}
        with self._db() as conn:
            match = self._ranking_match(conn, self._match_parts(conn, query), RANK_BUDGET)
            if match is not None:
                for row in self._keyword_rows(conn, match, params, typed, pool):
                    found[row["id"]] = _record(row)
                    lexical[row["id"]] = max(-row["rank"], 1e-9)
            matrix, facts = (self._matrix(conn, scope, len(vector)) if vector
                             else (None, {}))
        hints = QueryHints(query, now)
        cosines: dict[str, float] | None = None
        adjusted: dict[str, float] | None = None
        stats = None
        if vector and matrix is not None:
            near = matrix.ranked(vector, now, pool * 2, also=list(lexical),
                                 discount=HUB_DISCOUNT)
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
                    f"SELECT {_COLUMNS} FROM records WHERE scope = :scope AND id IN "
                    f"({', '.join(':m' + str(n) for n in range(len(missing)))})",
                    {"scope": scope, **{f"m{n}": i for n, i in enumerate(missing)}}):
                found[record.id] = record
        hits = ranked((found[i], scores[i]) for i in order if i in found)
        vectors = ({i: matrix.vector(facts[i][2]) for i, _ in
                    ((r.id, s) for r, s in hits) if i in facts}
                   if matrix is not None else None)
        return diversify(hits, vectors)[:limit]

    def _lookalikes(self, query: str, limit: int, params: dict[str, object],
                    typed: str) -> list[tuple[MemoryRecord, float]]:
        """The `exact` search: the best bm25 matches of the query's own words, newest first
        among equals, with no vectors, fusion or diversity (the caller re-scores them)."""
        with self._db() as conn:
            # A look-alike shares the text's rare words: a small budget is enough.
            match = self._ranking_match(conn, self._match_parts(conn, query, exact=True),
                                        EXACT_BUDGET)
            rows = ([] if match is None else
                    self._keyword_rows(conn, match, params, typed, limit, exact=True))
        return [(_record(row), max(-row["rank"], 1e-9)) for row in rows]

    @staticmethod
    def _keyword_rows(conn: sqlite3.Connection, match: str, params: dict[str, object],
                      typed: str, pool: int, *, exact: bool = False) -> list[sqlite3.Row]:
        """The best keyword matches in the scope: ranked inside the index first (cheap), the
        full join only when scope, expiry or type filters leave too few of them (never for an
        `exact` look-alike search, which only wants the closest few)."""
        columns = ", ".join("r." + f for f in _FIELDS)
        inner = pool * 10 if exact else 400
        rows = conn.execute(
            f"SELECT {columns}, hit.rank AS rank FROM (SELECT rowid, {_BM25} AS rank "
            "FROM records_fts WHERE records_fts MATCH :match ORDER BY rank LIMIT :inner) hit "
            f"JOIN records r ON r.seq = hit.rowid WHERE r.scope = :scope AND {_LIVE_R} {typed} "
            "ORDER BY rank, r.created_at DESC, r.id DESC LIMIT :limit",
            {**params, "match": match, "limit": pool, "inner": inner}).fetchall()
        if exact or len(rows) >= pool or conn.execute(
                "SELECT count(*) FROM (SELECT 1 FROM records_fts WHERE records_fts MATCH ? "
                "LIMIT ?)", (match, inner + 1)).fetchone()[0] <= inner:
            return rows
        return conn.execute(
            f"SELECT {columns}, {_BM25} AS rank "
            "FROM records_fts JOIN records r ON r.seq = records_fts.rowid "
            f"WHERE records_fts MATCH :match AND r.scope = :scope AND {_LIVE_R} "
            f"{typed} ORDER BY rank, r.created_at DESC, r.id DESC LIMIT :limit",
            {**params, "match": match, "limit": pool}).fetchall()

    def _ranking_match(self, conn: sqlite3.Connection, parts: Sequence[str],
                       budget: int = 0) -> str | None:
        """The expression to rank with: every part when together they match few rows, else
        the rarest parts only (at least one), so bm25 scores a few thousand rows rather than
        every row holding a common word. A dropped part is common, so its idf (its weight in
        bm25) is low. Document frequencies are counted inside the index, capped."""
        budget = budget or RANK_BUDGET
        if len(parts) < 2:
            return parts[0] if parts else None
        frequency = self._frequencies(conn, parts, budget + 1)
        if sum(frequency.values()) <= budget:
            return " OR ".join(parts)
        rarest = sorted(parts, key=lambda part: frequency[part])
        kept, total = [rarest[0]], frequency[rarest[0]]
        for part in rarest[1:]:
            total += frequency[part]
            if total > budget:
                break
            kept.append(part)
        return " OR ".join(part for part in parts if part in kept)

    def _match_parts(self, conn: sqlite3.Connection, query: str, *,
                     exact: bool = False) -> list[str]:
        """The FTS5 terms for `query`: words quoted (never its syntax), long ones as prefixes
        of their stem, an unknown word widened to its typo matches in the index (only the
        quoted words when `exact`)."""
        parts: list[str] = []
        for term in match_terms(query):
            text = term.text
            if any(is_cjk(ch) for ch in text):
                column = "chars" if len(text) == 1 else "grams"
                parts.append(f"{column} : {_quoted(text)}")
                continue
            if exact:
                parts.append(_quoted(text))
                continue
            parts.append(f"{_quoted(text)} *" if term.prefix else _quoted(text))
            if typo_limit(text) and not self._indexed(conn, text, term.prefix):
                parts += [_quoted(word) for word in self._typos(conn, text)]
        return list(dict.fromkeys(parts))

    @staticmethod
    def _vocabulary(conn: sqlite3.Connection) -> None:
        """The index's terms (`jamgate_vocab`, one row per term) and its term occurrences
        (`jamgate_instances`, read lazily: a lookup stops at the first occurrence)."""
        conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.jamgate_vocab "
                     "USING fts5vocab(main, records_fts, row)")
        conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.jamgate_instances "
                     "USING fts5vocab(main, records_fts, instance)")

    def _indexed(self, conn: sqlite3.Connection, text: str, prefix: bool) -> bool:
        self._vocabulary(conn)
        if prefix:
            row = conn.execute("SELECT 1 FROM temp.jamgate_instances WHERE term >= ? "
                               "AND term < ? LIMIT 1", (text, text + "\U0010ffff")).fetchone()
        else:
            row = conn.execute("SELECT 1 FROM temp.jamgate_instances WHERE term = ? LIMIT 1",
                               (text,)).fetchone()
        return row is not None

    def _frequencies(self, conn: sqlite3.Connection, parts: Sequence[str],
                     cap: int) -> dict[str, int]:
        """How many rows each FTS5 term matches, counted up to `cap`, in one statement per
        hundred terms. A prefix term counts its occurrences instead (an upper bound; a prefix
        MATCH would merge every doclist first)."""
        counts: dict[str, int] = {}
        for start in range(0, len(parts), 100):
            chunk = parts[start:start + 100]
            selects, params = [], []
            for part in chunk:
                if part.endswith('" *') and part.startswith('"'):
                    self._vocabulary(conn)
                    stem = part[1:-3].replace('""', '"')
                    selects.append("(SELECT count(*) FROM (SELECT 1 FROM temp.jamgate_instances "
                                   "WHERE term >= ? AND term < ? LIMIT ?))")
                    params += [stem, stem + "\U0010ffff", cap]
                else:
                    selects.append("(SELECT count(*) FROM (SELECT 1 FROM records_fts "
                                   "WHERE records_fts MATCH ? LIMIT ?))")
                    params += [part, cap]
            row = conn.execute("SELECT " + ", ".join(selects), params).fetchone()
            counts.update(zip(chunk, (int(n) for n in row), strict=True))
        return counts

    def _typos(self, conn: sqlite3.Connection, text: str) -> list[str]:
        limit = typo_limit(text)
        self._vocabulary(conn)
        rows = conn.execute(
            "SELECT term FROM temp.jamgate_vocab WHERE term >= ? AND term < ? "
            "AND length(term) BETWEEN ? AND ?",
            (text[:1], text[:1] + "\U0010ffff", len(text) - limit, len(text) + limit))
        return typo_matches(text, (row[0] for row in rows))

    def _matrix(self, conn: sqlite3.Connection, scope: str, dim: int
                ) -> tuple[VectorMatrix, dict[str, tuple[str | None, str, int]]]:
        """The scope's active vectors of this length, cached until the database changes
        (this connection's `total_changes` or another's commit: `PRAGMA data_version`)."""
        version = (conn.total_changes, conn.execute("PRAGMA data_version").fetchone()[0])
        cache: dict[tuple[str, int], tuple[object, VectorMatrix, dict[str, tuple[
            str | None, str, int]]]] = self.__dict__.setdefault("_vector_cache", {})
        cached = cache.get((scope, dim))
        if cached is not None and cached[0] == version:
            return cached[1], cached[2]
        rows = conn.execute(
            "SELECT id, type, created_at, expires_at, embedding FROM records WHERE scope = ? "
            "AND status = 'active' AND embedding_dim = ? ORDER BY seq", (scope, dim)).fetchall()
        inf = float("inf")
        matrix = VectorMatrix(
            [(row["id"], parse_iso(row["expires_at"]).timestamp() if row["expires_at"] else inf,
              _blob_array(row["embedding"])) for row in rows], dim)
        facts = {row["id"]: (row["type"], row["created_at"], n) for n, row in enumerate(rows)}
        if len(cache) > 16:
            cache.clear()
        cache[(scope, dim)] = (version, matrix, facts)
        return matrix, facts

    def nearest(
        self, scope: str, vector: list[float], *, limit: int, now: datetime
    ) -> list[tuple[MemoryRecord, float]]:
        """Live records with a vector of the same length, by cosine (a cached matrix scan)."""
        if limit <= 0 or not vector:
            return []
        with self._db() as conn:
            matrix, facts = self._matrix(conn, scope, len(vector))
            near = matrix.ranked(vector, now, limit + 8).hits
            scored = sorted(((similarity, facts[str(key)][1], str(key)) for key, similarity in
                             near), reverse=True)[:limit]
            if not scored:
                return []
            by_id = {row["id"]: _record(row) for row in conn.execute(
                f"SELECT {_COLUMNS} FROM records WHERE scope = ? AND id IN "
                f"({','.join('?' * len(scored))})", (scope, *(s[2] for s in scored)))}
        return [(by_id[record_id], similarity) for similarity, _, record_id in scored
                if record_id in by_id]

    # --- reindexing (jamgate reindex) --------------------------------------------------------

    def missing_vectors(self, model_id: str, limit: int) -> list[MemoryRecord]:
        """Active records without a vector from `model_id`, oldest first."""
        return self._records(
            f"SELECT {_COLUMNS} FROM records WHERE status = 'active' AND (embedding IS NULL "
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
                    (_vector_blob(vector), model_id, len(vector), norm(vector), scope,
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
        try:
            with self._transaction() as conn:
                for condition in preconditions:
                    self._check(conn, condition)
                for current in plans:
                    self._apply(conn, current)
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
    def _apply(conn: sqlite3.Connection, plan: WritePlan) -> None:
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
            values = _insert_values(plan.insert)
            cursor = conn.execute(
                f"INSERT INTO records ({', '.join(values)}) "
                f"VALUES ({', '.join(':' + k for k in values)})", values)
            assert cursor.lastrowid is not None
            schema.index_record(conn, cursor.lastrowid, plan.insert.text, plan.insert.subject)

    def delete(self, scope: str, record_id: str) -> MemoryRecord | None:
        """Remove the record, its keyword-index entries and its vector."""
        with self._transaction() as conn:
            row = conn.execute(f"SELECT {_COLUMNS} FROM records WHERE scope = ? AND id = ?",
                               (scope, record_id)).fetchone()
            if row is None:
                return None
            conn.execute("DELETE FROM records_fts WHERE rowid = ?", (row["seq"],))
            conn.execute("DELETE FROM records WHERE seq = ?", (row["seq"],))
            # FTS5 keeps a deleted row's tokens in old segments until they merge: merge now,
            # so secure_delete can zero them (cost grows with the index; forgets are rare).
            conn.execute("INSERT INTO records_fts (records_fts) VALUES ('optimize')")
            return _record(row)

    def compact(self, cutoff: datetime) -> int:
        """Remove active records expired at or before `cutoff`, with their index entries."""
        with self._transaction() as conn:
            seqs = [row["seq"] for row in conn.execute(
                "SELECT seq FROM records WHERE status = 'active' AND expires_at IS NOT NULL "
                "AND expires_at <= ?", (iso(cutoff),))]
            for seq in seqs:
                conn.execute("DELETE FROM records_fts WHERE rowid = ?", (seq,))
                conn.execute("DELETE FROM records WHERE seq = ?", (seq,))
            if seqs:
                conn.execute("INSERT INTO records_fts (records_fts) VALUES ('optimize')")
            return len(seqs)

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
            "active": _LIVE,
            "superseded": "status = 'superseded'",
            "expired": "status = 'active' AND expires_at IS NOT NULL AND expires_at <= :now",
            "all": "1",
        }
        params: dict[str, object] = {"scope": scope, "now": iso(now), "type": type,
                                     "limit": limit + 1, "at": None, "id": None}
        if cursor is not None:
            params["at"], params["id"] = decode_cursor(cursor)
        rows = self._records(
            f"SELECT {_COLUMNS} FROM records WHERE scope = :scope AND {filters[status]} "
            "AND (:type IS NULL OR type = :type) AND (:at IS NULL OR created_at < :at "
            "OR (created_at = :at AND id < :id)) ORDER BY created_at DESC, id DESC LIMIT :limit",
            params)
        page = rows[:limit]
        more = len(rows) > limit
        return Page(records=page,
                    next_cursor=encode_cursor(page[-1].created_at, page[-1].id) if more else None)
