"""Files Jamgate creates: private modes whatever the umask, and durable renames.

Folders are created 0700 and files 0600, set exactly after creation so the umask never widens
them (D-141); `fsync_dir` makes a rename in a folder durable. Stores, the gate log and the
embedder's cache all create their files through these.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

PRIVATE_DIR_MODE = 0o700
PRIVATE_FILE_MODE = 0o600


def make_private_dir(path: Path) -> Path:
    """Create the folder `path` and any missing parent with mode 0700; an existing folder is
    left as it is. Returns `path`. Raises OSError like `Path.mkdir`."""
    path = Path(path)
    missing: list[Path] = []
    probe = path
    while not probe.exists() and probe != probe.parent:
        missing.append(probe)
        probe = probe.parent
    path.mkdir(mode=PRIVATE_DIR_MODE, parents=True, exist_ok=True)
    for created in missing:
        with contextlib.suppress(OSError):  # raced with its removal, or no modes here
            os.chmod(created, PRIVATE_DIR_MODE)
    return path


def open_private(path: Path | str, flags: int) -> int:
    """`os.open(path, flags | O_CREAT)`; a file this call creates gets mode 0600 exactly."""
    try:
        fd = os.open(path, flags | os.O_CREAT | os.O_EXCL, PRIVATE_FILE_MODE)
    except FileExistsError:
        return os.open(path, (flags | os.O_CREAT) & ~os.O_EXCL, PRIVATE_FILE_MODE)
    if hasattr(os, "fchmod"):
        with contextlib.suppress(OSError):
            os.fchmod(fd, PRIVATE_FILE_MODE)
    return fd


def create_private(path: Path | str) -> bool:
    """Create `path` as an empty 0600 file unless something is there; True when created."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE_MODE)
    except FileExistsError:
        return False
    try:
        if hasattr(os, "fchmod"):
            os.fchmod(fd, PRIVATE_FILE_MODE)
    finally:
        os.close(fd)
    return True


def fsync_dir(directory: Path) -> None:
    """Make a rename in `directory` durable (where the platform allows)."""
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
