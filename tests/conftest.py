"""Shared fixtures: every test runs with its own empty JAMGATE_HOME and no stray settings."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

# numpy loads lazily in the product; pytester's in-process runs drop the modules a run
# imported, and numpy cannot be imported twice in one process: load it before any such run.
with __import__("contextlib").suppress(ImportError):
    import numpy  # noqa: F401


@pytest.fixture(autouse=True)
def jamgate_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh, empty JAMGATE_HOME, no embedder; every other JAMGATE_* variable removed."""
    for name in list(os.environ):
        if name.startswith("JAMGATE_"):
            monkeypatch.delenv(name)
    home = tmp_path / "jamgate-home"
    home.mkdir()
    monkeypatch.setenv("JAMGATE_HOME", str(home))
    # Lexical-only unless a test opts in: the local model costs ~12 ms a save.
    monkeypatch.setenv("JAMGATE_EMBEDDER", "none")
    yield home


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
