"""Bodies that cannot be parsed get a clean 400 — REST `{error: parse_error}`, MCP -32700 —
with or without an MCP session, and never a 500 or a traceback (issue #18, item 7: JSON nested
~1000 levels deep raised an uncaught RecursionError on POST /v1/memory and on POST /mcp with a
session id)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from live_server import Running
from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client

ACCEPT = "application/json, text/event-stream"
VERSION = "2025-06-18"
UNPARSEABLE: dict[str, bytes] = {
    "array nested 1000 deep": b"[" * 1000 + b"]" * 1000,
    "array nested 990 deep": b"[" * 990 + b"]" * 990,
    "object nested 995 deep": b'{"jsonrpc":"2.0","id":7,"method":"tools/list","params":'
                              + b'{"a":' * 995 + b"1" + b"}" * 995 + b"}",
    "text nested 100000 deep": b'{"text":' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    "a lone surrogate": b'{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{},'
                        b'"text":"\\ud800 Jam"}',
    "invalid UTF-8": b'{"jsonrpc":"2.0","id":7,"method":"tools/list","text":"Jam \xff\xfe"}',
    "truncated": b'{"jsonrpc":"2.0","id":',
    "empty": b"",
    "not JSON at all": b"\x00\x01\x02 hello",
}


def _headers(server: Running, session: str | None = None) -> dict[str, str]:
    headers = {**server.auth(), "Accept": ACCEPT, "Content-Type": "application/json"}
    if session:
        headers |= {"Mcp-Session-Id": session, "Mcp-Protocol-Version": VERSION}
    return headers


@pytest.fixture
def session(server: Running) -> Iterator[str]:
    """A live MCP session, opened over raw HTTP."""
    with server.client() as http:
        opened = http.post("/mcp", headers=_headers(server), json={
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": VERSION, "capabilities": {},
                       "clientInfo": {"name": "garbage-sender", "version": "1"}}})
        assert opened.status_code == 200, opened.text
        sid = opened.headers["mcp-session-id"]
        http.post("/mcp", headers=_headers(server, sid),
                  json={"jsonrpc": "2.0", "method": "notifications/initialized"})
        yield sid


def sse_json(response: httpx2.Response) -> dict[str, Any]:
    """The JSON-RPC message of a response, whether sent as JSON or as one SSE event."""
    if response.headers["content-type"].startswith("application/json"):
        return response.json()  # type: ignore[no-any-return]
    data = [line[5:].strip() for line in response.text.splitlines() if line.startswith("data:")]
    return json.loads(data[-1])  # type: ignore[no-any-return]


def _parse_error(answer: httpx2.Response) -> dict[str, Any]:
    assert answer.status_code == 400, (answer.status_code, answer.text[:300])
    assert answer.headers["content-type"].startswith("application/json")
    body: dict[str, Any] = answer.json()
    assert body["error"]["code"] == -32700, body
    assert "Traceback" not in answer.text
    return body


@pytest.mark.parametrize("name", list(UNPARSEABLE))
def test_rest_save_answers_400_to_an_unparseable_body(server: Running, name: str) -> None:
    with server.client() as http:
        answer = http.post("/v1/memory", headers={**server.auth(),
                                                  "Content-Type": "application/json"},
                           content=UNPARSEABLE[name])
    assert answer.status_code == 400, (answer.status_code, answer.text[:300])
    body = answer.json()
    assert body["error"] == "parse_error"
    assert body["message"].startswith("the request body is not valid JSON")
    assert "Traceback" not in answer.text


@pytest.mark.parametrize("name", list(UNPARSEABLE))
def test_mcp_without_a_session_answers_parse_error(server: Running, name: str) -> None:
    with server.client() as http:
        _parse_error(http.post("/mcp", headers=_headers(server), content=UNPARSEABLE[name]))


@pytest.mark.parametrize("name", list(UNPARSEABLE))
def test_mcp_in_a_session_answers_parse_error_and_the_session_lives_on(
        server: Running, session: str, name: str) -> None:
    with server.client() as http:
        _parse_error(http.post("/mcp", headers=_headers(server, session),
                               content=UNPARSEABLE[name]))
        listed = http.post("/mcp", headers=_headers(server, session),
                           json={"jsonrpc": "2.0", "id": 8, "method": "tools/list"})
    assert listed.status_code == 200, listed.text
    assert any(tool["name"] == "save_memory" for tool in sse_json(listed)["result"]["tools"])


@pytest.mark.anyio
async def test_an_sdk_client_is_served_after_a_flood_of_garbage(server: Running) -> None:
    with server.client() as http:
        for body in UNPARSEABLE.values():
            assert http.post("/mcp", headers=_headers(server), content=body).status_code == 400
            assert http.post("/v1/memory", headers=server.auth(),
                             content=body).status_code == 400
    async with httpx2.AsyncClient(headers=server.auth(), timeout=30) as client_http, Client(
            streamable_http_client(server.mcp_url, http_client=client_http)) as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
    assert "recall_memory" in names
