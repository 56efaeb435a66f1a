"""What the SQLite store leaves on disk: a forget erases the text from the database and its
-wal while the store stays open (secure_delete, the keyword index merged, the WAL
checkpointed with TRUNCATE); new files are 0600 whatever the umask; a 0444 file is refused."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from jamgate_adapters.stores.sqlite import SqliteStore
from jamgate_core.errors import StoreUnavailable
from jamgate_core.testing import insert, make_record

TEXT = "Jam's grandmother was born in the village of Zvenigorodka near Kyiv"
NEEDLES = (TEXT.encode(), b"Zvenigorodka", b"zvenigorodka")


@pytest.fixture
def umask_022() -> Iterator[None]:
    before = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(before)


def store_at(folder: Path) -> SqliteStore:
    store = SqliteStore(SqliteStore.Options(), folder)
    store.open()
    return store


def holding(folder: Path) -> list[str]:
    """The files of the folder that hold the text or one of its words."""
    return sorted(p.name for p in folder.iterdir() if p.is_file()
                  and any(n in p.read_bytes() for n in NEEDLES))


def test_secure_delete_is_on(tmp_path: Path) -> None:
    store = store_at(tmp_path)
    try:
        with store._db() as conn:
            assert conn.execute("PRAGMA secure_delete").fetchone()[0] == 1
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        store.close()


def test_a_forget_leaves_no_copy_in_the_database_or_its_wal(tmp_path: Path) -> None:
    store = store_at(tmp_path)
    reader = sqlite3.connect(tmp_path / "memory.db")  # another process's idle connection
    try:
        forgotten = make_record(TEXT, subject="grandmother-birthplace")
        kept = [make_record(f"Jam keeps note {n} about the build pipeline", at=n + 1)
                for n in range(30)]
        insert(store, forgotten, *kept)
        assert reader.execute("SELECT count(*) FROM records").fetchone()[0] == 31
        assert holding(tmp_path), "the text is on disk before the forget"

        assert store.delete("default", forgotten.id) is not None

        assert holding(tmp_path) == []
        wal = tmp_path / "memory.db-wal"
        assert wal.exists() and wal.stat().st_size == 0, "the WAL was truncated"
        assert store.get("default", kept[0].id) == kept[0]
        assert reader.execute("SELECT count(*) FROM records").fetchone()[0] == 30
        assert store.integrity_check() == []
    finally:
        reader.close()
        store.close()
    assert holding(tmp_path) == []


def test_compaction_empties_the_wal_too(tmp_path: Path) -> None:
    from datetime import timedelta

    from jamgate_core.testing import T0

    store = store_at(tmp_path)
    try:
        insert(store, make_record(TEXT, expires_at=T0 + timedelta(hours=1)))
        assert store.compact(T0 + timedelta(days=1)) == 1
        assert holding(tmp_path) == []
        assert (tmp_path / "memory.db-wal").stat().st_size == 0
    finally:
        store.close()


def test_new_files_are_private_under_umask_022(tmp_path: Path, umask_022: None) -> None:
    folder = tmp_path / "new" / "home"
    store = SqliteStore(SqliteStore.Options(), folder)
    store.open()
    try:
        insert(store, make_record("Jam likes tea"))
        modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in folder.iterdir()}
        assert modes == {"memory.db": 0o600, "memory.db-wal": 0o600, "memory.db-shm": 0o600}
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700
        assert stat.S_IMODE(folder.parent.stat().st_mode) == 0o700
    finally:
        store.close()


def test_an_existing_files_mode_is_left_alone(tmp_path: Path, umask_022: None) -> None:
    store_at(tmp_path).close()
    (tmp_path / "memory.db").chmod(0o640)
    store_at(tmp_path).close()
    assert stat.S_IMODE((tmp_path / "memory.db").stat().st_mode) == 0o640


def test_a_0444_file_is_refused_even_for_root(tmp_path: Path) -> None:
    store = store_at(tmp_path)
    insert(store, make_record("Jam likes tea"))
    store.close()
    path = tmp_path / "memory.db"
    path.chmod(0o444)
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    try:
        with pytest.raises(StoreUnavailable) as caught:
            store_at(tmp_path)
        assert str(path) in str(caught.value) and "read-only" in str(caught.value)
        assert hashlib.sha256(path.read_bytes()).hexdigest() == before
    finally:
        path.chmod(0o600)
