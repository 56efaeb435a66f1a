"""s24 and s25 split by persona into a half that may be trained on and a half only measured.

Written down before any training with it (D-444). A persona is the person or agent an
`origin` names after its fixed opening ("world fact an agent noted while helping …", "fact
about …", "an unanchored note about …", …; "… and their assistant" and "…'s assistant" read
as the same persona). Personas are numbered in the order they first appear in the source:
even numbers are `fit`, odd ones `measure`. s24's 24 facts about "the person" written as an
agent's note name no persona; they alternate by their order in the source (the first `fit`).

    python scripts/gk_halves.py        # print the personas of each half and the counts
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

from jamgate_commands.bench_gate import GateCase, load_corpus

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus" / "gate2"
SOURCES = ("s24", "s25")
_OPENING = re.compile(r"^(world fact an agent noted while helping |a fact about |fact about "
                      r"|an unanchored note about |world fact an agent noted on the same "
                      r"topics as )")
_CLOSING = re.compile(r"(,? on the topic of the world facts| written as an agent's note.*"
                      r"| and their assistant|'s assistant)$")


def persona(case: GateCase) -> str:
    """The persona an origin names (see the module's docstring)."""
    said = _OPENING.sub("", case.origin.split(": ", 1)[1])
    while (shorter := _CLOSING.sub("", said)) != said:
        said = shorter
    return said


def halves(source: str) -> tuple[list[GateCase], list[GateCase]]:
    """(fit, measure): the cases of `source` (s24 or s25) in each half."""
    if source not in SOURCES:
        raise ValueError(f"only {SOURCES} are split by persona")
    cases = load_corpus(CORPUS / f"{source}.jsonl")
    order = list(dict.fromkeys(persona(c) for c in cases if persona(c) != "the person"))
    fit: list[GateCase] = []
    measure: list[GateCase] = []
    unnamed = 0
    for case in cases:
        name = persona(case)
        if name == "the person":
            even, unnamed = unnamed % 2 == 0, unnamed + 1
        else:
            even = order.index(name) % 2 == 0
        (fit if even else measure).append(case)
    return fit, measure


def main() -> int:
    for source in SOURCES:
        fit, measure = halves(source)
        for name, part in (("fit", fit), ("measure", measure)):
            kinds = Counter("keep" if c.expect == "pass" else c.category for c in part)
            print(f"{source} {name}: {len(part)} {dict(kinds)}; "
                  f"{len({c.lang for c in part})} languages")
            for who in dict.fromkeys(persona(c) for c in part):
                print(f"    {who}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
