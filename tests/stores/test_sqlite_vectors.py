"""The SQLite store's in-memory vector matrices follow the change log (schema v5): another
connection's or process's writes are seen without a reload, forgetting and superseding remove
a vector, a killed writer leaves log and rows agreeing, and a fallen-behind reader reloads."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

from jamgate_adapters.stores.sqlite import schema
from jamgate_adapters.stores.sqlite.store import SqliteStore
from jamgate_core.contracts import Preconditions, WritePlan
from jamgate_core.models import MemoryRecord, new_id, utcnow

NOW = utcnow()


def opened(home: Path) -> SqliteStore:
    store = SqliteStore(SqliteStore.Options(), home)
    store.open()
    return store


def put(store: SqliteStore, text: str, vector: list[float], at: int = 0,
        **fields: object) -> MemoryRecord:
    stamp = NOW - timedelta(hours=1) + timedelta(seconds=at)
    record = MemoryRecord(id=new_id(), text=text, created_at=stamp, updated_at=stamp,
                          embedding=vector, **fields)  # type: ignore[arg-type]
    store.write(WritePlan(scope="default", now=stamp, insert=record), Preconditions("default"))
    return record


def near(store: SqliteStore, vector: list[float]) -> list[str]:
    return [r.id for r, _ in store.nearest("default", vector, limit=10, now=NOW)]


def reloads(store: SqliteStore) -> list[int]:
    """Count the full reads of a scope's vectors the store's connection makes from now on."""
    counted: list[int] = []
    assert store._conn is not None
    store._conn.set_trace_callback(
        lambda sql: counted.append(1) if "ORDER BY seq" in sql else None)
    return counted


def test_another_connections_write_is_seen_without_a_reload(tmp_path: Path) -> None:
    reader, writer = opened(tmp_path), opened(tmp_path)
    try:
        first = put(writer, "north", [1.0, 0.0])
        assert near(reader, [1.0, 0.0]) == [first.id]
        full = reloads(reader)
        second = put(writer, "north-east", [1.0, 0.5], at=1)
        assert near(reader, [1.0, 0.0]) == [first.id, second.id]
        writer.delete("default", first.id)
        assert near(reader, [1.0, 0.0]) == [second.id]
        assert full == []
    finally:
        reader.close()
        writer.close()


def test_another_process_write_is_seen(tmp_path: Path) -> None:
    reader = opened(tmp_path)
    try:
        first = put(reader, "north", [1.0, 0.0])
        assert near(reader, [1.0, 0.0]) == [first.id]
        full = reloads(reader)
        code = ("import sys; from pathlib import Path\n"
                "from jamgate_adapters.stores.sqlite.store import SqliteStore\n"
                "from jamgate_core.contracts import Preconditions, WritePlan\n"
                "from jamgate_core.models import MemoryRecord, utcnow\n"
                "s = SqliteStore(SqliteStore.Options(), Path(sys.argv[1])); s.open()\n"
                "now = utcnow()\n"
                "r = MemoryRecord(id='other-process', text='east', created_at=now,"
                " updated_at=now, embedding=[0.9, 0.1])\n"
                "s.write(WritePlan(scope='default', now=now, insert=r),"
                " Preconditions('default')); s.close()\n")
        subprocess.run([sys.executable, "-c", code, str(tmp_path)], check=True, timeout=60)
        assert near(reader, [1.0, 0.0]) == [first.id, "other-process"]
        assert full == []
    finally:
        reader.close()


def test_superseding_and_forgetting_remove_the_vector(tmp_path: Path) -> None:
    store = opened(tmp_path)
    try:
        old = put(store, "jam lives in Berlin", [1.0, 0.0], subject="home")
        assert near(store, [1.0, 0.0]) == [old.id]
        new = MemoryRecord(id=new_id(), text="jam lives in Paris", subject="home",
                           created_at=NOW, updated_at=NOW, embedding=[0.0, 1.0])
        store.write(WritePlan(scope="default", now=NOW, insert=new, retire=(old.id,)),
                    Preconditions("default", by_subject={"home": frozenset({old.id})}))
        assert near(store, [1.0, 0.0]) == [new.id]
        store.delete("default", new.id)
        assert near(store, [1.0, 0.0]) == []
        other = put(store, "jam likes tea", [1.0, 0.1], at=2)
        store.set_vectors([("default", other.id, [0.0, 0.0, 1.0], "m")])
        assert near(store, [1.0, 0.0]) == []  # its vector changed length
        assert near(store, [0.0, 0.0, 1.0]) == [other.id]
    finally:
        store.close()


def test_a_reader_behind_the_pruned_log_reloads(tmp_path: Path, monkeypatch: object) -> None:
    reader, writer = opened(tmp_path), opened(tmp_path)
    try:
        first = put(writer, "north", [1.0, 0.0])
        assert near(reader, [1.0, 0.0]) == [first.id]
        setattr(schema, "CHANGE_LOG_KEEP", 2)  # noqa: B010
        try:
            later = [put(writer, f"fact {n}", [0.0, 1.0], at=n + 1) for n in range(5)]
        finally:
            setattr(schema, "CHANGE_LOG_KEEP", 20_000)  # noqa: B010
        assert writer._conn is not None
        assert writer._conn.execute("SELECT count(*) FROM record_changes").fetchone()[0] <= 3
        full = reloads(reader)
        assert set(near(reader, [0.0, 1.0])) == {first.id, *(r.id for r in later)}
        assert full == [1]
    finally:
        reader.close()
        writer.close()


def test_a_killed_writer_leaves_log_and_rows_agreeing(tmp_path: Path) -> None:
    """A writer killed (SIGKILL) in the middle of a batch: what committed is in both the rows
    and the log, what did not is in neither, and a reader's matrix matches the rows."""
    reader = opened(tmp_path)
    put(reader, "seed", [1.0, 0.0])
    near(reader, [1.0, 0.0])
    code = ("import os, sys; from pathlib import Path\n"
            "from jamgate_adapters.stores.sqlite.store import SqliteStore\n"
            "from jamgate_core.contracts import Preconditions, WritePlan\n"
            "from jamgate_core.models import MemoryRecord, new_id, utcnow\n"
            "s = SqliteStore(SqliteStore.Options(), Path(sys.argv[1])); s.open()\n"
            "n = 0\n"
            "while True:\n"
            "    now = utcnow()\n"
            "    plans = [WritePlan(scope='default', now=now, insert=MemoryRecord(id=new_id(),"
            " text=f'fact {n} {k}', created_at=now, updated_at=now, embedding=[1.0, 0.5]))"
            " for k in range(50)]\n"
            "    s.write_many(plans, [Preconditions('default')] * len(plans)); n += 1\n"
            "    if n == 3: print('go', flush=True)\n")
    child = subprocess.Popen([sys.executable, "-c", code, str(tmp_path)],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "go"
    finally:
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=30)
    try:
        seen = set(near_all(reader))
        conn = sqlite3.connect(tmp_path / "memory.db")
        rows = {r[0] for r in conn.execute("SELECT id FROM records WHERE status = 'active'")}
        logged = {r[0] for r in conn.execute("SELECT record_id FROM record_changes")}
        conn.close()
        assert seen == rows
        assert rows <= logged and len(rows) % 50 == 1
    finally:
        reader.close()


def near_all(store: SqliteStore) -> list[str]:
    return [r.id for r, _ in store.nearest("default", [1.0, 0.0], limit=100_000, now=NOW)]


def test_a_v4_store_gets_the_change_log(tmp_path: Path) -> None:
    store = opened(tmp_path)
    kept = put(store, "north", [1.0, 0.0])
    store.close()
    conn = sqlite3.connect(tmp_path / "memory.db", isolation_level=None)
    for name in ("insert", "update", "delete"):
        conn.execute(f"DROP TRIGGER records_changes_{name}")
    conn.execute("DROP TABLE record_changes")
    conn.execute("PRAGMA user_version = 4")
    conn.close()
    store = opened(tmp_path)
    try:
        assert store.last_backup is not None and "backup-v4-" in store.last_backup.name
        assert near(store, [1.0, 0.0]) == [kept.id]
        added = put(store, "north again", [1.0, 0.1], at=1)
        assert near(store, [1.0, 0.0]) == [kept.id, added.id]
        assert store.integrity_check() == []
    finally:
        store.close()


def test_a_matrix_is_sized_once_and_normalised_as_a_whole_would_be() -> None:
    """D-237: filled with the expected row count, the buffer is allocated once; rows are
    normalised a block at a time, to the same bits as the whole matrix at once."""
    from array import array

    import numpy as np

    from jamgate_adapters.stores.kit.vectors import VectorMatrix

    rng = np.random.default_rng(11)
    raw = rng.standard_normal((2_600, 24)).astype(np.float32) * 3
    raw[5] = 0.0
    rows = [(f"r{i}", float("inf"), array("f", raw[i].tobytes())) for i in range(len(raw))]
    matrix = VectorMatrix(iter(rows), 24, expected=len(rows))
    assert len(matrix._units) == len(rows) * 9 // 8 + 16
    norms = np.linalg.norm(raw, axis=1)
    norms[norms == 0] = 1.0
    assert np.array_equal(matrix.units(), raw / norms[:, None])
    assert np.array_equal(matrix._sum, (raw / norms[:, None]).sum(axis=0, dtype=np.float64))
    grown = VectorMatrix(iter(rows), 24)
    assert np.array_equal(grown.units(), matrix.units())
