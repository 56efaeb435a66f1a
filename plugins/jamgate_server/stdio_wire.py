"""The stdio wire without a thread hand-off per line (issue 21, D-204).

The SDK reads stdin and writes stdout through anyio's file wrapper: every line read and every
write and flush is a trip to a worker thread and back to the event loop, three a tool call, about
a tenth of a lexical save's CPU. Here stdin is read on the event loop — the selector says when the
pipe holds bytes, then one `os.read` takes what is there (the descriptor stays blocking, so the
pipe's other holders see no change) — and each answer is written at once where the pipe is
empty and so cannot block (D-240), else handed to one writer thread that never answers back:
the loop only puts the bytes on a queue. The lines and their errors are the SDK's:
UTF-8 with invalid bytes kept as surrogate escapes, universal newlines, each line validated as a
JSON-RPC message with the line ending on it, an answer written as the SDK writes it.

Where stdin cannot be watched (a regular file, an event loop without readers) `open_wire`
returns None and the SDK's transport serves.
"""

from __future__ import annotations

import array
import asyncio
import codecs
import contextlib
import io
import os
import queue
import stat
import threading
from collections.abc import AsyncIterator, Callable

import mcp_types as types
from mcp.shared.message import SessionMessage

try:
    import fcntl
    import termios
except ImportError:  # pragma: no cover - not POSIX: every answer goes through the thread
    fcntl = None  # type: ignore[assignment]

CHUNK = 1 << 16
PAGE = 4096
# How long the end of a session waits for the last answers to reach a client that reads slowly.
DRAIN_SECONDS = 10.0


def watchable(fd: int) -> bool:
    """Whether the running event loop can watch `fd` for bytes to read."""
    loop = asyncio.get_running_loop()
    try:
        loop.add_reader(fd, lambda: None)
    except (NotImplementedError, OSError, ValueError):
        return False
    loop.remove_reader(fd)
    return True


async def lines(fd: int) -> AsyncIterator[str]:
    """The text lines arriving on `fd` (each with its "\\n"; a last line without one at the end
    of input), as the SDK's text wrapper would read them."""
    loop = asyncio.get_running_loop()
    decoder = io.IncrementalNewlineDecoder(
        codecs.getincrementaldecoder("utf-8")("surrogateescape"), translate=True)
    pending: list[str] = []  # the pieces of a line not ended yet (joined once it ends)
    while True:
        await _readable(loop, fd)
        chunk = os.read(fd, CHUNK)
        text = decoder.decode(chunk, final=not chunk)
        if "\n" in text:
            *complete, rest = ("".join(pending) + text).split("\n")
            pending = [rest] if rest else []
            for line in complete:
                yield line + "\n"
        elif text:
            pending.append(text)
        if not chunk:
            if pending:
                yield "".join(pending)
            return


async def _readable(loop: asyncio.AbstractEventLoop, fd: int) -> None:
    ready: asyncio.Future[None] = loop.create_future()

    def wake() -> None:
        if not ready.done():
            ready.set_result(None)

    loop.add_reader(fd, wake)
    try:
        await ready
    finally:
        loop.remove_reader(fd)


def parse(line: str) -> SessionMessage | Exception:
    """The message on a line, or the error its validation raised (as the SDK reads it)."""
    try:
        return SessionMessage(types.jsonrpc_message_adapter.validate_json(line, by_name=False))
    except Exception as exc:
        return exc


def text(message: SessionMessage) -> str:
    """One message as the SDK writes it: JSON by alias, unset fields left out, one line."""
    return message.message.model_dump_json(by_alias=True, exclude_unset=True) + "\n"


class Writer:
    """Writes byte strings to `fd` in order; `send` never waits. An answer goes out at once
    from the caller's thread when it certainly fits: `fd` is a pipe the client has emptied and
    nothing is queued (`_fits`, D-240). Otherwise it goes on a queue that one daemon thread
    writes, so a client that stops reading cannot stall the event loop. A failed write (the
    client closed its end) stops the writing and calls `on_failure` on the event loop once."""

    def __init__(self, fd: int, on_failure: Callable[[], None]) -> None:
        self._fd = fd
        self._queue: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self._loop = asyncio.get_running_loop()
        self._on_failure = on_failure
        self._failed = False
        self._queued = 0  # sent to the thread and not yet written (under `_count_lock`)
        self._count_lock = threading.Lock()
        self._room = _pipe_room(fd)  # bytes a write to an empty pipe takes whole; 0: not a pipe
        self._thread = threading.Thread(target=self._run, name="jamgate-stdout", daemon=True)
        self._thread.start()

    def send(self, data: bytes) -> None:
        if self._failed:
            return
        with self._count_lock:
            direct = self._queued == 0 and self._fits(data)
            if not direct:
                self._queued += 1
        if not direct:
            self._queue.put(data)
            return
        try:
            _write_all(self._fd, data)
        except OSError:
            self._fail()

    def _fits(self, data: bytes) -> bool:
        """Whether writing `data` now cannot block: the pipe holds no unread byte, so every
        buffer slot is free, and `data` is within its capacity less a page."""
        if len(data) > self._room:
            return False
        try:
            return _unread(self._fd) == 0
        except OSError:
            return False

    def close(self, seconds: float = DRAIN_SECONDS) -> None:
        """Write what is queued (waiting at most `seconds`), then stop the thread."""
        self._queue.put(None)
        self._thread.join(seconds)

    def _fail(self) -> None:
        if not self._failed:
            self._failed = True
            with contextlib.suppress(RuntimeError):  # the loop already closed
                self._loop.call_soon_threadsafe(self._on_failure)

    def _run(self) -> None:
        while (data := self._queue.get()) is not None:
            try:
                _write_all(self._fd, data)
            except OSError:
                self._fail()
                return
            finally:
                with self._count_lock:
                    self._queued -= 1


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _unread(fd: int) -> int:
    """Bytes written to the pipe `fd` and not yet read by the other end (Linux, macOS)."""
    count = array.array("i", [0])
    fcntl.ioctl(fd, termios.FIONREAD, count, True)
    return count[0]


def _pipe_room(fd: int) -> int:
    """How much one write to `fd` may carry when its pipe is empty: the pipe's capacity less
    a page; 0 where `fd` is not a pipe or the platform cannot say (every write then goes
    through the writer thread)."""
    if fcntl is None or not hasattr(fcntl, "F_GETPIPE_SZ"):
        return 0
    try:
        if not stat.S_ISFIFO(os.fstat(fd).st_mode):
            return 0
        _unread(fd)
        return max(fcntl.fcntl(fd, fcntl.F_GETPIPE_SZ) - PAGE, 0)
    except OSError:
        return 0
