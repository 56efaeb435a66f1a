"""Every malformed line on stdio gets a JSON-RPC error and the server keeps serving (issue #18,
item 10: a request with a lone surrogate was never answered, its client waited forever; a
request with invalid UTF-8 was served with the bytes turned into U+FFFD).

A raw `jamgate serve` subprocess fed bytes on stdin; every read has a deadline, so a missing
answer fails the test instead of hanging it."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

READ_SECONDS = 10
VERSION = "2025-06-18"


class Wire:
    """The server's stdin and stdout, one JSON line at a time."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        assert process.stdin is not None and process.stdout is not None
        self.stdin = process.stdin
        self.stdout = process.stdout

    def send(self, line: bytes) -> None:
        self.stdin.write(line + b"\n")
        self.stdin.flush()

    def request(self, request_id: int, method: str, params: dict[str, Any]) -> None:
        self.send(json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method,
                              "params": params}).encode())

    def read(self, seconds: float = READ_SECONDS) -> dict[str, Any]:
        ready, _, _ = select.select([self.stdout], [], [], seconds)
        if not ready:
            pytest.fail(f"no answer within {seconds} s: the client would wait forever")
        line = self.stdout.readline()
        assert line, "the server closed stdout"
        message: dict[str, Any] = json.loads(line)
        return message

    def nothing(self, seconds: float = 1.0) -> None:
        ready, _, _ = select.select([self.stdout], [], [], seconds)
        assert not ready, self.stdout.readline()


@pytest.fixture
def wire(tmp_path: Path) -> Iterator[Wire]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAMGATE_")}
    env.update(JAMGATE_HOME=str(tmp_path / "home"), JAMGATE_EMBEDDER="none")
    process = subprocess.Popen([sys.executable, "-m", "jamgate_core.cli", "serve"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=env)
    wire = Wire(process)
    try:
        wire.request(0, "initialize", {"protocolVersion": VERSION, "capabilities": {},
                                       "clientInfo": {"name": "raw-bytes", "version": "1"}})
        assert wire.read(60)["id"] == 0
        wire.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
        yield wire
    finally:
        with_stdin = process.stdin
        if with_stdin is not None:
            with_stdin.close()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


SAVE = b'{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"save_memory",' \
       b'"arguments":{"text":"%s"}}}'
# (the line, the id the error must carry, the JSON-RPC code)
MALFORMED: dict[str, tuple[bytes, int | None, int]] = {
    "a lone high surrogate escape": (SAVE % (1, b"Jam lives in \\ud800 Athens"), 1, -32700),
    "a lone low surrogate escape": (SAVE % (2, b"\\udfff"), 2, -32700),
    "invalid UTF-8 bytes": (SAVE % (3, b"Jam likes \xff\xfe tea"), 3, -32700),
    "a truncated UTF-8 sequence": (SAVE % (4, b"caf\xc3"), 4, -32700),
    "a surrogate in a string id": (b'{"jsonrpc":"2.0","id":"\\ud800","method":"tools/list"}',
                                   None, -32700),
    "truncated JSON": (b'{"jsonrpc":"2.0","id":5,"method":"tools/li', None, -32700),
    "not JSON at all": (b"hello there", None, -32700),
    "JSON but no message": (b'{"jsonrpc":"2.0","id":6}', 6, -32600),
    "a JSON array": (b"[1, 2, 3]", None, -32600),
    "nested 5000 deep": (b"[" * 5000 + b"]" * 5000, None, -32700),
}


@pytest.mark.parametrize("name", list(MALFORMED))
def test_a_malformed_line_gets_an_error_and_the_next_request_is_served(
        wire: Wire, name: str) -> None:
    line, request_id, code = MALFORMED[name]
    wire.send(line)
    answer = wire.read()
    assert answer["id"] == request_id
    assert answer["error"]["code"] == code
    wire.request(100, "tools/list", {})
    listed = wire.read()
    assert listed["id"] == 100 and "tools" in listed["result"]


def test_nothing_unreadable_is_saved_and_a_good_save_still_is(wire: Wire) -> None:
    for line, _, _ in MALFORMED.values():
        wire.send(line)
        wire.read()
    wire.request(7, "tools/call", {"name": "save_memory",
                                   "arguments": {"text": "Jam's cat is called Miso",
                                                 "type": "identity"}})
    saved = wire.read()
    assert saved["id"] == 7 and saved["result"]["structuredContent"]["decision"] == "saved"
    wire.request(8, "tools/call", {"name": "list_memories", "arguments": {}})
    memories = wire.read()["result"]["structuredContent"]["memories"]
    assert [m["text"] for m in memories] == ["Jam's cat is called Miso"]


def test_a_malformed_notification_gets_no_answer(wire: Wire) -> None:
    wire.send(b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":'
              b'{"requestId":"\\ud800"}}')
    wire.nothing()
    wire.request(9, "ping", {})
    assert wire.read() == {"jsonrpc": "2.0", "id": 9, "result": {}}


@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="needs /proc")
def test_the_wire_is_private_while_serving(wire: Wire) -> None:
    """fd 0 on the null device and fd 1 on stderr: nothing else in the process reads the
    requests or writes into the answers."""
    fds = Path(f"/proc/{wire.process.pid}/fd")
    assert os.readlink(fds / "0") == os.devnull
    assert os.readlink(fds / "1") == os.readlink(fds / "2")
    wire.request(10, "ping", {})
    assert wire.read()["id"] == 10
