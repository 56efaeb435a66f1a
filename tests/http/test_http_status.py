"""The status matrix over raw HTTP: auth, sessions (D-038), body limit, Host protection."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from live_server import PUBLIC_HOST, Running

ACCEPT = "application/json, text/event-stream"


def rpc(method: str, params: dict[str, Any] | None = None, id: int = 1) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": id, "method": method, "params": params or {}}


INITIALIZE = rpc("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                "clientInfo": {"name": "raw-client", "version": "1"}})


def mcp_headers(server: Running, **extra: str) -> dict[str, str]:
    return {**server.auth(), "Accept": ACCEPT, "Content-Type": "application/json", **extra}


def sse_json(response: httpx2.Response) -> dict[str, Any]:
    """The JSON-RPC message of a response, whether sent as JSON or as one SSE event."""
    if response.headers["content-type"].startswith("application/json"):
        return response.json()  # type: ignore[no-any-return]
    data = [line[5:].strip() for line in response.text.splitlines() if line.startswith("data:")]
    return json.loads(data[-1])  # type: ignore[no-any-return]


@pytest.fixture
def http(server: Running) -> Iterator[httpx2.Client]:
    with server.client() as client:
        yield client


def open_session(http: httpx2.Client, server: Running) -> str:
    opened = http.post("/mcp", json=INITIALIZE, headers=mcp_headers(server))
    assert opened.status_code == 200
    session = opened.headers["mcp-session-id"]
    done = http.post("/mcp", json={"jsonrpc": "2.0", "method": "notifications/initialized"},
                     headers=mcp_headers(server, **{"Mcp-Session-Id": session}))
    assert done.status_code == 202
    return session


# ---- authentication ---------------------------------------------------------------------------

@pytest.mark.parametrize("path, method", [("/mcp", "POST"), ("/v1/memory", "GET"),
                                          ("/v1/memory", "POST"), ("/v1/memory/abcdefgh",
                                                                   "DELETE")])
@pytest.mark.parametrize("authorization", [None, "Bearer wrong-token", "Basic b3duZXI6eA=="])
def test_401_without_a_valid_token(http: httpx2.Client, path: str, method: str,
                                   authorization: str | None) -> None:
    headers = {"Accept": ACCEPT, "Content-Type": "application/json"}
    if authorization:
        headers["Authorization"] = authorization
    response = http.request(method, path, headers=headers,
                            content=json.dumps(INITIALIZE) if method == "POST" else None)
    assert response.status_code == 401
    assert response.headers["www-authenticate"].startswith('Bearer realm="jamgate"')
    if authorization == "Bearer wrong-token":
        assert 'error="invalid_token"' in response.headers["www-authenticate"]
    body = response.json()
    if path.startswith("/v1/"):
        assert body["error"] == "unauthorized"
    else:
        assert body["error"]["code"] == -32001
    assert "JAMGATE_TOKEN" in response.text


def test_token_scheme_is_case_insensitive(http: httpx2.Client, server: Running) -> None:
    response = http.get("/v1/memory", headers={"Authorization": f"bearer {server.token}"})
    assert response.status_code == 200


def test_healthz_and_openapi_need_no_token(http: httpx2.Client) -> None:
    health = http.get("/healthz")
    assert health.status_code == 200
    assert set(health.json()) == {"status", "version"}
    document = http.get("/openapi.json")
    assert document.status_code == 200
    assert set(document.json()["paths"]) == {"/v1/memory", "/v1/memory/{id}", "/healthz"}


# ---- sessions ---------------------------------------------------------------------------------

def test_404_for_an_unknown_session(http: httpx2.Client, server: Running) -> None:
    response = http.post("/mcp", json=rpc("tools/list"),
                         headers=mcp_headers(server, **{"Mcp-Session-Id": "f" * 32}))
    assert response.status_code == 404
    assert response.json()["error"]["message"] == "Session not found"


def test_400_without_a_session(http: httpx2.Client, server: Running) -> None:
    response = http.post("/mcp", json=rpc("tools/list"), headers=mcp_headers(server))
    assert response.status_code == 400
    assert "session" in response.json()["error"]["message"].lower()


def test_authentication_runs_before_the_session_lookup(http: httpx2.Client,
                                                       server: Running) -> None:
    response = http.post("/mcp", json=rpc("tools/list"), headers={
        "Accept": ACCEPT, "Content-Type": "application/json",
        "Authorization": "Bearer wrong", "Mcp-Session-Id": "f" * 32})
    assert response.status_code == 401


def test_a_session_works_then_ends(http: httpx2.Client, server: Running) -> None:
    session = open_session(http, server)
    listed = http.post("/mcp", json=rpc("tools/list", id=2),
                       headers=mcp_headers(server, **{"Mcp-Session-Id": session}))
    assert listed.status_code == 200
    assert "save_memory" in {t["name"] for t in sse_json(listed)["result"]["tools"]}
    ended = http.delete("/mcp", headers=mcp_headers(server, **{"Mcp-Session-Id": session}))
    assert ended.status_code == 200
    after = http.post("/mcp", json=rpc("tools/list", id=3),
                      headers=mcp_headers(server, **{"Mcp-Session-Id": session}))
    assert after.status_code == 404


def test_initialize_with_a_stale_session_id_gets_a_fresh_session(http: httpx2.Client,
                                                                 server: Running) -> None:
    """D-038: after a server restart a client re-initializes with its old id in the header."""
    stale = "0" * 32
    response = http.post("/mcp", json=INITIALIZE,
                         headers=mcp_headers(server, **{"Mcp-Session-Id": stale}))
    assert response.status_code == 200
    fresh = response.headers["mcp-session-id"]
    assert fresh != stale
    assert sse_json(response)["result"]["serverInfo"]["name"] == "jamgate"
    called = http.post("/mcp", json=rpc("tools/call", {
        "name": "recall_memory", "arguments": {"query": "anything"}}, id=2),
        headers=mcp_headers(server, **{"Mcp-Session-Id": fresh}))
    assert called.status_code == 200
    assert sse_json(called)["result"]["isError"] is False


# ---- request limits ---------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/mcp", "/v1/memory"])
def test_413_for_an_oversized_body(http: httpx2.Client, server: Running, path: str) -> None:
    limit = server.app.settings.http_max_body_bytes
    body = json.dumps({"text": "x" * limit}).encode()
    declared = http.post(path, content=body, headers=mcp_headers(server))
    assert declared.status_code == 413

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it streams
        for start in range(0, len(body), 65536):
            yield body[start:start + 65536]

    streamed = http.post(path, content=chunks(), headers=mcp_headers(server))
    assert streamed.status_code == 413
    assert "http_max_body_bytes" in streamed.text


def test_a_memory_over_32000_characters_is_refused_not_truncated(http: httpx2.Client,
                                                                  server: Running) -> None:
    text = "Jam's travel journal entry: " + "walked along the harbour. " * 1300
    assert len(text) > 32_000
    response = http.post("/v1/memory", json={"text": text, "scope": "long"},
                         headers=server.auth())
    assert response.status_code == 200
    assert response.json()["decision"] == "rejected"
    assert server.app.recall("", scope="long").memories == []


# ---- hosts ------------------------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/mcp", "/v1/memory"])
def test_421_for_a_foreign_host_by_default(http: httpx2.Client, server: Running,
                                           path: str) -> None:
    response = http.post(path, json=INITIALIZE,
                         headers=mcp_headers(server, Host=PUBLIC_HOST))
    assert response.status_code == 421
    assert "JAMGATE_ALLOWED_HOSTS" in response.text


@pytest.mark.parametrize("host", [PUBLIC_HOST, f"{PUBLIC_HOST}:443"])
def test_200_once_the_host_is_allowed(public_server: Running, host: str) -> None:
    with public_server.client() as http:
        mcp = http.post("/mcp", json=rpc("tools/list"),
                        headers=mcp_headers(public_server, Host=host))
        rest = http.get("/v1/memory", headers={**public_server.auth(), "Host": host})
    assert mcp.status_code == 200
    assert "save_memory" in {t["name"] for t in sse_json(mcp)["result"]["tools"]}
    assert rest.status_code == 200


def test_foreign_origin_is_refused(http: httpx2.Client, server: Running) -> None:
    response = http.get("/v1/memory", headers={**server.auth(),
                                               "Origin": "https://evil.example"})
    assert response.status_code == 403
    local = http.get("/v1/memory", headers={**server.auth(),
                                            "Origin": f"http://localhost:{server.port}"})
    assert local.status_code == 200


def test_healthz_answers_any_host(http: httpx2.Client) -> None:
    assert http.get("/healthz", headers={"Host": "10.1.2.3:8420"}).status_code == 200
