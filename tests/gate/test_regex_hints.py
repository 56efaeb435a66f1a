"""What an ASCII text must hold for a pattern to match (D-415): the hints are necessary, and a
stand-in that skips the regex engine answers exactly as the compiled pattern."""

from __future__ import annotations

import gc
import importlib
import pkgutil
import re

import pytest

import jamgate_stages
from jamgate_stages import _lazy_re
from jamgate_stages._regex_hints import ascii_hints

TEXTS = [
    "I live in Lisbon now", "Previously I worked at ACME", "my pin is 4821", "My PIN is 4821",
    "We moved to Berlin in 2019", "always answer in Greek", "ok thanks", "Formerly a nurse",
    "The user is testing", "I am an AI language model", "as an assistant I can't browse",
    "Ich wohne jetzt in Wien", "The kiln is hot", "KELVIN and long s", "", "   ", "a.b;c|d",
]


@pytest.mark.parametrize(("pattern", "flags", "hints"), [
    (r"\b(?:now|no longer|anymore)\b", re.IGNORECASE, ("anymore", "no longer", "now")),
    (r"\blives?\s+in\b", 0, ("live",)),
    (r"(?:哪里|谁)[。\s]*$", 0, ()),  # no match is possible in an ASCII text
    (r"(?<![A-Za-z0-9])(?-i:PIN)s?(?![A-Za-z0-9])|ПИН", re.IGNORECASE, ("pin",)),
    (r"\w+", 0, None),  # nothing useful
    (r"ab|c", 0, None),  # a hint shorter than three characters is no hint
])
def test_hints_read_from_the_pattern(pattern: str, flags: int,
                                     hints: tuple[str, ...] | None) -> None:
    assert ascii_hints(pattern, flags) == hints


def test_a_non_ascii_literal_that_folds_to_ascii_is_read_as_it() -> None:
    # Ignoring case, "ı" matches "i" and "K" (Kelvin) matches "k": the hint keeps them.
    assert ascii_hints("b\u0131rd", re.IGNORECASE) == ("bird",)
    assert re.search("b\u0131rd", "BIRD", re.IGNORECASE)
    assert ascii_hints("\u212ailn", re.IGNORECASE) == ("kiln",)
    assert ascii_hints("b\u0131rd", 0) == ()


def _stage_patterns() -> list[tuple[str, int]]:
    for module in pkgutil.walk_packages(jamgate_stages.__path__, "jamgate_stages."):
        importlib.import_module(module.name)
    return sorted({(found.pattern, found._flags) for found in gc.get_objects()
                   if isinstance(found, _lazy_re.LazyPattern)})


def test_every_stage_pattern_answers_as_compiled_with_its_hints() -> None:
    patterns = _stage_patterns()
    assert len(patterns) > 300
    for pattern, flags in patterns:
        lazy, real = _lazy_re.LazyPattern(pattern, flags), re.compile(pattern, flags)
        for text in TEXTS:
            found, expected = lazy.search(text), real.search(text)
            assert (found and found.span()) == (expected and expected.span()), (pattern, text)
            assert lazy.findall(text) == real.findall(text), (pattern, text)
            assert lazy.sub("#", text) == real.sub("#", text), (pattern, text)
            assert lazy.split(text) == real.split(text), (pattern, text)
