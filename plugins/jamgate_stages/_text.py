"""Text helpers only the stages use: word lists, character statistics, script checks.

The reading of text that stages share with stores (`fold`, `words`, `tokens`, `is_cjk`,
`sentences`) is `jamgate_core.text`, re-exported here for the stages' convenience.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from jamgate_core import fold, is_cjk, sentences, stem, tokens, words

__all__ = [
    "FILLER",
    "PLACEHOLDERS",
    "HintedPattern",
    "char_classes",
    "entropy",
    "fold",
    "has_script",
    "is_cjk",
    "meaningful",
    "reading",
    "sentences",
    "stem",
    "tokens",
    "words",
    "wordset",
]


# Typographic apostrophes (right and left single quotation marks, the modifier letter, the
# full-width one) read as the ASCII apostrophe the rules and the trained models were written for.
_APOSTROPHES = str.maketrans(dict.fromkeys("\u2019\u2018\u02bc\uff07", "'"))


def reading(text: str) -> str:
    """`text` as the rules read it: "I’m", "I‘m", "Iʼm" are "I'm" (the stored text is unchanged)."""
    return text if text.isascii() else text.translate(_APOSTROPHES)


def wordset(text: str) -> frozenset[str]:
    """A set of words written as one whitespace-separated string."""
    return frozenset(text.split())


# Function words that carry no claim (the predecessor's 23 filler words).
FILLER: frozenset[str] = wordset(
    """a an the and or but so of to in on at is are was were be it its this that there here"""
)
# Test and template words that stand in for content.
PLACEHOLDERS: frozenset[str] = wordset(
    """test testing tests asdf asdfasdf qwerty foo bar baz blah xxx yyy zzz abc 123 hmm hmmm dummy
    sample placeholder lorem ipsum todo tbd na none null undefined whatever stuff thing things"""
)


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


def meaningful(items: Iterable[str]) -> list[str]:
    """Tokens that are neither filler nor placeholders."""
    return [t for t in items if t not in FILLER and t not in PLACEHOLDERS]


@dataclass(frozen=True)
class HintedPattern:
    """A case-insensitive pattern and the lowercase ASCII strings one of which every match in
    an ASCII text contains: an ASCII text holding none of them is not searched at all.

    IGNORECASE turns off the regex engine's scan for a first character, so a search of a long
    alternation tries every alternative at every position; a substring test is ~50× cheaper.
    The result is the pattern's own for every text (only a text that cannot match is skipped):
    an ASCII character matches an ASCII letter ignoring case only as its other case, and no
    non-ASCII literal at all. Texts with any other character are always searched.
    """

    pattern: re.Pattern[str]
    hints: tuple[str, ...]

    def search(self, text: str) -> re.Match[str] | None:
        if text.isascii():
            lowered = text.lower()
            if not any(hint in lowered for hint in self.hints):
                return None
        return self.pattern.search(text)
