"""Shared fixtures: every test runs with its own empty JAMGATE_HOME and no stray settings."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


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


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from the working tree, once per session."""
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir",
                    str(out), str(ROOT)], check=True, capture_output=True, text=True, timeout=600)
    (built,) = out.glob("jamgate-*.whl")
    return built
