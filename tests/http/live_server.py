"""Start a real uvicorn server on a free loopback port, in a thread of this process.

Each server has its own JAMGATE_HOME (SQLite store, no embedder) and runs in a thread of the
test process, so a test can also reach its `App` directly (e.g. to plant records with chosen
ids). The per-test JAMGATE_HOME of tests/conftest.py does not affect these servers.
"""

from __future__ import annotations

import os
import secrets
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx2
import pytest
import uvicorn

from jamgate_core.app import App, open_app
from jamgate_core.settings import load_settings
from jamgate_server.connections import ConnectionGuard
from jamgate_server.http import build_http_app, uvicorn_config
from jamgate_server.limits import HttpLimits

PUBLIC_HOST = "memory.example.com"


@dataclass
class Running:
    """A started server: where it listens, its token, and the app behind it."""

    base: str
    token: str
    app: App
    port: int
    guard: ConnectionGuard | None = None

    @property
    def mcp_url(self) -> str:
        return f"{self.base}/mcp"

    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def client(self, **kwargs: Any) -> httpx2.Client:
        return httpx2.Client(base_url=self.base, timeout=30, **kwargs)


def free_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # Accepted sockets inherit it: without it, each kept-alive response waits ~40 ms for a
    # delayed ACK (uvicorn sets it on sockets it binds itself, not on one handed to it).
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    return sock


def serve(home: Path, limits: HttpLimits | None = None, **settings: Any) -> Iterator[Running]:
    """Start a server over a fresh home with these settings (and HTTP limits, the defaults
    when not given); stop it on exit. It is served exactly as `jamgate serve --http` serves:
    the connection guard, timeouts and proxy headers of `uvicorn_config`."""
    token = secrets.token_urlsafe(32)
    with pytest.MonkeyPatch.context() as patch:
        for name in [n for n in os.environ if n.startswith("JAMGATE_")]:
            patch.delenv(name)
        patch.setenv("JAMGATE_HOME", str(home))
        app = open_app(load_settings(token=token, embedder="none", **settings))
        asgi = build_http_app(app, limits=limits or HttpLimits.load())
    sock = free_socket()
    port = sock.getsockname()[1]
    config = uvicorn_config(asgi, timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.01)
    try:
        yield Running(base=f"http://127.0.0.1:{port}", token=token, app=app, port=port,
                      guard=config.connection_guard)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
        app.close()
