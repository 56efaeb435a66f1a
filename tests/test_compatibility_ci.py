"""CI's lowest-version mem0 job tests the floor that pyproject declares and the docs name."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def release(version: str) -> tuple[int, ...]:
    """`2.1` and `2.1.0` are one release (PEP 440 pads with zeros)."""
    parts = [int(p) for p in version.split(".")]
    while parts and parts[-1] == 0:
        parts.pop()
    return tuple(parts)


def test_ci_tests_the_lowest_mem0ai_of_the_range_and_the_docs() -> None:
    ci = re.search(r"^lowest_mem0=(\S+)$", (ROOT / ".ci/run").read_text(), re.M)
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]["mem0"]
    floor = re.search(r"mem0ai>=([\d.]+)", " ".join(extra))
    row = re.search(r"^\| `mem0` \| [^|]+\| ([\d.]+)[^|]*\|", (ROOT / "docs/compatibility.md")
                    .read_text(), re.M)
    assert ci and floor and row, (ci, floor, row)
    assert release(ci.group(1)) == release(floor.group(1)) == release(row.group(1))
