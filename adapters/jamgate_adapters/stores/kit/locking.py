"""The cross-process lock of the JSON file store, compatible with the predecessor's.

The lock is `<store>.lock`, created exclusively and holding the epoch milliseconds of its
creation. A lock is stale after 30 s: judged by its body when that starts with a positive
number, by its mtime when the body is empty or not a number (the predecessor's window between
create and write), and never when it has vanished. A stale lock is stolen; a live one is waited
for, retrying every 25 ms, until the deadline — then the caller gets `StoreUnavailable`, never
a write without the lock. Only the lock this acquisition created is ever released. Threads of
one process queue on a per-path `threading.Lock` first.

Beyond the predecessor: the body is written to a private file that is hard-linked into place
(as exclusive as `O_CREAT|O_EXCL`, and the lock is never seen empty), and the holder keeps an
advisory `flock` on it and says so in the body (`<epoch ms> pid=<pid> flock`). A lock left by
a killed Jamgate process is therefore taken at once (its flock died with it) instead of after
30 s. The predecessor reads that body as non-numeric and judges it by mtime: the same 30 s rule.

A lock and its private files are created 0600. A process killed between creating its private
file and removing it, or while moving a stale lock aside, leaves `.<lock>.<hex>` or
`<lock>.stale-<hex>` behind; `sweep_debris` removes those older than the stale age (the file
store does on open).
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: the 30 s rule alone
    fcntl = None  # type: ignore[assignment]

from jamgate_core.errors import StoreUnavailable
from jamgate_core.files import PRIVATE_FILE_MODE

STALE_AFTER_SECONDS = 30.0
RETRY_SECONDS = 0.025

_THREAD_LOCKS: dict[str, threading.Lock] = {}
_THREAD_LOCKS_GUARD = threading.Lock()


def lock_path_for(store: Path) -> Path:
    """`<store>.lock`, beside the store."""
    return store.with_name(store.name + ".lock")


def _thread_lock(path: Path) -> threading.Lock:
    key = os.path.realpath(path)
    with _THREAD_LOCKS_GUARD:
        return _THREAD_LOCKS.setdefault(key, threading.Lock())


def _now_ms() -> float:
    return time.time() * 1000


def _read_body(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def is_stale(path: Path, stale_after: float = STALE_AFTER_SECONDS) -> bool:
    """Whether the lock at `path` may be stolen by age (a vanished lock is not stale)."""
    body = _read_body(path)
    try:
        mtime_ms = path.stat().st_mtime * 1000
    except FileNotFoundError:
        return False
    if body is None:
        return False
    token = body.split()[0] if body.split() else b""
    try:
        stamp = float(token.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        stamp = float("nan")
    if not (stamp > 0 and stamp != float("inf")):
        stamp = mtime_ms
    return _now_ms() - stamp > stale_after * 1000


def _exact_mode(fd: int) -> None:
    """0600 whatever the umask (not on Windows)."""
    if hasattr(os, "fchmod"):
        with contextlib.suppress(OSError):
            os.fchmod(fd, PRIVATE_FILE_MODE)


def sweep_debris(store: Path, stale_after: float = STALE_AFTER_SECONDS) -> list[Path]:
    """Delete the private and moved-aside files of `<store>.lock` that a killed process left,
    once they are older than `stale_after` (a live acquisition holds them for microseconds);
    the paths removed. The lock itself is left to `FileLock` (stolen when abandoned)."""
    lock = lock_path_for(store)
    debris = re.compile(rf"\.{re.escape(lock.name)}\.[0-9a-f]{{32}}|"
                        rf"{re.escape(lock.name)}\.stale-[0-9a-f]{{32}}")
    try:
        names = os.listdir(lock.parent)
    except OSError:
        return []
    gone = []
    cutoff = time.time() - stale_after
    for name in names:
        if debris.fullmatch(name) is None:
            continue
        path = lock.with_name(name)
        try:
            if os.lstat(path).st_mtime < cutoff:
                os.unlink(path)
                gone.append(path)
        except OSError:
            continue
    return gone


def _same_file(fd: int) -> Callable[[Path], bool]:
    def check(path: Path) -> bool:
        try:
            info, mine = os.stat(path), os.fstat(fd)
        except OSError:
            return False
        return (info.st_dev, info.st_ino) == (mine.st_dev, mine.st_ino)
    return check


class FileLock:
    """One acquisition of `<store>.lock`; use as a context manager."""

    def __init__(self, store: Path, timeout: float,
                 stale_after: float = STALE_AFTER_SECONDS) -> None:
        self.path = lock_path_for(store)
        self.timeout, self.stale_after = timeout, stale_after
        self._fd: int | None = None
        self._thread = _thread_lock(self.path)

    def __enter__(self) -> FileLock:
        deadline = time.monotonic() + self.timeout
        if not self._thread.acquire(timeout=max(self.timeout, 0.0)):
            raise self._timed_out()
        try:
            self._acquire(deadline)
        except BaseException:
            self._thread.release()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self._release()
        finally:
            self._thread.release()

    def _acquire(self, deadline: float) -> None:
        while True:
            try:
                fd = self._create()
            except OSError as exc:
                raise StoreUnavailable(
                    f"cannot create the lock file {self.path} ({exc.strerror or exc}). The "
                    "store's folder must be writable by this user (a read-only folder or disk, "
                    "or a service running as another user?); nothing was changed."
                ) from exc
            if fd is not None:
                self._fd = fd
                return
            if self._steal_if_abandoned() or self._steal_if_stale():
                continue
            if time.monotonic() >= deadline:
                raise self._timed_out()
            time.sleep(RETRY_SECONDS)

    def _create(self) -> int | None:
        """Create the lock, its body already written (None when it exists).

        The body is written to a private file that is then hard-linked into place, so the
        lock never appears empty; where hard links are not supported it is created in place.
        """
        private = self.path.with_name(f".{self.path.name}.{uuid.uuid4().hex}")
        fd = os.open(private, os.O_CREAT | os.O_EXCL | os.O_RDWR, PRIVATE_FILE_MODE)
        try:
            _exact_mode(fd)
            self._mark(fd)
            try:
                os.link(private, self.path)
            except FileExistsError:
                os.close(fd)
                return None
            except OSError:
                os.close(fd)
                return self._create_in_place()
            return fd
        finally:
            with contextlib.suppress(OSError):
                os.unlink(private)

    def _create_in_place(self) -> int | None:
        try:
            fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_RDWR, PRIVATE_FILE_MODE)
        except FileExistsError:
            return None
        _exact_mode(fd)
        self._mark(fd)
        return fd

    @staticmethod
    def _mark(fd: int) -> None:
        """Write the epoch ms (and, when this process holds the flock, say so)."""
        body = str(int(_now_ms()))
        try:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                body += f" pid={os.getpid()} flock"
            os.write(fd, body.encode("ascii"))
        except OSError:
            pass  # the lock holds without its body: others judge it by its mtime

    def _move_aside(self, still_right: Callable[[Path], bool]) -> bool:
        """Rename the lock away and delete it; put it back if it turns out to be a new one."""
        aside = self.path.with_name(f"{self.path.name}.stale-{uuid.uuid4().hex}")
        try:
            os.rename(self.path, aside)
        except FileNotFoundError:
            return True
        except OSError:
            return False
        if not still_right(aside):
            # It was replaced between our check and the rename: restore the new holder's lock.
            with contextlib.suppress(OSError):
                os.link(aside, self.path)
        with contextlib.suppress(OSError):
            os.unlink(aside)
        return True

    def _steal_if_stale(self) -> bool:
        if not is_stale(self.path, self.stale_after):
            return False
        return self._move_aside(lambda aside: is_stale(aside, self.stale_after))

    def _steal_if_abandoned(self) -> bool:
        """Steal a lock whose Jamgate holder died: its body is marked but nobody holds its flock."""
        if fcntl is None:
            return False
        try:
            fd = os.open(self.path, os.O_RDONLY)
        except OSError:
            return False
        try:
            body = os.read(fd, 256)
            if not body.rstrip().endswith(b"flock"):
                return False
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return False
            return self._move_aside(_same_file(fd))
        finally:
            os.close(fd)

    def _release(self) -> None:
        """Delete the lock only if it is still the one this acquisition created."""
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        try:
            if _same_file(fd)(self.path):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(self.path)
        finally:
            os.close(fd)

    def _timed_out(self) -> StoreUnavailable:
        return StoreUnavailable(
            f"the store is locked by another process: {self.path} was held for more than "
            f"{self.timeout:g} s. Nothing was changed; try again. If no other Jamgate is "
            f"running, the lock is left over from a crash: delete {self.path} (it is also "
            f"ignored once it is {self.stale_after:g} s old)."
        )
