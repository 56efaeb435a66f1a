"""The HTTP access log: one line per request on the `jamgate.access` logger (INFO).

A line holds the client address, the method, the path, the status, the bytes sent and the
time taken — never a query string (recall queries are memory text, OAuth redirects carry
codes), a header (the bearer token) or a body. A path is cut to its first segments and a
memory id in `/v1/memory/<id>` is written as `{id}`, so nothing a client typed lands there.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("jamgate.access")
_MAX_PATH = 120


def loggable_path(path: str) -> str:
    """The request path as logged: ids replaced, bounded, printable ASCII only."""
    if path.startswith("/v1/memory/"):
        path = "/v1/memory/{id}"
    path = path.encode("ascii", "backslashreplace").decode("ascii")
    return path if len(path) <= _MAX_PATH else path[:_MAX_PATH] + "…"


class AccessLogMiddleware:
    """Logs each HTTP request once its response has started (or the request failed)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not log.isEnabledFor(logging.INFO):
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        reply: dict[str, Any] = {"status": 0, "bytes": 0}

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                reply["status"] = message["status"]
            elif message["type"] == "http.response.body":
                reply["bytes"] += len(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            client = scope.get("client")
            log.info("%s %s %s %s %d %.1fms", client[0] if client else "-", scope["method"],
                     loggable_path(scope["path"]), reply["status"] or "-", reply["bytes"],
                     (time.perf_counter() - started) * 1000)
