"""Fixtures for the setup tests: a fake home with real-shaped client configs."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from setup_helpers import FIXTURE_HOME, Run, make_runner


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """A copy of the fixture home: every client installed, with a user's real files."""
    target = tmp_path / "home"
    shutil.copytree(FIXTURE_HOME, target, symlinks=True)
    return target


@pytest.fixture
def empty_home(tmp_path: Path) -> Path:
    target = tmp_path / "empty-home"
    target.mkdir()
    return target


@pytest.fixture
def run() -> Run:
    """Run `python -m jamgate_core.cli <args>` with HOME=home; returns the finished process."""
    return make_runner()
