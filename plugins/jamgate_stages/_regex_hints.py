"""What an ASCII text must contain for a pattern to match in it, read from the pattern itself.

`_lazy_re` asks `ascii_hints(pattern, flags)` once, when it compiles a pattern: the answer is
a tuple of strings, one of which every match in an ASCII text contains (lowercased where the
pattern ignores case, to be looked for in the lowercased text), the empty tuple when no match
is possible in an ASCII text at all, or None when nothing short enough can be said. A text
holding none of them is not searched: the pattern's answer for it is "no match" whatever it
would do. Texts with a non-ASCII character are always searched.

The reading is conservative, so the strings are necessary, never sufficient: a run of
consecutive parts that can each match only a few known strings ("lives", "in|at") gives the
strings their concatenations can be; an alternation needs a string from every branch; a
repeat needs its body only if it must occur; zero-width parts (anchors, `\\b`, look-arounds)
are skipped (a look-around only removes matches); anything else (classes of many characters,
`.`, back-references, optional parts) ends a run. Ignoring case, a non-ASCII literal is
mapped to the ASCII character it can match (`ı` → `i`, `ſ` → `s`, `K` → `k`, `İ` → `i`) or,
where none, to no match in an ASCII text.
"""

from __future__ import annotations

import re
from itertools import product
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

_MAX_STRINGS = 64  # the most alternatives one run or one hint set may hold
_MAX_CLASS = 8  # a class of more characters than this ends a run
_MIN_LENGTH = 3  # shorter hints are in nearly every text: not worth a look
_ZERO_WIDTH = {sre.AT, sre.ASSERT, sre.ASSERT_NOT}


class _Info:
    """One part of a pattern: `exact`, the strings it can match (None: too many to list; an
    empty set: none in an ASCII text), and `needed`, strings one of which every match of it
    contains (None: nothing known)."""

    __slots__ = ("exact", "needed")

    def __init__(self, exact: frozenset[str] | None, needed: frozenset[str] | None) -> None:
        self.exact = exact
        self.needed = needed


_NOTHING = _Info(frozenset(), frozenset())  # cannot match an ASCII text
_EMPTY = _Info(frozenset({""}), None)  # zero-width
_UNKNOWN = _Info(None, None)


def _chars(code: int, fold: bool) -> frozenset[str]:
    """The ASCII characters a literal can match, lowercased when the pattern ignores case."""
    char = chr(code)
    if not fold:
        return frozenset({char}) if char.isascii() else frozenset()
    forms = {char, char.lower(), char.upper(), char.casefold()}
    if code in (0x131, 0x130):  # dotless i, dotted I
        forms.add("i")
    if code == 0x17F:  # long s
        forms.add("s")
    return frozenset(f.lower() for f in forms if len(f) == 1 and f.isascii())


def _class(items: list[tuple[Any, Any]], fold: bool) -> _Info:
    found: set[str] = set()
    for op, arg in items:
        if op is sre.LITERAL:
            found |= _chars(arg, fold)
        elif op is sre.RANGE and arg[1] - arg[0] < 64:
            for code in range(arg[0], arg[1] + 1):
                found |= _chars(code, fold)
        else:  # a negation, a category, a wide range: too many
            return _UNKNOWN
    if len(found) > _MAX_CLASS:
        return _UNKNOWN
    strings = frozenset(found)
    return _Info(strings, strings)


def _best(candidates: list[frozenset[str]]) -> frozenset[str] | None:
    """The most selective requirement: the longest shortest string, then the fewest."""
    usable = [c for c in candidates if "" not in c and len(c) <= _MAX_STRINGS]
    if not usable:
        return None
    return max(usable, key=lambda c: (min(map(len, c), default=99), -len(c)))


def _sequence(items: list[tuple[Any, Any]], fold: bool) -> _Info:
    """Consecutive parts: the strings of each run of exact parts (their concatenations), and
    any part's own requirement, are candidates; the best one is the sequence's."""
    run: frozenset[str] = frozenset({""})
    candidates: list[frozenset[str]] = []
    whole = True  # every part exact, the run never cut
    for op, arg in items:
        info = _node(op, arg, fold)
        if info.exact is not None and not info.exact:
            return _NOTHING
        if info.exact is not None:
            joined = frozenset(a + b for a, b in product(run, info.exact))
            if len(joined) <= _MAX_STRINGS:
                run = joined
                continue
        candidates.append(run)
        if info.needed is not None:
            candidates.append(info.needed)
        run = info.exact if info.exact is not None else frozenset({""})
        whole = False
    candidates.append(run)
    return _Info(run if whole else None, _best(candidates))


def _node(op: Any, arg: Any, fold: bool) -> _Info:
    if op is sre.LITERAL:
        chars = _chars(arg, fold)
        return _Info(chars, chars) if chars else _NOTHING
    if op is sre.IN:
        return _class(arg, fold)
    if op in _ZERO_WIDTH:
        return _EMPTY
    if op is sre.SUBPATTERN:
        _group, add, remove, body = arg
        folds = (fold or bool(add & re.IGNORECASE)) and not remove & re.IGNORECASE
        return _sequence(list(body), folds)
    if op is sre.BRANCH:
        branches = [_sequence(list(b), fold) for b in arg[1]]
        branches = [b for b in branches if b.exact is None or b.exact]
        if not branches:
            return _NOTHING
        exacts = [b.exact for b in branches if b.exact is not None]
        exact = frozenset().union(*exacts) if len(exacts) == len(branches) else None
        needs = [b.needed if b.needed is not None else b.exact for b in branches]
        known = [n for n in needs if n is not None and "" not in n]
        needed = frozenset().union(*known) if len(known) == len(branches) else None
        return _Info(exact if exact is None or len(exact) <= _MAX_STRINGS else None,
                     needed if needed is None or len(needed) <= _MAX_STRINGS else None)
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, getattr(sre, "POSSESSIVE_REPEAT", None)):
        low, high, body = arg
        repeated = _sequence(list(body), fold)
        if low == 0:
            return _UNKNOWN
        if low == high == 1:
            return repeated
        if repeated.exact is not None and not repeated.exact:
            return _NOTHING
        return _Info(None, repeated.needed if repeated.needed is not None else repeated.exact)
    if op is getattr(sre, "ATOMIC_GROUP", None):
        return _sequence(list(arg), fold)
    return _UNKNOWN


def ascii_hints(pattern: str, flags: int) -> tuple[str, ...] | None:
    """Strings one of which every match of `pattern` in an ASCII text contains (see the
    module docstring); () where it cannot match an ASCII text; None where nothing useful
    is known (or the pattern is bytes, verbose or locale-bound)."""
    if not isinstance(pattern, str) or flags & (re.LOCALE | re.VERBOSE):
        return None
    parsed = sre_parse.parse(pattern, flags)
    fold = bool(parsed.state.flags & re.IGNORECASE)
    info = _sequence(list(parsed), fold)
    if info.exact is not None and not info.exact:
        return ()
    needed = info.needed
    if needed is None or min(map(len, needed), default=0) < _MIN_LENGTH:
        return None
    # Looked for in the lowercased text, so lowercased too (a part that keeps case, `(?-i:…)`,
    # holds its string in the text, hence its lowercase in the lowercased text).
    return tuple(sorted({string.lower() for string in needed}))
