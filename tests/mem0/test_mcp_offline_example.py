"""A real MCP session, started with examples/mem0-offline.toml as shipped, saves, supersedes,
recalls and forgets through mem0 (local Qdrant under $JAMGATE_HOME, Jamgate's embedder)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from mcp.client import Client
from mcp_types import Implementation

from jamgate_commands.audit import open_bound
from jamgate_core.app import App
from jamgate_core.settings import load_settings
from jamgate_server.mcp import build_server

pytestmark = [pytest.mark.anyio, pytest.mark.slow]
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "mem0-offline.toml"


@pytest.fixture
async def session(jamgate_home: Path, monkeypatch: pytest.MonkeyPatch
                  ) -> AsyncIterator[tuple[Client, App]]:
    monkeypatch.delenv("JAMGATE_EMBEDDER")  # the example names its embedder itself
    (jamgate_home / "jamgate.toml").write_text(EXAMPLE.read_text(encoding="utf-8"),
                                               encoding="utf-8")
    app = open_bound(load_settings())
    try:
        async with Client(build_server(app), client_info=Implementation(
                name="test-agent", version="1.0")) as client:
            yield client, app
    finally:
        app.close()


async def call(client: Client, tool: str, args: dict[str, Any]) -> Any:
    result = await client.call_tool(tool, args)
    assert not result.is_error, result.content
    return result.structured_content


async def test_save_supersede_recall_forget_through_mem0(
        session: tuple[Client, App], jamgate_home: Path) -> None:
    client, app = session
    assert app.store_name == "mem0"
    assert str(jamgate_home / "mem0" / "qdrant") in app.store.location()
    assert (jamgate_home / "mem0" / "qdrant").is_dir()  # relative path under $JAMGATE_HOME

    athens = await call(client, "save_memory", {"text": "Jam lives in Athens",
                                                "subject": "location"})
    assert athens["decision"] == "saved"
    tea = await call(client, "save_memory", {"text": "Jam drinks green tea every morning",
                                             "type": "preference"})
    assert tea["decision"] == "saved"
    berlin = await call(client, "save_memory", {"text": "Jam moved to Berlin",
                                                "subject": "location"})
    assert berlin["decision"] == "superseded"
    assert berlin["superseded_ids"] == [athens["id"]]
    again = await call(client, "save_memory", {"text": "jam moved to  BERLIN"})
    assert again["decision"] == "duplicate" and again["id"] == berlin["id"]

    recalled = await call(client, "recall_memory", {"query": "which city does Jam live in"})
    ids = [m["id"] for m in recalled["memories"]]
    assert ids[0] == berlin["id"] and athens["id"] not in ids

    # mem0 itself holds both, the old one marked (not lost), with Jamgate's metadata
    rows = app.store.backend.rows(app.store._where("default"), 100)  # type: ignore[attr-defined]
    by_id = {row.payload["jamgate_id"]: row.payload for row in rows}
    assert by_id[athens["id"]]["jamgate_status"] == "superseded"
    assert by_id[athens["id"]]["jamgate"]["superseded_by"] == berlin["id"]
    assert by_id[berlin["id"]]["jamgate_subject"] == "location"
    assert by_id[berlin["id"]]["jamgate"]["client"] == {"name": "test-agent", "version": "1.0"}
    assert {p["user_id"] for p in by_id.values()} == {"jam"}

    listed = await call(client, "list_memories", {"status": "superseded"})
    assert [m["id"] for m in listed["memories"]] == [athens["id"]]
    forgotten = await call(client, "forget_memory", {"id": f"id: {tea['id'][:8]}"})
    assert forgotten == {"forgotten": tea["id"]}
    recalled = await call(client, "recall_memory", {"query": "what does Jam drink"})
    assert tea["id"] not in [m["id"] for m in recalled["memories"]]
    assert app.store.integrity_check() == []
