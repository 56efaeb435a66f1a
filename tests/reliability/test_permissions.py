"""Under umask 022, the data folder is created 0700 and every file Jamgate creates in it 0600:
the store and its -wal/-shm, locks, the gate log and its rotation, OAuth state, backups, an
export and an audit backup written under it. `jamgate doctor` warns when modes are looser.

Each flow runs in a fresh interpreter with umask 022 (the usual default) and a data folder that
does not exist yet; it reports the mode of every path under the folder, also while the store
is open (the -wal and -shm of SQLite, the file store's lock, exist only then).
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from jamgate_commands.permissions import loose_paths, permission_checks

FLOW = textwrap.dedent("""
    import json, os, sqlite3, sys, time
    from pathlib import Path

    os.umask(0o022)
    home, store = Path(sys.argv[1]), sys.argv[2]

    def modes():
        found = {".": oct(os.stat(home).st_mode & 0o777)}
        for path in sorted(home.rglob("*")):
            found[str(path.relative_to(home))] = oct(os.lstat(path).st_mode & 0o777)
        return found

    from jamgate_core.app import open_app
    from jamgate_core.cli import main
    from jamgate_core.contracts import AuthSecret, Preconditions, WritePlan
    from jamgate_core.models import MemoryRecord, SaveRequest, new_id, utcnow

    seen = {}
    if store == "file":
        # a predecessor's file (v1: a bare list) made private by its owner: the first write
        # backs it up before upgrading it
        home.mkdir(mode=0o700, parents=True)
        old = home / "memory.json"
        old.write_text(json.dumps([{"id": "old-1", "text": "Jam used to live in Lyon",
                                    "createdAt": "2024-01-01T00:00:00.000Z"}]))
        old.chmod(0o600)

    def save_many(app, start):
        for n in range(start, start + 25):
            app.save(SaveRequest(text=f"Jam's project number {n} uses the Zig compiler "
                                      f"and the {n}th release of Postgres",
                                 type="project", source="user-explicit"))

    app = open_app()
    try:
        save_many(app, 0)
        found = app.recall("project number 3", limit=1).memories
        app.forget(found[0].id)
        now = time.time()
        app.store.oauth_save_client("client-1", json.dumps({"client_name": "x"}), now)
        app.store.oauth_put(AuthSecret(kind="code", key="ab" * 32, client_id="client-1",
                                       grant_id="grant-1", expires_at=now + 60))
        # junk the gate would refuse, written behind its back: `audit --apply` removes it
        junk = MemoryRecord(id=new_id(), text="ok", created_at=utcnow(), updated_at=utcnow())
        app.store.write(WritePlan(scope="default", now=utcnow(), insert=junk),
                        Preconditions(scope="default"))
        seen["open"] = modes()
        if store == "file":
            from jamgate_adapters.stores.kit.locking import FileLock
            with FileLock(Path(app.store.location()), 5):
                seen["locked"] = modes()
    finally:
        app.close()

    if store == "sqlite":
        # make it an older schema, so the next open takes a verified backup first
        conn = sqlite3.connect(home / "memory.db", isolation_level=None)
        conn.execute("PRAGMA user_version = 3")
        conn.close()
        app = open_app()
        try:
            save_many(app, 100)
            assert app.store.last_backup is not None
        finally:
            app.close()

    assert main(["export", "-o", str(home / "export.json")]) == 0
    assert main(["audit", "--apply"]) == 0
    seen["end"] = modes()
    print(json.dumps(seen))
""")


def run_flow(home: Path, store: str) -> dict[str, dict[str, str]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAMGATE_")}
    env |= {"JAMGATE_HOME": str(home), "JAMGATE_STORE": store, "JAMGATE_EMBEDDER": "none",
            "JAMGATE_GATE_LOG_MAX_BYTES": "3000"}
    done = subprocess.run([sys.executable, "-c", FLOW, str(home), store], env=env,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    result: dict[str, dict[str, str]] = json.loads(done.stdout.splitlines()[-1])
    return result


def not_private(modes: dict[str, str], home: Path) -> dict[str, str]:
    wrong = {}
    for name, mode in modes.items():
        path = home / name
        want = 0o700 if path.is_dir() or name == "." else 0o600
        if int(mode, 8) != want and not (path.is_symlink()):
            wrong[name] = mode
    return wrong


EXPECTED = {
    "sqlite": ["memory.db", "memory.db-wal", "memory.db-shm", "gate.log", "gate.log.1",
               "gate.log.lock", "export.json", "backups", "memory.db.backup-v3-"],
    "file": ["memory.json", "memory.json.lock", "memory.oauth.json", "gate.log", "gate.log.1",
             "gate.log.lock", "export.json", "backups", "memory.json.backup-v1-"],
}


@pytest.mark.parametrize("store", ["sqlite", "file"])
def test_everything_created_under_umask_022_is_private(tmp_path: Path, store: str) -> None:
    home = tmp_path / "fresh" / "jamgate-home"
    seen = run_flow(home, store)
    everything = {name for moment in seen.values() for name in moment}
    for wanted in EXPECTED[store]:
        assert any(name == wanted or name.startswith(wanted) for name in everything), (
            f"{wanted} was never created: the flow does not cover it")
    assert any(name.startswith("backups/audit-backup-") for name in seen["end"])
    for moment, modes in seen.items():
        assert modes["."] == oct(0o700), f"{moment}: the data folder is {modes['.']}"
        assert not_private(modes, home) == {}, f"{moment}: not private"
    if store == "sqlite":  # (the file flow made its folder itself, for the predecessor's file)
        assert stat.S_IMODE(home.parent.stat().st_mode) == 0o700, "a missing parent is 0700"


def test_doctor_warns_on_looser_modes(tmp_path: Path) -> None:
    home = tmp_path / "fresh" / "jamgate-home"
    run_flow(home, "sqlite")
    assert loose_paths(home) == []
    [(level, message)] = permission_checks(home)
    assert level == "ok" and str(home) in message

    home.chmod(0o755)
    (home / "memory.db").chmod(0o644)
    (home / "gate.log").chmod(0o640)
    (home / "backups").chmod(0o711)
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAMGATE_")}
    env |= {"JAMGATE_HOME": str(home), "JAMGATE_EMBEDDER": "none"}
    done = subprocess.run([sys.executable, "-m", "jamgate_core.cli", "doctor", "--json"],
                          env=env, capture_output=True, text=True, timeout=120)
    checks: list[dict[str, Any]] = json.loads(done.stdout)
    [warning] = [c["message"] for c in checks if c["message"].startswith("permissions:")]
    assert next(c for c in checks if c["message"] == warning)["level"] == "warning"
    for path, mode in ((home, "0755"), (home / "memory.db", "0644"),
                       (home / "gate.log", "0640"), (home / "backups", "0711")):
        assert f"{path} ({mode})" in warning
    assert f"chmod 700 {home}" in warning and "chmod 600" in warning
    assert str(home / "export.json") not in warning  # still private


def test_a_store_outside_the_data_folder_is_checked_by_its_own_files(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o755)
    (shared / "someone-elses.txt").write_text("not Jamgate's")
    (shared / "someone-elses.txt").chmod(0o644)
    (shared / "memory.db").write_bytes(b"")
    (shared / "memory.db").chmod(0o644)
    (shared / "memory.db-wal").write_bytes(b"")
    (shared / "memory.db-wal").chmod(0o600)
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    home.chmod(0o700)
    found = dict(loose_paths(home, shared / "memory.db", shared / "gate.log"))
    assert found == {shared / "memory.db": 0o644}
