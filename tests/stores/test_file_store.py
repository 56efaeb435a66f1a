"""The JSON file store on real files: format, predecessor compatibility and migration,
refusing unusable files byte for byte, durability under kill -9 and failing disks, the size cap."""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pytest

from jamgate_adapters.stores.file import FileStore
from jamgate_core.contracts import Preconditions, WritePlan
from jamgate_core.errors import (
    PreconditionFailed,
    StoreCorrupt,
    StoreError,
    StoreTooNew,
    StoreUnavailable,
)
from jamgate_core.models import ClientInfo, MemoryRecord, iso, new_id, parse_iso, utcnow

NOW = parse_iso("2026-07-21T10:00:00.000Z")


def make_store(path: Path, **options: Any) -> FileStore:
    store = FileStore(FileStore.Options(path=str(path), **options), home=path.parent)
    store.open()
    return store


def record(text: str, *, subject: str | None = None, scope: str = "default",
           created: datetime = NOW, **fields: Any) -> MemoryRecord:
    return MemoryRecord(id=fields.pop("id", None) or new_id(), text=text, subject=subject,
                        scope=scope, created_at=created, updated_at=created, **fields)


def save(store: FileStore, new: MemoryRecord, retire: tuple[str, ...] = ()) -> None:
    by_subject = {}
    if new.subject:
        by_subject = {new.subject: frozenset(r.id for r in store.by_subject(new.scope,
                                                                            new.subject))}
    store.write(
        WritePlan(scope=new.scope, now=NOW, insert=new, retire=retire),
        Preconditions(scope=new.scope, by_key={new.key: frozenset()}, by_subject=by_subject),
    )


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """The store's own folder (tmp_path also holds the test's JAMGATE_HOME)."""
    path = tmp_path / "store"
    path.mkdir()
    return path


def leftovers(directory: Path, name: str = "memory.json") -> list[str]:
    """Files other than the store itself (temp files, backups, locks)."""
    return sorted(p.name for p in directory.iterdir() if p.name != name)


# --- format -----------------------------------------------------------------------------------

def test_writes_the_predecessor_format(folder: Path) -> None:
    path = folder / "memory.json"
    store = make_store(path)
    assert not path.exists(), "opening creates no file; the first write does"
    old = record("Jam lives in Berlin", subject="location-city", type="identity",
                 client=ClientInfo(name="claude-code", version="1.2"), embedding=[0.5, -0.25],
                 embedding_model="test-model", provenance="mcp")
    save(store, old)
    new = record("Jam lives in Paris", subject="location-city", type="identity",
                 expires_at=NOW + timedelta(days=2))
    save(store, new, retire=(old.id,))
    text = path.read_text()
    assert text.startswith('{\n  "schemaVersion": 3,\n  "memories": [\n    {\n      "id": ')
    document = json.loads(text)
    assert list(document) == ["schemaVersion", "memories"]
    first, second = document["memories"]
    assert list(first) == [
        "id", "text", "type", "subject", "scope", "source", "status", "createdAt", "updatedAt",
        "supersededBy", "supersededAt", "client", "embedding", "provenance", "embeddingModel",
    ]
    assert first["status"] == "superseded" and first["supersededBy"] == new.id
    assert first["supersededAt"] == first["updatedAt"] == "2026-07-21T10:00:00.000Z"
    assert first["client"] == {"name": "claude-code", "version": "1.2"}
    assert first["embedding"] == [0.5, -0.25]
    assert '"embedding": [0.5, -0.25]' in text, "vectors stay on one line"
    assert second["expiresAt"] == "2026-07-23T10:00:00.000Z"
    assert "client" not in second and "supersededBy" not in second, "absent keys are omitted"
    assert leftovers(folder) == [], "no temp file, lock or backup stays behind"
    reread = make_store(path).get("default", old.id)
    assert reread is not None and reread.embedding == [0.5, -0.25]
    assert reread.embedding_model == "test-model" and reread.client == old.client


def test_keeps_the_file_mode(folder: Path) -> None:
    path = folder / "memory.json"
    store = make_store(path)
    save(store, record("first"))
    assert stat.S_IMODE(path.stat().st_mode) == 0o600, "a new store is private"
    path.chmod(0o640)
    save(store, record("second"))
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


PREDECESSOR_V3 = {
    "schemaVersion": 3,
    "memories": [
        {
            "id": "0b6f2c1e-8d7a-4c5b-9e3f-1a2b3c4d5e6f", "text": "Jam lives in Berlin",
            "type": "identity", "subject": "location.city", "scope": "Work ",
            "source": "user-explicit", "status": "active",
            "createdAt": "2026-07-01T08:00:00.000Z", "updatedAt": "2026-07-01T08:00:00.000Z",
            "client": {"name": "claude-code", "version": "1.0.3"},
            "embedding": [0.1, 0.2, 0.3], "futureField": {"kept": True},
        },
        {
            "id": "1c7a3d2f-9e8b-4d6c-8f4a-2b3c4d5e6f70", "text": "Working on the gate",
            "type": "project", "subject": "current-project", "scope": "default",
            "source": "agent-inferred", "status": "active",
            "createdAt": "2026-07-02T08:00:00.000Z", "updatedAt": "2026-07-02T08:00:00.000Z",
            "expiresAt": "2026-09-30T08:00:00.000Z",
        },
    ],
    "note": "kept too",
}


def test_reads_a_predecessor_file_and_keeps_unknown_keys(folder: Path) -> None:
    path = folder / "memory.json"
    path.write_text(json.dumps(PREDECESSOR_V3, indent=2))
    store = make_store(path)
    berlin = store.get("work", "0b6f2c1e-8d7a-4c5b-9e3f-1a2b3c4d5e6f")
    assert berlin is not None
    assert (berlin.type, berlin.source, berlin.scope) == ("identity", "user-explicit", "work")
    assert berlin.created_at == parse_iso("2026-07-01T08:00:00.000Z")
    assert berlin.client == ClientInfo(name="claude-code", version="1.0.3")
    assert [r.id for r in store.by_subject("work", "location-city")] == [berlin.id]
    assert [r.id for r in store.by_text_key("work", "jam lives in berlin")] == [berlin.id]
    assert store.nearest("work", [0.1, 0.2, 0.3], limit=3, now=NOW)[0][0].id == berlin.id
    assert store.get("default", berlin.id) is None, "scopes are separate"

    paris = record("Jam lives in Paris", subject="location-city", scope="work")
    save(store, paris, retire=(berlin.id,))
    document = json.loads(path.read_text())
    assert document["note"] == "kept too"
    first, second, third = document["memories"]
    assert first["futureField"] == {"kept": True} and first["status"] == "superseded"
    assert first["subject"] == "location.city" and first["scope"] == "Work "
    assert second == PREDECESSOR_V3["memories"][1], "an untouched record is written unchanged"
    assert third["id"] == paris.id
    assert leftovers(folder) == [], "a v3 file needs no backup"


# --- legacy versions --------------------------------------------------------------------------

V1 = [
    {"id": "aaaaaaaa-0000-4000-8000-000000000001", "text": "Building Jamgate", "type": "project",
     "source": "agent-inferred", "status": "active",
     "createdAt": "2026-06-20T10:00:00.000Z", "updatedAt": "2026-06-20T10:00:00.000Z"},
    {"id": "aaaaaaaa-0000-4000-8000-000000000002", "text": "Tired today", "type": "state",
     "source": "agent-inferred", "status": "active",
     "createdAt": "2026-06-20T10:00:00.000Z", "updatedAt": "2026-06-20T10:00:00.000Z"},
    {"id": "aaaaaaaa-0000-4000-8000-000000000003", "text": "Name is Jam", "type": "identity",
     "source": "user-explicit", "status": "active",
     "createdAt": "2026-06-20T10:00:00.000Z", "updatedAt": "2026-06-20T10:00:00.000Z"},
]


def backups(directory: Path) -> list[Path]:
    return sorted(directory.glob("memory.json.backup-*"))


def test_migrates_a_v1_file_with_a_verified_backup(folder: Path) -> None:
    path = folder / "memory.json"
    path.write_text(json.dumps(V1))
    original = path.read_bytes()
    store = make_store(path)
    project, state, identity = (store.get("default", r["id"]) for r in V1)
    assert project is not None and state is not None and identity is not None
    assert project.expires_at == parse_iso("2026-09-18T10:00:00.000Z")  # 90 days
    assert state.expires_at == parse_iso("2026-06-22T10:00:00.000Z")  # 2 days
    assert identity.expires_at is None
    assert path.read_bytes() == original and backups(folder) == [], "reading writes nothing"

    save(store, record("A new memory"))
    [backup] = backups(folder)
    assert backup.name.startswith("memory.json.backup-v1-")
    assert backup.read_bytes() == original
    document = json.loads(path.read_text())
    assert document["schemaVersion"] == 3 and len(document["memories"]) == 4
    assert {r["scope"] for r in document["memories"]} == {"default"}
    assert document["memories"][0]["expiresAt"] == "2026-09-18T10:00:00.000Z"
    save(store, record("Another one"))
    assert len(backups(folder)) == 1, "only the upgrade is backed up"


def test_migrates_a_v2_file_on_delete_too(folder: Path) -> None:
    path = folder / "memory.json"
    v2 = {"schemaVersion": 2, "memories": [dict(V1[0], scope=None), dict(V1[2])]}
    path.write_text(json.dumps(v2, indent=2))
    original = path.read_bytes()
    store = make_store(path)
    kept = store.get("default", V1[2]["id"])
    assert kept is not None and kept.scope == "default"
    assert store.get("default", V1[0]["id"]).expires_at is None  # type: ignore[union-attr]
    assert store.delete("default", V1[0]["id"]) is not None
    [backup] = backups(folder)
    assert backup.name.startswith("memory.json.backup-v2-") and backup.read_bytes() == original
    document = json.loads(path.read_text())
    assert document["schemaVersion"] == 3
    assert [r["id"] for r in document["memories"]] == [V1[2]["id"]]
    assert document["memories"][0]["scope"] == "default"


# --- unusable files ---------------------------------------------------------------------------

CORRUPT = {
    "invalid-json": b'{"schemaVersion": 3, "memories": [',
    "unknown-shape": b'{"nonsense": true}',
    "null": b"null",
    "number": b"42",
    "record-not-object": b'{"schemaVersion": 3, "memories": [1]}',
    "record-without-text": b'[{"id": "x", "text": "  "}]',
    "bad-version": b'{"schemaVersion": "three", "memories": []}',
    "not-utf8": b'{"memories": ["\xff"]}',
}


def every_method(store: FileStore) -> Iterator[tuple[str, Any]]:
    """Each store call once (the ones that must refuse an unusable file)."""
    calls = {
        "open": store.open,
        "by_text_key": lambda: store.by_text_key("default", "x"),
        "by_subject": lambda: store.by_subject("default", "x"),
        "get": lambda: store.get("default", "x"),
        "resolve_id": lambda: store.resolve_id("default", "xxxxxxxx"),
        "search": lambda: store.search("default", "x", limit=5, type=None, now=NOW),
        "nearest": lambda: store.nearest("default", [1.0], limit=5, now=NOW),
        "list": lambda: store.list("default", status="all", type=None, limit=5, cursor=None,
                                   now=NOW),
        "write": lambda: save(store, record("anything")),
        "delete": lambda: store.delete("default", "x"),
    }
    yield from calls.items()


@pytest.mark.parametrize("content", CORRUPT.values(), ids=list(CORRUPT))
def test_an_unusable_file_is_refused_and_left_byte_identical(folder: Path,
                                                             content: bytes) -> None:
    path = folder / "memory.json"
    path.write_bytes(content)
    store = FileStore(FileStore.Options(path=str(path)), home=folder)
    for name, call in every_method(store):
        with pytest.raises(StoreCorrupt) as caught:
            call()
        message = str(caught.value)
        assert str(path) in message, name
        assert "NOT been modified" in message and "move it aside" in message, name
        assert path.read_bytes() == content, name
    [problem] = store.integrity_check()
    assert str(path) in problem
    store.close()
    assert path.read_bytes() == content
    assert leftovers(folder) == []


def test_a_newer_schema_is_refused_untouched(folder: Path) -> None:
    path = folder / "memory.json"
    content = b'{"schemaVersion": 4, "memories": [], "graph": {}}'
    path.write_bytes(content)
    store = FileStore(FileStore.Options(path=str(path)), home=folder)
    for name, call in every_method(store):
        with pytest.raises(StoreTooNew, match="newer Jamgate"):
            call()
        assert path.read_bytes() == content, name
    assert leftovers(folder) == []


@pytest.mark.parametrize("content", [None, b"", b"  \n\t "])
def test_a_missing_or_blank_file_is_an_empty_store(folder: Path, content: bytes | None) -> None:
    path = folder / "sub" / "memory.json"
    if content is not None:
        path.parent.mkdir()
        path.write_bytes(content)
    store = make_store(path)
    assert store.list("default", status="all", type=None, limit=5, cursor=None,
                      now=NOW).records == []
    assert store.integrity_check() == []
    save(store, record("the first memory"))
    assert json.loads(path.read_text())["memories"][0]["text"] == "the first memory"
    assert backups(path.parent) == []


def test_a_byte_order_mark_is_tolerated(folder: Path) -> None:
    path = folder / "memory.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(PREDECESSOR_V3).encode())
    assert len(make_store(path).list("default", status="all", type=None, limit=5, cursor=None,
                                     now=NOW).records) == 1


def test_orphaned_temp_files_are_ignored(folder: Path) -> None:
    path = folder / "memory.json"
    store = make_store(path)
    save(store, record("kept"))
    orphan = folder / ".memory.json.0f0e-dead.tmp"
    orphan.write_text('{"schemaVersion": 3, "memories": [')
    save(store, record("also kept"))
    hits = make_store(path).search("default", "", limit=5, type=None, now=NOW)
    assert [r.text for r, _ in hits] == ["also kept", "kept"] or len(hits) == 2
    assert len(json.loads(path.read_text())["memories"]) == 2


def test_integrity_check_reports_duplicates_and_bad_fields(folder: Path) -> None:
    path = folder / "memory.json"
    base = {"source": "agent-inferred", "status": "active", "scope": "default",
            "createdAt": "2026-07-01T08:00:00.000Z", "updatedAt": "2026-07-01T08:00:00.000Z"}
    path.write_text(json.dumps({"schemaVersion": 3, "memories": [
        dict(base, id="a1", text="Lives in Berlin", subject="location-city"),
        dict(base, id="a2", text="lives  in berlin", subject="location.city"),
        dict(base, id="a1", text="Some other text"),
        dict(base, id="a3", text="Odd", type="State", createdAt="yesterday"),
    ]}))
    problems = make_store(path).integrity_check()
    assert any("a1 is used more than once" in p for p in problems)
    assert any("share one text key" in p for p in problems)
    assert any("share subject 'location-city'" in p for p in problems)
    assert any("type 'State'" in p for p in problems)
    assert any("createdAt 'yesterday'" in p for p in problems)


# --- writes -----------------------------------------------------------------------------------

def test_a_changed_snapshot_fails_the_write_and_changes_nothing(folder: Path) -> None:
    path = folder / "memory.json"
    store = make_store(path)
    first = record("Lives in Berlin", subject="location-city")
    save(store, first)
    before = path.read_bytes()
    other = make_store(path)
    late = record("Lives in Paris", subject="location-city")
    with pytest.raises(PreconditionFailed):
        other.write(WritePlan(scope="default", now=NOW, insert=late),
                    Preconditions(scope="default", by_subject={"location-city": frozenset()}))
    with pytest.raises(PreconditionFailed):
        other.write(WritePlan(scope="default", now=NOW, insert=record("lives in berlin")),
                    Preconditions(scope="default", by_key={"lives in berlin": frozenset()}))
    with pytest.raises(PreconditionFailed):
        other.write(WritePlan(scope="default", now=NOW, retire=("no-such-id",)),
                    Preconditions(scope="default"))
    with pytest.raises(StoreError, match="already exists"):
        other.write(WritePlan(scope="default", now=NOW, insert=record("x", id=first.id)),
                    Preconditions(scope="default"))
    assert path.read_bytes() == before


def test_a_write_by_another_instance_is_seen(folder: Path) -> None:
    path = folder / "memory.json"
    reader, writer = make_store(path), make_store(path)
    assert reader.by_text_key("default", "hello there") == []
    saved = record("Hello there")
    save(writer, saved)
    assert [r.id for r in reader.by_text_key("default", "hello there")] == [saved.id]
    writer.delete("default", saved.id)
    assert reader.get("default", saved.id) is None


def test_upgrade_source_and_delete(folder: Path) -> None:
    path = folder / "memory.json"
    store = make_store(path)
    kept, gone = record("Prefers tea"), record("Prefers coffee")
    save(store, kept)
    save(store, gone)
    later = NOW + timedelta(hours=1)
    store.write(WritePlan(scope="default", now=later, upgrade_source=(kept.id, "user-explicit")),
                Preconditions(scope="default"))
    upgraded = store.get("default", kept.id)
    assert upgraded is not None and upgraded.source == "user-explicit"
    assert upgraded.updated_at == later
    assert store.delete("work", gone.id) is None, "delete is confined to the scope"
    removed = store.delete("default", gone.id)
    assert removed is not None and removed.text == "Prefers coffee"
    assert [r["id"] for r in json.loads(path.read_text())["memories"]] == [kept.id]


def test_options_resolve_the_path_against_home(folder: Path) -> None:
    default = FileStore(FileStore.Options(), home=folder)
    assert default.location() == str(folder / "memory.json")
    relative = FileStore(FileStore.Options(path="data/mem.json"), home=folder)
    assert relative.location() == str(folder / "data" / "mem.json")
    relative.open()
    assert (folder / "data").is_dir()
    [entry] = [e for e in entry_points(group="jamgate.stores") if e.name == "file"]
    assert entry.load() is FileStore


def test_the_size_cap_refuses_inserts_but_not_reads(folder: Path) -> None:
    path = folder / "memory.json"
    store = make_store(path, max_bytes=1500)
    saved = [record(f"memory number {i} " + "x" * 100) for i in range(20)]
    stored = 0
    with pytest.raises(StoreUnavailable) as caught:
        for item in saved:
            save(store, item)
            stored += 1
    assert 1 <= stored < 20
    message = str(caught.value)
    assert "size cap" in message and "sqlite" in message and "jamgate export" in message
    assert path.stat().st_size <= 1500
    assert len(store.search("default", "", limit=50, type=None, now=NOW)) == stored
    assert store.delete("default", saved[0].id) is not None, "forgetting still works"
    counted = make_store(path, max_records=stored - 1)
    with pytest.raises(StoreUnavailable, match="records"):
        save(counted, record("one too many"))


# --- failing disks and permissions ------------------------------------------------------------

def run_child(code: str, *args: str, fsize: int | None = None,
              drop_root: bool = False) -> dict[str, Any]:
    """Run `code` in a fresh interpreter and return the JSON it prints. `fsize` limits the
    size of files it may write (a full disk); `drop_root` makes a root child become `nobody`
    once its imports are done, so file permissions apply to it."""

    def limit() -> None:
        if fsize is not None:
            import resource
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    env = dict(os.environ, DROP_ROOT="1" if drop_root else "")
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args],
                          capture_output=True, text=True, preexec_fn=limit, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


ATTEMPT = """
import json, os, sys
from pathlib import Path
from jamgate_adapters.stores.file import FileStore
from jamgate_core.contracts import Preconditions, WritePlan
from jamgate_core.errors import StoreError
from jamgate_core.models import MemoryRecord, new_id, utcnow

if os.environ.get("DROP_ROOT") and os.geteuid() == 0:
    os.setgroups([])
    os.setgid(65534)
    os.setuid(65534)

path = Path(sys.argv[1])
store = FileStore(FileStore.Options(path=str(path)), home=path.parent)
out = {}
def attempt(name, call):
    try:
        out[name] = ["ok", repr(call())]
    except StoreError as exc:
        out[name] = [type(exc).__name__, str(exc)]
now = utcnow()
new = MemoryRecord(id=new_id(), text="x" * int(sys.argv[2]), created_at=now, updated_at=now)
attempt("read", lambda: len(store.list("default", status="all", type=None, limit=50,
                                         cursor=None, now=now).records))
attempt("write", lambda: store.write(WritePlan(scope="default", now=now, insert=new),
                                     Preconditions(scope="default")))
print(json.dumps(out))
"""


def test_a_full_disk_leaves_the_old_file_intact(folder: Path) -> None:
    path = folder / "memory.json"
    store = make_store(path)
    save(store, record("an acknowledged memory"))
    before = path.read_bytes()
    out = run_child(ATTEMPT, str(path), "5000", fsize=2000)
    assert out["read"] == ["ok", "1"]
    kind, message = out["write"]
    assert kind == "StoreUnavailable" and str(path) in message and "intact" in message
    assert path.read_bytes() == before
    assert leftovers(folder) == [], "the temp file is removed"


def test_a_failed_backup_aborts_the_upgrade(folder: Path) -> None:
    path = folder / "memory.json"
    path.write_text(json.dumps(V1, indent=2) + " " * 3000)
    before = path.read_bytes()
    out = run_child(ATTEMPT, str(path), "10", fsize=2000)
    assert out["read"] == ["ok", "3"]
    kind, message = out["write"]
    assert kind == "StoreError" and "backup" in message and "Nothing was changed" in message
    assert path.read_bytes() == before
    assert leftovers(folder) == []


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A folder another user can reach (pytest's folder is private to root)."""
    directory = Path(tempfile.mkdtemp(prefix="jamgate-file-store-"))
    directory.chmod(0o755)
    yield directory
    for path in [directory, *directory.iterdir()]:
        path.chmod(0o755)
    shutil.rmtree(directory)


def test_a_read_only_folder_refuses_writes_but_reads(shared_dir: Path) -> None:
    path = shared_dir / "memory.json"
    store = make_store(path)
    save(store, record("readable by everyone"))
    path.chmod(0o644)
    before = path.read_bytes()
    shared_dir.chmod(0o555)
    out = run_child(ATTEMPT, str(path), "10", drop_root=True)
    assert out["read"] == ["ok", "1"]
    kind, message = out["write"]
    assert kind == "StoreUnavailable" and f"{path}.lock" in message
    assert path.read_bytes() == before
    assert leftovers(shared_dir) == []


def test_permission_denied_names_the_remedy(shared_dir: Path) -> None:
    path = shared_dir / "memory.json"
    save(make_store(path), record("private"))
    path.chmod(0o000)
    out = run_child(ATTEMPT, str(path), "10", drop_root=True)
    kind, message = out["read"]
    assert kind == "StoreUnavailable"
    assert "permission denied" in message and str(path) in message
    assert "another user" in message and "JAMGATE_STORE" in message


# --- kill -9 ----------------------------------------------------------------------------------

KILLED_WRITER = """
import os, sys
from pathlib import Path
from jamgate_adapters.stores.file import FileStore
from jamgate_core.contracts import Preconditions, WritePlan
from jamgate_core.models import MemoryRecord, new_id, utcnow

path, acks = Path(sys.argv[1]), sys.argv[2]
store = FileStore(FileStore.Options(path=str(path)), home=path.parent)
store.open()
side = os.open(acks, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
print("ready", flush=True)
for i in range(100000):
    now, record_id = utcnow(), new_id()
    record = MemoryRecord(id=record_id, text=f"memory {record_id} " + "padding " * 40,
                          created_at=now, updated_at=now, embedding=[0.125] * 64)
    store.write(WritePlan(scope="default", now=now, insert=record),
                Preconditions(scope="default", by_key={record.key: frozenset()}))
    os.write(side, (record.id + "\\n").encode())
    os.fsync(side)
"""


@pytest.mark.slow
def test_kill_9_mid_write_loses_no_acknowledged_save(folder: Path) -> None:
    path, acks = folder / "memory.json", folder / "acks.txt"
    rounds = random.Random(7)
    for kills in range(1, 6):
        child = subprocess.Popen([sys.executable, "-c", KILLED_WRITER, str(path), str(acks)],
                                 stdout=subprocess.PIPE, text=True)
        assert child.stdout is not None and child.stdout.readline().strip() == "ready"
        time.sleep(rounds.uniform(0.05, 0.4))
        child.send_signal(signal.SIGKILL)
        assert child.wait() == -signal.SIGKILL, "the writer was still writing when killed"
        acknowledged = acks.read_text().split() if acks.exists() else []
        stored = ({r["id"] for r in json.loads(path.read_text())["memories"]}
                  if path.exists() else set())
        assert set(acknowledged) <= stored
        assert len(stored - set(acknowledged)) <= kills, "at most one unacknowledged per kill"
    assert len(acknowledged) > 10
    store = make_store(path)
    assert store.integrity_check() == []
    assert len(store.search("default", "", limit=10_000, type=None, now=utcnow())) == len(stored)
    assert iso(utcnow())  # the store is usable afterwards:
    save(store, record("after the crashes"))
