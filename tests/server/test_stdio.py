"""`jamgate serve` as an MCP client starts it: a real subprocess over stdio, default store."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp_types import Implementation

pytestmark = pytest.mark.anyio


def server_params(home: Path) -> StdioServerParameters:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAMGATE_")}
    env["JAMGATE_HOME"] = str(home)
    return StdioServerParameters(command=sys.executable, args=["-m", "jamgate_core.cli", "serve"],
                                 env=env)


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_stdio_server_on_an_empty_home(mode: str, tmp_path: Path) -> None:
    home = tmp_path / f"home-{mode}"
    async with Client(server_params(home), mode=mode,  # type: ignore[arg-type]
                      client_info=Implementation(name=f"stdio-{mode}", version="2")) as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
        assert names == {"save_memory", "check_memory", "recall_memory", "forget_memory",
                         "list_memories"}
        saved = (await client.call_tool("save_memory", {
            "text": "Jam lives in Athens", "subject": "location"})).structured_content
        assert saved["decision"] == "saved"
        assert saved["memory"]["client"] == {"name": f"stdio-{mode}", "version": "2"}
        recalled = (await client.call_tool("recall_memory", {"query": "Athens"})
                    ).structured_content
        assert [m["id"] for m in recalled["memories"]] == [saved["id"]]
        listed = (await client.call_tool("list_memories", {})).structured_content
        assert len(listed["memories"]) == 1
        gone = (await client.call_tool("forget_memory", {"id": saved["id"]})).structured_content
        assert gone == {"forgotten": saved["id"]}
    assert (home / "memory.db").is_file()


async def test_saves_persist_across_server_restarts(tmp_path: Path) -> None:
    home = tmp_path / "home"
    async with Client(server_params(home), mode="legacy") as client:
        saved = (await client.call_tool("save_memory", {
            "text": "Jam prefers window seats on trains", "type": "preference"}
        )).structured_content
    async with Client(server_params(home)) as client:
        recalled = (await client.call_tool("recall_memory", {"query": "window seats"})
                    ).structured_content
    assert [m["id"] for m in recalled["memories"]] == [saved["id"]]
