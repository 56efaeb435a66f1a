"""Shared fixtures: every test runs with its own empty JAMGATE_HOME and no stray settings."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WHEELHOUSE = ROOT / ".cache" / "wheelhouse"
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


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from the working tree, once per session."""
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir",
                    str(out), str(ROOT)], check=True, capture_output=True, text=True, timeout=600)
    (built,) = out.glob("jamgate-*.whl")
    return built


def fill_wheelhouse(wheel: Path) -> Path:
    """The wheel's dependencies (with the semantic extra) as files: offline when already
    there, else from pip's configured index and cache."""
    pip = [sys.executable, "-m", "pip", "download", "--quiet", "--dest", str(WHEELHOUSE),
           f"{wheel}[semantic]"]
    offline = subprocess.run([*pip, "--no-index", "--find-links", str(WHEELHOUSE)],
                             capture_output=True, text=True, timeout=600, check=False)
    if offline.returncode != 0:
        subprocess.run(pip, check=True, capture_output=True, text=True, timeout=900)
    for copy in WHEELHOUSE.glob("jamgate-*"):
        copy.unlink()  # only the wheel under test provides jamgate
    return WHEELHOUSE


@pytest.fixture(scope="session")
def wheelhouse(wheel: Path) -> Path:
    """A folder of wheels for offline installs of the built wheel (with the semantic extra)."""
    return fill_wheelhouse(wheel)
