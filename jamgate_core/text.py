"""The one reading of text that stages and stores share.

- `fold(text)`: NFKD, combining marks dropped, NFC, `casefold()` — so `Straße` and `strasse`,
  `ΣΟΦΟΣ` and `σοφος`, `ﬁle` and `file`, `İstanbul` and `istanbul` are one word to the gate
  and to every store index.
- `runs(text)`: maximal runs of letters and numbers (Unicode L* and N*), after NFC; combining
  marks (M*) continue the run they follow, so Devanagari or Thai words stay whole; anything else
  (spaces, punctuation, `_`, format characters such as ZWNJ) separates.
- `words(text)`: the runs, with each Han, Hiragana or Katakana character a word of its own, so
  Chinese and Japanese written without spaces still count as several words. Korean (Hangul)
  uses spaces and stays whole-word.
- `is_cjk(char)`: the characters `words` splits one by one (the iteration marks 々〆〇
  included).
- `sentences(text)`: sentences and lines; abbreviations and decimals do not split.

Nothing here is case-folded except by `fold`: callers fold first where case must not matter
(`words(fold(text))`). A change to `fold` or `runs` changes what keyword indexes hold, so it
is a store migration.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_CJK_RANGES: tuple[tuple[int, int], ...] = (
    (0x3005, 0x3007),  # 々 〆 〇
    (0x3040, 0x309F),  # Hiragana
    (0x30A0, 0x30FF),  # Katakana
    (0x31F0, 0x31FF),  # Katakana phonetic extensions
    (0x3400, 0x4DBF),  # Han extension A
    (0x4E00, 0x9FFF),  # Han
    (0xF900, 0xFAFF),  # Han compatibility
    (0xFF66, 0xFF9F),  # half-width Katakana
    (0x20000, 0x3FFFF),  # Han extensions B onwards
)

# Words recall ignores (the predecessor's 45).
STOPWORDS: frozenset[str] = frozenset({
    "a", "an", "and", "are", "as", "at", "be", "by", "do", "does", "for", "from", "has", "have",
    "how", "i", "in", "is", "it", "its", "me", "my", "of", "on", "or", "so", "that", "the",
    "their", "them", "they", "this", "to", "was", "were", "what", "when", "where", "which",
    "who", "why", "with", "you", "your",
})

_ASCII_RUN = re.compile(r"[A-Za-z0-9]+")
_SENTENCE_END = re.compile(
    "(?<=[.!?\u061f\u3002\uff01\uff1f\u037e])(?:\\s+|(?<=[\u3002\uff01\uff1f])|$)"
)
_ABBREVIATION = re.compile(
    r"\b(?:mr|mrs|ms|dr|prof|sr|jr|st|vs|etc|e\.g|i\.e|approx|inc|ltd|co)\.$",
    re.IGNORECASE,
)


def fold(text: str) -> str:
    """Case- and diacritic-folded text: `Café Müller` → `cafe muller`, `Straße` → `strasse`."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(c for c in decomposed if not unicodedata.category(c).startswith("M"))
    return unicodedata.normalize("NFC", stripped).casefold()


def is_cjk(char: str) -> bool:
    """A Han, Hiragana or Katakana character (a word of its own in `words`)."""
    point = ord(char)
    return point >= 0x3005 and any(low <= point <= high for low, high in _CJK_RANGES)


def runs(text: str) -> list[str]:
    """Maximal runs of letters and numbers, combining marks continuing a run (unfolded)."""
    if text.isascii():
        return _ASCII_RUN.findall(text)
    out: list[str] = []
    current: list[str] = []
    for char in unicodedata.normalize("NFC", text):
        major = unicodedata.category(char)[0]
        if major in "LN" or (major == "M" and current):
            current.append(char)
        elif current:
            out.append("".join(current))
            current = []
    if current:
        out.append("".join(current))
    return out


def words(text: str) -> list[str]:
    """The runs of `text`, each CJK character split off as a word of its own (unfolded)."""
    if text.isascii():
        return _ASCII_RUN.findall(text)
    out: list[str] = []
    for run in runs(text):
        if not any(is_cjk(char) for char in run):
            out.append(run)
            continue
        current = ""
        for char in run:
            if is_cjk(char):
                if current:
                    out.append(current)
                    current = ""
                out.append(char)
            else:
                current += char
        if current:
            out.append(current)
    return out


@lru_cache(maxsize=512)
def tokens(text: str) -> tuple[str, ...]:
    """Lowercased words (memoised: several stages ask for the same text)."""
    return tuple(words(text.lower()))


def folded_words(text: str) -> list[str]:
    """The words of the folded text: what keyword matching compares."""
    return words(fold(text))


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


def script_runs(word: str) -> list[tuple[bool, str]]:
    """A word split into maximal CJK and non-CJK runs, as (is_cjk, run)."""
    found: list[tuple[bool, str]] = []
    for char in word:
        cjk = is_cjk(char)
        if found and found[-1][0] == cjk:
            found[-1] = (cjk, found[-1][1] + char)
        else:
            found.append((cjk, char))
    return found


_SUFFIXES = ("ing", "ed", "es", "s", "ly")


def stem(word: str) -> str:
    """A light, language-blind suffix strip for Latin-script words (`painted` → `paint`)."""
    for _ in range(2 if word.isascii() else 0):  # `paintings` → `painting` → `paint`
        suffix = next((s for s in _SUFFIXES if len(word) > len(s) + 2 and word.endswith(s)), "")
        if not suffix:
            break
        word = word[: -len(suffix)]
    return word
