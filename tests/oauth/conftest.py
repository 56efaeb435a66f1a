"""Live servers with OAuth on (the default), shared by the OAuth tests of this folder."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "http"))

from live_server import Running, serve


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    """SQLite store, stateful sessions, OAuth on."""
    yield from serve(tmp_path_factory.mktemp("oauth-home"))
