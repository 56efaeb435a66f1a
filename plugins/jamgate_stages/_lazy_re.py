"""Regular expressions compiled on their first use instead of at import.

The stages hold about 290 module-level patterns. Compiling them at import cost ~60 ms of CPU,
about a tenth of a stdio server's cold start to its first `tools/list`, and neither
`initialize` nor `tools/list` uses any of them (issue 21, D-163). `lazy_compile` returns a stand-in
that compiles on the first attribute it is asked for, then binds the compiled pattern's
methods onto itself, so later calls cost what a compiled pattern's calls cost. The first save
of a process pays the compilation instead.
"""

from __future__ import annotations

import re
from typing import Any, cast

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
        self.flags = compiled.flags
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy_compile({self.pattern!r}, {self._flags!r})"


def lazy_compile(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """A pattern that compiles when first used; typed as the compiled pattern it stands for."""
    return cast("re.Pattern[str]", LazyPattern(pattern, flags))
