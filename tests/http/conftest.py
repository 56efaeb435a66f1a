"""Real uvicorn servers on free loopback ports, started once per test session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from live_server import PUBLIC_HOST, Running, serve


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    """The default configuration: stateful sessions, loopback hosts only."""
    yield from serve(tmp_path_factory.mktemp("http-home"))


@pytest.fixture(scope="session")
def public_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    """Stateless, answering to a public hostname as well."""
    yield from serve(tmp_path_factory.mktemp("http-public-home"),
                     http_stateless=True, allowed_hosts=[PUBLIC_HOST])
