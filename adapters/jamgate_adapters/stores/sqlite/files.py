"""What the SQLite store checks before it writes to a file: a usable folder, a writable file, and
that an existing file is an intact Jamgate store of a version this code knows (read through a
read-only connection, so a file that fails is left byte-identical). A folder it creates is 0700
and a new database file is created 0600 before SQLite opens it, so its `-wal`, `-shm` and
`-journal` files (SQLite gives them the database's mode) are 0600 too."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from jamgate_adapters.stores.kit.files import read_only_problem
from jamgate_adapters.stores.sqlite import schema
from jamgate_core.errors import StoreCorrupt, StoreUnavailable
from jamgate_core.files import create_private, make_private_dir

# The SQLite errors that mean a damaged or foreign file.
CORRUPT = {"SQLITE_CORRUPT", "SQLITE_NOTADB"}


def prepare_directory(path: Path) -> None:
    """Refuse a folder; create the file's folder if needed."""
    if path.is_dir():
        raise StoreUnavailable(
            f"{path} is a directory, not a database file. Point JAMGATE_STORE at a "
            "file path (e.g. memory.db inside it)."
        )
    try:
        make_private_dir(path.parent)
    except OSError as exc:
        raise unavailable(path, f"cannot create the directory {path.parent} "
                                f"({exc.strerror or exc})") from exc


def require_writable(path: Path) -> None:
    folder = path.parent
    if not os.access(folder, os.W_OK | os.X_OK):
        raise unavailable(path, f"the directory {folder} is read-only")
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        raise unavailable(path, f"the file {path} is read-only")
    problem = read_only_problem(path)
    if problem is not None:
        raise unavailable(path, problem)


def create_file(path: Path) -> None:
    """Create a missing database file empty (a valid new database) with mode 0600."""
    try:
        create_private(path)
    except OSError as exc:
        raise unavailable(path, f"cannot create it ({exc.strerror or exc})") from exc


def unavailable(path: Path, problem: str) -> StoreUnavailable:
    return StoreUnavailable(
        f"cannot use the store at {path}: {problem}. Nothing was modified. Make it "
        "writable by the user running Jamgate, or point JAMGATE_STORE at a writable path."
    )


def corrupt(path: Path, detail: str) -> StoreCorrupt:
    return StoreCorrupt(
        f"{path} is not a readable Jamgate store ({detail}). Nothing was modified: "
        "Jamgate refuses to open or overwrite a store it cannot read. Restore it from a "
        f"backup ({path.name}.backup-*), or move it aside to start a new store."
    )


def inspect(path: Path, timeout: float) -> None:
    """Check an existing file through a read-only connection, before anything writes."""
    try:
        with path.open("rb") as file:
            header = file.read(100)
    except OSError as exc:
        raise unavailable(path, f"cannot read it ({exc.strerror or exc})") from exc
    if not header.startswith(b"SQLite format 3\x00"):
        raise corrupt(path, "not an SQLite database")
    # A WAL database nobody has open would get fresh -wal/-shm files from a read-only
    # connection; `immutable` reads it without them (nothing can be writing to it).
    wal_idle = header[18:20] == b"\x02\x02" and not Path(f"{path}-wal").exists()
    query = "mode=ro&immutable=1" if wal_idle else "mode=ro"
    try:
        probe = sqlite3.connect(f"{path.resolve().as_uri()}?{query}", uri=True,
                                timeout=timeout)
    except sqlite3.Error as exc:
        raise unavailable(path, str(exc)) from exc
    try:
        check = probe.execute("PRAGMA quick_check").fetchall()
        app_id = probe.execute("PRAGMA application_id").fetchone()[0]
        version = probe.execute("PRAGMA user_version").fetchone()[0]
        tables = probe.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    except sqlite3.Error as exc:
        if getattr(exc, "sqlite_errorname", "") in CORRUPT:
            raise corrupt(path, str(exc)) from exc
        raise unavailable(path, str(exc)) from exc
    finally:
        probe.close()
    if check != [("ok",)]:
        raise corrupt(path, "integrity check: " + "; ".join(str(r[0]) for r in check[:3]))
    if app_id != schema.APPLICATION_ID and (tables or app_id):
        raise corrupt(path, "an SQLite database, but not one Jamgate wrote")
    if version > schema.SCHEMA_VERSION:
        raise schema.too_new(path, version)
