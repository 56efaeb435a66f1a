"""The stdio front end: the session's first answers while the SDK is still being imported.

`import mcp` is most of a stdio server's start (issue 21), and a client waits for it before
its first `tools/list`. So `jamgate serve` claims the wire first and reads it here, in a
thread, while the main thread imports the SDK and opens the app. A request that opens the
session exactly as one before it did (`reply_cache.py`: `initialize`, `tools/list`,
`server/discover` …) is answered at once with the reply the SDK gave then. On a client's first
start nothing is stored yet: the request is then answered from the replies shipped with the
package (`shipped.py`, D-225), by the opening's normal form — the same messages with the
client's identity and capabilities left out where they are plain (`reply_cache.OpeningDigest`)
— when they are certainly this installation's. The order is: the user's cache by the exact
session, then a shipped reply the SDK corrected on this machine (kept in the user's cache
under the normal form), then the shipped replies. Anything else — a `tools/call`, a request
never seen, a line that is not plain JSON-RPC — stops the answering here, and it and
everything after it wait for the SDK, in order.

The hand-over loses and reorders nothing: every line read goes to the SDK in turn (the
`initialize` included, so its session state is right), the SDK's replies to requests already
answered here are dropped by id, and all output goes through one lock, a line at a time. Each
dropped reply is compared with the one sent: a difference is logged and the SDK's reply kept
for the next start (a shipped reply's correction also under the normal form, so no other
client is given the stale one again, D-228), as is every reply to a cacheable request that had
to wait.

When the client hangs up before the hand-over and every request it sent was answered here,
nothing is left to do: the process ends without waiting for the SDK.

Like the SDK's transport, the wire is moved to private descriptors and fd 0 points at the null
device, fd 1 at stderr, so nothing else in the process reads the requests or writes into the
answers.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import queue
import sys
import threading
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any

from jamgate_server.reply_cache import CACHEABLE, Body, OpeningDigest, ReplyCache, SessionDigest

if TYPE_CHECKING:
    from jamgate_server.shipped import ShippedReplies

_log = logging.getLogger(__name__)

LOADING, OPENING, SERVING = "loading", "opening", "serving"
PREFIX_LIMIT = 16  # requests of a session's opening that are keyed and recorded
SETTLE_LIMIT = 64  # the SDK's lines read for awaited replies (one may never come: cancelled)
_MESSAGE_KEYS = frozenset({"jsonrpc", "id", "method", "params"})
# The user's cache keeps the SDK's reply under this prefix and the opening's normal form when
# it corrected a shipped one, so no client is given the stale reply again (D-228).
CORRECTED = "opening:"


def claim_fd(fd: int, mode: str) -> tuple[IO[bytes], Callable[[], None]]:
    """A private duplicate of fd 0 or 1 to serve the wire from, with `fd` diverted (stdin to
    the null device, stdout to stderr); the restore function points it back. Falls back to
    the standard stream's own buffer where descriptors cannot be moved."""
    stream = sys.stdin if fd == 0 else sys.stdout
    try:
        if sys.platform == "win32":  # pragma: no cover
            private = os.dup(fd)
        else:
            import fcntl

            private = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)
    except (OSError, ValueError):
        return stream.buffer, lambda: None
    try:
        diversion = os.open(os.devnull, os.O_RDONLY) if fd == 0 else os.dup(2)
        try:
            os.dup2(diversion, fd)
        finally:
            os.close(diversion)
    except OSError:
        os.close(private)
        return stream.buffer, lambda: None

    def restore() -> None:
        with contextlib.suppress(OSError):
            os.dup2(private, fd)

    # closefd=False: a worker thread may still be blocked reading it when serving ends.
    # stdin unbuffered: nothing is read past the line taken, so the wire can change readers.
    return os.fdopen(private, mode, buffering=0 if fd == 0 else -1, closefd=False), restore


class FrontEnd:
    """Reads the wire from the start and owns its output; see the module docstring."""

    def __init__(self, cache: ReplyCache, wire_in: IO[bytes], wire_out: IO[bytes],
                 restore: Callable[[], None], exit_now: Callable[[int], None],
                 shipped: ShippedReplies | None = None) -> None:
        self._cache = cache
        self._shipped = shipped
        self._in = wire_in
        self._pending: list[str] = []  # lines of a read split at a lone "\r"
        self._out = wire_out
        self._restore = restore
        self._exit_now = exit_now
        self._lock = threading.Lock()
        self._lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._digest = SessionDigest()
        self._opening = OpeningDigest()
        self._phase = LOADING
        self._keying = True  # still in the session's cacheable opening
        self._answering = True  # and every request so far answered here
        self._stdin_closed = False
        self._awaited: dict[str, str] = {}  # the SDK's replies still due: id → reply key
        self._sent: dict[str, dict[str, Any]] = {}  # answered here: id → the body sent
        self._normal: dict[str, str] = {}  # answered by the opening's normal form: id → key
        self._sdk_lines = 0
        self._answered_any = False
        self.lines = _Lines(self)
        self.sink = _Sink(self)

    @classmethod
    def start(cls, cache: ReplyCache, exit_now: Callable[[int], None],
              shipped: ShippedReplies | None = None) -> FrontEnd:
        """Claim stdin and stdout and start reading."""
        wire_in, restore_in = claim_fd(0, "rb")
        wire_out, restore_out = claim_fd(1, "wb")

        def restore() -> None:
            restore_in()
            restore_out()

        front = cls(cache, wire_in, wire_out, restore, exit_now, shipped)
        threading.Thread(target=front._read, name="jamgate-stdio-front", daemon=True).start()
        return front

    # ---- the main thread's steps -------------------------------------------------------------

    def begin_opening(self) -> bool:
        """The app is about to be opened; False when the client is gone and owed nothing."""
        with self._lock:
            if self._owed_nothing():
                return False
            self._phase = OPENING
            return True

    def hand_over(self) -> bool:
        """The SDK is ready to read `lines` and write to `sink`; from now on it answers
        everything. False when the client is gone and owed nothing (no need to serve)."""
        with self._lock:
            if self._owed_nothing():
                return False
            self._phase = SERVING
            self._answering = False
            return True

    def wire_fds(self) -> tuple[int, int] | None:
        """The private descriptors of the wire, once the reader thread stopped (`next_read`
        gave None), for a reader that takes over; None when they could not be claimed."""
        if not isinstance(self._in, io.FileIO) or not isinstance(self._out, io.BufferedWriter):
            return None
        return self._in.fileno(), self._out.fileno()

    def close(self) -> None:
        """Serving ended: keep what was learned, point fd 0 and 1 back at the wire."""
        with self._lock:
            self._cache.save()
        self._restore()

    def _owed_nothing(self) -> bool:
        """The client left after a session whose every request was answered here. A client
        that sent nothing gets the old path (`jamgate serve </dev/null` still opens the app,
        so a broken store or configuration is reported)."""
        return self._stdin_closed and self._answering and self._answered_any

    # ---- the reader thread -------------------------------------------------------------------

    def _read(self) -> None:
        """Read the wire until the SDK has taken over (then it reads it itself, `read_line`)."""
        while True:
            line = self._readline()
            with self._lock:
                self._take(line)
                self._lines.put(line)
                if not line:
                    return
                if self._phase == SERVING or not self._keying:
                    self._lines.put(None)  # the SDK reads the wire itself from here
                    return

    def read_line(self) -> str:
        """The next line straight from the wire, once the reader thread has stopped."""
        line = self._readline()
        self.take(line)
        return line

    def take(self, line: str) -> None:
        """A line read from the wire by the SDK's side ("" at its end)."""
        with self._lock:
            self._take(line)

    def next_read(self) -> str | None:
        """The next line the reader thread queued; None when it stopped reading."""
        return self._lines.get()

    def _readline(self) -> str:
        """The next line as the SDK's text wrapper reads it: UTF-8 with invalid bytes kept as
        surrogate escapes, universal newlines."""
        if self._pending:
            return self._pending.pop(0)
        try:
            raw = self._in.readline()
        except (OSError, ValueError):
            return ""
        text = raw.decode("utf-8", "surrogateescape").replace("\r\n", "\n")
        if "\r" in text:
            self._pending = text.replace("\r", "\n").splitlines(keepends=True)
            return self._pending.pop(0)
        return text

    def _take(self, line: str) -> None:
        if line:
            self._consider(line)
            return
        self._stdin_closed = True
        if self._owed_nothing() and self._phase == LOADING:
            _log.debug("the client left before the SDK was needed")
            self._exit_now(0)

    def _consider(self, line: str) -> None:
        """Key a line of the session's opening, and answer it when its reply is known."""
        if not self._keying:
            return
        message = _plain_message(line)
        key = None if message is None else self._digest.add(message)
        normal = None if message is None else self._opening.add(message)
        if message is None or key is None or normal is None:
            self._stop_keying()
            return
        if "id" not in message:
            return  # a notification: part of the key, nothing to answer
        request_id = _id_key(message["id"])
        if (request_id is None or message["method"] not in CACHEABLE
                or request_id in self._awaited or len(self._awaited) >= PREFIX_LIMIT):
            self._stop_keying()
            return
        self._awaited[request_id] = key
        body, source = self._known(key, normal) if self._answering else (None, "")
        if body is None:
            self._answering = False
            return
        reply = {"jsonrpc": "2.0", "id": message["id"], **body}
        try:
            self._write(json.dumps(reply, ensure_ascii=False, separators=(",", ":")) + "\n")
        except (OSError, ValueError):
            self._answering = False
            return
        self._sent[request_id] = body
        if source != "the start-up replies":
            self._normal[request_id] = normal
        self._answered_any = True
        _log.debug(f"answered {message['method']} from {source}")

    def _known(self, key: str, normal: str) -> tuple[Body | None, str]:
        """The reply known for a request, and where from: the user's cache by the exact
        session, then by the opening's normal form (a shipped reply the SDK corrected), then
        the shipped replies."""
        body = self._cache.get(key)
        if body is not None:
            return body, "the start-up replies"
        body = self._cache.get(CORRECTED + normal)
        if body is not None:
            return body, "the corrected opening replies"
        body = self._shipped.get(normal) if self._shipped is not None else None
        return body, "the shipped opening replies"

    def _stop_keying(self) -> None:
        self._keying = self._answering = False

    # ---- output --------------------------------------------------------------------------------

    def _write(self, text: str) -> None:
        self._out.write(text.encode("utf-8"))
        self._out.flush()

    def sdk_write(self, text: str) -> None:
        """A line the SDK writes: dropped when it answers a request answered here."""
        with self._lock:
            if self._keeps(text):
                self._write(text)

    def keeps(self, text: str) -> bool:
        """Whether a line the SDK writes goes out (False: it answers a request answered
        here), for a writer of its own that took over the wire (`wire_fds`)."""
        with self._lock:
            return self._keeps(text)

    def _keeps(self, text: str) -> bool:
        self._sdk_lines += 1
        if self._sdk_lines > SETTLE_LIMIT:
            self._awaited.clear()
            self._sent.clear()
            self._normal.clear()
        keep = not (self._awaited and self._settle(text))
        if not self._awaited and self._cache.dirty:
            self._cache.save()
        return keep

    def _settle(self, text: str) -> bool:
        """Record the SDK's reply to an awaited request; True when it was already sent."""
        try:
            message = json.loads(text)
        except ValueError:
            return False
        if not isinstance(message, dict) or "method" in message:
            return False
        request_id = _id_key(message.get("id"))
        key = self._awaited.pop(request_id, None) if request_id is not None else None
        if key is None:
            return False
        body = {name: message[name] for name in ("result", "error") if name in message}
        self._cache.put(key, body)
        sent = self._sent.pop(request_id or "", None)
        normal = self._normal.pop(request_id or "", None)
        if sent is None:
            return False
        if sent != body:
            _log.warning("a start-up reply differed from the SDK's (answered from the cache "
                         "before the SDK was loaded); the SDK's is kept for the next start")
            if normal is not None:
                self._cache.put(CORRECTED + normal, body)
        return True


def _plain_message(line: str) -> dict[str, Any] | None:
    """The line as a JSON-RPC 2.0 request or notification with nothing unusual, else None."""
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return None
    if (not isinstance(message, dict) or message.get("jsonrpc") != "2.0"
            or not isinstance(message.get("method"), str) or not message.keys() <= _MESSAGE_KEYS
            or not isinstance(message.get("params", {}), dict)):
        return None
    return message


def _id_key(value: Any) -> str | None:
    """A request id as a dictionary key (1 and "1" stay apart), or None when unusable."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        return None
    return json.dumps(value)


class _Lines(io.TextIOBase):
    """The SDK's stdin: every line the front end read, in order, then the wire itself; ""
    at the end."""

    def __init__(self, front: FrontEnd) -> None:
        super().__init__()
        self._front = front
        self._direct = False
        self._ended = False

    def readable(self) -> bool:
        return True

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        if self._ended:
            return ""
        line = self._front.read_line() if self._direct else self._front.next_read()
        if line is None:
            self._direct = True
            line = self._front.read_line()
        self._ended = not line
        return line


class _Sink(io.TextIOBase):
    """The SDK's stdout: each line through the front end's lock."""

    def __init__(self, front: FrontEnd) -> None:
        super().__init__()
        self._front = front

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self._front.sdk_write(text)
        return len(text)

    def flush(self) -> None:
        return None
