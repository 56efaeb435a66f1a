"""Regular expressions compiled on their first use instead of at import.

The stages hold about 290 module-level patterns. Compiling them at import cost ~60 ms of CPU,
about a tenth of a stdio server's cold start to its first `tools/list`, and neither
`initialize` nor `tools/list` uses any of them (issue 21, D-163). `lazy_compile` returns a stand-in
that compiles on the first attribute it is asked for, then binds the compiled pattern's
methods onto itself, so later calls cost what a compiled pattern's calls cost. The first save
of a process pays the compilation instead.

When it compiles, the stand-in also reads from the pattern what an ASCII text must hold for it
to match (`_regex_hints`, D-415): a pattern that cannot match one, or one whose every match
holds one of a few strings of three characters or more, gets methods that answer "no match"
for an ASCII text that holds none of them without running the regex engine (an alternation of
words ignoring case is otherwise tried at every position of the text). Every answer is the
compiled pattern's own.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, cast

from jamgate_stages._regex_hints import ascii_hints

_BOUND = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split",
          "scanner", "groupindex", "groups")


class LazyPattern:
    """`re.compile(pattern, flags)` deferred; `.pattern` is known without compiling."""

    def __init__(self, pattern: str, flags: int) -> None:
        self.pattern = pattern
        self._flags = flags

    def __getattr__(self, name: str) -> Any:  # only for names not bound yet
        if name.startswith("__"):
            raise AttributeError(name)
        compiled = re.compile(self.pattern, self._flags)
        for bound in _BOUND:
            setattr(self, bound, getattr(compiled, bound))
        try:  # read from `re`'s parser: another Python's may differ; then no hints
            hints = ascii_hints(self.pattern, self._flags)
        except Exception:
            hints = None
        if hints is not None:
            for bound, method in _prechecked(compiled, hints).items():
                setattr(self, bound, method)
        self.flags = compiled.flags
        return getattr(self if name in _BOUND else compiled, name)

    def __repr__(self) -> str:
        return f"lazy_compile({self.pattern!r}, {self._flags!r})"


def _prechecked(compiled: re.Pattern[str], hints: tuple[str, ...]) -> dict[str, Callable[..., Any]]:
    """The pattern's matching methods, each answering "no match" at once for an ASCII text
    that holds none of `hints` (lowercase; none at all: the pattern never matches an ASCII
    text)."""

    def skips(text: object) -> bool:
        if type(text) is not str or not text.isascii():
            return False
        lowered = text.lower()
        return not any(map(lowered.__contains__, hints))

    search, match, fullmatch = compiled.search, compiled.match, compiled.fullmatch
    finditer, findall, split = compiled.finditer, compiled.findall, compiled.split
    sub, subn = compiled.sub, compiled.subn
    return {
        "search": lambda string, *a, **k: None if skips(string) else search(string, *a, **k),
        "match": lambda string, *a, **k: None if skips(string) else match(string, *a, **k),
        "fullmatch": lambda string, *a, **k: (None if skips(string)
                                              else fullmatch(string, *a, **k)),
        "finditer": lambda string, *a, **k: (iter(()) if skips(string)
                                             else finditer(string, *a, **k)),
        "findall": lambda string, *a, **k: [] if skips(string) else findall(string, *a, **k),
        "split": lambda string, *a, **k: [string] if skips(string) else split(string, *a, **k),
        "sub": lambda repl, string, *a, **k: (string if skips(string)
                                              else sub(repl, string, *a, **k)),
        "subn": lambda repl, string, *a, **k: ((string, 0) if skips(string)
                                               else subn(repl, string, *a, **k)),
    }


def lazy_compile(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """A pattern that compiles when first used; typed as the compiled pattern it stands for."""
    return cast("re.Pattern[str]", LazyPattern(pattern, flags))
