"""The stdio transport: the SDK's, plus an answer for every line it cannot read.

The SDK reads stdin as UTF-8 with invalid bytes replaced, and drops a line it cannot validate
after logging it: a request with a lone surrogate (`"\\ud800"`) was never answered and its
client waited forever. Here stdin is read with `surrogateescape`, so invalid UTF-8 fails
validation instead of turning into U+FFFD text, and every line that fails gets a JSON-RPC
error: -32700 when it is not UTF-8 JSON text, -32600 when it is JSON but no valid message. The
error carries the request's id when a lenient parse finds one (so the client's call ends),
else `null`; a notification or a response that fails gets no answer, as JSON-RPC says.

The lines come from the front end (`early.py`), which claimed stdin and stdout at the start
and may have answered the session's first requests before the SDK was loaded. Once it stops
reading, a pipe is read on the event loop and the answers written by one thread
(`stdio_wire`, D-204); otherwise (a regular file) the SDK's streams read and write through the
front end.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from typing import IO, TYPE_CHECKING, Any, cast

import anyio
import mcp_types as types
from mcp.server.stdio import stdio_server
from mcp.shared._stream_protocols import ReadStream, WriteStream
from mcp.shared.message import SessionMessage
from mcp_types.jsonrpc import INVALID_REQUEST, PARSE_ERROR
from pydantic import ValidationError

from jamgate_server import stdio_wire
from jamgate_server.early import FrontEnd

if TYPE_CHECKING:
    from jamgate_server.direct_calls import DirectCalls

Item = SessionMessage | Exception
# pydantic's error types for a line that is not JSON text, or not UTF-8.
_NOT_JSON_TEXT = ("json_invalid", "string_unicode")


def error_for(exc: Exception) -> types.JSONRPCError | None:
    """The answer to a line the SDK could not read, or None when none is due."""
    text, parsed = _input_of(exc)
    strict = text is not None
    if text is not None:
        try:
            document: Any = json.loads(text)  # lenient: accepts what strict parsing refused
        except (ValueError, RecursionError):
            return _error(None, PARSE_ERROR, "Parse error: the line is not JSON text")
    else:
        document = parsed
    if isinstance(document, dict):
        if "method" not in document and ("result" in document or "error" in document):
            return None  # a malformed response from the client: nothing to answer
        if "method" in document and "id" not in document:
            return None  # a notification gets no answer, even an error
        request_id = _usable_id(document.get("id"))
    else:
        request_id = None
    if strict:
        return _error(request_id, PARSE_ERROR,
                      "Parse error: the message is not valid UTF-8 JSON text (invalid bytes or "
                      "a lone surrogate escape such as \\ud800); nothing was done")
    return _error(request_id, INVALID_REQUEST,
                  "Invalid request: the line is JSON but not a valid JSON-RPC message")


def _input_of(exc: Exception) -> tuple[str | None, Any]:
    """(the raw line when it did not parse as JSON text, else None; the parsed message when
    it did and validation failed, as far as the error report shows it)."""
    if not isinstance(exc, ValidationError):
        return "", None
    errors = exc.errors()
    for error in errors:
        value = error.get("input")
        if (error.get("type") in _NOT_JSON_TEXT and error.get("loc") == ()
                and isinstance(value, (str, bytes))):
            return (value if isinstance(value, str)
                    else value.decode("utf-8", "surrogateescape")), None
    for error in errors:  # a union member's report: the message itself, or what lacks a field
        location = error.get("loc", ())
        if (error.get("type") == "model_type" and len(location) == 1) or (
                error.get("type") == "missing" and len(location) == 2):
            return None, error.get("input")
    return None, None


def _usable_id(value: Any) -> int | str | None:
    """The id to answer with: an int or a string that can be written as UTF-8, else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return None
        return value
    return None


def _error(request_id: int | str | None, code: int, message: str) -> types.JSONRPCError:
    return types.JSONRPCError(jsonrpc="2.0", id=request_id,
                              error=types.ErrorData(code=code, message=message))


# ---- the streams ------------------------------------------------------------------------------

@contextlib.asynccontextmanager
async def stdio_transport(front: FrontEnd, direct: DirectCalls | None = None,
                          ) -> AsyncIterator[tuple[ReadStream[Item], WriteStream[SessionMessage]]]:
    """The streams of the session the front end opened (`early.py`), with unreadable lines
    answered instead of dropped: the wire on the event loop where it can be watched (plain
    tool calls answered by `direct` there when given), else the SDK's streams over the front
    end's lines and output."""
    fds = front.wire_fds()
    if fds is not None and stdio_wire.watchable(fds[0]):
        async with _wire_streams(front, *fds, direct) as streams:
            yield streams
        return
    lines = anyio.wrap_file(cast(IO[str], front.lines))
    sink = anyio.wrap_file(cast(IO[str], front.sink))
    try:
        async with stdio_server(stdin=lines, stdout=sink) as (read_stream, write_stream):
            send, receive = anyio.create_memory_object_stream[Item](0)

            async def pump() -> None:
                async with send:
                    async for item in read_stream:
                        if isinstance(item, Exception):
                            reply = error_for(item)
                            if reply is not None:
                                await write_stream.send(SessionMessage(reply))
                            continue
                        await send.send(item)

            async with anyio.create_task_group() as group:
                group.start_soon(pump)
                yield receive, write_stream
                group.cancel_scope.cancel()
    finally:
        front.close()


@contextlib.asynccontextmanager
async def _wire_streams(front: FrontEnd, fd_in: int, fd_out: int, direct: DirectCalls | None,
                        ) -> AsyncIterator[tuple[ReadStream[Item], WriteStream[SessionMessage]]]:
    """The lines the front end read, then the wire read on the event loop (`stdio_wire`);
    answers written by one thread, less those the front end already gave; plain tool calls
    answered by `direct` without the SDK (`direct_calls`)."""
    send, receive = anyio.create_memory_object_stream[Item](0)
    answers, to_write = anyio.create_memory_object_stream[SessionMessage](0)
    writer: stdio_wire.Writer | None = None
    try:
        async with anyio.create_task_group() as group:
            writer = stdio_wire.Writer(fd_out, group.cancel_scope.cancel)

            def emit(message: SessionMessage) -> None:
                if direct is not None:
                    direct.sent(message)
                write(stdio_wire.text(message))

            def write(text: str) -> None:
                if front.keeps(text):
                    writer.send(text.encode("utf-8"))

            async def deliver(line: str) -> None:
                if direct is not None and (answer := direct.answer(line)) is not None:
                    write(answer)
                    return
                item = stdio_wire.parse(line)
                if not isinstance(item, Exception):
                    if direct is not None:
                        direct.seen(item)
                    await send.send(item)
                elif (reply := error_for(item)) is not None:
                    emit(SessionMessage(reply))

            async def read() -> None:
                async with send:
                    while (line := await anyio.to_thread.run_sync(front.next_read)) is not None:
                        if not line:
                            return  # the client hung up while the front end read
                        await deliver(line)
                    async for line in stdio_wire.lines(fd_in):
                        front.take(line)
                        await deliver(line)
                    front.take("")

            async def answer() -> None:
                async with to_write:
                    async for message in to_write:
                        emit(message)

            group.start_soon(read)
            group.start_soon(answer)
            yield receive, answers
            group.cancel_scope.cancel()
    finally:
        if writer is not None:
            writer.close()
        front.close()
