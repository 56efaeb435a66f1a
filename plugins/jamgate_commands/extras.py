"""Whether a built-in's extra is installed here, and the command that would install it."""

from __future__ import annotations

import importlib.metadata as md
import re

from jamgate_core.loader import CORE_DISTRIBUTION, EXTRAS
from jamgate_core.version import install_command

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_EXTRA_MARKER = re.compile(r"""extra\s*==\s*['"]([^'"]+)['"]""")


def missing_distributions(extra: str) -> list[str]:
    """The distributions `jamgate[extra]` requires that are not installed (names as declared)."""
    missing = []
    for requirement in md.requires(CORE_DISTRIBUTION) or []:
        marker = _EXTRA_MARKER.search(requirement.partition(";")[2])
        name = _NAME.match(requirement)
        if marker is None or marker.group(1) != extra or name is None:
            continue
        try:
            md.distribution(name.group(0))
        except md.PackageNotFoundError:
            missing.append(name.group(0))
    return missing


def availability(name: str, builtin: bool) -> dict[str, object]:
    """`usable`; for a built-in that needs an extra, its name, and if it is not installed: the
    distributions missing and the command that installs it."""
    extra = EXTRAS.get(name) if builtin else None
    if extra is None:
        return {"usable": True}
    missing = missing_distributions(extra)
    if not missing:
        return {"usable": True, "extra": extra}
    return {"usable": False, "extra": extra, "missing": missing,
            "install": install_command(extra)}
