"""The SDK's own client over real HTTP, in the handshake era and the 2026 protocol."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx2
import pytest
from live_server import Running
from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import Implementation

pytestmark = pytest.mark.anyio
MODES = ["legacy", "2026-07-28"]


@asynccontextmanager
async def connect(server: Running, mode: str, name: str,
                  headers: dict[str, str] | None = None) -> AsyncIterator[Client]:
    http = httpx2.AsyncClient(headers=headers if headers is not None else server.auth(),
                              timeout=httpx2.Timeout(30, read=60))
    async with http, Client(streamable_http_client(server.mcp_url, http_client=http),
                            mode=mode,  # type: ignore[arg-type]
                            client_info=Implementation(name=name, version="3.2")) as client:
        yield client


async def call(client: Client, tool: str, args: dict[str, Any]) -> Any:
    result = await client.call_tool(tool, args)
    assert not result.is_error, result.content
    return result.structured_content


@pytest.mark.parametrize("mode", MODES)
async def test_tools_over_http_keep_client_provenance(server: Running, mode: str) -> None:
    scope = f"http-{mode}"
    async with connect(server, mode, f"agent-{mode}") as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert {"save_memory", "recall_memory", "forget_memory"} <= names
        saved = await call(client, "save_memory", {
            "text": "Jam keeps bees on the roof in Athens", "scope": scope})
        assert saved["decision"] == "saved"
        assert saved["memory"]["client"] == {"name": f"agent-{mode}", "version": "3.2"}
        recalled = await call(client, "recall_memory", {"query": "bees", "scope": scope})
        assert [m["id"] for m in recalled["memories"]] == [saved["id"]]
        gone = await call(client, "forget_memory", {"id": saved["id"], "scope": scope})
        assert gone == {"forgotten": saved["id"]}
    # The record went through the app the server shares.
    assert server.app.recall("bees", scope=scope).memories == []


async def test_mcp_and_rest_share_one_memory(server: Running) -> None:
    async with connect(server, "legacy", "desktop") as client:
        saved = await call(client, "save_memory", {
            "text": "Jam's sister is called Eleni", "scope": "shared-check"})
    with server.client(headers=server.auth()) as http:
        found = http.get("/v1/memory", params={"query": "sister Eleni", "scope": "shared-check"})
    assert [m["id"] for m in found.json()["memories"]] == [saved["id"]]


async def test_wrong_token_cannot_connect(server: Running) -> None:
    with pytest.raises(ExceptionGroup) as raised:  # the SDK's task groups wrap its MCPError
        async with connect(server, "legacy", "intruder",
                           headers={"Authorization": "Bearer not-the-token"}) as client:
            await client.list_tools()
    assert "a valid bearer token is required" in repr(raised.value)


@pytest.mark.parametrize("mode, expected", [
    # Stateless: each POST stands alone, so a handshake-era client's clientInfo is not known
    # when its tool call arrives (the documented cost); the 2026 protocol carries it per request.
    ("legacy", None),
    ("2026-07-28", {"name": "agent-2026-07-28", "version": "3.2"}),
])
async def test_stateless_mode_and_provenance(public_server: Running, mode: str,
                                             expected: dict[str, str] | None) -> None:
    async with connect(public_server, mode, f"agent-{mode}") as client:
        saved = await call(client, "save_memory", {
            "text": f"Jam's favourite tram line is number {len(mode)}", "scope": mode})
        assert saved["decision"] == "saved"
        assert saved["memory"]["client"] == expected
        recalled = await call(client, "recall_memory", {"query": "tram", "scope": mode})
        assert [m["id"] for m in recalled["memories"]] == [saved["id"]]


async def test_a_secret_in_the_client_info_is_refused(public_server: Running) -> None:
    secret = "".join(["hv", "s.", "Q7hV2mLx9RtY4bNc8KpW3sZd6FgJ1aEu"])
    async with connect(public_server, "2026-07-28", secret) as client:
        saved = await call(client, "save_memory", {
            "text": "Jam's favourite ferry is the one to Aegina", "scope": "client-secret"})
    assert saved["decision"] == "rejected" and saved["reason_code"].startswith("secret.")
    assert "Q7hV2mLx9R" not in json.dumps(saved)
