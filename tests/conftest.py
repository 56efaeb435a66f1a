"""Shared fixtures: every test runs with its own empty JAMGATE_HOME and no stray settings."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest


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
