"""The access log of `jamgate serve --http`, and the log level, on the real command.

A memory with a known text is saved (REST and MCP), recalled by a query holding that text and
forgotten, with a known bearer token; the captured stderr has one access line per request and
neither the text nor the token anywhere.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import time
from pathlib import Path

import httpx2
import pytest
from live_server import free_socket

from jamgate_server.access_log import loggable_path

pytestmark = pytest.mark.slow

SECRET_TEXT = "Jam keeps the violet umbrella in locker 4417"


def start(home: Path, token: str, *flags: str, **env: str) -> tuple[subprocess.Popen[str], str]:
    sock = free_socket()
    port = sock.getsockname()[1]
    sock.close()
    environ = {k: v for k, v in os.environ.items() if not k.startswith("JAMGATE_") and k != "PORT"}
    environ.update(JAMGATE_HOME=str(home), JAMGATE_EMBEDDER="none", JAMGATE_TOKEN=token, **env)
    process = subprocess.Popen(
        [sys.executable, "-m", "jamgate_core.cli", *flags, "serve", "--http", "--port",
         str(port)], env=environ, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            httpx2.get(f"{base}/healthz", timeout=2)
            return process, base
        except httpx2.TransportError:
            assert process.poll() is None, process.stderr.read()  # type: ignore[union-attr]
            assert time.monotonic() < deadline, "the server did not come up"
            time.sleep(0.1)


def stop(process: subprocess.Popen[str]) -> str:
    process.terminate()
    _, err = process.communicate(timeout=30)
    return err


def test_the_access_log_holds_no_memory_text_and_no_token(tmp_path: Path) -> None:
    token = secrets.token_urlsafe(32)
    process, base = start(tmp_path / "home", token)
    auth = {"Authorization": f"Bearer {token}"}
    try:
        with httpx2.Client(base_url=base, timeout=10) as http:
            saved = http.post("/v1/memory", json={"text": SECRET_TEXT}, headers=auth)
            assert saved.status_code == 201, saved.text
            found = http.get("/v1/memory", params={"query": SECRET_TEXT}, headers=auth)
            assert SECRET_TEXT in found.text
            assert http.get("/v1/memory", headers={"Authorization": "Bearer wrong"}
                            ).status_code == 401
            initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "log-test", "version": "1"}}}
            answer = http.post("/mcp", json=initialize, headers={
                **auth, "Accept": "application/json, text/event-stream"})
            assert answer.status_code == 200
            gone = http.delete(f"/v1/memory/{saved.json()['id']}", headers=auth)
            assert gone.status_code == 200, gone.text
    finally:
        err = stop(process)
    access = [line for line in err.splitlines() if " jamgate.access: " in line]
    assert any(" POST /v1/memory 201 " in line for line in access), err
    assert any(" GET /v1/memory 200 " in line for line in access), err
    assert any(" GET /v1/memory 401 " in line for line in access), err
    assert any(" POST /mcp 200 " in line for line in access), err
    assert any(" DELETE /v1/memory/{id} 200 " in line for line in access), err
    assert " INFO jamgate_server.http: Jamgate " in err  # the start line, through logging
    for needle in (SECRET_TEXT, "violet", "4417", "umbrella", token, "wrong", "query="):
        assert needle not in err, needle


@pytest.mark.parametrize(("flags", "env"), [(("--log-level", "warning"), {}),
                                            ((), {"JAMGATE_LOG_LEVEL": "WARNING"})])
def test_a_level_above_info_silences_the_access_log(tmp_path: Path, flags: tuple[str, ...],
                                                   env: dict[str, str]) -> None:
    token = secrets.token_urlsafe(32)
    process, base = start(tmp_path / "home", token, *flags, **env)
    try:
        assert httpx2.get(f"{base}/v1/memory", headers={"Authorization": f"Bearer {token}"},
                          timeout=10).status_code == 200
    finally:
        err = stop(process)
    assert "jamgate.access" not in err and "GET /v1/memory" not in err
    assert "MCP on http://" not in err  # the start line is INFO too


def test_logged_paths_carry_no_id_and_stay_short() -> None:
    assert loggable_path("/v1/memory/my-secret-prefix") == "/v1/memory/{id}"
    assert loggable_path("/mcp") == "/mcp"
    assert loggable_path("/x" * 200).endswith("…") and len(loggable_path("/x" * 200)) == 121
    assert loggable_path("/caf\u00e9") == "/caf\\xe9"
