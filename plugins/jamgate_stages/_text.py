"""Shared text helpers for the stateless stages (and recall): one Unicode word splitter.

`words()` splits on every character that is neither a letter nor a number (Unicode categories
L* and N*), after NFC. Combining marks (M*) continue the word they follow, so Devanagari or Thai
words stay whole; format characters such as ZWNJ separate, so Persian "می‌کند" is two words.
Han, Hiragana and Katakana characters are one token each, so Chinese and Japanese text without
spaces still counts as several words ("ジャムはiPhone" → ジ, ャ, ム, は, iphone). Korean (Hangul)
uses spaces and is left whole-word. Nothing is case-folded here: `tokens()` lowercases and
`fold()` also strips diacritics (for recall).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache


def wordset(text: str) -> frozenset[str]:
    """A set of words written as one whitespace-separated string."""
    return frozenset(text.split())


_CJK_RANGES: tuple[tuple[int, int], ...] = (
    (0x3005, 0x3007),  # 々 〆 〇
    (0x3040, 0x309F),  # Hiragana
    (0x30A0, 0x30FF),  # Katakana
    (0x31F0, 0x31FF),  # Katakana phonetic extensions
    (0x3400, 0x4DBF),  # Han extension A
    (0x4E00, 0x9FFF),  # Han
    (0xF900, 0xFAFF),  # Han compatibility
    (0xFF66, 0xFF9F),  # half-width Katakana
    (0x20000, 0x3134F),  # Han extensions B..G
)

# Function words that carry no claim (the predecessor's 23 filler words).
FILLER: frozenset[str] = wordset(
    """a an the and or but so of to in on at is are was were be it its this that there here"""
)
# Test and template words that stand in for content.
PLACEHOLDERS: frozenset[str] = wordset(
    """test testing tests asdf asdfasdf qwerty foo bar baz blah xxx yyy zzz abc 123 hmm hmmm dummy
    sample placeholder lorem ipsum todo tbd na none null undefined whatever stuff thing things"""
)
# Words recall ignores (the predecessor's 45).
STOPWORDS: frozenset[str] = wordset(
    """a an and are as at be by do does for from has have how i in is it its me my of on or so that
    the their them they this to was were what when where which who why with you your"""
)

_ASCII_WORD = re.compile(r"[A-Za-z0-9]+")
_SENTENCE_END = re.compile(
    "(?<=[.!?\u061f\u3002\uff01\uff1f\u037e])(?:\\s+|(?<=[\u3002\uff01\uff1f])|$)"
)
_ABBREVIATION = re.compile(
    r"\b(?:mr|mrs|ms|dr|prof|sr|jr|st|vs|etc|e\.g|i\.e|approx|inc|ltd|co)\.$",
    re.IGNORECASE,
)


def is_cjk(char: str) -> bool:
    """A Han, Hiragana or Katakana character (segmented one token per character)."""
    point = ord(char)
    return point >= 0x3005 and any(low <= point <= high for low, high in _CJK_RANGES)


def is_word_char(char: str) -> bool:
    """A letter or a number (Unicode categories L* and N*)."""
    return unicodedata.category(char)[0] in "LN"


def words(text: str) -> list[str]:
    """The words of `text`, unfolded (see the module docstring for the rules)."""
    if text.isascii():
        return _ASCII_WORD.findall(text)
    out: list[str] = []
    current: list[str] = []
    for char in unicodedata.normalize("NFC", text):
        category = unicodedata.category(char)
        if category[0] in "LN":
            if is_cjk(char):
                if current:
                    out.append("".join(current))
                    current = []
                out.append(char)
            else:
                current.append(char)
        elif category[0] == "M" and current:
            current.append(char)
        elif current:
            out.append("".join(current))
            current = []
    if current:
        out.append("".join(current))
    return out


@lru_cache(maxsize=512)
def tokens(text: str) -> tuple[str, ...]:
    """Lowercased words: what the junk rules count (memoised: several stages ask)."""
    return tuple(words(text.lower()))


def fold(text: str) -> str:
    """Diacritics removed and lowercased: NFKD, drop marks, NFC, `lower()` (not casefold)."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(c for c in decomposed if not unicodedata.category(c).startswith("M"))
    return unicodedata.normalize("NFC", stripped).lower()


def tokenize(text: str) -> list[str]:
    """Folded words: what recall compares."""
    return words(fold(text))


def has_script(text: str, script_prefix: str) -> bool:
    """Whether any character's Unicode name starts with `script_prefix` (e.g. "GREEK")."""
    return any(unicodedata.name(c, "").startswith(script_prefix) for c in text if c.isalpha())


def char_classes(value: str) -> int:
    """How many of lowercase, uppercase, digit and anything else occur in `value`."""
    kinds = set()
    for char in value:
        if char.islower():
            kinds.add("lower")
        elif char.isupper():
            kinds.add("upper")
        elif char.isdigit():
            kinds.add("digit")
        else:
            kinds.add("other")
    return len(kinds)


def entropy(value: str) -> float:
    """Shannon entropy of `value` in bits per character (over code points)."""
    if not value:
        return 0.0
    counts = Counter(value)
    total = len(value)
    return -sum(n / total * math.log2(n / total) for n in counts.values())


def sentences(text: str) -> list[str]:
    """`text` split into sentences and lines (abbreviations and decimals do not split)."""
    out: list[str] = []
    for line in text.splitlines():
        start = 0
        for match in _SENTENCE_END.finditer(line):
            piece = line[start:match.start()].strip()
            if not piece or _ABBREVIATION.search(piece):
                continue
            out.append(piece)
            start = match.end()
        tail = line[start:].strip()
        if tail:
            out.append(tail)
    return out


def meaningful(items: Iterable[str]) -> list[str]:
    """Tokens that are neither filler nor placeholders."""
    return [t for t in items if t not in FILLER and t not in PLACEHOLDERS]
