"""Live servers with OAuth on (the default), shared by the OAuth tests of this folder."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "http"))

from live_server import Running, serve

from jamgate_server.limits import HttpLimits

# The flow tests share one server and one client address (127.0.0.1) and register dozens of
# clients within seconds; the registration rate limit at its defaults is tested on servers of
# its own (tests/http/test_http_registration_limits.py).
FLOW_LIMITS = HttpLimits(register_burst=100_000)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    """SQLite store, stateful sessions, OAuth on."""
    yield from serve(tmp_path_factory.mktemp("oauth-home"), limits=FLOW_LIMITS)
