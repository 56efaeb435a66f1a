"""Shared names of the format tests (a module of its own: test files import it by name,
which a `conftest` cannot safely be when several test folders have one)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"
PLACEHOLDER = "@@PLANTED@@"
# A fake OpenAI-shaped key, joined here so no file in the repository holds it whole.
SECRET_BODY = "".join(["Q7hV2mLx9R", "tY4bNc8KpW", "3sZd6FgJ1aEu"])
PLANTED = "deploy key for the billing API is " + "sk-" + "proj-" + SECRET_BODY


@dataclass
class Run:
    code: int
    out: str
    err: str


def files_containing(root: Path, needle: str) -> list[Path]:
    data = needle.encode("utf-8")
    return [p for p in root.rglob("*") if p.is_file() and data in p.read_bytes()]
