"""What a client discovers over a real stdio handshake with `jamgate serve`: tool annotations,
the profile resource template, and a percent-encoded scope read back as that scope."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

pytestmark = pytest.mark.anyio

HINTS = {  # tool: (title, readOnly, destructive, idempotent)
    "save_memory": ("Save a memory", False, False, True),
    "check_memory": ("Check a memory", True, False, True),
    "recall_memory": ("Recall memories", True, False, True),
    "forget_memory": ("Forget a memory", False, True, True),
    "list_memories": ("List memories", True, False, True),
}


@pytest.fixture(params=["legacy", "auto"])
async def client(request: pytest.FixtureRequest, jamgate_home: Path) -> AsyncIterator[Client]:
    env = {**os.environ, "JAMGATE_HOME": str(jamgate_home)}
    params = StdioServerParameters(command=sys.executable,
                                   args=["-m", "jamgate_core.cli", "serve"], env=env)
    async with Client(params, mode=request.param) as session:
        yield session


async def test_every_tool_carries_its_annotations(client: Client) -> None:
    tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert set(tools) == set(HINTS)
    for name, (title, read_only, destructive, idempotent) in HINTS.items():
        notes = tools[name].annotations
        assert notes is not None, name
        assert (notes.title, notes.read_only_hint, notes.destructive_hint,
                notes.idempotent_hint, notes.open_world_hint) == (
            title, read_only, destructive, idempotent, False), name
        assert tools[name].title == title


async def test_the_profile_template_is_listed(client: Client) -> None:
    templates = (await client.list_resource_templates()).resource_templates
    assert [t.uri_template for t in templates] == ["memory://profile/{scope}"]
    assert templates[0].mime_type == "text/markdown"


async def test_a_percent_encoded_scope_is_that_scope(client: Client) -> None:
    saved = await client.call_tool("save_memory", {
        "text": "Jam prefers tea over coffee at the client's office", "type": "preference",
        "subject": "drink", "scope": "work/client é", "source": "user-explicit"})
    assert saved.structured_content is not None
    assert saved.structured_content["decision"] == "saved", saved.structured_content
    uri = "memory://profile/work%2Fclient%20%C3%A9"
    contents = (await client.read_resource(uri)).contents
    text = contents[0].text  # type: ignore[union-attr]
    assert "# Profile (scope work/client é)" in text
    assert "tea over coffee" in text
    assert str(contents[0].uri) == uri  # kept as sent
    other = (await client.read_resource("memory://profile/work")).contents
    assert "tea over coffee" not in other[0].text  # type: ignore[union-attr]
    with pytest.raises(MCPError, match="No resource"):
        await client.read_resource("memory://profile/%FF")  # not UTF-8
