"""Who may talk to the HTTP server: the bearer token, the authentication hook, allowed hosts.

Every request except `/healthz` passes two guards, in this order, before any route or MCP
session is looked up:

1. **Host and Origin** (DNS-rebinding protection): the `Host` header must name this server —
   loopback by default, plus `JAMGATE_ALLOWED_HOSTS` and a platform's external hostname —
   else 421; a browser `Origin` from anywhere else is 403.
2. **Bearer token**: `Authorization: Bearer <JAMGATE_TOKEN>`, compared in constant time, an
   access token the OAuth server issued (looked up by its hash in a worker thread), or a
   principal returned by a `jamgate_authenticate` hook implementation; else 401 with a
   `WWW-Authenticate` challenge (pointing at the RFC 9728 metadata when OAuth is on).

The OAuth endpoints and everything under `/.well-known/` need no token; the OAuth JSON
endpoints skip the Origin check too, since browser-based clients call them cross-origin.

Wrong tokens are throttled per client address (`GuardMiddleware`); the token itself must
carry 128 bits of entropy or HTTP mode does not start (`require_token`).

The MCP SDK's own host check stays on behind these (the same allowlist is handed to it), and
an authenticated request carries its principal in `scope["user"]` the way the SDK expects, so
an MCP session answers only to the credential that opened it.
"""

from __future__ import annotations

import hmac
import json
import logging
import math
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

import anyio.to_thread
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from mcp.server.transport_security import TransportSecuritySettings
from starlette.authentication import AuthCredentials
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from jamgate_core.errors import ConfigError, JamgateError
from jamgate_core.hooks import Hooks
from jamgate_core.settings import Settings
from jamgate_server.limits import FailureThrottle, HttpLimits, client_key, retry_after

_log = logging.getLogger(__name__)

REALM = "jamgate"
STATIC_PRINCIPAL = "owner"
MIN_TOKEN_BITS = 128
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
# A platform's public hostname, honoured when set: (variable, how to turn it into a host).
PLATFORM_HOST_VARIABLES: tuple[tuple[str, str], ...] = (
    ("RENDER_EXTERNAL_HOSTNAME", "{}"),   # Render: myapp.onrender.com
    ("RAILWAY_PUBLIC_DOMAIN", "{}"),      # Railway: myapp.up.railway.app
    ("FLY_APP_NAME", "{}.fly.dev"),       # Fly.io: the app name
)
PUBLIC_PATHS = frozenset({"/healthz", "/openapi.json"})
MAKE_TOKEN = 'python -c "import secrets; print(secrets.token_urlsafe(32))"'
DEFAULT_LIMITS = HttpLimits.model_construct()


def require_token(settings: Settings) -> str:
    """The static bearer token; HTTP mode refuses to start without one, or with a weak one."""
    token = (settings.token or "").strip()
    if not token:
        raise ConfigError(
            "HTTP mode needs a bearer token: every agent will send it as "
            "`Authorization: Bearer <token>`. Make one with\n"
            f"    {MAKE_TOKEN}\n"
            "and start again with JAMGATE_TOKEN set to it (or `token = \"…\"` in jamgate.toml). "
            "Serve it over HTTPS only: terminate TLS at a reverse proxy."
        )
    problem = token_weakness(token)
    if problem:
        raise ConfigError(
            f"JAMGATE_TOKEN is too weak to guard a server: {problem}. Anyone who guesses it "
            f"reads and rewrites this memory. Make one with\n    {MAKE_TOKEN}\n"
            "(43 random characters, 256 bits), set JAMGATE_TOKEN to it and start again; "
            "agents and consent pages then need the new token."
        )
    return token


_DIGITS = frozenset("0123456789")
_HEX_LOWER = _DIGITS | frozenset("abcdef")
_HEX_UPPER = _DIGITS | frozenset("ABCDEF")
_LOWER = frozenset("abcdefghijklmnopqrstuvwxyz")
_UPPER = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_BASE64 = _LOWER | _UPPER | _DIGITS | frozenset("-_+/=")


def token_bits(token: str) -> float:
    """A generous estimate of a token's entropy: its length times the bits per character of
    the smallest usual alphabet it is drawn from (digits, hex, one-case letters, base64,
    printable). `secrets.token_urlsafe(16)` scores 132, `secrets.token_hex(16)` 128."""
    chars = set(token)
    for alphabet, size in ((_DIGITS, 10), (_HEX_LOWER, 16), (_HEX_UPPER, 16), (_LOWER, 26),
                           (_UPPER, 26), (_BASE64, 64)):
        if chars <= alphabet:
            return len(token) * math.log2(size)
    return len(token) * math.log2(95)


def token_weakness(token: str) -> str | None:
    """Why `token` has less than MIN_TOKEN_BITS bits of entropy, or None."""
    bits = token_bits(token)
    if bits < MIN_TOKEN_BITS:
        return (f"{len(token)} characters hold about {bits:.0f} bits, under the "
                f"{MIN_TOKEN_BITS} required")
    most = max(token.count(c) for c in set(token))
    # More than half the token one character: a random draw of 128 bits or more does that
    # with odds under 1 in 10^12 (a third, the old bound, refused 26 in a million `token_hex(16)`).
    if len(set(token)) < 8 or most * 2 > len(token):
        return "it repeats a few characters, which no random token does"
    return None


# ---- hosts ------------------------------------------------------------------------------------

def platform_hosts(environ: dict[str, str] | None = None) -> list[str]:
    """The public hostname a hosting platform announces in its environment, if any."""
    env = os.environ if environ is None else environ
    hosts = []
    for variable, template in PLATFORM_HOST_VARIABLES:
        value = env.get(variable, "").strip()
        if value:
            hosts.append(template.format(value))
    return hosts


def _bare(host: str) -> str:
    """`https://Example.com:443/` → `example.com:443`: people paste URLs into the setting."""
    text = host.strip().lower()
    if "://" in text:
        text = text.split("://", 1)[1]
    return text.split("/", 1)[0]


def allowed_hosts(settings: Settings, bind_host: str,
                  environ: dict[str, str] | None = None) -> list[str]:
    """Host names this server answers to: loopback, the bind address if it is a specific
    non-wildcard address, `allowed_hosts` from the settings and the platform's hostname."""
    names = list(LOOPBACK_NAMES)
    bind = bind_host.strip().lower()
    if bind and bind not in ("0.0.0.0", "::", "[::]", "::1"):
        names.append(f"[{bind}]" if ":" in bind and not bind.startswith("[") else bind)
    names += [_bare(h) for h in [*settings.allowed_hosts, *platform_hosts(environ)]]
    return list(dict.fromkeys(n for n in names if n))


@dataclass(frozen=True)
class HostPolicy:
    """The allowlist, in the two shapes the guards need: Host values and Origin values."""

    names: tuple[str, ...]

    def host_patterns(self) -> list[str]:
        patterns: list[str] = []
        for name in self.names:
            patterns += [name] if _has_port(name) else [name, f"{name}:*"]
        return patterns

    def origin_patterns(self) -> list[str]:
        patterns: list[str] = []
        for name in self.names:
            for scheme in ("http", "https"):
                patterns += ([f"{scheme}://{name}"] if _has_port(name)
                             else [f"{scheme}://{name}", f"{scheme}://{name}:*"])
        return patterns

    def allows_host(self, host: str | None) -> bool:
        return host is not None and _matches(host.lower(), self.host_patterns())

    def allows_origin(self, origin: str | None) -> bool:
        return not origin or _matches(origin.lower().rstrip("/"), self.origin_patterns())

    def transport_security(self) -> TransportSecuritySettings:
        """The same allowlist for the MCP SDK's own DNS-rebinding check on `/mcp`."""
        return TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=self.host_patterns(),
            allowed_origins=self.origin_patterns(),
        )


def _has_port(name: str) -> bool:
    return name.rsplit("]", 1)[-1].count(":") == 1


def _matches(value: str, patterns: Iterable[str]) -> bool:
    for pattern in patterns:
        if pattern.endswith(":*"):
            base, _, port = value.rpartition(":")
            if base == pattern[:-2] and port.isdigit():
                return True
        elif value == pattern:
            return True
    return False


# ---- bearer token -----------------------------------------------------------------------------

# An issued access token's check: token → (client id, scopes), or None. Runs in a thread.
IssuedCheck = Callable[[str], tuple[str, list[str]] | None]


class Authenticator:
    """Maps request headers to a principal: the static token, an issued token, the hook."""

    def __init__(self, token: str, hooks: Hooks, settings: Settings,
                 issued: IssuedCheck | None = None) -> None:
        self._token = token.encode("utf-8")
        self._hooks = hooks
        self._settings = settings
        self.issued = issued

    async def identify(self, headers: Headers) -> AuthenticatedUser | None:
        """The user a request authenticates as, or None."""
        presented = bearer_token(headers.get("authorization"))
        if presented is not None and hmac.compare_digest(presented.encode("utf-8"),
                                                         self._token):
            return _user(STATIC_PRINCIPAL, [])
        if presented is not None and self.issued is not None:
            found = await anyio.to_thread.run_sync(self.issued, presented)
            if found is not None:
                return _user(*found)
        principal = self._hooks.authenticate(dict(headers.items()), self._settings)
        return _user(principal, []) if principal else None


def bearer_token(value: str | None) -> str | None:
    """The credentials of an `Authorization: Bearer …` header (scheme case-insensitive)."""
    if not value:
        return None
    scheme, _, credentials = value.strip().partition(" ")
    if scheme.lower() != "bearer" or not credentials.strip():
        return None
    return credentials.strip()


def _user(principal: str, scopes: list[str]) -> AuthenticatedUser:
    # The SDK binds each MCP session to the principal (the client id) that opened it.
    return AuthenticatedUser(AccessToken(token=principal, client_id=principal, scopes=scopes))


def challenge(presented: bool, resource_metadata: str | None = None) -> str:
    """The `WWW-Authenticate` value of a 401 (RFC 6750, RFC 9728 §5.1)."""
    value = f'Bearer realm="{REALM}"'
    if presented:
        issued = " nor a live token this server issued" if resource_metadata else ""
        value += (', error="invalid_token", error_description="the bearer token is not this '
                  f"server's JAMGATE_TOKEN{issued}\"")
    if resource_metadata:
        value += f', resource_metadata="{resource_metadata}"'
    return value


# ---- the guard --------------------------------------------------------------------------------

Reply = tuple[int, bytes, list[tuple[bytes, bytes]]]


def json_reply(status: int, body: Mapping[str, object],
               headers: dict[str, str] | None = None) -> Reply:
    """A JSON reply as (status, body, headers), for `send_reply`."""
    raw = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    pairs = [(b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode())]
    pairs += [(k.lower().encode(), v.encode("latin-1")) for k, v in (headers or {}).items()]
    return status, raw, pairs


def error_reply(path: str, status: int, code: str, message: str, *,
                rpc_code: int = -32001,
                headers: dict[str, str] | None = None) -> Reply:
    """An error in the shape the path speaks: REST `{error, message}`, else JSON-RPC."""
    if path.startswith("/v1/") or path == "/v1" or path in PUBLIC_PATHS:
        return json_reply(status, {"error": code, "message": message}, headers)
    return json_reply(status, {"jsonrpc": "2.0", "id": None,
                               "error": {"code": rpc_code, "message": message}}, headers)


async def send_reply(send: Send, reply: Reply) -> None:
    status, body, headers = reply
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


# The 401's pointer to the protected-resource metadata: (scope, path) → URL. None = no OAuth.
MetadataPointer = Callable[[Scope, str], str]


class GuardMiddleware:
    """Host/Origin check, then authentication, for every path but the public ones.

    A wrong credential counts against the client's address (`throttle`); once the address is
    locked, its wrong credentials are answered 429 with `Retry-After` instead of 401. The
    right credential is checked first and is never delayed or refused by the throttle. A
    request without any `Authorization` header (OAuth discovery) is never counted.
    """

    def __init__(self, app: ASGIApp, *, policy: HostPolicy, authenticator: Authenticator,
                 open_paths: frozenset[str] = frozenset(),
                 cross_origin_paths: frozenset[str] = frozenset(),
                 metadata_pointer: MetadataPointer | None = None,
                 throttle: FailureThrottle | None = None) -> None:
        self.app = app
        self.policy = policy
        self.authenticator = authenticator
        self.open_paths = open_paths
        self.cross_origin_paths = cross_origin_paths
        self.metadata_pointer = metadata_pointer
        self.throttle = throttle or FailureThrottle(DEFAULT_LIMITS.auth_free_failures,
                                                    DEFAULT_LIMITS.auth_lockout_max_seconds)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] == "/healthz":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        headers = Headers(scope=scope)
        host = headers.get("host")
        if not self.policy.allows_host(host):
            await send_reply(send, error_reply(
                path, 421, "misdirected_request",
                f"this server does not answer to Host {host!r}. If that is its public name, "
                "add it to JAMGATE_ALLOWED_HOSTS (comma-separated) and restart.",
            ))
            return
        cross_origin = path in self.cross_origin_paths or path.startswith("/.well-known/")
        if not cross_origin and not self.policy.allows_origin(headers.get("origin")):
            await send_reply(send, error_reply(
                path, 403, "forbidden_origin",
                f"requests from the web origin {headers.get('origin')!r} are not accepted.",
            ))
            return
        if path in PUBLIC_PATHS or path in self.open_paths or (
                self.metadata_pointer is not None and path.startswith("/.well-known/")):
            await self.app(scope, receive, send)
            return
        try:
            user = await self.authenticator.identify(headers)
        except JamgateError as exc:  # the OAuth state cannot be read: say so, never a 500
            _log.warning(f"cannot check an issued token: {exc}")
            await send_reply(send, error_reply(
                path, 503, "auth_state_unavailable",
                f"this server cannot check issued tokens right now: {exc}", rpc_code=-32603))
            return
        if user is None:
            presented = headers.get("authorization") is not None
            if presented:
                key = client_key(scope)
                locked, started = self.throttle.fail(key)
                if started:
                    _log.warning(f"{self.throttle.free} wrong bearer tokens from {key}: its "
                                 f"wrong tokens get 429 for {retry_after(locked)} s (doubling on).")
                if locked:
                    await send_reply(send, error_reply(
                        path, 429, "too_many_attempts",
                        f"too many wrong tokens from this address; wait {retry_after(locked)} "
                        "s. Check the token: it is JAMGATE_TOKEN, or one OAuth issued.",
                        headers={"Retry-After": retry_after(locked)}))
                    return
            pointer = self.metadata_pointer(scope, path) if self.metadata_pointer else None
            await send_reply(send, error_reply(
                path, 401, "unauthorized",
                "a valid bearer token is required: send `Authorization: Bearer <JAMGATE_TOKEN>`"
                + (" or sign in with OAuth." if pointer else "."),
                headers={"WWW-Authenticate": challenge(presented, pointer)},
            ))
            return
        scope = {**scope, "user": user, "auth": AuthCredentials(user.scopes)}
        await self.app(scope, receive, send)
