"""Remote mode: MCP over Streamable HTTP at `/mcp`, the REST API at `/v1/memory`, `/healthz`.

One Starlette app, guarded in this order: Host/Origin (421/403), bearer token (401; 429 for an
address sending wrong ones), body size (413) and body deadline (408) — all before any MCP
session is looked up. Around it, `uvicorn_config` adds the connection guard (header deadline,
connection cap: `connections.py`). Every limit and its `JAMGATE_HTTP_*` variable is listed
in `limits.py`; an unparseable body is a 400 (-32700 on `/mcp`), never a 500.

MCP sessions are stateful by default (an unknown session id is 404, a missing one 400, an
`initialize` carrying a stale id opens a fresh session: D-038); `http_stateless = true` serves
every request on its own for several instances behind a load balancer, at the cost of client
provenance for handshake-era clients.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import AsyncIterator, Mapping
from typing import Any, cast

import anyio
from mcp.server.streamable_http import MCP_SESSION_ID_HEADER
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp
from mcp.shared.inbound import MCP_PROTOCOL_VERSION_HEADER
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from pydantic_core import from_json
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from jamgate_core import __version__
from jamgate_core.app import App
from jamgate_core.errors import ConfigError
from jamgate_server import auth, oauth, rest
from jamgate_server.access_log import AccessLogMiddleware
from jamgate_server.connections import ConnectionGuard, fit_to_file_limit
from jamgate_server.limits import FailureThrottle, HttpLimits
from jamgate_server.mcp import build_server
from jamgate_server.review import site as review

_log = logging.getLogger(__name__)

DEFAULT_PORT = 8420
MCP_PATH = "/mcp"
_SESSION_HEADER = MCP_SESSION_ID_HEADER.lower().encode("latin-1")
_VERSION_HEADER = MCP_PROTOCOL_VERSION_HEADER.lower().encode("latin-1")


# ---- request limits ---------------------------------------------------------------------------

class BodyLimitMiddleware:
    """413 for a body over its limit, declared or streamed, and 408 for one that does not
    arrive whole within `timeout` seconds of the headers, before any handler runs.

    The body is read here (at most the limit) and replayed to the app. `path_limits` lowers
    the limit on some paths (the OAuth endpoints), whose refusal `oauth.oversize_reply` shapes.
    """

    def __init__(self, app: ASGIApp, limit: int, timeout: float = 30.0,
                 path_limits: Mapping[str, int] | None = None) -> None:
        self.app = app
        self.limit = limit
        self.timeout = timeout
        self.path_limits = dict(path_limits or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = min(self.limit, self.path_limits.get(scope["path"], self.limit))
        declared = Headers(scope=scope).get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            await self._refuse(scope, send, limit)
            return
        body = bytearray()
        trailing: list[Message] = []
        deadline = time.monotonic() + self.timeout
        while True:
            message: Message | None = None
            with anyio.move_on_after(max(0.0, deadline - time.monotonic())):
                message = await receive()
            if message is None:
                await auth.send_reply(send, auth.error_reply(
                    scope["path"], 408, "request_timeout",
                    f"the request body did not arrive within {self.timeout:g} s "
                    "(JAMGATE_HTTP_BODY_TIMEOUT_SECONDS); send it again.",
                    rpc_code=-32600, headers={"Connection": "close"}))
                return
            if message["type"] == "http.disconnect":
                return  # the client left before its body arrived: nobody to answer
            if message["type"] != "http.request":
                trailing.append(message)
                break
            body.extend(message.get("body", b""))
            if len(body) > limit:
                await self._refuse(scope, send, limit)
                return
            if not message.get("more_body", False):
                break
        first: Message = {"type": "http.request", "body": bytes(body), "more_body": False}
        await self.app(scope, _replay([first, *trailing], receive), send)

    async def _refuse(self, scope: Scope, send: Send, limit: int) -> None:
        shaped = oauth.oversize_reply(scope["path"])
        if shaped is not None:
            status, document = shaped
            await auth.send_reply(send, auth.json_reply(status, document,
                                                        {"Cache-Control": "no-store"}))
            return
        await auth.send_reply(send, auth.error_reply(
            scope["path"], 413, "payload_too_large",
            f"the request body is over {limit} bytes (http_max_body_bytes). One memory "
            "is one short statement; a memory over 32,000 characters is refused anyway.",
            rpc_code=-32600,
        ))


# ---- D-038: an initialize with a stale session id opens a fresh session ------------------------

class FreshSessionOnInitialize:
    """Drop the session header from a handshake-era `initialize` POST.

    A client whose server restarted still holds the old session id; the SDK would answer its
    new `initialize` with 404. An `initialize` always starts a session, so we hand it to the SDK
    without the stale id and it gets a fresh one. Other requests pass through untouched.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers: list[tuple[bytes, bytes]] = scope.get("headers", [])
        version = next((v.decode("latin-1") for k, v in headers if k == _VERSION_HEADER), None)
        if (scope["type"] != "http" or scope["method"] != "POST"
                or not any(k == _SESSION_HEADER for k, _ in headers)
                or (version is not None and version not in HANDSHAKE_PROTOCOL_VERSIONS)):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([message], receive), send)
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if _is_initialize(body):
            scope = {**scope, "headers": [(k, v) for k, v in headers if k != _SESSION_HEADER]}
        replay: list[Message] = [{"type": "http.request", "body": body, "more_body": False}]
        await self.app(scope, _replay(replay, receive), send)


def _is_initialize(body: bytes) -> bool:
    """Whether the body is an `initialize` request. Anything unparseable (too deep, not UTF-8,
    not JSON) is not, and goes on to the SDK, which answers it -32700."""
    try:
        message = from_json(body)
    except ValueError:
        return False
    return isinstance(message, dict) and message.get("method") == "initialize"


def _replay(messages: list[Message], receive: Receive) -> Receive:
    pending = list(messages)

    async def replayed() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replayed


# ---- the app ----------------------------------------------------------------------------------

def build_http_app(app: App, *, bind_host: str = "127.0.0.1",
                   environ: dict[str, str] | None = None,
                   limits: HttpLimits | None = None) -> Starlette:
    """The whole HTTP surface over `app` (which the caller opens and closes); `limits` default
    to the `JAMGATE_HTTP_*` variables. Serve it with `uvicorn_config`.

    Raises ConfigError when no token or a weak one is configured, when a limit is invalid, or
    when OAuth is on and the store keeps no auth state or cannot read it.
    """
    settings = app.settings
    token = auth.require_token(settings)
    limits = limits or HttpLimits.load()
    policy = auth.HostPolicy(tuple(auth.allowed_hosts(settings, bind_host, environ)))
    authenticator = auth.Authenticator(token, app.hooks, settings)
    oauth_server = None
    if settings.oauth:
        provider = oauth.JamgateProvider(oauth.auth_state_of(app.store),
                                         max_pending=limits.register_max_pending)
        oauth_server = oauth.OAuthServer(provider, token, policy.allows_host, limits)
        authenticator.issued = _issued_check(provider)
    api = rest.RestApi(app)
    server = build_server(app, origin="mcp", limiter=api.limiter)
    server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        stateless_http=settings.http_stateless,
        transport_security=policy.transport_security(),
        max_request_body_size=settings.http_max_body_bytes,
        host=bind_host,
    )
    session_manager = server.session_manager

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        async with session_manager.run():
            yield

    site = review.ReviewSite(app, review.Sessions(token), _bearer_check(authenticator),
                             _token_check(authenticator))
    routes = [
        *site.routes(),
        Route("/healthz", rest.healthz, methods=["GET"]),
        Route("/openapi.json", rest.openapi, methods=["GET"]),
        Route(MCP_PATH, FreshSessionOnInitialize(StreamableHTTPASGIApp(session_manager))),
        *api.routes(),
        *(oauth_server.routes() if oauth_server else []),
    ]
    starlette = Starlette(routes=routes, lifespan=lifespan,
                          exception_handlers={404: rest.no_route, 405: rest.no_route})
    starlette.state.openapi = rest.openapi_document(app)
    starlette.state.limits = limits
    # The last added runs first: Host/Origin and the token, then the body limit.
    starlette.add_middleware(BodyLimitMiddleware, limit=settings.http_max_body_bytes,
                             timeout=limits.body_timeout_seconds,
                             path_limits=oauth.PATH_BODY_LIMITS if oauth_server else None)
    def pointer(scope: Scope, path: str) -> str:
        return oauth.resource_metadata_url(oauth.public_base(scope, policy.allows_host), path)

    starlette.add_middleware(
        auth.GuardMiddleware, policy=policy, authenticator=authenticator,
        open_paths=review.PATHS | (oauth.PUBLIC_PATHS if oauth_server else frozenset()),
        cross_origin_paths=oauth.CORS_PATHS if oauth_server else frozenset(),
        metadata_pointer=pointer if oauth_server else None,
        throttle=FailureThrottle(limits.auth_free_failures, limits.auth_lockout_max_seconds),
    )
    starlette.add_middleware(AccessLogMiddleware)  # outermost: refusals are logged too
    return starlette


def forwarded_allow_ips(environ: Mapping[str, str] | None = None) -> str:
    """The proxies whose `X-Forwarded-For` names the client, as uvicorn reads them."""
    env = os.environ if environ is None else environ
    return env.get("FORWARDED_ALLOW_IPS", "127.0.0.1")


def uvicorn_config(starlette: Starlette, *, max_connections: int | None = None,
                   **options: Any) -> Any:
    """The uvicorn configuration that serves `starlette` under its limits: the connection
    guard around uvicorn's own HTTP protocol, keep-alive timeout, proxy headers applied
    inside the guard (which needs the socket's own peer address). `options` go to uvicorn."""
    import uvicorn
    from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    limits: HttpLimits = starlette.state.limits
    guard = ConnectionGuard(limits, max_connections)
    proxied: Any = ProxyHeadersMiddleware(cast(Any, starlette),
                                          trusted_hosts=forwarded_allow_ips())
    asgi = guard.track(proxied)
    config = uvicorn.Config(
        asgi, http=guard.protocol(AutoHTTPProtocol), ws="none",  # no WebSocket route
        proxy_headers=False,
        timeout_keep_alive=limits.keepalive_timeout_seconds, lifespan="on",
        log_level="warning",
        access_log=False,  # URLs carry recall queries: memory content stays off stderr
        **options,
    )
    config.connection_guard = guard  # type: ignore[attr-defined]
    return config


def _bearer_check(authenticator: auth.Authenticator) -> review.Check:
    """The review page signs in a request that carries a valid bearer header."""
    async def check(request: Any) -> bool:
        return await authenticator.identify(request.headers) is not None
    return check


def _token_check(authenticator: auth.Authenticator) -> Any:
    """The review page's sign-in form: the token typed in, checked as a bearer header."""
    async def check(token: str) -> bool:
        return await authenticator.identify(Headers({"authorization": f"Bearer {token}"})) \
            is not None
    return check


def _issued_check(provider: oauth.JamgateProvider) -> auth.IssuedCheck:
    def check(token: str) -> tuple[str, list[str]] | None:
        found = provider.verify(token)
        return None if found is None else (found.client_id, found.scopes)
    return check


# ---- serving ----------------------------------------------------------------------------------

def resolve_port(cli_port: int | None, settings_port: int | None,
                 environ: dict[str, str] | None = None) -> tuple[int, str]:
    """The port and where it came from: `--port` > a platform's `$PORT` > `JAMGATE_PORT`
    (or `port` in jamgate.toml) > 8420. An unusable `$PORT` is ignored with a warning."""
    env = os.environ if environ is None else environ
    if cli_port is not None:
        return cli_port, "--port"
    raw = env.get("PORT", "").strip()
    if raw:
        if raw.isdigit() and int(raw) <= 65535:
            return int(raw), "$PORT"
        _log.warning(f"ignoring PORT={raw!r}: not a port number.")
    if settings_port is not None:
        return settings_port, "JAMGATE_PORT"
    return DEFAULT_PORT, "default"


def serve_http(app: App, *, host: str | None, port: int | None) -> int:
    """Serve until interrupted; 1 when the configuration cannot be served."""
    import uvicorn

    settings = app.settings
    bind_host = host or settings.host
    bind_port, port_source = resolve_port(port, settings.port)
    try:
        asgi = build_http_app(app, bind_host=bind_host)
    except ConfigError as exc:
        print(f"jamgate: {exc}", file=sys.stderr)  # the command's answer: it will not start
        return 1
    limits: HttpLimits = asgi.state.limits
    max_connections, backlog, warning = fit_to_file_limit(limits.max_connections)
    if warning:
        _log.warning(f"{warning}")
    shown = f"[{bind_host}]" if ":" in bind_host else bind_host
    describe = app.describe()
    mode = "stateless" if settings.http_stateless else "stateful sessions"
    _log.info(
        f"Jamgate {__version__}: MCP on http://{shown}:{bind_port}{MCP_PATH} ({mode}), REST on "
        f"/v1/memory, port from {port_source}; bearer token required; terminate TLS at a "
        f"reverse proxy. Store: {describe['store']} at {describe['location']}.")
    if settings.oauth:
        _log.info("OAuth 2.1 on: claude.ai and the Claude apps connect with the URL alone (the "
                  "consent page asks for JAMGATE_TOKEN once); JAMGATE_OAUTH=off turns it off.")
    if port_source == "$PORT" and bind_host in ("127.0.0.1", "localhost", "::1"):
        _log.warning("$PORT is set but the server listens on loopback only; on a hosting "
                     "platform set JAMGATE_HOST=0.0.0.0.")
    config = uvicorn_config(asgi, max_connections=max_connections, backlog=backlog,
                            host=bind_host, port=bind_port, timeout_graceful_shutdown=5)
    # uvicorn shuts down gracefully on SIGINT/SIGTERM, then re-raises the signal: turn that
    # into a normal return so the caller closes the store and runs the shutdown hooks.
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _stop) if main else None
    try:
        with contextlib.suppress(KeyboardInterrupt, _Stopped):
            uvicorn.Server(config).run()
    finally:
        if main:
            signal.signal(signal.SIGTERM, previous)
    return 0


class _Stopped(Exception):
    pass


def _stop(signum: int, frame: object) -> None:
    raise _Stopped
