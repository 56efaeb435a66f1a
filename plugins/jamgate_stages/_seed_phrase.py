"""BIP-39 seed phrases: a run of ≥12 words that all come from one BIP-39 wordlist.

The wordlists are those the `mnemonic` package ships (English, Chinese simplified and
traditional, Czech, French, Italian, Japanese, Korean, Portuguese, Russian, Spanish, Turkish),
read on first use. Words may be numbered ("1. abandon 2. ability"), separated by spaces,
commas, newlines or ideographic spaces; Latin-script words also match without their accents.
Without the package installed nothing matches. The checksum is not verified: a phrase typed
with one wrong word is still a seed phrase.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterator
from importlib import resources
from typing import TYPE_CHECKING

from jamgate_stages._lazy_re import lazy_compile
from jamgate_stages._word_table import WordTable

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

MIN_WORDS = 12
_LATIN = frozenset({"english", "french", "italian", "spanish", "portuguese", "czech", "turkish"})
_SPLIT = lazy_compile(r"[\s,;:|·・、，：；（）()]+")
_NUMBERING = lazy_compile(r"^(?:#?\d{1,2}[.):-]?|\(\d{1,2}\))$")
_NUMBER_PREFIX = lazy_compile(r"^\d{1,2}[.)]")
_EDGE = "\"'`()[]{}<>:.!?«»“”‘’（）「」"
_NUMBERED = -1  # a numbering token ("1.", "(2)"): neither breaks nor extends a run


def _strip_marks(word: str) -> str:
    return "".join(c for c in word if unicodedata.category(c) != "Mn")


@functools.cache
def wordlists() -> tuple[WordTable, int]:
    """Every wordlist word (NFKD, case-folded) → a bit mask of the lists holding it, and the
    mask of the Latin-script lists (whose words are also stored without accents). Kept as a
    compact table, filled a word at a time (D-235: 0.3 MB, not 2.9)."""
    files, latin = _files()
    return WordTable(_entries(files)), latin


def read_wordlists() -> tuple[dict[str, int], int]:
    """`wordlists` as a dict, read from the `mnemonic` package's files at each call."""
    files, latin = _files()
    masks: dict[str, int] = {}
    for word, flag in _entries(files):
        masks[word] = masks.get(word, 0) | flag
    return masks, latin


def _files() -> tuple[list[tuple[int, bool, Traversable]], int]:
    """(bit flag, Latin script, file) of each wordlist, and the mask of the Latin ones."""
    try:
        folder = resources.files("mnemonic") / "wordlist"
        names = sorted(p.name for p in folder.iterdir() if p.name.endswith(".txt"))
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError):
        return [], 0
    files = [(1 << bit, name.removesuffix(".txt") in _LATIN, folder / name)
             for bit, name in enumerate(names)]
    return files, sum(flag for flag, latin, _ in files if latin)


def _entries(files: list[tuple[int, bool, Traversable]]) -> Iterator[tuple[str, int]]:
    """(word, its list's flag) for every word, and its accentless form in a Latin list."""
    for flag, latin, path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            word = unicodedata.normalize("NFKD", line.strip().casefold())
            if word:
                yield word, flag
                if latin:
                    yield _strip_marks(word), flag


def _mask(token: str, masks: WordTable, latin: int) -> int:
    token = token.strip(_EDGE)
    if not token:
        return 0
    if token.isascii():
        found = masks.get(token.lower())
        if found:
            return found
    if token[0].isdigit():
        if _NUMBERING.match(token):
            return _NUMBERED
        token = _NUMBER_PREFIX.sub("", token)
    elif token[0] in "#(" and _NUMBERING.match(token):
        return _NUMBERED
    if token.isascii():
        return masks.get(token.lower(), 0)
    word = unicodedata.normalize("NFKD", token.casefold())
    return masks.get(word, 0) | (masks.get(_strip_marks(word), 0) & latin)


def find_seed_phrase(text: str, min_words: int = MIN_WORDS) -> bool:
    """Whether `text` holds `min_words` or more consecutive words of one BIP-39 wordlist.

    Any such run covers one of every `min_words`-th token, so only those are probed and a
    run is grown from a probe that is a wordlist word (or a numbering token).
    """
    if sum(text.count(sep) for sep in (" ", "\n", "\u3000", ",")) < min_words - 1:
        return False
    masks, latin = wordlists()
    tokens = _SPLIT.split(text)
    if not masks or len(tokens) < min_words:
        return False
    probe = min_words - 1
    while probe < len(tokens):
        mask = _mask(tokens[probe], masks, latin)
        if mask and _run_length(tokens, probe, mask, masks, latin) >= min_words:
            return True
        probe += min_words
    return False


def _run_length(tokens: list[str], probe: int, mask: int, masks: WordTable,
                latin: int) -> int:
    """How many wordlist words of one list the run through `tokens[probe]` holds."""
    common = mask if mask != _NUMBERED else -1
    count = int(mask != _NUMBERED)
    for step in (-1, 1):
        index = probe + step
        while 0 <= index < len(tokens):
            found = _mask(tokens[index], masks, latin)
            if found != _NUMBERED:
                if not found & common:
                    break
                common &= found
                count += 1
            index += step
    return count
