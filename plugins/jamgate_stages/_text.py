"""Text helpers only the stages use: word lists, character statistics, script checks.

The reading of text that stages share with stores (`fold`, `words`, `tokens`, `is_cjk`,
`sentences`) is `jamgate_core.text`, re-exported here for the stages' convenience.
"""

from __future__ import annotations

import math
import unicodedata
from collections import Counter
from collections.abc import Iterable

from jamgate_core import fold, is_cjk, sentences, tokens, words

__all__ = [
    "FILLER",
    "PLACEHOLDERS",
    "char_classes",
    "entropy",
    "fold",
    "has_script",
    "is_cjk",
    "meaningful",
    "sentences",
    "tokens",
    "words",
    "wordset",
]


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
