"""Language-independent shape features of a candidate for the gate's classifier (D-215).

Where a category shows in a text's form rather than its words, the form is the same in every
language: a question or a pleasantry shows at the text's edges (a final particle, a last word,
the closing punctuation: "…かな", "… mı", "… ไหม", "…!"), a profile dump or a long assistant
reply in its structure (bulleted or `Label: value` lines, markdown emphasis, code, a table, a
JSON or YAML block), a mixed-language line in the scripts it uses. These are hashed features
weighed by training, never rules: the edges are learned per language from examples, the
structure counts and script classes are shared by all of them.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from jamgate_stages._lazy_re import lazy_compile

_CLOSING = " .。!！?？;；:：…\"'»”」』)）]*_~"
_BULLET = lazy_compile(r"^\s*(?:[-*•·▪◦–]|\d{1,2}[.)]|#{1,6})\s")
_FIELD = lazy_compile(r"^\s*[-*•]?\s*[^\s:：|]{1,24}(?:\s[^\s:：|]{1,24}){0,2}\s*[:：]\s*\S")
_MARKUP = (("bold", "**"), ("code", "`"), ("fence", "```"), ("table", "|---"),
           ("json", '": '), ("arrow", "→"))


def _bucket(value: int, edges: tuple[int, ...]) -> int:
    return sum(value >= edge for edge in edges)


@lru_cache(maxsize=1 << 14)
def _char_class(char: str) -> str:
    """The script of a letter, as the first word of its Unicode name (LATIN, CYRILLIC, CJK,
    HIRAGANA, HANGUL, ARABIC, …); `SYMBOL` for an emoji or other symbol; "" otherwise."""
    if char.isalpha():
        try:
            return unicodedata.name(char).split(" ", 1)[0]
        except ValueError:
            return "OTHER"
    return "SYMBOL" if unicodedata.category(char) == "So" else ""


def _closing(text: str) -> str:
    """The kind of the text's last visible character: a question or exclamation mark, a
    full stop, an emoji or symbol, or a letter or digit (no closing punctuation)."""
    for char in reversed(text):
        if char.isspace():
            continue
        if char in "?？؟":
            return "question"
        if char in "!！":
            return "exclamation"
        if char in ".。।":
            return "stop"
        category = unicodedata.category(char)
        return "symbol" if category.startswith("S") else category[0]
    return "none"


def shape_features(text: str, folded: str, tokens: list[str]) -> list[str]:
    """The named shape features of one candidate (`folded` and `tokens` as features.py reads
    them)."""
    core = folded.rstrip(_CLOSING)
    names = [f"end:{core[-n:]}" for n in (1, 2, 3) if len(core) >= n]
    if tokens:
        names.append(f"last:{tokens[-1]}")
    names.append(f"close:{_closing(text)}")
    lines = [line for line in text.splitlines() if line.strip()]
    names.append(f"bullets:{_bucket(sum(bool(_BULLET.match(x)) for x in lines), (1, 2, 4, 6))}")
    names.append(f"fields:{_bucket(sum(bool(_FIELD.match(x)) for x in lines), (1, 2, 4, 6))}")
    names += [f"markup:{name}" for name, mark in _MARKUP if mark in text]
    classes = {_char_class(char) for char in set(text[:400])}
    scripts = classes - {"", "SYMBOL"}
    names += [f"script:{name}" for name in sorted(scripts)]
    names.append(f"scripts:{min(len(scripts), 3)}")
    if "SYMBOL" in classes:
        names.append("emoji")
    return names
