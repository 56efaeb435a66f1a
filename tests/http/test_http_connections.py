"""Slow and idle connections are cut off, and a crowd of them never locks a real client out
(issue #18, item 5: partial headers or an unsent body held a connection open indefinitely,
without a token, and 1,100 of them exhausted the file descriptors).

Raw sockets against a real uvicorn server served as `jamgate serve --http` serves, with short
limits so the tests take seconds; the same mechanism with the defaults and a real open-file
limit is tests/reliability/test_http_fd_exhaustion.py."""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Iterator

import httpx2
import pytest
from live_server import Running, serve

from jamgate_server.limits import HttpLimits

SHORT = HttpLimits(header_timeout_seconds=1, body_timeout_seconds=1,
                   keepalive_timeout_seconds=1, max_connections=16)
# Every cut-off must happen within its limit plus this margin.
MARGIN = 2.0


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    yield from serve(tmp_path_factory.mktemp("quick-home"), limits=SHORT)


@contextlib.contextmanager
def raw(server: Running) -> Iterator[socket.socket]:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    try:
        yield sock
    finally:
        sock.close()


def read_response(sock: socket.socket) -> bytes:
    """One whole response (headers and a Content-Length body), however it is split."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(next(line.split(b":", 1)[1] for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length:")))
    while len(body) < length:
        chunk = sock.recv(65536)
        assert chunk, data
        body += chunk
    return head + b"\r\n\r\n" + body


def until_closed(sock: socket.socket, wait: float) -> tuple[bytes, float]:
    """Everything the server sends until it closes the connection, and how long that took;
    fails when it is still open after `wait` seconds."""
    started = time.monotonic()
    sock.settimeout(wait)
    received = b""
    try:
        while chunk := sock.recv(65536):
            received += chunk
    except TimeoutError:
        pytest.fail(f"the connection was still open after {wait} s; got {received[:200]!r}")
    except ConnectionResetError:
        pass
    return received, time.monotonic() - started


def test_partial_headers_are_cut_off_with_408(quick: Running) -> None:
    with raw(quick) as sock:
        sock.sendall(b"GET /v1/memory HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        received, took = until_closed(sock, SHORT.header_timeout_seconds + MARGIN)
    assert received.startswith(b"HTTP/1.1 408"), received
    assert took < SHORT.header_timeout_seconds + MARGIN


def test_headers_sent_a_byte_at_a_time_are_cut_off_too(quick: Running) -> None:
    """A byte every 0.1 s keeps no connection alive: the deadline is for the whole headers."""
    with raw(quick) as sock:
        started = time.monotonic()
        with contextlib.suppress(OSError):  # the server hangs up mid-drip
            for byte in b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Drip: " + b"a" * 100:
                sock.sendall(bytes([byte]))
                time.sleep(0.1)
            pytest.fail("the server listened to the whole drip")
        with contextlib.suppress(OSError):
            until_closed(sock, MARGIN)
    assert time.monotonic() - started < SHORT.header_timeout_seconds + MARGIN


def test_a_silent_connection_is_closed(quick: Running) -> None:
    with raw(quick) as sock:
        received, _ = until_closed(sock, SHORT.header_timeout_seconds + MARGIN)
    assert received == b""  # nothing was asked, nothing is answered


def test_a_slow_second_request_on_a_kept_alive_connection_is_cut_off(quick: Running) -> None:
    with raw(quick) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        first = read_response(sock)
        assert first.startswith(b"HTTP/1.1 200"), first
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and no blank line
        _, took = until_closed(sock, SHORT.header_timeout_seconds + MARGIN)
    assert took < SHORT.header_timeout_seconds + MARGIN


def test_an_idle_kept_alive_connection_is_closed(quick: Running) -> None:
    with raw(quick) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert read_response(sock).startswith(b"HTTP/1.1 200")
        received, _ = until_closed(sock, SHORT.keepalive_timeout_seconds + MARGIN)
    assert received == b""


@pytest.mark.parametrize("path, authorized", [("/register", False), ("/v1/memory", True),
                                              ("/mcp", True)])
def test_a_body_that_never_arrives_is_408(quick: Running, path: str, authorized: bool) -> None:
    token = f"Authorization: Bearer {quick.token}\r\n" if authorized else ""
    with raw(quick) as sock:
        sock.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{token}Content-Type: "
                     "application/json\r\nAccept: application/json, text/event-stream\r\n"
                     "Content-Length: 100\r\n\r\n{\"redirect_uris\": [".encode())
        received, took = until_closed(sock, SHORT.body_timeout_seconds + MARGIN)
    assert received.startswith(b"HTTP/1.1 408"), received
    assert b"JAMGATE_HTTP_BODY_TIMEOUT_SECONDS" in received
    assert took < SHORT.body_timeout_seconds + MARGIN


def test_a_crowd_of_idle_connections_never_locks_a_client_out(quick: Running) -> None:
    """Three times the cap in half-open connections: the cap holds and a real client gets in
    at once, because the connection waiting longest makes room."""
    guard = quick.guard
    assert guard is not None
    closed_before = guard.evicted + guard.timed_out
    crowd = []
    try:
        for _ in range(3 * SHORT.max_connections):
            sock = socket.create_connection(("127.0.0.1", quick.port), timeout=10)
            sock.sendall(b"GET /v1/memory HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            crowd.append(sock)
        started = time.monotonic()
        with quick.client(headers=quick.auth()) as http:
            assert http.get("/v1/memory", params={"query": "anything"}).status_code == 200
            assert http.get("/healthz").status_code == 200
        assert time.monotonic() - started < 1.0  # not a header timeout later: at once
        assert len(guard.open) <= SHORT.max_connections
        # Made room for (or timed out, on a slow machine): all but the last cap's worth.
        assert guard.evicted + guard.timed_out - closed_before >= 2 * SHORT.max_connections
    finally:
        for sock in crowd:
            sock.close()


def test_when_every_connection_is_busy_a_newcomer_gets_503(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    limits = HttpLimits(max_connections=8, body_timeout_seconds=4, header_timeout_seconds=4)
    for server in serve(tmp_path_factory.mktemp("busy-home"), limits=limits):
        busy = []
        try:
            for _ in range(limits.max_connections):
                sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
                sock.sendall(b"POST /register HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                             b"application/json\r\nContent-Length: 50\r\n\r\n{")
                busy.append(sock)
            deadline = time.monotonic() + 3
            assert server.guard is not None
            while sum(c.busy for c in server.guard.open.values()) < limits.max_connections:
                assert time.monotonic() < deadline, "the requests never became busy"
                time.sleep(0.02)
            with raw(server) as newcomer:
                received, _ = until_closed(newcomer, 3)
            assert received.startswith(b"HTTP/1.1 503"), received
        finally:
            for sock in busy:
                sock.close()
        # Once they are gone the server serves again.
        deadline = time.monotonic() + 5
        while True:
            try:
                with server.client() as http:
                    if http.get("/healthz").status_code == 200:
                        break
            except httpx2.TransportError:
                pass
            assert time.monotonic() < deadline, "the server did not recover"
            time.sleep(0.1)


def test_limits_come_from_jamgate_http_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JAMGATE_HTTP_HEADER_TIMEOUT_SECONDS", "2.5")
    monkeypatch.setenv("JAMGATE_HTTP_MAX_CONNECTIONS", "64")
    limits = HttpLimits.load()
    assert (limits.header_timeout_seconds, limits.max_connections) == (2.5, 64)
    assert limits.body_timeout_seconds == 30 and limits.keepalive_timeout_seconds == 5
    monkeypatch.setenv("JAMGATE_HTTP_MAX_CONNECTIONS", "lots")
    from jamgate_core.errors import ConfigError

    with pytest.raises(ConfigError, match="JAMGATE_HTTP_MAX_CONNECTIONS"):
        HttpLimits.load()
