"""`jamgate doctor`'s check of who may read Jamgate's files (a `jamgate.plugins` module).

Jamgate creates its folders 0700 and its files 0600 (`jamgate_core.settings.make_private_dir`,
`open_private`, `create_private`), whatever the umask; a file or folder that already existed
keeps its mode, which is the user's choice. This check warns about every one of them that lets
another user in (any group or other permission bit):

- the data folder (`JAMGATE_HOME`) and everything under it, except inside the folders Jamgate
  hands to another program (`HANDED_OVER`: mem0's Qdrant folder and history database, whose
  modes mem0 chooses; the folder itself must be private, which keeps them private);
- beside a store file outside the data folder, and beside a gate log elsewhere, only
  Jamgate's own files (the store file and its `-wal`, `-shm`, locks, temp files, backups and
  OAuth sidecar; the log, its rotation and lock), not the rest of that folder.

Nothing is changed: the warning gives the `chmod` that fixes it (docs/security.md).
"""

from __future__ import annotations

import os
import shlex
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from jamgate_core.hookspecs import hookimpl
from jamgate_core.loader import store_dir_of

if TYPE_CHECKING:
    from jamgate_core.contracts import Application

Check = tuple[str, str]
# Folders under the data folder whose contents belong to another program.
HANDED_OVER = ("mem0",)
SHOWN = 8  # loose paths named in the warning


def is_loose(mode: int) -> bool:
    """Whether a mode lets a user other than the owner read, write or enter."""
    return bool(stat.S_IMODE(mode) & 0o077)


def _walk(folder: Path, home: Path) -> Iterator[Path]:
    """`folder` and everything under it (symlinks not followed); of a handed-over folder
    directly in the data folder, only the folder itself."""
    yield folder
    if folder.parent == home and folder.name in HANDED_OVER:
        return
    try:
        children = sorted(folder.iterdir())
    except OSError:
        return
    for child in children:
        if child.is_dir() and not child.is_symlink():
            yield from _walk(child, home)
        else:
            yield child


def _ours_beside(folder: Path, names: list[str]) -> Iterator[Path]:
    """Jamgate's files in a folder it shares with others: those named after `names`."""
    try:
        children = sorted(folder.iterdir())
    except OSError:
        return
    for child in children:
        bare = child.name.lstrip(".")
        if any(bare == name or bare.startswith((f"{name}-", f"{name}.")) for name in names):
            yield child


def loose_paths(home: Path, store_file: Path | None = None,
                log_file: Path | None = None) -> list[tuple[Path, int]]:
    """Every Jamgate folder or file another user may read, write or enter, with its mode."""
    seen: dict[Path, int] = {}

    def consider(path: Path) -> None:
        try:
            mode = path.lstat().st_mode
        except OSError:
            return
        if stat.S_ISLNK(mode):
            return
        if is_loose(mode):
            seen.setdefault(path, stat.S_IMODE(mode))

    if home.is_dir():
        for path in _walk(home, home):
            consider(path)
    for beside, names in ((store_file, _store_names(store_file)), (log_file, _log_names(log_file))):
        if beside is None or _under(beside, home):
            continue
        for path in _ours_beside(beside.parent, names):
            consider(path)
    return sorted(seen.items())


def _store_names(store_file: Path | None) -> list[str]:
    if store_file is None:
        return []
    return [store_file.name, f"{store_file.stem}.oauth.json"]


def _log_names(log_file: Path | None) -> list[str]:
    return [] if log_file is None else [log_file.name]


def _under(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
    except (ValueError, OSError):
        return False
    return True


def permission_checks(home: Path, store_file: Path | None = None,
                      log_file: Path | None = None) -> list[Check]:
    """One `ok`, or one `warning` naming the loose paths and the fix."""
    if os.name == "nt":
        return [("ok", "permissions: not checked on Windows (no POSIX modes)")]
    found = loose_paths(home, store_file, log_file)
    if not found:
        return [("ok", f"permissions: {home} and Jamgate's files are private to this user "
                       "(folders 0700, files 0600)")]
    shown = ", ".join(f"{path} ({mode:04o})" for path, mode in found[:SHOWN])
    more = f" and {len(found) - SHOWN} more" if len(found) > SHOWN else ""
    folders = [str(p) for p, _ in found if p.is_dir()]
    files = [str(p) for p, _ in found if not p.is_dir()]
    fixes = []
    if folders:
        fixes.append(f"chmod 700 {' '.join(_quote(f) for f in folders[:SHOWN])}")
    if files:
        fixes.append(f"chmod 600 {' '.join(_quote(f) for f in files[:SHOWN])}")
    return [("warning", f"permissions: other users may read Jamgate's data: {shown}{more}. "
                        f"Memories, the gate log and OAuth state are private; fix with "
                        f"`{' && '.join(fixes)}`")]


def _quote(path: str) -> str:
    return shlex.quote(path)


@hookimpl
def jamgate_doctor(app: Application) -> list[Check]:
    store_dir = store_dir_of(app.store)
    store_file = Path(app.store.location()) if store_dir is not None else None
    log_file = app.settings.gate_log_path(app.store_dir())
    return permission_checks(app.settings.home, store_file, log_file)
