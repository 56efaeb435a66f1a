"""A large read-only word table in a tenth of a set's memory (D-235).

The first-name table (27,000 names) and the BIP-39 wordlists (23,000 words) are read on first
use and then only asked whether a word is in them. As a frozenset of str (or a dict of str to
a mask) each word costs ~140 bytes: its string object and its slot. `WordTable` keeps only
each word's 64-bit hash in one sorted array and its value in a second, ~12 bytes a word, with
the start of each of 4,096 buckets of hashes: a look-up is a binary search over a few entries
(~0.2 µs, against ~0.02 µs for a set). The callers look up few words a text: the capitalised
ones (names), one probe in twelve (seed phrases).

The hash is Python's own, of the word's UTF-8 bytes (fixed for the life of the process): not
of the str itself, whose hash reads its internal bytes, so "of" (one byte a character) and
"景" (two) hash alike. Two different words share a 64-bit hash with odds of about one in
10^15 per look-up, the only way an answer could differ from the set's.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterable

_BITS = 12
_BUCKETS = 1 << _BITS
_SHIFT = 64 - _BITS


def _key(word: str) -> int:
    return hash(word.encode("utf-8", "surrogatepass"))


def _bucket_floor(bucket: int) -> int:
    """The smallest signed 64-bit hash in `bucket` (buckets ordered as the hashes are)."""
    return (bucket - _BUCKETS // 2) << _SHIFT


class WordTable:
    """Words, each with a small non-negative value (1 for a plain set of words)."""

    __slots__ = ("_hashes", "_starts", "_values")

    def __init__(self, words: Iterable[str] | Iterable[tuple[str, int]]) -> None:
        """From words (each worth 1) or (word, value) pairs, a word's values OR-ed. Filled
        a word at a time: no set or dict of every word is ever held, whose small objects
        would leave the memory they were freed from fragmented."""
        keys, values = array("q"), array("I")
        for item in words:
            word, value = (item, 1) if isinstance(item, str) else item
            keys.append(_key(word))
            values.append(value)
        order = sorted(range(len(keys)), key=keys.__getitem__)
        self._hashes, self._values = array("q"), array("I")
        for at in order:
            key = keys[at]
            if self._hashes and self._hashes[-1] == key:
                self._values[-1] |= values[at]
            else:
                self._hashes.append(key)
                self._values.append(values[at])
        del order, keys, values
        # where each bucket of hashes (their top bits) starts: a search spans a few entries
        self._starts = array("I", (bisect_left(self._hashes, _bucket_floor(b))
                                   for b in range(_BUCKETS)))
        self._starts.append(len(self._hashes))

    def get(self, word: str, default: int = 0) -> int:
        """The word's value, or `default` when it is not in the table."""
        key = _key(word)
        bucket = (key >> _SHIFT) + _BUCKETS // 2
        hashes, end = self._hashes, self._starts[bucket + 1]
        at = bisect_left(hashes, key, self._starts[bucket], end)
        if at < end and hashes[at] == key:
            return self._values[at]
        return default

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self.get(word, -1) != -1

    def __len__(self) -> int:
        return len(self._hashes)

    def __bool__(self) -> bool:
        return bool(self._hashes)
