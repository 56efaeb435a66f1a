"""The stages' patterns compile on first use (D-163), and behave as compiled patterns do."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from jamgate_stages._lazy_re import lazy_compile

COUNT_COMPILES = """
import re, sys
compiled = []
original = re._compile
def counting(pattern, flags):
    if sys._getframe(1).f_globals.get("__name__", "").startswith("jamgate_stages"):
        compiled.append(pattern)
    return original(pattern, flags)
re._compile = counting
from importlib.metadata import entry_points
for entry in entry_points(group="jamgate.stages"):
    entry.load()
print(len(compiled))
"""


def test_importing_every_stage_compiles_no_pattern() -> None:
    out = subprocess.run([sys.executable, "-c", COUNT_COMPILES], capture_output=True,
                         text=True, check=True).stdout
    assert int(out) == 0


def test_a_lazy_pattern_answers_as_the_compiled_one() -> None:
    source, flags = r"(?P<word>\bc\w+)", re.IGNORECASE
    lazy, real = lazy_compile(source, flags), re.compile(source, flags)
    assert lazy.pattern == source
    text = "Cats chase mice; COWS chew cud."
    assert lazy.search(text).group("word") == real.search(text).group("word")  # type: ignore[union-attr]
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in real.finditer(text)]
    assert lazy.findall(text) == real.findall(text)
    assert lazy.sub("x", text) == real.sub("x", text)
    assert lazy.split(text) == real.split(text)
    assert (lazy.groups, lazy.groupindex, lazy.flags) == (real.groups, real.groupindex, real.flags)
    assert lazy.fullmatch("cab") and not lazy.match("dog")


def test_a_bad_pattern_fails_on_first_use_with_re_error() -> None:
    broken = lazy_compile(r"(unclosed")
    with pytest.raises(re.error):
        broken.search("x")
