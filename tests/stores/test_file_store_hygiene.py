"""The file store's hygiene: opening sweeps what killed writers left (full temp copies of the
store, stale lock debris) without touching a live writer's files, and a read-only
`memory.json` is refused, as SQLite refuses a read-only `memory.db`, never written through."""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import pytest

from jamgate_adapters.stores.file import FileStore
from jamgate_core.contracts import AuthSecret, Preconditions, WritePlan
from jamgate_core.errors import StoreUnavailable
from jamgate_core.models import MemoryRecord, new_id, utcnow

TEXT = "Jam's grandmother was born in the village of Zvenigorodka"


def make_store(path: Path) -> FileStore:
    return FileStore(FileStore.Options(path=str(path), lock_timeout_seconds=5), home=path.parent)


def save(store: FileStore, text: str) -> MemoryRecord:
    now = utcnow()
    record = MemoryRecord(id=new_id(), text=text, created_at=now, updated_at=now)
    store.write(WritePlan(scope="default", now=now, insert=record),
                Preconditions(scope="default", by_key={record.key: frozenset()}))
    return record


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def aged(path: Path, seconds: float = 3600) -> Path:
    old = time.time() - seconds
    os.utime(path, (old, old))
    return path


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "store"
    path.mkdir()
    return path


# --- sweeping ---------------------------------------------------------------------------------

def test_open_sweeps_temp_copies_and_stale_lock_debris(folder: Path) -> None:
    path = folder / "memory.json"
    save(make_store(path), TEXT)
    temps = [folder / f".memory.json.{uuid.uuid4()}.tmp" for _ in range(2)]
    for temp in temps:
        temp.write_bytes(path.read_bytes())  # a full copy, as a killed write leaves it
    sidecar_temp = folder / f".memory.oauth.json.{uuid.uuid4()}.tmp"
    sidecar_temp.write_bytes(b"{}")
    stale = [folder / f".memory.json.lock.{uuid.uuid4().hex}",
             folder / f"memory.json.lock.stale-{uuid.uuid4().hex}",
             folder / f".memory.oauth.json.lock.{uuid.uuid4().hex}"]
    for lock in stale:
        lock.write_bytes(b"1700000000000 pid=1 flock")
        aged(lock)
    fresh = folder / f".memory.json.lock.{uuid.uuid4().hex}"  # maybe a live acquisition's
    fresh.write_bytes(b"")
    not_ours = [folder / ".memory.json.not-a-uuid.tmp", folder / "notes.tmp",
                folder / f".other.json.{uuid.uuid4()}.tmp"]
    for path_ in not_ours:
        path_.write_bytes(b"x")

    store = make_store(path)
    store.open()

    assert not any(p.exists() for p in [*temps, sidecar_temp, *stale])
    assert fresh.exists() and all(p.exists() for p in not_ours)
    assert [r.text for r, _ in store.search("default", "", limit=5, type=None, now=utcnow())] == [
        TEXT]
    assert store.integrity_check() == []


HOLDER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from jamgate_adapters.stores.kit.locking import FileLock

    with FileLock(Path(sys.argv[1]), 5):
        print("held", flush=True)
        sys.stdin.readline()
""")


def test_a_live_writers_temp_file_is_left_alone(folder: Path) -> None:
    path = folder / "memory.json"
    save(make_store(path), TEXT)
    temp = folder / f".memory.json.{uuid.uuid4()}.tmp"
    temp.write_bytes(path.read_bytes())
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        make_store(path).open()
        assert temp.exists(), "the lock is held: the temp may be a live write's"
    finally:
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.close()
        holder.wait(timeout=30)
    make_store(path).open()
    assert not temp.exists(), "the next open, with the lock free, sweeps it"


KILLED = textwrap.dedent("""
    import sys
    from pathlib import Path
    from jamgate_adapters.stores.file import FileStore
    from jamgate_core.contracts import Preconditions, WritePlan
    from jamgate_core.models import MemoryRecord, new_id, utcnow

    path = Path(sys.argv[1])
    store = FileStore(FileStore.Options(path=str(path)), home=path.parent)
    store.open()
    print("ready", flush=True)
    for n in range(1_000_000):
        now, record_id = utcnow(), new_id()
        record = MemoryRecord(id=record_id, text=f"Jam's fact {record_id} " + "padding " * 400,
                              created_at=now, updated_at=now)
        store.write(WritePlan(scope="default", now=now, insert=record),
                    Preconditions(scope="default"))
""")


@pytest.mark.slow
def test_after_kill_9_loops_the_next_open_leaves_no_copy(folder: Path) -> None:
    path = folder / "memory.json"
    save(make_store(path), TEXT)
    left = 0
    for kill in range(60):  # at least 10 kills, and on until one left a temp copy
        if kill >= 10 and left:
            break
        child = subprocess.Popen([sys.executable, "-c", KILLED, str(path)],
                                 stdout=subprocess.PIPE, text=True)
        assert child.stdout is not None and child.stdout.readline().strip() == "ready"
        time.sleep(0.05 + 0.02 * (kill % 15))
        child.send_signal(signal.SIGKILL)
        child.wait()
        left += len(list(folder.glob(".memory.json.*.tmp")))
        for debris in folder.iterdir():  # make any lock debris old enough to be stale
            if ".lock" in debris.name:
                aged(debris)
    store = make_store(path)
    store.open()
    assert list(folder.glob(".memory.json.*.tmp")) == []
    assert left, "the kills left temp copies behind (else this test tests nothing)"
    assert sorted(p.name for p in folder.iterdir()) == ["memory.json"]
    assert store.integrity_check() == []


# --- read-only --------------------------------------------------------------------------------

def test_a_read_only_file_is_refused_on_open(folder: Path) -> None:
    path = folder / "memory.json"
    save(make_store(path), TEXT)
    path.chmod(0o444)
    before, inode = digest(path), path.stat().st_ino
    store = make_store(path)
    with pytest.raises(StoreUnavailable) as caught:
        store.open()
    message = str(caught.value)
    assert str(path) in message and "read-only" in message and "chmod 600" in message
    assert "JAMGATE_STORE" in message
    assert digest(path) == before and path.stat().st_ino == inode
    assert oct(path.stat().st_mode & 0o777) == oct(0o444)


def test_a_file_made_read_only_after_open_is_never_written_through(folder: Path) -> None:
    path = folder / "memory.json"
    store = make_store(path)
    store.open()
    kept = save(store, TEXT)
    path.chmod(0o444)
    before, inode = digest(path), path.stat().st_ino
    for attempt in (lambda: save(store, "Jam likes green tea"),
                    lambda: store.delete("default", kept.id),
                    lambda: store.compact(utcnow())):
        with pytest.raises(StoreUnavailable, match="read-only"):
            attempt()
        assert digest(path) == before and path.stat().st_ino == inode
    path.chmod(0o600)
    assert store.delete("default", kept.id) is not None


def test_a_read_only_oauth_sidecar_is_refused(folder: Path) -> None:
    path = folder / "memory.json"
    store = make_store(path)
    store.open()
    store.oauth_save_client("client-1", "{}", time.time())
    sidecar = folder / "memory.oauth.json"
    sidecar.chmod(0o444)
    before = digest(sidecar)
    with pytest.raises(StoreUnavailable, match="read-only"):
        store.oauth_put(AuthSecret(kind="code", key="ab" * 32, client_id="client-1",
                                   grant_id="g", expires_at=time.time() + 60))
    assert digest(sidecar) == before
    assert store.oauth_client("client-1") == "{}", "reading still works"
