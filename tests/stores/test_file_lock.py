"""The file store's cross-process lock: exclusion, stale and abandoned locks, timeouts,
and writers in several threads and processes that lose nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from jamgate_adapters.stores.file import FileStore
from jamgate_adapters.stores.kit.locking import FileLock, is_stale, lock_path_for
from jamgate_core.contracts import Preconditions, WritePlan
from jamgate_core.errors import StoreUnavailable
from jamgate_core.models import MemoryRecord, new_id, utcnow


def make_store(path: Path, **options: object) -> FileStore:
    store = FileStore(FileStore.Options(path=str(path), **options), home=path.parent)
    store.open()
    return store


def insert(store: FileStore, text: str) -> str:
    now = utcnow()
    record = MemoryRecord(id=new_id(), text=text, created_at=now, updated_at=now)
    store.write(WritePlan(scope="default", now=now, insert=record),
                Preconditions(scope="default", by_key={record.key: frozenset()}))
    return record.id


def all_ids(path: Path) -> list[str]:
    return [r["id"] for r in json.loads(path.read_text())["memories"]]


def test_lock_file_holds_epoch_ms_and_is_removed_on_release(tmp_path: Path) -> None:
    store = tmp_path / "memory.json"
    lock = lock_path_for(store)
    before = time.time() * 1000
    with FileLock(store, timeout=1):
        body = lock.read_text()
        stamp = float(body.split()[0])
        assert before - 1000 <= stamp <= time.time() * 1000
        assert not is_stale(lock)
    assert not lock.exists()


def test_a_stale_lock_with_an_old_epoch_is_stolen(tmp_path: Path) -> None:
    path = tmp_path / "memory.json"
    store = make_store(path, lock_timeout_seconds=2)
    lock = lock_path_for(path)
    lock.write_text(str(int(time.time() * 1000) - 60_000))
    started = time.monotonic()
    record_id = insert(store, "written after stealing a stale lock")
    assert time.monotonic() - started < 1
    assert all_ids(path) == [record_id]
    assert not lock.exists()


def test_an_empty_or_garbled_lock_is_judged_by_its_mtime(tmp_path: Path) -> None:
    lock = tmp_path / "memory.json.lock"
    lock.write_text("")
    assert not is_stale(lock)
    lock.write_text("not a number")
    assert not is_stale(lock)
    old = time.time() - 60
    os.utime(lock, (old, old))
    assert is_stale(lock)
    assert not is_stale(tmp_path / "vanished.lock")


def test_a_fresh_foreign_lock_times_out_and_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "memory.json"
    store = make_store(path, lock_timeout_seconds=0.3)
    insert(store, "the first memory")
    before = path.read_bytes()
    lock = lock_path_for(path)
    lock.write_text(str(int(time.time() * 1000)))
    started = time.monotonic()
    with pytest.raises(StoreUnavailable) as caught:
        insert(store, "blocked by the lock")
    waited = time.monotonic() - started
    assert 0.3 <= waited < 2
    assert str(lock) in str(caught.value) and "delete" in str(caught.value)
    assert path.read_bytes() == before
    assert lock.exists(), "a lock this process did not create must never be removed"
    with pytest.raises(StoreUnavailable):
        store.delete("default", all_ids(path)[0])
    assert path.read_bytes() == before


def test_a_writer_waits_for_a_lock_released_meanwhile(tmp_path: Path) -> None:
    path = tmp_path / "memory.json"
    store = make_store(path, lock_timeout_seconds=5)
    lock = lock_path_for(path)
    lock.write_text(str(int(time.time() * 1000)))
    threading.Timer(0.2, lock.unlink).start()
    started = time.monotonic()
    record_id = insert(store, "written once the holder let go")
    assert 0.15 <= time.monotonic() - started < 3
    assert all_ids(path) == [record_id]


def test_release_leaves_a_lock_that_is_no_longer_ours(tmp_path: Path) -> None:
    store = tmp_path / "memory.json"
    lock = lock_path_for(store)
    with FileLock(store, timeout=1):
        lock.unlink()
        lock.write_text("12345")  # someone else's lock now
    assert lock.read_text() == "12345"


def test_a_lock_left_by_a_killed_process_is_taken_at_once(tmp_path: Path) -> None:
    path = tmp_path / "memory.json"
    child = subprocess.Popen(
        [sys.executable, "-c", (
            "import sys, time; from pathlib import Path\n"
            "from jamgate_adapters.stores.kit.locking import FileLock\n"
            "lock = FileLock(Path(sys.argv[1]), timeout=5); lock.__enter__()\n"
            "print('held', flush=True); time.sleep(60)\n"
        ), str(path)],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "held"
        store = make_store(path, lock_timeout_seconds=0.3)
        with pytest.raises(StoreUnavailable):
            insert(store, "the holder is alive")
        child.kill()
        child.wait()
        store = make_store(path, lock_timeout_seconds=2)
        started = time.monotonic()
        record_id = insert(store, "the holder died")
        assert time.monotonic() - started < 1
        assert all_ids(path) == [record_id]
    finally:
        child.kill()
        child.wait()


def test_threads_sharing_the_file_lose_no_write(tmp_path: Path) -> None:
    path = tmp_path / "memory.json"
    stores = [make_store(path) for _ in range(2)]
    written: list[str] = []
    guard = threading.Lock()

    def work(n: int) -> None:
        for i in range(15):
            record_id = insert(stores[n % 2], f"thread {n} memory {i}")
            with guard:
                written.append(record_id)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(all_ids(path)) == sorted(written)
    assert len(written) == 90
    assert stores[0].integrity_check() == []


WRITER = """
import sys
from pathlib import Path
from jamgate_adapters.stores.file import FileStore
from jamgate_core.contracts import Preconditions, WritePlan
from jamgate_core.models import MemoryRecord, new_id, utcnow

path, name, count = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
store = FileStore(FileStore.Options(path=str(path)), home=path.parent)
store.open()
sys.stdin.readline()
for i in range(count):
    now = utcnow()
    record = MemoryRecord(id=new_id(), text=f"{name} memory {i}", created_at=now, updated_at=now)
    store.write(WritePlan(scope="default", now=now, insert=record),
                Preconditions(scope="default", by_key={record.key: frozenset()}))
    print(record.id, flush=True)
"""


def test_four_processes_writing_at_once_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "memory.json"
    children = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(path), f"p{n}", "25"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        for n in range(4)
    ]
    for child in children:  # start together, once every interpreter is up
        assert child.stdin is not None
        child.stdin.write("go\n")
        child.stdin.flush()
    acknowledged: list[str] = []
    for child in children:
        out, _ = child.communicate(timeout=60)
        assert child.returncode == 0
        acknowledged += out.split()
    assert len(acknowledged) == 100
    assert sorted(all_ids(path)) == sorted(acknowledged)
    assert not lock_path_for(path).exists()
    assert make_store(path).integrity_check() == []
