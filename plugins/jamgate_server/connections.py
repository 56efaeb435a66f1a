"""Connections in HTTP mode: a header-read deadline and a cap on open connections.

uvicorn bounds neither: a connection that sends half its headers, or nothing, stays open, and
enough of them use up the process's file descriptors. `ConnectionGuard` wraps uvicorn's HTTP
protocol (whichever it picked) and tracks every connection in one of two states:

- **waiting**: opened, or done with its previous response, and not yet through the headers of
  its next request. It must get through them within `header_timeout_seconds` or it is closed
  (with a 408 if it had sent part of a request);
- **busy**: a request is being served (the ASGI app was called for it).

At `max_connections` a new connection closes the connection that has been waiting longest, so a
crowd of idle or half-open connections never locks a real client out; only when every open
connection is busy is the newcomer refused (503). The ASGI side (`track`) tells the guard when a
request starts and when its response ends; it must sit outside uvicorn's proxy-header handling,
so that `scope["client"]` is still the socket's peer (see `http.uvicorn_config`).

The body deadline (408) lives in the HTTP app's body reader, which reads every body first.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.utils import get_remote_addr

from jamgate_server.limits import HttpLimits

Peer = tuple[str, int]
RESERVED = 64  # file descriptors kept for the store, the log, the listening socket, threads
BACKLOG = 2048  # uvicorn's default listen backlog, which is also asyncio's accept burst
BURSTS = 3  # accept bursts that can be open before the guard has made room for the first
_TIMEOUT = (b"HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-type: "
            b"text/plain\r\ncontent-length: 56\r\n\r\n"
            b"the request headers did not arrive in time; send again.\n")
_BUSY = (b"HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\nretry-after: 1\r\n"
         b"content-type: text/plain\r\ncontent-length: 55\r\n\r\n"
         b"every connection is busy serving a request; try again.\n")


class GuardedConnection(asyncio.Protocol):
    """One connection: uvicorn's protocol inside, the deadline and the state around it."""

    guard: ConnectionGuard
    inner_class: type[asyncio.Protocol]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.inner = self.inner_class(*args, **kwargs)
        self.transport: asyncio.Transport | None = None
        self.peer: Peer | None = None
        self.admitted = False
        self.busy = False
        self.waiting_since = time.monotonic()
        self.partial = False  # bytes of the next request arrived while waiting
        self.timer: asyncio.TimerHandle | None = None
        self.requests = 0  # which request is being served (an app may outlive its response)

    # ---- asyncio.Protocol ----------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.peer = get_remote_addr(transport)
        if not self.guard.admit(self):
            transport.write(_BUSY)
            transport.close()
            return
        self.admitted = True
        self.inner.connection_made(transport)
        self._wait()

    def data_received(self, data: bytes) -> None:
        if not self.admitted:
            return
        if not self.busy:
            self.partial = True
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.admitted else None

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel()
        if self.admitted:
            self.guard.release(self)
            self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        if self.admitted:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.admitted:
            self.inner.resume_writing()

    # ---- the state ------------------------------------------------------------------------------

    def _cancel(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _wait(self) -> None:
        self._cancel()
        self.busy = False
        self.partial = False
        self.waiting_since = time.monotonic()
        loop = asyncio.get_running_loop()
        self.timer = loop.call_later(self.guard.limits.header_timeout_seconds, self._expire)

    def request_started(self) -> int:
        self._cancel()
        self.busy = True
        self.requests += 1
        return self.requests

    def request_finished(self, request: int) -> None:
        if (request == self.requests and self.busy and self.transport is not None
                and not self.transport.is_closing()):
            self._wait()

    def _expire(self) -> None:
        self.timer = None
        if self.busy or self.transport is None or self.transport.is_closing():
            return
        self.guard.timed_out += 1
        if self.partial:
            self.transport.write(_TIMEOUT)
        self.transport.close()

    def evict(self) -> None:
        self._cancel()
        self.guard.evicted += 1
        if self.transport is not None:
            self.transport.close()


class ConnectionGuard:
    """The open connections of one server, and what happens at the cap."""

    def __init__(self, limits: HttpLimits, max_connections: int | None = None) -> None:
        self.limits = limits
        self.max_connections = max_connections or limits.max_connections
        self.open: dict[int, GuardedConnection] = {}  # in the order they opened
        self.by_peer: dict[Peer, GuardedConnection] = {}
        self.refused = self.evicted = self.timed_out = 0

    def protocol(self, inner: type[asyncio.Protocol]) -> type[asyncio.Protocol]:
        """A protocol class for uvicorn's `http=`: `inner` (uvicorn's own) under this guard."""
        return type("GuardedHTTPProtocol", (GuardedConnection,),
                    {"guard": self, "inner_class": inner})

    def admit(self, connection: GuardedConnection) -> bool:
        if len(self.open) >= self.max_connections:
            for gone in [c for c in self.open.values()
                         if c.transport is None or c.transport.is_closing()]:
                self.release(gone)  # closing already: its descriptor is on its way back
        if len(self.open) >= self.max_connections:
            waiting = [c for c in self.open.values()
                       if not c.busy and c.transport is not None
                       and not c.transport.is_closing()]
            if not waiting:
                self.refused += 1
                return False
            oldest = min(waiting, key=lambda c: c.waiting_since)
            self.release(oldest)
            oldest.evict()
        self.open[id(connection)] = connection
        if connection.peer is not None:
            self.by_peer[connection.peer] = connection
        return True

    def release(self, connection: GuardedConnection) -> None:
        self.open.pop(id(connection), None)
        if connection.peer is not None and self.by_peer.get(connection.peer) is connection:
            del self.by_peer[connection.peer]

    def find(self, scope: Scope) -> GuardedConnection | None:
        client = scope.get("client")
        return self.by_peer.get((str(client[0]), int(client[1]))) if client else None

    def track(self, app: ASGIApp) -> ASGIApp:
        """The ASGI side: marks each request's connection busy until its response ends."""
        guard = self

        async def tracked(scope: Scope, receive: Receive, send: Send) -> None:
            connection = guard.find(scope) if scope["type"] == "http" else None
            if connection is None:
                await app(scope, receive, send)
                return
            request = connection.request_started()

            async def sending(message: Message) -> None:
                await send(message)
                if message["type"] == "http.response.body" and not message.get("more_body"):
                    connection.request_finished(request)

            try:
                await app(scope, receive, sending)
            finally:
                connection.request_finished(request)

        return tracked


def fit_to_file_limit(wanted: int) -> tuple[int, int, str | None]:
    """(the connection cap, the listen backlog, a warning or None) that the process's open-file
    limit allows. asyncio accepts up to the backlog at once, and its next bursts come before
    the guard has seen (and made room for) the last ones, so cap + BURSTS × backlog + RESERVED
    must fit; the soft limit is raised towards the hard one when that is enough."""
    if sys.platform == "win32":  # pragma: no cover
        return wanted, BACKLOG, None
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = wanted + BURSTS * BACKLOG + RESERVED
    if soft != resource.RLIM_INFINITY and soft < needed:
        target = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
    if soft == resource.RLIM_INFINITY or soft >= needed:
        return wanted, BACKLOG, None
    spare = soft - RESERVED
    if spare >= 2 * wanted:
        return wanted, max(8, (spare - wanted) // BURSTS), None
    cap = max(8, spare // 2)
    return cap, max(8, (spare - cap) // BURSTS), (
        f"warning: the open-file limit is {soft}, so at most {cap} connections are kept open "
        f"instead of JAMGATE_HTTP_MAX_CONNECTIONS={wanted}. Raise it (LimitNOFILE= in a "
        "systemd unit, `ulimit -n`) to serve more.")
