"""The SQLite store's lookups: FTS5 match expressions over its keyword index (the user's words
quoted, never their syntax; prefixes, typo widening and a budget of rows to rank), and the
matrices of a scope's vectors, kept current from the change log."""

from __future__ import annotations

import sqlite3
import sys
from array import array
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jamgate_adapters.stores.kit.approximate import ApproximateIndex
from jamgate_adapters.stores.kit.lexical import (
    match_terms,
    query_terms,
    typo_limit,
    typo_matches,
)
from jamgate_adapters.stores.kit.vectors import VectorMatrix
from jamgate_adapters.stores.sqlite.graphs import THRESHOLD, Graphs
from jamgate_adapters.stores.sqlite.rows import FIELDS, LIVE_R, blob_array
from jamgate_core.models import parse_iso
from jamgate_core.text import is_cjk

# bm25 weights of the keyword-index columns: text, subject, CJK grams, CJK characters.
_BM25 = "bm25(records_fts, 1.0, 0.5, 1.0, 0.5)"
# A query whose terms match more rows than this is ranked on its rarest terms (`ranking_match`).
RANK_BUDGET = 2_000
# The same for the gate's exact look-alike search: a look-alike shares the rare words.
EXACT_BUDGET = 100
# The most rows a look-alike search ranks before it falls back to the rarest words alone.
LOOKALIKE_CAP = 1_000
# A word in half the rows is left out of the ranking (`_weighed`); its count's cap is rounded
# up to a multiple of this.
HALF_STEP = 512


def _quoted(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def keyword_rows(conn: sqlite3.Connection, match: str, params: dict[str, object],
                 typed: str, pool: int, *, exact: bool = False) -> list[sqlite3.Row]:
    """The best keyword matches in the scope: ranked inside the index first (cheap), the
    full join only when scope, expiry or type filters leave too few of them (never for an
    `exact` look-alike search, which only wants the closest few)."""
    columns = ", ".join("r." + f for f in FIELDS)
    inner = pool * 10 if exact else 400
    rows = conn.execute(
        f"SELECT {columns}, hit.rank AS rank FROM (SELECT rowid, {_BM25} AS rank "
        "FROM records_fts WHERE records_fts MATCH :match ORDER BY rank LIMIT :inner) hit "
        f"JOIN records r ON r.seq = hit.rowid WHERE r.scope = :scope AND {LIVE_R} {typed} "
        "ORDER BY rank, r.created_at DESC, r.id DESC LIMIT :limit",
        {**params, "match": match, "limit": pool, "inner": inner}).fetchall()
    if exact or len(rows) >= pool or conn.execute(
            "SELECT count(*) FROM (SELECT 1 FROM records_fts WHERE records_fts MATCH ? "
            "LIMIT ?)", (match, inner + 1)).fetchone()[0] <= inner:
        return rows
    return conn.execute(
        f"SELECT {columns}, {_BM25} AS rank "
        "FROM records_fts JOIN records r ON r.seq = records_fts.rowid "
        f"WHERE records_fts MATCH :match AND r.scope = :scope AND {LIVE_R} "
        f"{typed} ORDER BY rank, r.created_at DESC, r.id DESC LIMIT :limit",
        {**params, "match": match, "limit": pool}).fetchall()

def ranking_match(conn: sqlite3.Connection, parts: Sequence[str],
                  budget: int = 0, common: CommonTerms | None = None) -> str | None:
    """The expression to rank with: every part when together they match few rows, else
    `(rarest) AND (every part)`: the rows holding one of the rarest parts (at least one, more
    while their rows stay within the budget) are the candidates, so bm25 scores a few
    thousand rows rather than every row holding a common word, and it scores them on every
    part, so a common word still tells apart the candidates that hold it (D-391: "my sister's
    dentist" among every dentist). Document frequencies are counted inside the index, capped
    (a part `common` already saw reach the cap is not counted again)."""
    budget = budget or RANK_BUDGET
    if len(parts) < 2:
        return parts[0] if parts else None
    frequency = _frequencies(conn, parts, budget + 1, common)
    if sum(frequency.values()) <= budget:
        return " OR ".join(parts)
    anchors = _rarest(parts, frequency, budget)
    weighed = _weighed(conn, parts, frequency, budget, common, anchors.split(" OR "))
    return f"({anchors}) AND ({' OR '.join(weighed)})"


def past_budget(match: str) -> bool:
    """Whether `ranking_match` built the `(rarest) AND (...)` form: a plain expression is
    quoted words joined by OR, never a parenthesis first."""
    return match.startswith("(")


def _weighed(conn: sqlite3.Connection, parts: Sequence[str], frequency: dict[str, int],
             budget: int, common: CommonTerms | None, anchors: Sequence[str]) -> list[str]:
    """The parts bm25 can weigh: a plain word in half the index's rows or more has an idf of
    at most 0, which FTS5's bm25 turns into 1e-6, so it changes no order but costs its whole
    row list (D-395: "s" of "my sister's" in 3 of 4 rows). Its count goes on to a cap of half
    the highest rowid (at least half the rows), rounded up to HALF_STEP so a remembered count
    outlives a few hundred saves."""
    over = [part for part in parts
            if frequency[part] > budget and _plain(part) and part not in anchors]
    if not over:
        return list(parts)
    highest = conn.execute("SELECT max(rowid) FROM records_fts").fetchone()[0] or 0
    cap = -(-highest // (2 * HALF_STEP)) * HALF_STEP
    counts = _frequencies(conn, over, cap, common)
    return [part for part in parts if counts.get(part, 0) < cap]


def _rarest(parts: Sequence[str], frequency: dict[str, int], budget: int) -> str:
    """The rarest part, then the next rarest while all their rows stay within `budget`."""
    rarest = sorted(parts, key=lambda part: frequency[part])
    kept = _within([rarest[0]], rarest[1:], frequency, budget)
    return " OR ".join(part for part in parts if part in kept)


def _within(kept: list[str], rest: Sequence[str], frequency: dict[str, int],
            budget: int) -> list[str]:
    """`kept`, then the parts of `rest` in order while all their rows stay within `budget`."""
    total = sum(frequency[part] for part in kept)
    for part in rest:
        total += frequency[part]
        if total > budget:
            break
        kept.append(part)
    return kept


def lookalike_match(conn: sqlite3.Connection, parts: Sequence[str],
                    common: CommonTerms | None = None) -> str | None:
    """The expression for the gate's look-alike search. A near-copy holds at least four in
    five of the query's words, so it holds one of any `len(parts) // 5 + 1` of them: the rows
    holding one of the rarest that many (more while their rows stay within `EXACT_BUDGET`)
    are the candidates, ranked by bm25 over every word (D-330). Where even those are common
    (more than `LOOKALIKE_CAP` rows), the rarest words alone, as `ranking_match` ranks."""
    if len(parts) < 2:
        return parts[0] if parts else None
    frequency = _frequencies(conn, parts, LOOKALIKE_CAP + 1, common)
    if sum(frequency.values()) <= EXACT_BUDGET:
        return " OR ".join(parts)
    rarest = sorted(parts, key=lambda part: frequency[part])
    needed = len(parts) // 5 + 1
    if sum(frequency[part] for part in rarest[:needed]) > LOOKALIKE_CAP:
        return _rarest(parts, frequency, EXACT_BUDGET)  # the counts in hand, not counted again
    anchors = _within(rarest[:needed], rarest[needed:], frequency, EXACT_BUDGET)
    ranked = [part for part in parts if frequency[part] <= LOOKALIKE_CAP]
    return f"({' OR '.join(anchors)}) AND ({' OR '.join(ranked)})"


class CommonTerms:
    """The FTS5 term counts a search already made, by (term, cap): a term found at its cap
    (D-205), and a plain word's exact count below it (D-242). Rows only join the index between
    forgets, so a capped count stays the cap, and this store adds one to a plain word's count
    for each row it inserts with that word (`added`). Emptied when a row may have left the
    index: this store's forget or compaction (`forget`), or any other connection's commit
    (`PRAGMA data_version`)."""

    LIMIT = 100_000

    def __init__(self) -> None:
        self._known: dict[tuple[str, int], int] = {}
        self._caps: set[int] = set()
        self._version: int | None = None

    def current(self, conn: sqlite3.Connection) -> dict[tuple[str, int], int]:
        """The counts known, as of this connection's view of the database."""
        version = conn.execute("PRAGMA data_version").fetchone()[0]
        if version != self._version or len(self._known) > self.LIMIT:
            self._known.clear()
            self._version = version
        return self._known

    def counted(self, part: str, cap: int, count: int) -> None:
        """Remember a fresh count: a plain word's always, any other term's at its cap only
        (a prefix counts occurrences, a column filter one column: no row adds one to them)."""
        if count >= cap or _plain(part):
            self._known[(part, cap)] = min(count, cap)
            self._caps.add(cap)

    def added(self, rows: Iterable[Sequence[str]]) -> None:
        """Rows joined the index (this store's commit), each as its index columns (tokens
        separated by spaces): each known count of a word a row holds grows by one."""
        if not self._known:
            return
        for columns in rows:
            for token in set(" ".join(columns).split()):
                for cap in self._caps:
                    key = (_quoted(token), cap)
                    count = self._known.get(key)
                    if count is not None and count < cap:
                        self._known[key] = count + 1

    def forget(self) -> None:
        self._known.clear()


def _plain(part: str) -> bool:
    """A quoted word that is one token of the `ascii` tokenizer as written (lowercase ASCII
    letters, digits and non-ASCII characters): it matches exactly the rows holding it."""
    if len(part) < 3 or part[0] != '"' or part[-1] != '"':
        return False
    return all(not c.isascii() or c.islower() or c.isdigit() for c in part[1:-1])


def match_parts(conn: sqlite3.Connection, query: str, *,
                exact: bool = False) -> list[str]:
    """The FTS5 terms for `query`: words quoted (never its syntax), long ones as prefixes
    of their stem, an unknown word widened to its typo matches in the index. When `exact`,
    the query's own words, whole, as the index holds them (D-330: a stem quoted without its
    prefix matched almost nothing)."""
    if exact:
        return list(dict.fromkeys(_cjk_part(term) if any(is_cjk(ch) for ch in term)
                                  else _quoted(term) for term in query_terms(query)))
    parts: list[str] = []
    for term in match_terms(query):
        text = term.text
        if any(is_cjk(ch) for ch in text):
            parts.append(_cjk_part(text))
            continue
        parts.append(f"{_quoted(text)} *" if term.prefix else _quoted(text))
        if typo_limit(text) and not _indexed(conn, text, term.prefix):
            parts += [_quoted(word) for word in _typos(conn, text)]
    return list(dict.fromkeys(parts))

def _cjk_part(text: str) -> str:
    """A CJK term: a lone character in the `chars` column, a bigram in `grams`."""
    return f"{'chars' if len(text) == 1 else 'grams'} : {_quoted(text)}"

def _vocabulary(conn: sqlite3.Connection) -> None:
    """The index's terms (`jamgate_vocab`, one row per term) and its term occurrences
    (`jamgate_instances`, read lazily: a lookup stops at the first occurrence)."""
    conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.jamgate_vocab "
                 "USING fts5vocab(main, records_fts, row)")
    conn.execute("CREATE VIRTUAL TABLE IF NOT EXISTS temp.jamgate_instances "
                 "USING fts5vocab(main, records_fts, instance)")

def _indexed(conn: sqlite3.Connection, text: str, prefix: bool) -> bool:
    _vocabulary(conn)
    if prefix:
        row = conn.execute("SELECT 1 FROM temp.jamgate_instances WHERE term >= ? "
                           "AND term < ? LIMIT 1", (text, text + "\U0010ffff")).fetchone()
    else:
        row = conn.execute("SELECT 1 FROM temp.jamgate_instances WHERE term = ? LIMIT 1",
                           (text,)).fetchone()
    return row is not None

def _frequencies(conn: sqlite3.Connection, parts: Sequence[str], cap: int,
                 common: CommonTerms | None = None) -> dict[str, int]:
    """How many rows each FTS5 term matches, counted up to `cap`, in one statement per
    hundred terms (none for a term whose count `common` knows). A prefix term counts its
    occurrences instead (an upper bound; a prefix MATCH would merge every doclist first)."""
    known = common.current(conn) if common is not None else {}
    counts = {part: known[part, cap] for part in parts if (part, cap) in known}
    todo = [part for part in parts if part not in counts]
    for start in range(0, len(todo), 100):
        chunk = todo[start:start + 100]
        selects, params = [], []
        for part in chunk:
            if part.endswith('" *') and part.startswith('"'):
                _vocabulary(conn)
                stem = part[1:-3].replace('""', '"')
                selects.append("(SELECT count(*) FROM (SELECT 1 FROM temp.jamgate_instances "
                               "WHERE term >= ? AND term < ? LIMIT ?))")
                params += [stem, stem + "\U0010ffff", cap]
            else:
                selects.append("(SELECT count(*) FROM (SELECT 1 FROM records_fts "
                               "WHERE records_fts MATCH ? LIMIT ?))")
                params += [part, cap]
        row = conn.execute("SELECT " + ", ".join(selects), params).fetchone()
        for part, n in zip(chunk, row, strict=True):
            counts[part] = int(n)
            if common is not None:
                common.counted(part, cap, int(n))
    return counts

def _typos(conn: sqlite3.Connection, text: str) -> list[str]:
    limit = typo_limit(text)
    _vocabulary(conn)
    rows = conn.execute(
        "SELECT term FROM temp.jamgate_vocab WHERE term >= ? AND term < ? "
        "AND length(term) BETWEEN ? AND ?",
        (text[:1], text[:1] + "\U0010ffff", len(text) - limit, len(text) + limit))
    return typo_matches(text, (row[0] for row in rows))


# Each vector row's (type, created_at), by record id.
Facts = dict[str, tuple[str | None, str]]
_VECTOR_ROW = ("SELECT id, type, created_at, expires_at, status, embedding_dim, embedding "
               "FROM records")


@dataclass
class _Scope:
    """One scope's matrix, the facts beside it, the last change-log entry applied to it and
    the database version it was last checked at."""

    matrix: VectorMatrix
    facts: Facts
    seen: int
    version: tuple[int, int]


class VectorCache:
    """A connection's scope matrices, by (scope, vector length), kept current from the
    `record_changes` log (schema v6): a write, this connection's or another process's, costs
    the rows it changed, not a reload. A scope large enough also gets an approximate index
    (`graphs`, D-185), kept in step with the same log."""

    def __init__(self, graphs_folder: Path | None = None, lock: Any = None,
                 threshold: int = THRESHOLD) -> None:
        self._cache: dict[tuple[str, int], _Scope] = {}
        self.graphs = (None if graphs_folder is None else
                       Graphs(graphs_folder, lock, self._snapshot, threshold))

    def _snapshot(self, scope: str, dim: int) -> tuple[VectorMatrix, int]:
        cached = self._cache[(scope, dim)]
        return cached.matrix, cached.seen

    def matrix(self, conn: sqlite3.Connection, scope: str, dim: int,
               ) -> tuple[VectorMatrix, Facts]:
        """The scope's active vectors of this length. Checked against the database version
        (this connection's `total_changes`, another's commit: `PRAGMA data_version`); when it
        moved, the change-log entries since the last one applied are read and their records'
        rows put or removed. A cache that fell behind the pruned log, or would apply more
        entries than half its rows, is read again whole."""
        version = (conn.total_changes, conn.execute("PRAGMA data_version").fetchone()[0])
        cached = self._cache.get((scope, dim))
        if cached is not None and cached.version == version:
            return cached.matrix, cached.facts
        newest, oldest = conn.execute(
            "SELECT (SELECT max(seq) FROM record_changes), "
            "(SELECT min(seq) FROM record_changes)").fetchone()
        newest = newest or 0
        if cached is not None and (cached.seen == newest or (
                oldest is not None and cached.seen >= oldest - 1
                and newest - cached.seen <= max(1_000, len(cached.matrix) // 2))):
            self._follow(conn, scope, cached, newest)
            cached.version = version
            return cached.matrix, cached.facts
        if len(self._cache) > 16:
            self._cache.clear()
        if self._cache.pop((scope, dim), None) is not None and self.graphs is not None:
            self.graphs.reloaded(scope, dim)  # the old matrix's memory goes before the new
        facts: Facts = {}
        # the scope's rows, an upper bound counted on an index (0.2 ms at 10,000; the exact
        # count reads every row, 12 ms): the matrix is sized once (D-237)
        expected = conn.execute("SELECT count(*) FROM records WHERE scope = ?",
                                (scope,)).fetchone()[0]
        rows = conn.execute(
            f"{_VECTOR_ROW} WHERE scope = ? AND status = 'active' AND embedding_dim = ? "
            "ORDER BY seq", (scope, dim))

        def vectors() -> Iterator[tuple[str, float, array[float]]]:
            for row in rows:  # streamed: no list of every row, no list of every vector
                record_id = row["id"]  # one string for the matrix's keys and the facts
                facts[record_id] = _fact(row)
                yield record_id, _expiry(row["expires_at"]), blob_array(row["embedding"])

        matrix = VectorMatrix(vectors(), dim, expected)
        self._cache[(scope, dim)] = _Scope(matrix, facts, newest, version)
        return matrix, facts

    def index(self, conn: sqlite3.Connection, scope: str, dim: int) -> ApproximateIndex | None:
        """The scope's ready approximate index, after `matrix` for the same scope (None: the
        scope is small, the index is being prepared, or hnswlib is not installed)."""
        cached = self._cache.get((scope, dim))
        if self.graphs is None or cached is None:
            return None
        return self.graphs.current(conn, scope, cached.matrix, cached.seen)

    def forgotten(self, scope: str) -> None:
        """A record of `scope` was deleted for good (its saved graphs go, see `graphs`)."""
        if self.graphs is not None:
            self.graphs.forget_files(scope)

    def close(self) -> None:
        if self.graphs is not None:
            self.graphs.close()

    def _follow(self, conn: sqlite3.Connection, scope: str, cached: _Scope, newest: int) -> None:
        """Apply the scope's change-log entries after `cached.seen` up to `newest`: each
        changed record's current row is put into the matrix, or removed from it when it is
        gone, retired or holds no vector of this length."""
        changed = [row[0] for row in conn.execute(
            "SELECT DISTINCT record_id FROM record_changes WHERE seq > ? AND seq <= ? "
            "AND scope = ?", (cached.seen, newest, scope))]
        matrix, facts = cached.matrix, cached.facts
        put: list[str] = []
        removed: list[str] = []
        hard = False
        for start in range(0, len(changed), 500):
            chunk = changed[start:start + 500]
            current = {row["id"]: row for row in conn.execute(
                f"{_VECTOR_ROW} WHERE scope = ? AND id IN ({', '.join('?' * len(chunk))})",
                (scope, *chunk))}
            for record_id in chunk:
                row = current.get(record_id)
                if (row is None or row["status"] != "active" or row["embedding"] is None
                        or row["embedding_dim"] != matrix.dim):
                    hard = hard or (row is None and record_id in matrix)
                    matrix.remove(record_id)
                    facts.pop(record_id, None)
                    removed.append(record_id)
                    continue
                matrix.put(record_id, _expiry(row["expires_at"]), blob_array(row["embedding"]))
                facts[record_id] = _fact(row)
                put.append(record_id)
        cached.seen = newest
        if self.graphs is not None:
            self.graphs.follow(scope, matrix, put, removed, hard, newest)


def _fact(row: sqlite3.Row) -> tuple[str | None, str]:
    """A vector row's (type, created_at), the type shared with every row of that type (a
    row's column reads as a new string each time: 10,000 copies of a few types)."""
    kind = row["type"]
    return (None if kind is None else sys.intern(kind)), row["created_at"]


def _expiry(expires_at: str | None) -> float:
    return parse_iso(expires_at).timestamp() if expires_at else float("inf")
