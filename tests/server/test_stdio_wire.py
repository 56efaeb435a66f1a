"""The stdio wire read on the event loop and written by one thread (D-204): the SDK's lines,
every answer written before the process ends, a pipelining client served, and the SDK's
transport where stdin is a file."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from jamgate_commands.stdio_client import PROTOCOL_VERSION, server_env
from jamgate_server import stdio_wire


def _read_lines(pieces: list[bytes]) -> list[str]:
    """What `stdio_wire.lines` yields for `pieces` written one by one into a real pipe."""

    async def run() -> list[str]:
        read_fd, write_fd = os.pipe()
        loop = asyncio.get_running_loop()

        def feed() -> None:  # a thread: a piece larger than the pipe blocks until read
            for piece in pieces:
                os.write(write_fd, piece)
                time.sleep(0.01)  # each piece its own read
            os.close(write_fd)

        task = loop.run_in_executor(None, feed)
        try:
            assert stdio_wire.watchable(read_fd)
            return [line async for line in stdio_wire.lines(read_fd)]
        finally:
            await task
            os.close(read_fd)

    return asyncio.run(run())


def test_lines_are_split_as_the_sdk_text_wrapper_splits_them() -> None:
    """Universal newlines (a CR LF split across reads is one ending), a character split
    across reads, invalid bytes kept as surrogate escapes, a last line without an ending."""
    pieces = [b'{"a": 1}\r', b'\n{"b": "caf\xc3', b'\xa9"}\rbad \xff\n\n', b"tail"]
    expected = ['{"a": 1}\n', '{"b": "café"}\n', "bad \udcff\n", "\n", "tail"]
    assert _read_lines(pieces) == expected


def test_a_long_line_arrives_whole() -> None:
    line = b'{"text": "' + b"x" * (3 * stdio_wire.CHUNK) + b'"}\n'
    assert _read_lines([line]) == [line.decode()]


def test_a_regular_file_is_not_watched(tmp_path: Path) -> None:
    path = tmp_path / "requests.jsonl"
    path.write_bytes(b"{}\n")

    async def run() -> bool:
        with path.open("rb") as handle:
            return stdio_wire.watchable(handle.fileno())

    assert asyncio.run(run()) is False


def test_the_writer_keeps_order_and_reports_a_closed_pipe() -> None:
    async def run() -> tuple[bytes, bool]:
        read_fd, write_fd = os.pipe()
        failed = asyncio.Event()
        writer = stdio_wire.Writer(write_fd, failed.set)
        for n in range(200):
            writer.send(b"%d\n" % n)
        received = b""
        while received.count(b"\n") < 200:
            received += os.read(read_fd, 65536)
        os.close(read_fd)
        writer.send(b"x" * 200_000)  # the reader is gone: the write fails
        await asyncio.wait_for(failed.wait(), 10)
        writer.close()
        os.close(write_fd)
        return received, failed.is_set()

    received, failed = asyncio.run(run())
    assert received == b"".join(b"%d\n" % n for n in range(200))
    assert failed


def test_an_answer_to_a_client_that_has_read_everything_is_written_at_once() -> None:
    async def run() -> list[bytes]:
        read_fd, write_fd = os.pipe()
        writer = stdio_wire.Writer(write_fd, lambda: None)
        seen = []
        for n in range(50):
            writer.send(b"%d\n" % n)
            os.set_blocking(read_fd, False)  # written already: no wait for a thread
            seen.append(os.read(read_fd, 65536))
        writer.close()
        os.close(read_fd)
        os.close(write_fd)
        return seen

    assert asyncio.run(run()) == [b"%d\n" % n for n in range(50)]


def test_a_client_that_stops_reading_never_stalls_the_sender() -> None:
    """Past the pipe's capacity every answer waits on the writer thread, in order."""
    chunks = [bytes([65 + n % 26]) * 4000 + b"\n" for n in range(100)]  # ~400 kB, > 64 KiB

    async def run() -> bytes:
        read_fd, write_fd = os.pipe()
        writer = stdio_wire.Writer(write_fd, lambda: None)
        sender = threading.Thread(target=lambda: [writer.send(c) for c in chunks])
        sender.start()
        sender.join(10)
        assert not sender.is_alive(), "send blocked on a full pipe"
        received = b""
        while len(received) < sum(map(len, chunks)):
            received += os.read(read_fd, 65536)
        writer.close()
        os.close(read_fd)
        os.close(write_fd)
        return received

    assert asyncio.run(run()) == b"".join(chunks)


def _requests(count: int) -> bytes:
    messages: list[dict[str, Any]] = [
        {"jsonrpc": "2.0", "id": 0, "method": "initialize",
         "params": {"protocolVersion": PROTOCOL_VERSION, "capabilities": {},
                    "clientInfo": {"name": "wire-test", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"}]
    messages += [{"jsonrpc": "2.0", "id": n, "method": "tools/call",
                  "params": {"name": "save_memory",
                             "arguments": {"text": f"Jam's locker number {n} is by the door"}}}
                 for n in range(1, count + 1)]
    return b"".join(json.dumps(m).encode() + b"\n" for m in messages)


def _answers(stdout: bytes) -> dict[int, dict[str, Any]]:
    return {m["id"]: m for m in map(json.loads, stdout.splitlines())}


@pytest.mark.slow
def test_a_client_sending_everything_before_reading_gets_every_answer(tmp_path: Path) -> None:
    """200 saves written before any answer is read, then stdin closed: the answers (more
    than a pipe holds) all arrive, in order, and the server exits cleanly."""
    process = subprocess.run(
        [sys.executable, "-m", "jamgate_core.cli", "serve"], input=_requests(200),
        env=server_env(tmp_path, store="sqlite"), capture_output=True, timeout=300, check=False)
    assert process.returncode == 0, process.stderr.decode()[-2000:]
    answers = _answers(process.stdout)
    assert list(answers) == list(range(201))
    assert len(process.stdout) > 65536
    assert all(answers[n]["result"]["structuredContent"]["decision"] in ("saved", "superseded")
               for n in range(1, 201))


def test_stdin_from_a_file_is_served_by_the_sdk_transport(tmp_path: Path) -> None:
    requests = tmp_path / "requests.jsonl"
    requests.write_bytes(_requests(3) + b"not json\n")
    with requests.open("rb") as stdin:
        process = subprocess.run(
            [sys.executable, "-m", "jamgate_core.cli", "serve"], stdin=stdin,
            env=server_env(tmp_path, store="sqlite"), capture_output=True, timeout=120,
            check=False)
    assert process.returncode == 0, process.stderr.decode()[-2000:]
    lines = [json.loads(line) for line in process.stdout.splitlines()]
    assert [m.get("id") for m in lines] == [0, 1, 2, 3, None]
    assert lines[-1]["error"]["code"] == -32700
