"""Property-based calls of every tool with arbitrary arguments, through a real MCP session:
the server never dies, and every failure is a tool error with a message (never a JSON-RPC
error, never an internal error).

Volume runs in-process (`Client(build_server(app))` over the SQLite store); a smaller run
goes through `jamgate serve` over stdio with raw JSON-RPC, where the arguments need not even
be an object.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp.client import Client
from reliability_kit import StdioSession, server_env, spawn_server

from jamgate_core.app import open_app
from jamgate_core.settings import load_settings
from jamgate_server.mcp import TOOLS, build_server

TOOL_NAMES = [spec.name for spec in TOOLS]
KEYS = ["text", "content", "memory", "type", "subject", "source", "scope", "query", "limit",
        "id", "status", "cursor"]
GOOD = {
    "type": st.sampled_from(["identity", "preference", "project", "state"]),
    "source": st.sampled_from(["agent-inferred", "user-confirmed", "user-explicit"]),
    "status": st.sampled_from(["active", "superseded", "expired", "all"]),
    "limit": st.integers(min_value=-5, max_value=10**12),
}
SCALARS = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
           | st.text(max_size=300))
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)


def value_for(key: str) -> st.SearchStrategy[Any]:
    """Plausible values for `key` mixed with anything JSON can carry."""
    plausible = GOOD.get(key, st.text(max_size=2000))
    return st.one_of(plausible, plausible, JSON)


ARGUMENTS = st.one_of(
    st.fixed_dictionaries({}, optional={key: value_for(key) for key in KEYS}),
    st.dictionaries(st.text(max_size=12), JSON, max_size=5),
)
SUPPRESS = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]


def check_result(result: Any, tool: str) -> None:
    """A result is structured content and text, or a tool error whose text says why."""
    texts = [block.text for block in result.content]
    assert texts and all(isinstance(t, str) and t.strip() for t in texts), result
    if result.is_error:
        assert "internal error" not in texts[0] and "crashed" not in texts[0], (tool, texts)
    else:
        assert isinstance(result.structured_content, dict), (tool, result)


@pytest.fixture
def portal() -> Iterator[BlockingPortal]:
    with start_blocking_portal("asyncio") as running:
        yield running


@pytest.fixture
def client(portal: BlockingPortal, monkeypatch: pytest.MonkeyPatch) -> Iterator[Client]:
    monkeypatch.setenv("JAMGATE_STORE", "memory.db")
    app = open_app(load_settings())
    try:
        with portal.wrap_async_context_manager(Client(build_server(app))) as connected:
            yield connected
    finally:
        app.close()


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=SUPPRESS)
@given(tool=st.sampled_from(TOOL_NAMES), arguments=ARGUMENTS)
def test_any_arguments_in_process(portal: BlockingPortal, client: Client, tool: str,
                                  arguments: dict[str, Any]) -> None:
    result = portal.call(client.call_tool, tool, arguments)
    check_result(result, tool)
    alive = portal.call(client.call_tool, "recall_memory", {"limit": 1})
    assert not alive.is_error


@settings(max_examples=60, deadline=None, suppress_health_check=SUPPRESS)
@given(tool=st.sampled_from(TOOL_NAMES), arguments=ARGUMENTS)
def test_saved_then_forgotten_by_what_the_server_printed(portal: BlockingPortal, client: Client,
                                                         tool: str, arguments: Any) -> None:
    """Whatever a fuzzed save stored, the id it printed forgets it."""
    result = portal.call(client.call_tool, "save_memory", arguments)
    check_result(result, "save_memory")
    verdict = result.structured_content or {}
    if not result.is_error and verdict.get("decision") in ("saved", "superseded"):
        printed = result.content[0].text.splitlines()[-1]
        assert printed == f"id: {verdict['id']}"
        gone = portal.call(client.call_tool, "forget_memory",
                           {"id": printed, "scope": verdict["memory"]["scope"]})
        assert not gone.is_error, gone.content[0].text


# ---- over stdio, raw JSON-RPC ---------------------------------------------------------------

@pytest.fixture
def stdio(tmp_path: Path) -> Iterator[StdioSession]:
    session = spawn_server(server_env(tmp_path / "home"), client="fuzz")
    yield session
    assert session.process.poll() is None, "the server died"
    session.close()


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=SUPPRESS)
@given(tool=st.sampled_from([*TOOL_NAMES, "no_such_tool"]),
       arguments=st.one_of(ARGUMENTS, JSON))
def test_any_arguments_over_stdio(stdio: StdioSession, tool: str, arguments: Any) -> None:
    answer = stdio.exchange("tools/call", {"name": tool, "arguments": arguments})
    if "error" in answer:
        # Only arguments that are not an object at all may be refused by the SDK itself, as
        # invalid parameters: the protocol requires an object. Never an internal error.
        assert not isinstance(arguments, dict) and arguments is not None, answer
        assert answer["error"]["code"] == -32602, answer
        return
    result = answer["result"]
    texts = [block["text"] for block in result["content"]]
    assert texts and texts[0].strip(), result
    if result.get("isError"):
        assert "internal error" not in texts[0], (tool, arguments, texts)
    else:
        assert isinstance(result.get("structuredContent"), dict), result
