"""A record that holds more than one fact (D-441): "My name is Priya and I live in Leeds",
"Ich heiße Lukas und wohne in Bremen", "Sono Marco, faccio il fornaio e vivo a Bari".

A change of one of its facts ("I moved to York") must not retire it whole: its other facts
still hold. Such a text joins two clauses with a conjunction ("and", "und", "et", "y", "e",
"ed", "en" before a Dutch first person, "och", "og", Polish "i" before a first person's
verb (the Swedish and Italian "i" are no joiner), "ve", "и", "і", "та", "και",
"و"), or with a comma before a first person of its own ("I'm Callum, I work as …"), and the text
on each side of it holds two words or more. "Sam and I are dating", "Mia und ich sind ein Paar"
join two people to one fact (one side is a single word), "I drink coffee and tea" two values
(one side a single word): one fact each.
"""

from __future__ import annotations

import re
from functools import lru_cache

from jamgate_stages._text import words

# Case-sensitive: the Polish "i" is lower case, the English "I" never is.
_JOINER = re.compile(
    r"\s(?:and|und|et|y|e|ed|och|og|ve|и|і|та|και|و)\s"
    r"|\si\s(?=[^\W\d_A-ZĄĆĘŁŃÓŚŹŻ]\w*[mę]\b)"  # Polish, before a first person's verb
    r"|\sen\s(?=(?:ik|mijn|wij|we)\b)"
    r"|,\s*(?=(?:I|I'm|I've|ich|je|j'|yo|io|eu|ik|jag|ja|ben|я|εγώ)\b)"
)


@lru_cache(maxsize=2048)  # a pure function of a record's text, asked of each neighbour a save
def holds_several(text: str) -> bool:
    """Whether the text joins two clauses of two words or more each (module docstring)."""
    if len(text) < 12 or not _JOINER.search(text):
        return False
    return any(len(words(text[:m.start()])) >= 2 and len(words(text[m.end():])) >= 2
               for m in _JOINER.finditer(text))
