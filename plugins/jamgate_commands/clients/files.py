"""Reading, backing up and replacing a client's config file."""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from pathlib import Path

BACKUP_SUFFIX = ".jamgate-backup"


class NotText(ValueError):
    """The file is not UTF-8 text."""


def read_text(path: Path) -> str | None:
    """The file's text exactly as stored (no newline translation), or None when absent."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise NotText(f"it is not UTF-8 text (byte {exc.start})") from None


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + BACKUP_SUFFIX)


def backup(path: Path) -> Path:
    """Copy `path` to `<path>.jamgate-backup` (replacing an older one), mode included."""
    target = backup_path(path)
    shutil.copy2(path.resolve(), target)
    return target


def write_atomic(path: Path, text: str, private: bool = False) -> None:
    """Replace the file (through a symlink: its target) in one rename.

    A new file gets mode 0600 when `private` (it holds a token); an existing one keeps its
    mode.
    """
    real = path.resolve() if path.is_symlink() else path
    real.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode: int | None = stat.S_IMODE(real.stat().st_mode)
    except FileNotFoundError:
        mode = 0o600 if private else None
    fd, temp = tempfile.mkstemp(prefix=f".{real.name}.", suffix=".jamgate-tmp", dir=real.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(temp, mode)
        os.replace(temp, real)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
