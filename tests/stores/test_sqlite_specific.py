"""What only the SQLite store promises: refusing bad files untouched, schema versions and
verified-backup migrations, WAL and secure delete, the keyword index, read-only paths."""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from jamgate_adapters.stores.sqlite import SqliteStore
from jamgate_adapters.stores.sqlite.schema import APPLICATION_ID, SCHEMA_VERSION, backup_path
from jamgate_core.errors import StoreCorrupt, StoreError, StoreTooNew, StoreUnavailable
from jamgate_core.testing import NOW, insert, make_record


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def opened(home: Path, **options: object) -> SqliteStore:
    store = SqliteStore(SqliteStore.Options(**options), home)  # type: ignore[arg-type]
    store.open()
    return store


def a_filled_store(home: Path, *texts: str) -> Path:
    store = opened(home)
    insert(store, *(make_record(text, at=n) for n, text in enumerate(texts or ("Jam",))))
    store.close()
    return home / "memory.db"


# --- files that are not a store ------------------------------------------------------------------

def _random_bytes(path: Path) -> None:
    path.write_bytes(os.urandom(8192))


def _json(path: Path) -> None:
    path.write_text('{"schemaVersion": 3, "memories": []}\n')


def _truncated(path: Path) -> None:
    a_filled_store(path.parent, *(f"memory number {n} " * 40 for n in range(60)))
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _foreign(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (body TEXT)")
    conn.execute("INSERT INTO notes VALUES ('not a memory')")
    conn.commit()
    conn.close()


@pytest.mark.parametrize("spoil", [_random_bytes, _json, _truncated, _foreign])
def test_unreadable_file_is_refused_untouched(tmp_path: Path, spoil: object) -> None:
    path = tmp_path / "memory.db"
    spoil(path)  # type: ignore[operator]
    before, listing = sha256(path), sorted(os.listdir(tmp_path))
    store = SqliteStore(SqliteStore.Options(), tmp_path)
    with pytest.raises(StoreCorrupt) as caught:
        store.open()
    message = str(caught.value)
    assert str(path) in message and "Nothing was modified" in message
    assert "backup" in message and "move it aside" in message
    assert sha256(path) == before
    assert sorted(os.listdir(tmp_path)) == listing


def test_an_empty_file_is_a_new_store(tmp_path: Path) -> None:
    (tmp_path / "memory.db").touch()
    store = opened(tmp_path)
    insert(store, record := make_record("Jam lives in Berlin"))
    assert store.get("default", record.id) == record
    store.close()


# --- schema versions ---------------------------------------------------------------------------

def test_a_newer_schema_is_refused_untouched(tmp_path: Path) -> None:
    path = a_filled_store(tmp_path)
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    before = sha256(path)
    with pytest.raises(StoreTooNew) as caught:
        opened(tmp_path)
    assert "newer Jamgate" in str(caught.value) and "upgrade jamgate" in str(caught.value).lower()
    assert "JAMGATE_STORE" in str(caught.value)
    assert sha256(path) == before


V1_SCHEMA = """
CREATE TABLE records (
    seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, scope TEXT NOT NULL, text TEXT NOT NULL,
    text_key TEXT NOT NULL, type TEXT, subject TEXT, source TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('active', 'superseded')),
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, expires_at TEXT, superseded_by TEXT,
    superseded_at TEXT, client_name TEXT, client_version TEXT, provenance TEXT,
    embedding_model TEXT, embedding BLOB, embedding_dim INTEGER, embedding_norm REAL
);
CREATE UNIQUE INDEX records_active_key ON records (scope, text_key) WHERE status = 'active';
CREATE UNIQUE INDEX records_active_subject ON records (scope, subject)
    WHERE status = 'active' AND subject IS NOT NULL;
CREATE INDEX records_newest ON records (scope, created_at DESC, id DESC);
CREATE INDEX records_scope_id ON records (scope, id);
"""


def a_v1_store(path: Path) -> None:
    """A database as the first schema version left it, written by hand."""
    conn = sqlite3.connect(path)
    conn.executescript(V1_SCHEMA)
    rows = [
        ("0000aaaa-0000-4000-8000-000000000001", "Jam drinks café au lait",
         "jam drinks café au lait", "preference", "active"),
        ("0000aaaa-0000-4000-8000-000000000002", "東京に住んでいる", "東京に住んでいる", None,
         "active"),
        ("0000aaaa-0000-4000-8000-000000000003", "Jam lived in Paris", "jam lived in paris", None,
         "superseded"),
    ]
    for n, (record_id, text, key, type_, status) in enumerate(rows):
        conn.execute(
            "INSERT INTO records (id, scope, text, text_key, type, source, status, created_at, "
            "updated_at) VALUES (?, 'default', ?, ?, ?, 'user-explicit', ?, ?, ?)",
            (record_id, text, key, type_, status, f"2030-01-01T00:00:0{n}.000Z",
             f"2030-01-01T00:00:0{n}.000Z"))
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()


def test_migration_writes_a_verified_backup_first(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    a_v1_store(path)
    original = sha256(path)
    conn = sqlite3.connect(path)
    rows = conn.execute("SELECT id, text FROM records ORDER BY seq").fetchall()
    conn.close()
    store = opened(tmp_path)
    try:
        backup = store.last_backup
        assert backup is not None and backup.parent == tmp_path
        assert backup.name.startswith("memory.db.backup-v1-")
        assert sha256(path) != original
        copy = sqlite3.connect(backup)
        assert copy.execute("PRAGMA user_version").fetchone()[0] == 1
        assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert copy.execute("SELECT id, text FROM records ORDER BY seq").fetchall() == rows
        copy.close()
        # the migrated store has its keyword index built from the old rows
        hits = store.search("default", "cafe", limit=5, type=None, now=NOW)
        assert [r.id for r, _ in hits] == ["0000aaaa-0000-4000-8000-000000000001"]
        assert len(store.search("default", "東京", limit=5, type=None, now=NOW)) == 1
        assert store.integrity_check() == []
    finally:
        store.close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    conn.close()
    # a second open is already current: no new backup
    again = opened(tmp_path)
    assert again.last_backup is None
    again.close()


def a_v3_store(home: Path, *texts: str) -> Path:
    """A database as schema v3 left it: its keyword index over the raw text, tokenised (and
    folded) by FTS5's unicode61 rather than by the gate's `jamgate_core.text.fold`."""
    path = a_filled_store(home, *texts)
    conn = sqlite3.connect(path, isolation_level=None)
    drop_change_log(conn)
    conn.execute("DROP TABLE records_fts")
    conn.execute("CREATE VIRTUAL TABLE records_fts USING fts5(text, subject, grams, chars, "
                 "tokenize = 'unicode61 remove_diacritics 2')")
    conn.execute("INSERT INTO records_fts (rowid, text, subject, grams, chars) "
                 "SELECT seq, text, '', '', '' FROM records")
    conn.execute("PRAGMA user_version = 3")
    conn.close()
    return path


def test_v4_rebuilds_the_keyword_index_on_the_gates_folding(tmp_path: Path) -> None:
    path = a_v3_store(tmp_path, "Die Straße ist lang", "The ﬁle is in the ofﬁce")
    old = opened_read_only(path)
    assert old.execute("SELECT count(*) FROM records_fts WHERE records_fts MATCH 'strasse'"
                       ).fetchone()[0] == 0  # what v3 could not find
    old.close()
    store = opened(tmp_path)
    try:
        backup = store.last_backup
        assert backup is not None and backup.name.startswith("memory.db.backup-v3-")
        copy = opened_read_only(backup)
        assert copy.execute("PRAGMA user_version").fetchone()[0] == 3
        copy.close()
        ligature = "The ﬁle is in the ofﬁce"
        for query, found in (("STRASSE", "Die Straße ist lang"), ("office", ligature),
                             ("file", ligature)):
            assert [r.text for r, _ in store.search("default", query, limit=5, type=None,
                                                    now=NOW)] == [found], query
        assert store.integrity_check() == []
    finally:
        store.close()
    conn = opened_read_only(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 6
    assert sorted(row[0] for row in conn.execute("SELECT text FROM records_fts")) == [
        "die strasse ist lang", "the file is in the office"]
    conn.close()


def drop_change_log(conn: sqlite3.Connection) -> None:
    """Take a database back to before v6: no change log, no triggers."""
    for name in ("insert", "update", "delete"):
        conn.execute(f"DROP TRIGGER records_changes_{name}")
    conn.execute("DROP TABLE record_changes")


def opened_read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)


def test_migration_aborts_without_a_backup(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    a_v1_store(path)
    before = sha256(path)
    start = datetime.now(UTC)
    for second in range(-2, 60):  # occupy every name the backup could take in the next minute
        backup_path(path, 1, start + timedelta(seconds=second)).mkdir()
    with pytest.raises(StoreError) as caught:
        opened(tmp_path)
    assert "backup" in str(caught.value) and "Nothing was migrated" in str(caught.value)
    assert sha256(path) == before


# --- runtime settings and the keyword index ----------------------------------------------------

def test_wal_and_durable_after_kill(tmp_path: Path) -> None:
    """A committed write survives kill -9 of the writing process."""
    script = (
        "import os, signal, sys\n"
        "from pathlib import Path\n"
        "from jamgate_adapters.stores.sqlite import SqliteStore\n"
        "from jamgate_core.testing import insert, make_record\n"
        "store = SqliteStore(SqliteStore.Options(), Path(sys.argv[1]))\n"
        "store.open()\n"
        "insert(store, make_record('Jam survives a crash', record_id='killed-0001'))\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], timeout=60)
    assert done.returncode == -9
    conn = sqlite3.connect(tmp_path / "memory.db")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()
    store = opened(tmp_path)
    assert store.get("default", "killed-0001") is not None
    store.close()


def test_deleted_text_is_overwritten_and_unindexed(tmp_path: Path) -> None:
    secret = "Quixotic Zephyr Passphrase 4417"
    record = make_record(f"My door code is {secret}", subject="door")
    store = opened(tmp_path)
    insert(store, record, make_record("Jam likes tea", at=1))
    store.close()  # checkpoint: the text is now in the main file
    path = tmp_path / "memory.db"
    assert secret.encode() in path.read_bytes() and b"quixotic" in path.read_bytes()
    store = opened(tmp_path)
    assert store.delete("default", record.id) == record
    assert store.search("default", "quixotic", limit=5, type=None, now=NOW) == []
    assert store.integrity_check() == []
    store.close()
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT count(*) FROM records_fts WHERE records_fts MATCH 'quixotic'"
                        ).fetchone()[0] == 0
    assert conn.execute("SELECT count(*) FROM records_fts").fetchone()[0] == 1
    conn.close()
    data = path.read_bytes()
    assert secret.encode() not in data
    assert b"quixotic" not in data and b"zephyr" not in data  # not even the index's tokens


@pytest.mark.parametrize(("text", "query"), [
    ("Jam drinks café au lait", "cafe"),
    ("Jam drinks cafe au lait", "CAFÉ"),
    ("Thomas Müller plays football", "muller"),
    ("Zoë moved to Zürich", "zurich zoe"),
    ("ジャムはiPhone用のアプリを作る", "iphone"),
    ("ジャムはiPhone用のアプリを作る", "アプリ"),
    ("我住在北京市", "北京"),
    ("我住在北京市", "京"),
])
def test_keyword_search_folds_and_segments(tmp_path: Path, text: str, query: str) -> None:
    store = opened(tmp_path)
    insert(store, record := make_record(text), make_record("something else entirely", at=1))
    assert [r.id for r, _ in store.search("default", query, limit=5, type=None, now=NOW)] == [
        record.id]
    store.close()


def test_subject_words_are_searchable(tmp_path: Path) -> None:
    store = opened(tmp_path)
    insert(store, record := make_record("Helix", subject="favourite-editor"))
    assert [r.id for r, _ in store.search("default", "editor", limit=5, type=None, now=NOW)] == [
        record.id]
    store.close()


def test_two_connections_race_and_one_wins(tmp_path: Path) -> None:
    first, second = opened(tmp_path), opened(tmp_path)
    from jamgate_core.contracts import Preconditions, WritePlan
    from jamgate_core.errors import PreconditionFailed

    a = make_record("Jam lives in Berlin", subject="home")
    b = make_record("Jam lives in Rome", subject="home", at=1)
    empty = Preconditions(scope="default", by_subject={"home": frozenset()})
    first.write(WritePlan(scope="default", now=NOW, insert=a), empty)
    with pytest.raises(PreconditionFailed):
        second.write(WritePlan(scope="default", now=NOW, insert=b), empty)
    assert second.by_subject("default", "home") == [a]
    first.close()
    second.close()


def test_options_and_location(tmp_path: Path) -> None:
    elsewhere = tmp_path / "deep" / "er" / "mem.sqlite"
    store = opened(tmp_path / "home", path=str(elsewhere), timeout_seconds=2)
    assert store.location() == str(elsewhere) and elsewhere.is_file()
    store.close()
    with pytest.raises(ValueError):
        SqliteStore.Options(timeout_seconds=0)
    with pytest.raises(ValueError):
        SqliteStore.Options.model_validate({"pathh": "x"})


def test_not_open_is_a_store_error(tmp_path: Path) -> None:
    store = SqliteStore(SqliteStore.Options(), tmp_path)
    with pytest.raises(StoreError, match="not open"):
        store.get("default", "x")


# --- read-only places --------------------------------------------------------------------------

def _freeze(path: Path) -> bool:
    """Make `path` unwritable even for root (chattr +i); False when that is not possible."""
    if os.geteuid() != 0:
        path.chmod(0o555 if path.is_dir() else 0o444)
        return True
    chattr = shutil.which("chattr")
    return chattr is not None and subprocess.run([chattr, "+i", str(path)],
                                                 capture_output=True).returncode == 0


def _thaw(path: Path) -> None:
    if os.geteuid() == 0:
        subprocess.run(["chattr", "-i", str(path)], capture_output=True)
    path.chmod(0o755 if path.is_dir() else 0o644)


@pytest.fixture
def frozen(tmp_path: Path) -> Iterator[list[Path]]:
    """Paths registered here are frozen by the test and thawed afterwards."""
    paths: list[Path] = []
    yield paths
    for path in reversed(paths):
        _thaw(path)


def _freeze_or_skip(frozen: list[Path], path: Path) -> None:
    if not _freeze(path):
        pytest.skip("cannot make a path read-only here")
    frozen.append(path)


@pytest.mark.parametrize("layout", ["new-db", "existing-db", "missing-subdir"])
def test_read_only_directory(tmp_path: Path, frozen: list[Path], layout: str) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    if layout == "existing-db":
        a_filled_store(folder)
    target = folder / "sub" / "memory.db" if layout == "missing-subdir" else folder / "memory.db"
    _freeze_or_skip(frozen, folder)
    store = SqliteStore(SqliteStore.Options(path=str(target)), tmp_path)
    with pytest.raises(StoreUnavailable) as caught:
        store.open()
    assert str(target) in str(caught.value) and "writable" in str(caught.value)


def test_read_only_file(tmp_path: Path, frozen: list[Path]) -> None:
    path = a_filled_store(tmp_path)
    before = sha256(path)
    _freeze_or_skip(frozen, path)
    with pytest.raises(StoreUnavailable) as caught:
        opened(tmp_path)
    assert str(path) in str(caught.value) and "read-only" in str(caught.value)
    assert sha256(path) == before


def test_a_directory_in_the_way(tmp_path: Path) -> None:
    (tmp_path / "memory.db").mkdir()
    with pytest.raises(StoreUnavailable, match="is a directory"):
        opened(tmp_path)


def test_exact_search_matches_words_only(tmp_path: Path) -> None:
    """The gate's cheap look-alike search: no typo widening, no prefixes."""
    store = opened(tmp_path)
    record = make_record("Jam plays the violin in an orchestra")
    insert(store, record)
    assert [r.id for r, _ in store.search("default", "violn", limit=5, type=None,
                                          now=NOW)] == [record.id]
    assert store.search("default", "violn", limit=5, type=None, now=NOW, exact=True) == []
    assert store.search("default", "violi", limit=5, type=None, now=NOW, exact=True) == []
    hits = store.search("default", "orchestra violin", limit=5, type=None, now=NOW, exact=True)
    assert [r.id for r, _ in hits] == [record.id]
    store.close()


def test_exact_search_finds_a_near_copy_among_template_look_alikes(tmp_path: Path) -> None:
    """A one-word change of a stored fact whose other words each fill many rows: the search
    holds the rows with one of its rarest words and ranks them on all its words (D-330), so
    the stored fact comes first — not one of the 25 rows that share only its rarest word."""
    store = opened(tmp_path)
    names = ["Mara", "Alma", "Gita", "Vera", "Kaja"]
    foods = ["sesame", "gluten", "pollen", "peanuts", "shellfish"]
    surnames = ["Castro", *(f"Surname{n}" for n in range(29))]
    records = [make_record(f"{name} {surname} is allergic to {food}.", at=n)
               for n, (surname, name, food) in enumerate(
                   (s, a, f) for s in surnames for a in names for f in foods)]
    insert(store, *records)
    target = records[0]  # "Mara Castro is allergic to sesame.", the oldest of its 25
    for probe in ("Mara really Castro is allergic to sesame.", "Mara Castro allergic to sesame.",
                  "Mara Castro is severely allergic to sesame"):
        hits = store.search("default", probe, limit=5, type=None, now=NOW, exact=True)
        assert hits and hits[0][0].id == target.id, probe
    store.close()


@pytest.mark.parametrize("forgetter", ["this store", "another connection"])
def test_a_common_word_counted_again_after_a_forget(tmp_path: Path, forgetter: str) -> None:
    """A word known to exceed the look-alike budget (D-205) is counted again once rows leave
    the index, by this store or by another connection: the search then ranks on it too."""
    store = opened(tmp_path)
    kites = [make_record(f"Jam flies kite number {n}", at=n) for n in range(101)]
    zebra = make_record("Jam saw a zebra", at=200)
    insert(store, *kites, zebra)

    def found() -> set[str]:
        hits = store.search("default", "kite zebra", limit=5, type=None, now=NOW, exact=True)
        return {r.id for r, _ in hits}

    assert found() == found() == {zebra.id}  # "kite" is over the budget: ranked on "zebra"
    other = store if forgetter == "this store" else opened(tmp_path)
    for record in kites[:5]:
        assert other.delete("default", record.id) is not None
    assert zebra.id in found() and len(found()) == 5  # 96 kites: both words rank now
    store.close()
    other.close()


def test_known_word_counts_follow_the_rows_this_store_adds(tmp_path: Path) -> None:
    """A plain word's remembered count (D-242) grows with each row this store inserts holding
    it (in its text, its subject or twice), so every count a search uses is the fresh one."""
    from jamgate_adapters.stores.sqlite import index

    store = opened(tmp_path)
    texts = ["Jam flies a kite", "Jam flies a red kite", "Kite kite kite", "Café Müller opens",
             "café muller opens late", "東京 is a city", "Jam likes 東京 kites"]
    parts = ['"jam"', '"kite"', '"kites"', '"cafe"', '"muller"', '"opens"', '"zebra"',
             'grams : "東京"', '"kite" *']
    for n, text in enumerate(texts):
        store.search("default", "jam kite kites cafe muller opens zebra 東京", limit=5, type=None,
                     now=NOW, exact=True)
        insert(store, make_record(text, at=n, subject="kite" if n == 3 else None))
        assert store._conn is not None
        for cap in (3, 101):
            cached = index._frequencies(store._conn, parts, cap, store._common)
            assert cached == index._frequencies(store._conn, parts, cap), (text, cap)
    store.close()


def test_merge_settings_change_no_search(tmp_path: Path) -> None:
    """The keyword index's merge thresholds (D-414, D-432) are written into the file, and
    how the index is cut into segments changes no search: the look-alikes and their scores
    are the same before and after every segment is merged into one."""
    store = opened(tmp_path)
    conn = sqlite3.connect(tmp_path / "memory.db")
    config = dict(conn.execute("SELECT k, v FROM records_fts_config WHERE k LIKE '%merge'"))
    assert config == {"automerge": 2, "crisismerge": 4}
    insert(store, *(make_record(f"{name} likes {thing} on {day}", at=n) for n, (name, thing, day)
                    in enumerate((a, b, c) for a in ("Ana", "Bo", "Cy", "Di")
                                 for b in ("tea", "jazz", "chess", "figs")
                                 for c in ("mondays", "fridays", "sundays"))))
    probes = ("Ana likes tea on mondays", "Bo likes chess", "Di jazz sundays fridays")

    def found() -> list[list[tuple[str, float]]]:
        return [[(r.id, score) for r, score in store.search(
            "default", probe, limit=5, type=None, now=NOW, exact=True)] for probe in probes]

    before = found()
    with conn:
        conn.execute("INSERT INTO records_fts (records_fts) VALUES ('optimize')")
    assert found() == before and all(before)
    conn.close()
    store.close()
