"""The five MCP tools through the SDK's own client, in both protocol eras."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from mcp.client import Client
from mcp_types import Implementation

from jamgate_core.app import App, open_app
from jamgate_core.settings import load_settings
from jamgate_server.mcp import build_server

pytestmark = pytest.mark.anyio
MODES = ["legacy", "auto"]


@pytest.fixture
def app(monkeypatch: pytest.MonkeyPatch) -> Iterator[App]:
    monkeypatch.setenv("JAMGATE_STORE", "memory")
    application = open_app(load_settings())
    yield application
    application.close()


@pytest.fixture(params=MODES)
async def client(request: pytest.FixtureRequest, app: App) -> AsyncIterator[Client]:
    async with Client(build_server(app), mode=request.param,
                      client_info=Implementation(name="test-agent", version="9.1")) as c:
        yield c


async def call(client: Client, tool: str, args: dict[str, Any]) -> tuple[bool, str, Any]:
    result = await client.call_tool(tool, args)
    text = result.content[0].text  # type: ignore[union-attr]
    return result.is_error, text, result.structured_content


async def test_five_tools_listed_with_schemas(client: Client) -> None:
    tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert set(tools) == {"save_memory", "check_memory", "recall_memory", "forget_memory",
                          "list_memories"}
    assert tools["save_memory"].input_schema["required"] == ["text"]
    assert "decision" in tools["save_memory"].output_schema["properties"]  # type: ignore[index]


async def test_save_recall_list_forget_round_trip(client: Client) -> None:
    error, text, saved = await call(client, "save_memory",
                                    {"text": "Jam lives in Athens", "subject": "location"})
    assert not error and saved["decision"] == "saved"
    assert text.splitlines()[-1] == f"id: {saved['id']}"
    assert saved["memory"]["client"] == {"name": "test-agent", "version": "9.1"}

    _, text, recalled = await call(client, "recall_memory", {"query": "where does jam live"})
    assert [m["id"] for m in recalled["memories"]] == [saved["id"]]
    assert f"  id: {saved['id']}" in text.splitlines()

    _, _, listed = await call(client, "list_memories", {})
    assert [m["id"] for m in listed["memories"]] == [saved["id"]]

    error, text, forgotten = await call(client, "forget_memory", {"id": f"[id {saved['id']}]."})
    assert not error and forgotten == {"forgotten": saved["id"]}
    _, _, recalled = await call(client, "recall_memory", {"query": "athens"})
    assert recalled["memories"] == []


async def test_supersede_duplicate_and_conflict_verdicts(client: Client) -> None:
    _, _, first = await call(client, "save_memory", {
        "text": "Jam lives in Athens", "subject": "location", "source": "user-explicit"})
    _, _, dup = await call(client, "save_memory", {"text": "jam  LIVES in athens"})
    assert (dup["decision"], dup["reason_code"], dup["id"]) == ("duplicate", "dedup.exact",
                                                                first["id"])
    _, text, conflict = await call(client, "save_memory",
                                   {"text": "Jam lives in Berlin", "subject": "Location"})
    assert conflict["decision"] == "conflict" and conflict["reason_code"] == "trust.conflict"
    assert conflict["id"] == first["id"] and "Confirm with the user" in text
    _, _, newer = await call(client, "save_memory", {
        "text": "Jam lives in Berlin", "subject": "location", "source": "user-explicit"})
    assert newer["decision"] == "superseded" and newer["superseded_ids"] == [first["id"]]
    _, _, history = await call(client, "list_memories", {"status": "superseded"})
    assert [m["id"] for m in history["memories"]] == [first["id"]]


async def test_check_memory_is_a_dry_run(client: Client) -> None:
    _, text, checked = await call(client, "check_memory", {"text": "Jam drinks green tea"})
    assert checked["decision"] == "saved" and text.startswith("(dry run")
    _, _, listed = await call(client, "list_memories", {})
    assert listed["memories"] == []


@pytest.mark.parametrize(("args", "expected"), [
    ({}, "no arguments were provided"),
    ({"text": {"a": 1}}, '"text" was an object, not a string'),
    ({"txt": "Jam lives in Athens", "other": 1}, "received keys: txt, other"),
    ({"text": "Jam lives in Athens", "type": "fact"}, 'unknown type "fact"'),
    ({"text": "Jam lives in Athens", "source": "boss"}, 'unknown source "boss"'),
    ({"text": "Jam lives in Athens", "subject": 5}, '"subject" must be a string'),
    ({"text": "Jam lives in Athens", "subject": "x" * 300}, '"subject" is 300 characters'),
    ({"text": "Jam lives in Athens", "scope": "a\u0000b"}, "control characters"),
])
async def test_bad_save_input_is_a_tool_error(client: Client, args: dict[str, Any],
                                              expected: str) -> None:
    error, text, _ = await call(client, "save_memory", args)
    assert error and expected in text


async def test_aliases_accepted_and_extra_keys_ignored(client: Client) -> None:
    _, _, saved = await call(client, "save_memory",
                             {"content": "Jam prefers oat milk", "unknown_key": [1]})
    assert saved["decision"] == "saved"
    _, _, saved = await call(client, "save_memory", {"text": " ", "memory": "Jam owns a cat"})
    assert saved["memory"]["text"] == "Jam owns a cat"


@pytest.mark.parametrize(("tool", "args", "expected"), [
    ("recall_memory", {"limit": -3}, '"limit" must be a positive integer'),
    ("recall_memory", {"limit": "many"}, '"limit" must be a positive integer'),
    ("list_memories", {"status": "deleted"}, 'unknown status "deleted"'),
    ("list_memories", {"cursor": "not-a-cursor"}, "cursor"),
    ("forget_memory", {}, '"id" is required'),
    ("forget_memory", {"id": "../../etc/passwd"}, "is not a memory id"),
    ("forget_memory", {"id": "0123456789abcdef"}, 'in scope "default"'),
    ("no_such_tool", {}, "Unknown tool"),
])
async def test_bad_input_on_other_tools(client: Client, tool: str, args: dict[str, Any],
                                        expected: str) -> None:
    error, text, _ = await call(client, tool, args)
    assert error and expected in text
    error, _, _ = await call(client, "recall_memory", {})
    assert not error  # the server is still alive


async def test_limits_clamped_and_prefixes_resolved(client: Client) -> None:
    ids = []
    for n in range(3):
        _, _, saved = await call(client, "save_memory", {"text": f"Jam visited city number {n}"})
        ids.append(saved["id"])
    _, _, recalled = await call(client, "recall_memory", {"limit": 10_000})
    assert len(recalled["memories"]) == 3
    assert [m["id"] for m in recalled["memories"]] == ids[::-1]  # newest first
    error, text, _ = await call(client, "forget_memory", {"id": ids[0][:7]})
    assert error and "No memory" in text
    error, _, forgotten = await call(client, "forget_memory", {"id": f'"{ids[0][:8]}"'})
    assert not error and forgotten["forgotten"] == ids[0]


async def test_scopes_confine_every_tool(client: Client) -> None:
    _, _, work = await call(client, "save_memory",
                            {"text": "Jam uses Emacs at work", "scope": "Work/Greek"})
    assert work["memory"]["scope"] == "work/greek"
    _, _, other = await call(client, "recall_memory", {"query": "emacs"})
    assert other["memories"] == []
    error, _, _ = await call(client, "forget_memory", {"id": work["id"]})
    assert error
    _, _, mine = await call(client, "recall_memory", {"query": "emacs", "scope": "work/greek"})
    assert [m["id"] for m in mine["memories"]] == [work["id"]]


async def test_profile_resource(client: Client) -> None:
    await call(client, "save_memory", {"text": "Jam is a compiler engineer", "type": "identity"})
    await call(client, "save_memory", {"text": "Jam wants short answers", "type": "preference"})
    await call(client, "save_memory", {"text": "Jam is fixing the parser", "type": "state"})
    resources = (await client.list_resources()).resources
    assert [str(r.uri) for r in resources] == ["memory://profile"]
    contents = (await client.read_resource("memory://profile")).contents
    text = contents[0].text  # type: ignore[union-attr]
    assert "compiler engineer" in text and "short answers" in text
    assert "fixing the parser" not in text
