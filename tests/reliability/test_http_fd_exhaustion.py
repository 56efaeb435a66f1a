"""More connections than the server has file descriptors never lock a client out (issue #18,
item 5: with the usual 1,024 open files, 1,100 connections with partial headers locked every
client out, and stayed open indefinitely).

The real `jamgate serve --http` in a subprocess with an open-file limit of 256, the header
deadline set long (60 s) so that only the connection cap can save it; 400 connections that
send half their headers; then a real client must be answered at once. Bounded: about 5 s."""

from __future__ import annotations

import os
import re
import resource
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx2
import pytest

FILE_LIMIT = 256
CROWD = 400


@dataclass
class Server:
    process: subprocess.Popen[str]
    base: str
    port: int
    token: str
    log: Path


def _limit_files() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (FILE_LIMIT, FILE_LIMIT))


@pytest.fixture
def starved(tmp_path: Path) -> Iterator[Server]:
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    token = secrets.token_urlsafe(32)
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAMGATE_") and k != "PORT"}
    env.update(JAMGATE_HOME=str(tmp_path / "home"), JAMGATE_EMBEDDER="none",
               JAMGATE_TOKEN=token, JAMGATE_PORT=str(port),
               JAMGATE_HTTP_HEADER_TIMEOUT_SECONDS="60")
    log = tmp_path / "server.log"
    with log.open("w") as sink:
        process = subprocess.Popen([sys.executable, "-m", "jamgate_core.cli", "serve", "--http"],
                                   env=env, stderr=sink, text=True, preexec_fn=_limit_files)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx2.get(f"{base}/healthz", timeout=2).status_code == 200:
                    break
            except httpx2.TransportError:
                pass
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "the server did not come up"
            time.sleep(0.1)
        yield Server(process, base, port, token, log)
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="needs /proc")
def test_more_half_open_connections_than_file_descriptors_leave_a_client_served(
        starved: Server) -> None:
    crowd: list[socket.socket] = []
    try:
        for _ in range(CROWD):
            sock = socket.create_connection(("127.0.0.1", starved.port), timeout=10)
            sock.sendall(b"GET /v1/memory HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            crowd.append(sock)
        time.sleep(0.5)  # let the server take them all in
        auth = {"Authorization": f"Bearer {starved.token}"}
        started = time.monotonic()
        with httpx2.Client(base_url=starved.base, timeout=10, headers=auth) as http:
            saved = http.post("/v1/memory", json={"text": "Jam's spare key is with Eleni"})
            found = http.get("/v1/memory", params={"query": "spare key"})
            health = http.get("/healthz")
        assert time.monotonic() - started < 3
        assert saved.status_code == 201, saved.text
        assert [m["id"] for m in found.json()["memories"]] == [saved.json()["id"]]
        assert health.status_code == 200
        assert open_files(starved.process.pid) < FILE_LIMIT
    finally:
        for sock in crowd:
            sock.close()
    assert starved.process.poll() is None
    log = starved.log.read_text()
    match = re.search(r"at most (\d+) connections are kept open", log)
    assert match and int(match.group(1)) < FILE_LIMIT, log  # the cap was fitted to the limit
    assert "Too many open files" not in log and "out of system resource" not in log, log
