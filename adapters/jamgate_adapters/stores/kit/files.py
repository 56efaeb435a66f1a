"""Files replaced atomically and durably (the file store's JSON, the OAuth sidecar), the temp
files a killed writer leaves behind, and what counts as a read-only file."""

from __future__ import annotations

import contextlib
import os
import re
import stat
import uuid
from pathlib import Path

from jamgate_core.errors import StoreUnavailable
from jamgate_core.files import PRIVATE_FILE_MODE, fsync_dir

_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
_TEMP = re.compile(rf"\.(?P<name>.+)\.{_UUID}\.tmp")


def atomic_write(path: Path, data: bytes) -> None:
    """Replace `path` with `data` durably: temp file, fsync, rename, fsync the folder.

    On failure the temp file is removed and the old file is left as it was.
    """
    temp = temp_path(path)
    try:
        mode = os.stat(path).st_mode & 0o777
    except OSError:
        mode = PRIVATE_FILE_MODE
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        with os.fdopen(fd, "wb") as handle:
            if hasattr(os, "fchmod"):  # exact mode, whatever the umask (not on Windows)
                with contextlib.suppress(OSError):
                    os.fchmod(handle.fileno(), mode)
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise StoreUnavailable(
            f"could not write the memory store {path}: {exc.strerror or exc} (a full disk, a "
            "read-only folder, or a file size limit?). Nothing was changed: the previous file "
            "is intact. Free some space or fix the folder's permissions, then try again."
        ) from exc
    fsync_dir(path.parent)


def temp_path(path: Path) -> Path:
    """A fresh name for `atomic_write`'s temp file: `.<name>.<uuid>.tmp` beside `path`."""
    return path.with_name(f".{path.name}.{uuid.uuid4()}.tmp")


def orphaned_temps(path: Path) -> list[Path]:
    """The temp files of `atomic_write(path, …)` present beside `path`. Only call this while
    holding the lock every writer of `path` holds: then none of them is being written."""
    try:
        names = os.listdir(path.parent)
    except OSError:
        return []
    found = []
    for name in names:
        match = _TEMP.fullmatch(name)
        if match is not None and match.group("name") == path.name:
            found.append(path.with_name(name))
    return sorted(found)


def remove_all(paths: list[Path]) -> list[Path]:
    """Delete each path (a vanished one is fine); the ones that went."""
    gone = []
    for found in paths:
        try:
            os.unlink(found)
        except FileNotFoundError:
            continue
        except OSError:
            continue
        gone.append(found)
    if gone:
        fsync_dir(gone[0].parent)
    return gone


def read_only_problem(path: Path) -> str | None:
    """Why `path` must not be written through, or None. A file is read-only when this user may
    not write it, or when its owner's write bit is off (as `chmod 444` leaves it: root may
    write anyway, but a user who made it read-only meant it, and an atomic rename would replace
    it). A missing file is not read-only."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"the file {path} cannot be examined ({exc.strerror or exc})"
    if not stat.S_ISREG(info.st_mode):
        return None
    if not info.st_mode & stat.S_IWUSR:
        return f"the file {path} is read-only (mode {stat.S_IMODE(info.st_mode):04o})"
    if not os.access(path, os.W_OK):
        return f"the file {path} is read-only for this user"
    return None
