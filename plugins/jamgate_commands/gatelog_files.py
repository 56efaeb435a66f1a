"""The gate log's files: the lock, the descriptors kept open between lines, and the erasure
of a forgotten record's text from lines already written (see `gatelog` for the rules)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jamgate_core.files import fsync_dir, open_private
from jamgate_core.models import text_key

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: rotation goes unlocked
    fcntl = None  # type: ignore[assignment]

if TYPE_CHECKING:
    from jamgate_core.models import MemoryRecord

ELLIPSIS = "…"


def encode(entry: dict[str, Any]) -> bytes:
    """One log line: compact JSON, its newline, UTF-8 (lone surrogates escaped)."""
    line = json.dumps(entry, ensure_ascii=False, separators=(",", ":")) + "\n"
    return line.encode("utf-8", "backslashreplace")

@contextlib.contextmanager
def locked(lock_path: Path, *, shared: bool = False) -> Iterator[None]:
    fd = open_private(lock_path, os.O_RDWR)
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


# ---- erasing a forgotten record's text ----------------------------------------------------

_MIN_CUT_PREFIX = 32  # a cut text (ending in `…`) matches by a prefix at least this long


def _same_text(logged: str, record_key: str) -> bool:
    """Whether a logged text is the record's (equal text keys, or a cut prefix of it)."""
    key = text_key(logged)
    if key == record_key:
        return True
    if logged.endswith(ELLIPSIS):
        cut = text_key(logged[: -len(ELLIPSIS)])
        return len(cut) >= _MIN_CUT_PREFIX and record_key.startswith(cut)
    return False


def erased_line(raw: bytes, record: MemoryRecord) -> bytes | None:
    """The line with the record's text erased, b"" to drop it, or None when it keeps nothing
    of the record's text. A line about the record (its id), or about no record with the
    record's text, loses its `text`; an unreadable line holding the text is dropped."""
    try:
        entry = json.loads(raw)
    except ValueError:
        entry = None
    if not isinstance(entry, dict):
        needle = json.dumps(record.text, ensure_ascii=False)[1:-1].encode(
            "utf-8", "backslashreplace")[:200]
        return b"" if needle and needle in raw else None
    text = entry.get("text")
    if not isinstance(text, str):
        return None
    about = entry.get("id")
    if about != record.id and (about is not None or not _same_text(text, text_key(record.text))):
        return None
    kept = {key: value for key, value in entry.items() if key != "text"}
    return encode({**kept, "erased": True})


def _temp_for(path: Path) -> Path:
    return path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")


def orphaned_temps(path: Path) -> list[Path]:
    pattern = re.compile(rf"\.{re.escape(path.name)}\.[0-9a-f]{{32}}\.tmp")
    try:
        return [path.with_name(n) for n in os.listdir(path.parent) if pattern.fullmatch(n)]
    except OSError:
        return []


def _in_place(raw: bytes, new: bytes) -> bytes | None:
    """`new` (b"" = drop) padded with spaces to the length of `raw`, its line ending kept, or
    None when it does not fit. JSON readers skip the spaces after the object; a line of
    spaces alone is skipped like a torn one."""
    ending = raw[len(raw.rstrip(b"\r\n")):]
    room = len(raw) - len(ending)
    body = new.rstrip(b"\r\n")
    if len(body) > room:
        return None
    return body + b" " * (room - len(body)) + ending


def rewrite(path: Path, record: MemoryRecord) -> int:
    """Erase the record's text from one file; lines changed. Each changed line is
    overwritten where it lies, padded to its old length (so the text's own bytes are
    overwritten, and nothing else moves); when one would not fit, the file is rewritten
    whole and replaced atomically instead. The caller holds the exclusive lock."""
    try:
        fd = os.open(path, os.O_RDWR)
    except FileNotFoundError:
        return 0
    try:
        chunks = []
        while block := os.read(fd, 1 << 20):
            chunks.append(block)
        lines = b"".join(chunks).splitlines(keepends=True)
        edits: list[tuple[int, bytes, bytes]] = []  # (offset, old line, new line)
        offset = 0
        for raw in lines:
            new = erased_line(raw, record)
            if new is not None:
                edits.append((offset, raw, new))
            offset += len(raw)
        if not edits:
            return 0
        padded = [_in_place(raw, new) for _, raw, new in edits]
        if all(line is not None for line in padded):
            for (at, _, _), line in zip(edits, padded, strict=True):
                assert line is not None
                os.pwrite(fd, line, at)
            os.fsync(fd)
            return len(edits)
    finally:
        os.close(fd)
    replaced = {at: new for at, _, new in edits}
    out, offset = [], 0
    for raw in lines:
        out.append(replaced.get(offset, raw))
        offset += len(raw)
    temp = _temp_for(path)
    try:
        fd = open_private(temp, os.O_WRONLY | os.O_TRUNC)
        try:
            os.write(fd, b"".join(out))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    fsync_dir(path.parent)
    return len(edits)


class OpenLog:
    """The lock file and the log held open between appends (D-241): an append is then a
    shared lock, two stats and one write instead of opening both files again. The log is
    only appended to while it is still the file at the log's path (not rotated or replaced
    by an erasure, both done under the exclusive lock) and below its cap, in the process
    that opened it."""

    def __init__(self, lock_path: Path) -> None:
        self.pid = os.getpid()
        self.lock_fd = open_private(lock_path, os.O_RDWR)
        self.log_fd = -1

    @contextlib.contextmanager
    def shared(self) -> Iterator[None]:
        if fcntl is not None:
            fcntl.flock(self.lock_fd, fcntl.LOCK_SH)
        try:
            yield
        finally:
            if fcntl is not None:
                fcntl.flock(self.lock_fd, fcntl.LOCK_UN)

    def append(self, lines: bytes, path: Path, max_bytes: int) -> bool:
        """Append `lines` where the log is still this file and not full; False (nothing
        written) where it must be opened anew."""
        if self.pid != os.getpid() or self.log_fd < 0:
            return False
        with self.shared():
            try:
                current = os.stat(path)
            except FileNotFoundError:
                return False
            held = os.fstat(self.log_fd)
            if ((held.st_dev, held.st_ino) != (current.st_dev, current.st_ino)
                    or held.st_size >= max_bytes):
                return False
            os.write(self.log_fd, lines)
            return True

    def close(self) -> None:
        for fd in (self.log_fd, self.lock_fd):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self.log_fd = self.lock_fd = -1


