"""Spelling variants: one word written two ways ("favourite" / "favorite", "colour" / "color",
"centre" / "center", "organise" / "organize"), for subjects and slot words (D-409).

A subject is a key: the store finds the records on it by equality, so a slot said in British
and in American spelling had two keys, and the second value retired nothing. `forms` writes a
subject's other spellings by the regular English correspondences (-our/-or, -re/-er,
-ise/-ize, -yse/-yze, -ogue/-og, -ence/-ense, doubled l, ae/oe), both ways; `on_subject` looks
each up. No word list: a form that no record holds costs one indexed lookup and finds nothing.
`twin` tells two words of an aligned pair that are one word written two ways, in any language
that writes words in letters: one edit apart, long enough, the same opening.
"""

from __future__ import annotations

import re
from functools import lru_cache

from rapidfuzz.distance import OSA

from jamgate_core import MemoryRecord, StoreView

# (British, American) endings and infixes, each read both ways.
_PAIRS: tuple[tuple[re.Pattern[str], str, re.Pattern[str], str], ...] = tuple(
    (re.compile(british), american, re.compile(back), british_out)
    for british, american, back, british_out in (
        # colour, favourite, neighbour, flavoured; not -tour/-sour words read back ("editor")
        (r"(?<=[lvbmndpgi])our(?=$|ite|ed|ing|s$|able|ful|less)", "or",
         r"(?<=[lvbmndpgi])or(?=$|ite|ed|ing|s$|able|ful|less)", "our"),
        (r"(?<=[^aeiou])re(?=$|s$|d$)", "er",
         r"(cent|theat|met|lit|fib|spect|lust|somb|calib|sab|meag|ochr)er(?=$|s$)", r"\1re"),
        (r"(?<=[a-z]{3})is(?=e$|es$|ed$|ing|ation|er$|ers$)", "iz",
         r"(?<=[a-z]{3})iz(?=e$|es$|ed$|ing|ation|er$|ers$)", "is"),
        (r"ys(?=e$|es$|ed$|ing)", "yz", r"yz(?=e$|es$|ed$|ing)", "ys"),
        (r"ogue(?=$|s$)", "og", r"(?<=al|ol)og(?=$|s$)", "ogue"),
        (r"(?<=[cf])ence(?=$|s$)", "ense", r"(?<=[cf])ense(?=$|s$)", "ence"),
        (r"(?<=[aeiou])ll(?=ed$|ing$|er$|ers$)", "l", r"(?<=[^aeiou][aeiou])l(?=ed$|ing$)", "ll"),
        (r"(?<=[a-z])ae(?=[a-z])", "e", r"(?<=^p)ed(?=iatr)", "aed"),
        (r"(?<=[a-z])oe(?=[a-z]{3})", "e", r"(?<=^man)eu(?=v)", "oeu"),
    )
)
# Any pattern above, in one search: most words match none and are answered at once.
_ANY = re.compile("|".join(f"(?:{p.pattern})" for pair in _PAIRS for p in (pair[0], pair[2])))
_MIN_TWIN = 5  # words this long may be one word written two ways


@lru_cache(maxsize=4096)
def word_forms(word: str) -> frozenset[str]:
    """The word's other spellings by the correspondences above (empty for most words)."""
    if not _ANY.search(word):
        return frozenset()
    found: set[str] = set()
    for british, american, back, british_out in _PAIRS:
        found.add(british.sub(american, word))
        found.add(back.sub(british_out, word))
    found.discard(word)
    return frozenset(found)


@lru_cache(maxsize=4096)
def forms(subject: str) -> tuple[str, ...]:
    """The subject as written, then its other spellings: each of its words changed to one
    of its forms, all at once the same way (British or American throughout)."""
    parts = subject.split("-")
    out = [subject]
    for to_american in (True, False):
        spelled = []
        for part in parts:
            pick = [f for f in word_forms(part) if (len(f) < len(part)) == to_american
                    or (len(f) == len(part) and ("z" in f) == to_american)]
            spelled.append(pick[0] if pick else part)
        out.append("-".join(spelled))
        # and each word alone ("favourite-color", a subject half changed)
        for index, part in enumerate(parts):
            if spelled[index] != part:
                out.append("-".join([*parts[:index], spelled[index], *parts[index + 1:]]))
    return tuple(dict.fromkeys(out))


def on_subject(view: StoreView, subject: str) -> list[MemoryRecord]:
    """The active records on the subject, or, where it has none, on another spelling of it."""
    found = view.by_subject(subject)
    if found:
        return found
    for other in forms(subject)[1:]:
        if found := view.by_subject(other):
            return found
    return []


def twin(a: str, b: str) -> bool:
    """Two folded words that are one word written two ways: one of the forms above, or one
    edit apart (a letter added, dropped, changed or swapped) past a shared opening of three
    letters, both at least five letters long ("equipa" / "equipe", "favoriete" /
    "favoriet"). Numbers are never twins."""
    if a == b or a.isdigit() or b.isdigit():
        return False
    if b in word_forms(a):
        return True
    return (min(len(a), len(b)) >= _MIN_TWIN and a[:3] == b[:3]
            and OSA.distance(a, b, score_cutoff=1) <= 1)
