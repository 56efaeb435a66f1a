"""The SQLite store's schema, its versions and the migrations between them.

The version lives in `PRAGMA user_version`; `PRAGMA application_id` marks the file as a
Jamgate store, so another program's database is never mistaken for an empty old one.

- v1: the `records` table and the partial UNIQUE indexes that keep one active record per
  (scope, text key) and per (scope, subject).
- v2: the `records_fts` keyword index (FTS5, diacritic-folding, CJK bigrams).
- v3: remote mode's OAuth state: `oauth_clients` and `oauth_secrets` (hashes only).
- v4: the keyword index rebuilt on the gate's own reading of text. Its columns hold the words
  of `jamgate_core.text.fold` + `runs` (the folding the stages use: `Straße` = `strasse`,
  `ΟΔΟΣ` = `οδος`, `ﬁle` = `file`, `İstanbul` = `istanbul`, combining marks dropped, the CJK
  iteration marks 々〆〇 counted as CJK), not the raw text, and FTS5's `ascii` tokenizer
  takes them as they are (split at the spaces between them; unicode61's own folding, which
  disagreed with the gate's, no longer applies). A query's terms are folded the same way, so
  the index and the stages agree on what a word is. The migration drops `records_fts` and
  indexes every row again (from `records`: nothing but the index changes).
- v5: the review queue (`pending`, D-155): candidates held for the person, apart from records.
- v6: `record_changes`, a change log the in-memory vector matrices follow: triggers on
  `records` append (scope, record id) for every insert, delete and change of a column a
  matrix reads, inside the writing transaction (so a crash cannot separate a write from its
  entry). A connection applies the entries past the last one it saw to its matrices instead of
  reading every vector again; the log keeps its newest `CHANGE_LOG_KEEP` entries, and a reader
  that fell further behind reloads.

A fresh database runs every migration without a backup (there is nothing to lose). An
existing one is first copied with the backup API to `<name>.backup-v<old>-<stamp>` next to it,
and the copy is verified (integrity_check ok, same row count); without a verified copy the
migration does not start.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from jamgate_adapters.stores.kit.lexical import cjk_grams, subject_text
from jamgate_core.errors import StoreError, StoreTooNew
from jamgate_core.files import create_private
from jamgate_core.text import fold, runs

APPLICATION_ID = 0x4A4D4754  # "JMGT"
SCHEMA_VERSION = 6
# The change log keeps this many newest entries (pruned as writes go).
CHANGE_LOG_KEEP = 20_000
# FTS5 merges a level of the keyword index once it holds this many segments (its default 4).
# Every save commits a segment of its own; at 2 the index holds fewer of them, so the
# look-alike search a save runs reads fewer (D-414). Which rows match, and their bm25, do not
# depend on how the index is cut into segments.
AUTOMERGE = 2
# FTS5 merges a level at once (not a work unit at a time, every 64 writes) once it holds this
# many segments (its default 16). At 4 a save's look-alike search reads ~6 segments on
# average instead of ~12 at 10,000 records: −4 % of a save's instructions (D-432).
CRISISMERGE = 4

_V1 = """
CREATE TABLE records (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    scope TEXT NOT NULL,
    text TEXT NOT NULL,
    text_key TEXT NOT NULL,
    type TEXT,
    subject TEXT,
    source TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('active', 'superseded')),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    expires_at TEXT,
    superseded_by TEXT,
    superseded_at TEXT,
    client_name TEXT,
    client_version TEXT,
    provenance TEXT,
    embedding_model TEXT,
    embedding BLOB,
    embedding_dim INTEGER,
    embedding_norm REAL
);
CREATE UNIQUE INDEX records_active_key ON records (scope, text_key) WHERE status = 'active';
CREATE UNIQUE INDEX records_active_subject ON records (scope, subject)
    WHERE status = 'active' AND subject IS NOT NULL;
CREATE INDEX records_newest ON records (scope, created_at DESC, id DESC);
CREATE INDEX records_scope_id ON records (scope, id);
"""

_V2 = """
CREATE VIRTUAL TABLE records_fts USING fts5(
    text, subject, grams, chars, tokenize = 'unicode61 remove_diacritics 2'
);
"""

_V3 = """
CREATE TABLE oauth_clients (
    client_id TEXT PRIMARY KEY,
    document TEXT NOT NULL,
    created_at REAL NOT NULL,
    authorized INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE oauth_secrets (
    kind TEXT NOT NULL CHECK (kind IN ('code', 'access', 'refresh')),
    key TEXT NOT NULL,
    client_id TEXT NOT NULL,
    grant_id TEXT NOT NULL,
    expires_at REAL NOT NULL,
    data TEXT NOT NULL,
    revoked_at REAL,
    PRIMARY KEY (kind, key)
);
CREATE INDEX oauth_secrets_grant ON oauth_secrets (grant_id);
CREATE INDEX oauth_secrets_expiry ON oauth_secrets (expires_at);
"""

# v4: the same columns, holding folded words that the `ascii` tokenizer splits at spaces only
# (every non-ASCII character is a token character; ASCII is lowercase already).
_V4 = """
DROP TABLE records_fts;
CREATE VIRTUAL TABLE records_fts USING fts5(text, subject, grams, chars, tokenize = 'ascii');
"""

_V5 = """
CREATE TABLE IF NOT EXISTS pending (
    id TEXT PRIMARY KEY,
    scope TEXT NOT NULL,
    created_at REAL NOT NULL,
    expires_at REAL NOT NULL,
    data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS pending_expiry ON pending (expires_at);
"""

# v6: what changed, for the in-memory vector matrices (see the module docstring).
_V6 = (
    """CREATE TABLE IF NOT EXISTS record_changes (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        scope TEXT NOT NULL,
        record_id TEXT NOT NULL)""",
    """CREATE TRIGGER IF NOT EXISTS records_changes_insert AFTER INSERT ON records BEGIN
        INSERT INTO record_changes (scope, record_id) VALUES (NEW.scope, NEW.id);
    END""",
    """CREATE TRIGGER IF NOT EXISTS records_changes_update AFTER UPDATE OF scope, id, status, type,
        created_at, expires_at, embedding, embedding_dim ON records BEGIN
        INSERT INTO record_changes (scope, record_id) VALUES (OLD.scope, OLD.id);
        INSERT INTO record_changes (scope, record_id)
            SELECT NEW.scope, NEW.id WHERE NEW.scope IS NOT OLD.scope OR NEW.id IS NOT OLD.id;
    END""",
    """CREATE TRIGGER IF NOT EXISTS records_changes_delete AFTER DELETE ON records BEGIN
        INSERT INTO record_changes (scope, record_id) VALUES (OLD.scope, OLD.id);
    END""",
)

# The indexes whose absence would let the uniqueness invariant break silently.
INVARIANT_INDEXES = ("records_active_key", "records_active_subject")


def too_new(db_path: Path, version: int) -> StoreTooNew:
    """The refusal for a database written by a newer Jamgate."""
    return StoreTooNew(
        f"{db_path} was written by a newer Jamgate (schema v{version}; this one knows up to "
        f"v{SCHEMA_VERSION}). Nothing was modified. Upgrade jamgate, or point JAMGATE_STORE "
        "elsewhere."
    )


def fts_row(text: str, subject: str | None) -> tuple[str, str, str, str]:
    """The keyword-index columns of a record: the folded words of its text and of its subject,
    its CJK grams and chars (each space-separated)."""
    grams, chars = cjk_grams(text)
    return (" ".join(runs(fold(text))), " ".join(runs(fold(subject_text(subject)))),
            " ".join(grams), " ".join(chars))


def index_record(conn: sqlite3.Connection, seq: int, text: str,
                 subject: str | None) -> tuple[str, str, str, str]:
    """Add one record to the keyword index; its columns (space-separated tokens)."""
    columns = fts_row(text, subject)
    conn.execute(
        "INSERT INTO records_fts (rowid, text, subject, grams, chars) VALUES (?, ?, ?, ?, ?)",
        (seq, *columns),
    )
    return columns


def _to_v1(conn: sqlite3.Connection) -> None:
    _run_script(conn, _V1)
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")


def _to_v2(conn: sqlite3.Connection) -> None:
    _run_script(conn, _V2)
    _index_all(conn)


def _to_v3(conn: sqlite3.Connection) -> None:
    _run_script(conn, _V3)


def _to_v4(conn: sqlite3.Connection) -> None:
    """Rebuild the keyword index on the gate's folding (see the module docstring)."""
    _run_script(conn, _V4)
    _index_all(conn)


def _to_v5(conn: sqlite3.Connection) -> None:
    _run_script(conn, _V5)


def _to_v6(conn: sqlite3.Connection) -> None:
    """Add the change log and its triggers (one statement each: a trigger body holds `;`)."""
    for statement in _V6:
        conn.execute(statement)


def prune_changes(conn: sqlite3.Connection) -> None:
    """Drop change-log entries older than the newest CHANGE_LOG_KEEP (a cheap range delete)."""
    conn.execute("DELETE FROM record_changes WHERE seq <= (SELECT max(seq) FROM "
                 "record_changes) - ?", (CHANGE_LOG_KEEP,))


def _index_all(conn: sqlite3.Connection) -> None:
    for seq, text, subject in conn.execute("SELECT seq, text, subject FROM records").fetchall():
        index_record(conn, seq, text, subject)


def _run_script(conn: sqlite3.Connection, script: str) -> None:
    """Run `;`-separated DDL inside the caller's transaction (executescript would commit)."""
    for statement in script.split(";"):
        if statement.strip():
            conn.execute(statement)


# MIGRATIONS[n] brings a database from version n to n + 1.
MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {
    0: _to_v1, 1: _to_v2, 2: _to_v3, 3: _to_v4, 4: _to_v5, 5: _to_v6,
}


def backup_path(db_path: Path, version: int, now: datetime | None = None) -> Path:
    """Where the copy taken before migrating from `version` goes."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    return db_path.with_name(f"{db_path.name}.backup-v{version}-{stamp}")


def write_verified_backup(conn: sqlite3.Connection, db_path: Path, version: int) -> Path:
    """Copy the database next to itself and verify the copy; StoreError when that fails.

    `conn` holds the write lock, so the copy is exactly what the migration starts from.
    """
    target = backup_path(db_path, version)
    refuse = (f"Jamgate must migrate {db_path} from schema v{version} to v{SCHEMA_VERSION} and "
              f"first takes a verified backup at {target}, but")
    tail = ("Nothing was migrated or modified. Free some space or make the directory "
            "writable, then start Jamgate again.")
    if target.exists():
        raise StoreError(f"{refuse} something is already at that path. Move it aside. {tail}")
    expected = conn.execute("SELECT count(*) FROM records").fetchone()[0]
    try:
        create_private(target)  # 0600 before SQLite opens it (its journal takes that mode)
        source = sqlite3.connect(f"{db_path.resolve().as_uri()}?mode=ro", uri=True)
        copy = sqlite3.connect(target)
        try:
            source.backup(copy)
            status = copy.execute("PRAGMA integrity_check").fetchall()
            count = copy.execute("SELECT count(*) FROM records").fetchone()[0]
        finally:
            copy.close()
            source.close()
    except (sqlite3.Error, OSError) as exc:
        _discard(target)
        raise StoreError(f"{refuse} the backup failed ({exc}). {tail}") from exc
    if status != [("ok",)] or count != expected:
        _discard(target)
        raise StoreError(
            f"{refuse} the copy did not verify (integrity {status[:3]}, {count} of "
            f"{expected} records). {tail}"
        )
    return target


def _discard(path: Path) -> None:
    try:
        if path.is_file():
            path.unlink()
    except OSError:
        pass


def _tune_index(conn: sqlite3.Connection) -> None:
    """Set the keyword index's merge thresholds (`AUTOMERGE`, `CRISISMERGE`) where the file
    holds others (FTS5 keeps them in `records_fts_config`); a store that has them is not
    written."""
    for key, value in (("automerge", AUTOMERGE), ("crisismerge", CRISISMERGE)):
        row = conn.execute("SELECT v FROM records_fts_config WHERE k = ?", (key,)).fetchone()
        if row is None or row[0] != value:
            conn.execute("INSERT INTO records_fts (records_fts, rank) VALUES (?, ?)",
                         (key, value))


def migrate(conn: sqlite3.Connection, db_path: Path) -> Path | None:
    """Bring the database to SCHEMA_VERSION in one transaction; the backup's path, if taken.

    The caller has checked the version is not newer than SCHEMA_VERSION; it is read again here
    under the write lock, since another process may have migrated meanwhile.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        backup = None
        if version > SCHEMA_VERSION:
            raise too_new(db_path, version)
        if 0 < version < SCHEMA_VERSION:
            backup = write_verified_backup(conn, db_path, version)
        for step in range(version, SCHEMA_VERSION):
            MIGRATIONS[step](conn)
        if version < SCHEMA_VERSION:
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        _tune_index(conn)
        conn.execute("COMMIT")
        return backup
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
