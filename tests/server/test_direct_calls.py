"""Plain tool calls answered on the stdio wire without the SDK's dispatch (D-275): the same
bytes as the SDK's answers in every handshake protocol version, and the SDK for every call
that is not plain."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import mcp_types as types
import pytest
from mcp.shared.message import SessionMessage
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from jamgate_commands.stdio_client import server_env
from jamgate_core.app import App, open_app
from jamgate_core.settings import load_settings
from jamgate_server.direct_calls import DirectCalls
from jamgate_server.mcp import tool_table

_VOLATILE = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
                       r"|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z?"
                       r"|(?<=cursor )[\w=-]+|(?<=\"next_cursor\":\")[^\"]+")


class _Wire:
    """A `jamgate serve` process spoken to one raw line at a time."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self.next_id = 0

    def ask(self, method: str, params: Any) -> bytes:
        """Send a request, return the raw answer line."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.next_id += 1
        request = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        self.process.stdin.write(json.dumps(request, ensure_ascii=False).encode() + b"\n")
        self.process.stdin.flush()
        return self.process.stdout.readline()


@contextmanager
def _serve(home: Path, version: str) -> Iterator[_Wire]:
    process = subprocess.Popen([sys.executable, "-m", "jamgate_core.cli", "serve"],
                               env=server_env(home, store="sqlite", embedder="none"),
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)
    wire = _Wire(process)
    try:
        wire.ask("initialize", {"protocolVersion": version, "capabilities": {},
                                "clientInfo": {"name": "parity", "version": "2.0"}})
        assert process.stdin is not None
        process.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        process.stdin.flush()
        yield wire
    finally:
        assert process.stdin is not None
        process.stdin.close()
        process.wait(timeout=30)


_CALLS: list[tuple[str, Any]] = [
    ("save_memory", {"text": "Jam plays the bouzouki on Sundays", "type": "preference"}),
    ("save_memory", {"text": "Jam plays the bouzouki on Sundays"}),
    ("save_memory", {"text": "thanks a lot!"}),
    ("save_memory", {"text": 'Jam\'s café is "Ο Μάρκος" \\ in Πλάκα\tsince 2019 🎻'}),
    ("save_memory", {"text": "I live in Athens", "subject": "location",
                     "source": "user-explicit"}),
    ("save_memory", {"text": "I moved to Thessaloniki in May", "subject": "location",
                     "source": "user-explicit"}),
    ("check_memory", {"text": "Jam's sister is called Eleni"}),
    ("recall_memory", {"query": "where do I live", "limit": 3}),
    ("recall_memory", {"query": ""}),
    ("list_memories", {"status": "all", "limit": 2}),
    ("forget_memory", {"id": "00000000"}),
    ("save_memory", {"text": 42}),
    ("save_memory", None),
    ("recall_memory", {"limit": "many"}),
    ("no_such_tool", {}),
]


def _normalised(line: bytes) -> str:
    return _VOLATILE.sub("<v>", line.decode("utf-8"))


@pytest.mark.parametrize("version", [HANDSHAKE_PROTOCOL_VERSIONS[0],
                                     HANDSHAKE_PROTOCOL_VERSIONS[-1]])
def test_direct_answers_are_the_sdks_bytes(tmp_path: Path, version: str) -> None:
    """The same calls, plain (answered on the wire) and with an empty `_meta` (which sends
    them through the SDK), on two fresh stores: the same answers, byte for byte once ids and
    times are masked."""
    answers: list[list[str]] = []
    for name, extra in (("direct", {}), ("sdk", {"_meta": {}})):
        with _serve(tmp_path / name, version) as wire:
            answers.append([_normalised(wire.ask("tools/call", {
                "name": tool, **({} if arguments is None else {"arguments": arguments}),
                **extra})) for tool, arguments in _CALLS])
    direct, sdk = answers
    assert direct == sdk
    assert '"decision":"saved"' in direct[0] and '"decision":"duplicate"' in direct[1]
    assert '"superseded_ids":["<v>"]' in direct[5] and "Thessaloniki" in direct[7]
    assert '"isError":true' in direct[11]


def _request(request_id: int, method: str, params: dict[str, Any]) -> SessionMessage:
    return SessionMessage(types.JSONRPCRequest(jsonrpc="2.0", id=request_id, method=method,
                                               params=params))


def _line(request_id: int, params: dict[str, Any], **extra: Any) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
                       "params": params, **extra}) + "\n"


@pytest.fixture
def app(jamgate_home: Path) -> Iterator[App]:
    app = open_app(load_settings(store="sqlite", embedder="none"))
    yield app
    app.close()


def _opened(app: App) -> DirectCalls:
    """Direct calls after a handshake the SDK answered."""
    direct = DirectCalls(app, tool_table(app))
    direct.seen(_request(1, "initialize", {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "probe", "version": "3"}}))
    direct.sent(SessionMessage(types.JSONRPCResponse(
        jsonrpc="2.0", id=1, result={"protocolVersion": "2025-06-18"})))
    return direct


def test_only_plain_calls_after_the_handshake_are_answered(app: App) -> None:
    save = {"name": "save_memory", "arguments": {"text": "Jam drinks green tea"}}
    fresh = DirectCalls(app, tool_table(app))
    assert fresh.answer(_line(2, save)) is None  # before the handshake: the SDK's to refuse
    direct = _opened(app)
    answer = direct.answer(_line(2, save))
    assert answer is not None and answer.endswith("\n")
    reply = json.loads(answer)
    assert reply["id"] == 2 and reply["result"]["structuredContent"]["decision"] == "saved"
    assert reply["result"]["structuredContent"]["memory"]["client"] == {
        "name": "probe", "version": "3"}  # the handshake's client, as the SDK records it
    not_plain = [
        _line(3, {**save, "_meta": {"progressToken": 1}}),
        _line(3, {"name": "no_such_tool", "arguments": {}}),
        _line(3, {"name": "save_memory", "arguments": ["a list"]}),
        _line(3, save, extra="field"),
        json.dumps({"jsonrpc": "2.0", "id": True, "method": "tools/call", "params": save}),
        _line(3, save).replace('"Jam drinks', '"\\ud800 Jam drinks'),  # a lone surrogate
        _line(3, save).replace("Jam", "J\udcffam"),  # an invalid byte, as the wire reads it
        _line(3, {"name": "recall_memory", "arguments": {"limit": 1}}).replace("1}", "NaN}"),
        json.dumps({"jsonrpc": "2.0", "method": "tools/call", "params": save}),  # no id
    ]
    assert [direct.answer(line) for line in not_plain] == [None] * len(not_plain)


def test_a_request_the_sdk_holds_keeps_the_order(app: App) -> None:
    """While the SDK has an unanswered request, calls wait their turn behind it."""
    direct = _opened(app)
    recall = _line(5, {"name": "recall_memory", "arguments": {"query": "tea"}})
    direct.seen(_request(4, "resources/read", {"uri": "jamgate://profile"}))
    assert direct.answer(recall) is None
    direct.sent(SessionMessage(types.JSONRPCResponse(jsonrpc="2.0", id=4, result={})))
    assert direct.answer(recall) is not None


def test_a_second_handshake_hands_calls_back_to_the_sdk(app: App) -> None:
    direct = _opened(app)
    direct.seen(_request(7, "initialize", {"protocolVersion": "2025-06-18",
                                           "capabilities": {}}))
    assert direct.answer(_line(8, {"name": "recall_memory", "arguments": {}})) is None
