"""Jamgate as its own OAuth 2.1 authorization server, for claude.ai and the Claude apps.

The static `JAMGATE_TOKEN` stays the one human credential: the consent page asks for it once,
and an application then gets its own tokens. What is served (no bearer token needed):

- `/.well-known/oauth-protected-resource[/mcp]` (RFC 9728) and
  `/.well-known/oauth-authorization-server[/mcp]` (RFC 8414), built per request from the
  public address (`X-Forwarded-Proto` / `X-Forwarded-Host`, see `public_base`).
- `POST /register` (RFC 7591): HTTPS or loopback redirect URIs only; public clients
  (`token_endpoint_auth_method: "none"`) and secret-holding ones both accepted. Bounded, since
  anyone may call it: 16 KiB, 32 fields, 2,048 characters a string, 10 items a list; a rate per
  client address and over all of them (429 with `Retry-After`); and at most
  `register_max_pending` clients that never signed in, the oldest evicted first.
- `GET /authorize` shows the consent page; `POST /authorize` checks the instance token and
  redirects with a single-use code (60 s). An unknown client or a redirect URI that is not
  exactly a registered one is an error page, never a redirect. Wrong instance tokens are
  throttled per address like wrong bearer tokens (429 once locked; the right one always works).
- `POST /token` (PKCE S256 only; refresh tokens rotate): the MCP SDK's handler over
  `JamgateProvider` (`oauth_provider.py`). `POST /revoke` (RFC 7009) is ours: the SDK's requires a
  `client_secret` field even from public clients.

State lives behind the store's `AuthState` contract, as SHA-256 hashes only: several
instances on one store accept each other's tokens. A record that cannot be decoded counts as
absent (and is reported on stderr); a store error is a 503 naming the state, never a 500.
"""

from __future__ import annotations

import hmac
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast
from urllib.parse import urlsplit

import anyio.to_thread
from mcp.server.auth.handlers.register import RegistrationHandler
from mcp.server.auth.handlers.token import TokenHandler
from mcp.server.auth.middleware.client_auth import AuthenticationError, ClientAuthenticator
from mcp.server.auth.provider import construct_redirect_uri
from mcp.server.auth.routes import build_metadata
from mcp.server.auth.settings import ClientRegistrationOptions, RevocationOptions
from mcp.server.transport_security import RequestBodyLimitMiddleware
from mcp.shared.auth import OAuthClientInformationFull, ProtectedResourceMetadata
from mcp.shared.inbound import MCP_PROTOCOL_VERSION_HEADER
from pydantic import AnyHttpUrl, AnyUrl, ValidationError
from pydantic_core import from_json
from starlette.datastructures import Headers
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route, request_response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from jamgate_core.contracts import AuthState, Store
from jamgate_core.errors import ConfigError, JamgateError
from jamgate_server import oauth_pages
from jamgate_server.limits import FailureThrottle, HttpLimits, RateLimiter, client_key, retry_after
from jamgate_server.oauth_provider import (
    ACCESS_SECONDS,
    CODE_SECONDS,
    REFRESH_SECONDS,
    Access,
    HashedSecretAuthenticator,
    JamgateProvider,
    Refresh,
    digest,
    is_issued,
    mint,
    redirect_uri_problem,
)
from jamgate_server.oauth_state import state_problems

# The provider's names are re-exported: `oauth.JamgateProvider`, `oauth.digest` as before.
_log = logging.getLogger(__name__)

__all__ = ["ACCESS_SECONDS", "BODY_LIMIT", "CODE_SECONDS", "CORS_PATHS", "PATH_BODY_LIMITS",
           "PUBLIC_PATHS", "REFRESH_SECONDS", "REGISTER_BODY_LIMIT", "SCOPE", "JamgateProvider",
           "OAuthServer", "auth_state_of", "digest", "is_issued", "matched_redirect", "mint",
           "oversize_reply", "public_base", "redirect_uri_problem", "registration_problem",
           "resource_metadata_url", "shielded"]

SCOPE = "jamgate"
BODY_LIMIT = 64 * 1024
# Registration is open to anyone: what one may hold (RFC 7591 defines 20-odd fields).
REGISTER_BODY_LIMIT = 16 * 1024
REGISTER_MAX_FIELDS = 32
REGISTER_MAX_STRING = 2048
REGISTER_MAX_ITEMS = 10
REGISTER_MAX_DEPTH = 6
# Over all addresses, registrations may come this many times faster than from one.
REGISTER_TOTAL_FACTOR = 10
RESOURCE_PATH = "/mcp"
PROTECTED_RESOURCE = "/.well-known/oauth-protected-resource"
AUTHORIZATION_SERVER = "/.well-known/oauth-authorization-server"
# Paths served without a bearer token; browser-based clients call these cross-origin.
CORS_PATHS = frozenset({
    PROTECTED_RESOURCE, PROTECTED_RESOURCE + RESOURCE_PATH,
    AUTHORIZATION_SERVER, AUTHORIZATION_SERVER + RESOURCE_PATH,
    "/token", "/register", "/revoke",
})
PUBLIC_PATHS = CORS_PATHS | {"/authorize"}
_CHALLENGE = re.compile(r"^[A-Za-z0-9_-]{43}$")


def auth_state_of(store: Store) -> AuthState:
    """The configured store's auth state; ConfigError when it keeps none, or when it cannot
    be read (a corrupt sidecar or table), naming where it lives and what to do."""
    if not isinstance(store, AuthState):
        raise ConfigError(
            f"the configured store ({type(store).__name__}) cannot keep OAuth state, which "
            "remote mode needs for claude.ai and the Claude apps. Use the sqlite or file store, "
            "or set JAMGATE_OAUTH=off to accept the static JAMGATE_TOKEN only."
        )
    problems = state_problems(store)
    if problems:
        text = " ".join(problems)
        if "JAMGATE_OAUTH=off" not in text:
            text += (" Or start with JAMGATE_OAUTH=off to serve the static JAMGATE_TOKEN "
                     "only; `jamgate doctor` checks the OAuth state again.")
        raise ConfigError("cannot serve OAuth: " + text)
    return store


# ---- registration limits ----------------------------------------------------------------------

def registration_problem(body: bytes) -> str | None:
    """Why a registration request is refused before the SDK reads it (400
    invalid_client_metadata), or None: too large, not a JSON object, or over a field cap."""
    if len(body) > REGISTER_BODY_LIMIT:
        return f"the registration is over {REGISTER_BODY_LIMIT} bytes"
    try:
        document = from_json(body)
    except ValueError as exc:
        return f"the registration is not valid JSON ({exc})"
    if not isinstance(document, dict):
        return "the registration must be a JSON object"
    return _field_problem(document, "", 0)


def _field_problem(value: Any, where: str, depth: int) -> str | None:
    name = where or "the registration"
    if depth > REGISTER_MAX_DEPTH:
        return f"{name} is nested more than {REGISTER_MAX_DEPTH} levels deep"
    if isinstance(value, str):
        if len(value) > REGISTER_MAX_STRING:
            return f"{name} is over {REGISTER_MAX_STRING} characters"
    elif isinstance(value, list):
        if len(value) > REGISTER_MAX_ITEMS:
            return f"{name} has {len(value)} items; at most {REGISTER_MAX_ITEMS}"
        for index, item in enumerate(value):
            problem = _field_problem(item, f"{name}[{index}]", depth + 1)
            if problem:
                return problem
    elif isinstance(value, dict):
        if len(value) > REGISTER_MAX_FIELDS:
            return f"{name} has {len(value)} fields; at most {REGISTER_MAX_FIELDS}"
        for key, item in value.items():
            if len(key) > 64:
                return f"a field name in {name} is over 64 characters"
            problem = _field_problem(item, f"{where}.{key}" if where else key, depth + 1)
            if problem:
                return problem
    return None


# ---- the public address -----------------------------------------------------------------------

def _first(value: str | None) -> str:
    return (value or "").split(",", 1)[0].strip()


def public_base(scope: Scope, allows_host: Callable[[str], bool]) -> str:
    """`scheme://host[:port]` as the client sees this server.

    Behind a TLS proxy the connection is plain HTTP, so `X-Forwarded-Proto` (`http` or
    `https` only) gives the scheme and `X-Forwarded-Host` the name — the latter only when it
    is one of the server's allowed hosts (else the `Host` header is used). A spoofed value
    changes nothing stored: the address only shapes the answer to the request carrying it.
    """
    headers = Headers(scope=scope)
    proto = _first(headers.get("x-forwarded-proto")).lower()
    scheme = proto if proto in ("http", "https") else str(scope.get("scheme", "http"))
    forwarded = _first(headers.get("x-forwarded-host")).lower()
    host = forwarded if forwarded and allows_host(forwarded) else (
        headers.get("host") or "127.0.0.1").lower()
    default_port = ":443" if scheme == "https" else ":80"
    if host.endswith(default_port):
        host = host[: -len(default_port)]
    return f"{scheme}://{host}"


def resource_metadata_url(base: str, path: str) -> str:
    """The RFC 9728 document a 401 points to: path-suffixed for `/mcp`, bare otherwise."""
    suffix = RESOURCE_PATH if path == RESOURCE_PATH else ""
    return f"{base}{PROTECTED_RESOURCE}{suffix}"


# ---- registration policy ----------------------------------------------------------------------

def _normal(uri: str) -> str | None:
    try:
        return str(AnyUrl(uri))
    except ValidationError:
        return None


def matched_redirect(client: OAuthClientInformationFull, given: str | None) -> str | None:
    """The registered redirect URI `given` names exactly (after URL normalisation), or the
    only registered one when none is given; None otherwise."""
    registered = [str(uri) for uri in client.redirect_uris or []]
    if given is None:
        return registered[0] if len(registered) == 1 else None
    wanted = _normal(given)
    return wanted if wanted is not None and wanted in registered else None


# ---- the routes -------------------------------------------------------------------------------

def _cors(app: ASGIApp, methods: list[str]) -> ASGIApp:
    return CORSMiddleware(app, allow_origins=["*"], allow_methods=methods,
                          allow_headers=["Authorization", "Content-Type",
                                         MCP_PROTOCOL_VERSION_HEADER], max_age=86400)


def shielded(app: ASGIApp, html: bool = False) -> ASGIApp:
    """`app`, answering 503 (not a 500 and a traceback) when the OAuth state cannot be read."""

    async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await app(scope, receive, sending)
        except JamgateError as exc:
            if started:
                raise
            _log.warning(f"OAuth {scope.get('path')}: {exc}")
            message = f"the OAuth state cannot be read: {exc}"
            response: Response = (
                oauth_pages.error_page("Temporarily unavailable", message, status=503) if html
                else JSONResponse({"error": "temporarily_unavailable",
                                   "error_description": message},
                                  status_code=503, headers={"Cache-Control": "no-store"}))
            await response(scope, receive, send)

    return guarded


def oversize_reply(path: str) -> tuple[int, dict[str, str]] | None:
    """The status and OAuth-shaped body for a request over its path's body limit, or None
    when the path is not an OAuth JSON endpoint (the HTTP app answers those itself)."""
    if path == "/register":
        return 400, {"error": "invalid_client_metadata",
                     "error_description": f"the registration is over {REGISTER_BODY_LIMIT} "
                                          "bytes. Nothing was registered."}
    if path in ("/token", "/revoke"):
        return 413, {"error": "invalid_request",
                     "error_description": f"the request body is over {BODY_LIMIT} bytes"}
    return None


PATH_BODY_LIMITS = {"/register": REGISTER_BODY_LIMIT, "/token": BODY_LIMIT,
                    "/revoke": BODY_LIMIT, "/authorize": BODY_LIMIT}


def _too_many(seconds: float, what: str) -> Response:
    return JSONResponse(
        {"error": "temporarily_unavailable",
         "error_description": f"too many {what}; try again in {retry_after(seconds)} s"},
        status_code=429,
        headers={"Retry-After": retry_after(seconds), "Cache-Control": "no-store"})


@dataclass
class OAuthServer:
    """The OAuth endpoints of one HTTP app, with their limits."""

    provider: JamgateProvider
    instance_token: str
    allows_host: Callable[[str], bool]
    limits: HttpLimits = field(default_factory=HttpLimits.model_construct)

    def __post_init__(self) -> None:
        limits = self.limits
        self.register_rate = RateLimiter(limits.register_burst, limits.register_per_hour)
        self.register_total = RateLimiter(limits.register_burst * REGISTER_TOTAL_FACTOR,
                                          limits.register_per_hour * REGISTER_TOTAL_FACTOR)
        self.consent_throttle = FailureThrottle(limits.auth_free_failures,
                                                limits.auth_lockout_max_seconds)

    @property
    def registration(self) -> ClientRegistrationOptions:
        return ClientRegistrationOptions(enabled=True, default_scopes=[SCOPE])

    def routes(self) -> list[Route]:
        authenticator = HashedSecretAuthenticator(self.provider)
        token = TokenHandler(self.provider, authenticator)
        register = RegistrationHandler(self.provider, options=self.registration)

        async def revoke(request: Request) -> Response:
            return await self.revoke(request, authenticator)

        async def registration(request: Request) -> Response:
            return await self.register(request, register)

        def posted(handler: Callable[[Request], Any], limit: int = BODY_LIMIT) -> ASGIApp:
            limited = RequestBodyLimitMiddleware(shielded(request_response(handler)), limit)
            return _cors(limited, ["POST", "OPTIONS"])

        def document(handler: Callable[[Request], Any]) -> ASGIApp:
            return _cors(request_response(handler), ["GET", "OPTIONS"])

        get = ["GET", "OPTIONS"]
        return [
            Route(PROTECTED_RESOURCE, document(self.protected_resource), methods=get),
            Route(PROTECTED_RESOURCE + RESOURCE_PATH, document(self.protected_resource),
                  methods=get),
            Route(AUTHORIZATION_SERVER, document(self.authorization_server), methods=get),
            Route(AUTHORIZATION_SERVER + RESOURCE_PATH, document(self.authorization_server),
                  methods=get),
            Route("/authorize", RequestBodyLimitMiddleware(
                shielded(request_response(self.authorize), html=True), BODY_LIMIT),
                methods=["GET", "POST"]),
            Route("/token", posted(token.handle), methods=["POST", "OPTIONS"]),
            Route("/register", posted(registration), methods=["POST", "OPTIONS"]),
            Route("/revoke", posted(revoke), methods=["POST", "OPTIONS"]),
        ]

    # ---- metadata ---------------------------------------------------------------------------

    def base(self, request: Request) -> str:
        return public_base(request.scope, self.allows_host)

    async def protected_resource(self, request: Request) -> Response:
        base = self.base(request)
        # Plain strings: `AnyHttpUrl(base)` would add a trailing slash to the issuer.
        metadata = ProtectedResourceMetadata.model_validate({
            "resource": base + RESOURCE_PATH, "authorization_servers": [base],
            "scopes_supported": [SCOPE], "resource_name": "Jamgate",
        })
        return _document(metadata.model_dump(mode="json", exclude_none=True))

    async def authorization_server(self, request: Request) -> Response:
        metadata = build_metadata(cast(AnyHttpUrl, self.base(request)), None,
                                  self.registration, RevocationOptions(enabled=True))
        methods = ["none", "client_secret_post", "client_secret_basic"]
        metadata.token_endpoint_auth_methods_supported = methods
        metadata.revocation_endpoint_auth_methods_supported = methods
        metadata.scopes_supported = [SCOPE]
        return _document(metadata.model_dump(mode="json", exclude_none=True))

    # ---- registration -----------------------------------------------------------------------

    async def register(self, request: Request, handler: RegistrationHandler) -> Response:
        """RFC 7591, bounded: the rate per address and in all (429 with `Retry-After`), then
        the size and shape of the request (400 invalid_client_metadata), then the SDK."""
        wait = self.register_rate.take(client_key(request.scope))
        if wait:
            return _too_many(wait, "client registrations from this address")
        wait = self.register_total.take("*")
        if wait:
            return _too_many(wait, "client registrations")
        problem = registration_problem(await request.body())
        if problem:
            return JSONResponse({"error": "invalid_client_metadata",
                                 "error_description": problem + ". Nothing was registered."},
                                status_code=400, headers={"Cache-Control": "no-store"})
        return await handler.handle(request)  # the body is cached on the request

    # ---- revocation -------------------------------------------------------------------------

    async def revoke(self, request: Request, authenticator: ClientAuthenticator) -> Response:
        """RFC 7009: 200 whether or not the token was known; only its own client may revoke
        it, and revoking either token of a grant ends the whole grant."""
        try:
            client = await authenticator.authenticate_request(request)
        except AuthenticationError as exc:
            return JSONResponse({"error": "invalid_client", "error_description": exc.message},
                                status_code=401, headers={"Cache-Control": "no-store"})
        token = (await request.form()).get("token")
        if not isinstance(token, str) or not token:
            return JSONResponse({"error": "invalid_request",
                                 "error_description": "the token to revoke is missing"},
                                status_code=400, headers={"Cache-Control": "no-store"})
        found: Access | Refresh | None = await self.provider.load_access_token(token)
        if found is None:
            found = await self.provider.load_refresh_token(client, token)
        if found is not None and found.client_id == client.client_id:
            await self.provider.revoke_token(found)
        return Response(status_code=200, headers={"Cache-Control": "no-store"})

    # ---- consent ----------------------------------------------------------------------------

    async def authorize(self, request: Request) -> Response:
        """GET shows the consent page; POST checks the instance token and redirects."""
        source = request.query_params if request.method == "GET" else await request.form()
        values = {key: value for key in (*oauth_pages.CARRIED, "instance_token", "decision")
                  if isinstance(value := source.get(key), str)}
        client_id = values.get("client_id", "")
        if not client_id:
            return oauth_pages.error_page("Invalid request", "The request has no client_id.")
        client = await self.provider.get_client(client_id)
        if client is None:
            return oauth_pages.error_page(
                "Unknown client", "This application is not registered with this Jamgate "
                "instance (or its registration expired).")
        redirect = matched_redirect(client, values.get("redirect_uri"))
        if redirect is None:
            return oauth_pages.error_page(
                "Invalid redirect", "The redirect URI is not one this application registered, "
                "so Jamgate will not send you there.")
        state = values.get("state")

        def refuse(error: str, description: str) -> Response:
            target = construct_redirect_uri(redirect, error=error,
                                            error_description=description, state=state)
            return RedirectResponse(target, status_code=302, headers={"Cache-Control": "no-store"})

        if values.get("response_type") != "code":
            return refuse("unsupported_response_type", "response_type must be code")
        if values.get("code_challenge_method", "S256") != "S256":
            return refuse("invalid_request", "code_challenge_method must be S256")
        challenge = values.get("code_challenge", "")
        if not _CHALLENGE.match(challenge):
            return refuse("invalid_request", "a PKCE S256 code_challenge is required")
        scopes = (values.get("scope") or client.scope or SCOPE).split()
        carried = {key: values[key] for key in oauth_pages.CARRIED if key in values}

        def page(wrong_token: bool = False, locked: float = 0.0) -> Response:
            return oauth_pages.consent_page(
                client_name=client.client_name, redirect_host=urlsplit(redirect).netloc,
                scopes=scopes, carried=carried, wrong_token=wrong_token,
                locked_seconds=int(retry_after(locked)) if locked else 0)

        if request.method == "GET":
            return page()
        if values.get("decision") == "deny":
            return refuse("access_denied", "the owner declined")
        given = values.get("instance_token", "").strip().encode("utf-8")
        if not hmac.compare_digest(given, self.instance_token.encode("utf-8")):
            key = client_key(request.scope)
            if not given:  # an empty submission is no guess
                return page(wrong_token=True, locked=self.consent_throttle.locked(key))
            locked, started = self.consent_throttle.fail(key)
            if started:
                _log.warning(f"{self.consent_throttle.free} wrong instance tokens on the "
                             f"consent page from {key}: its wrong tokens get 429 for "
                             f"{retry_after(locked)} s (doubling on).")
            return page(wrong_token=True, locked=locked)
        code = await anyio.to_thread.run_sync(
            self.provider.issue_code, client_id, redirect, "redirect_uri" in values, challenge,
            scopes, values.get("resource"))
        target = construct_redirect_uri(redirect, code=code, state=state)
        return RedirectResponse(target, status_code=302, headers={"Cache-Control": "no-store"})


def _document(body: dict[str, Any]) -> Response:
    # Built from request headers, so never cached by a shared cache.
    return JSONResponse(body, headers={"Cache-Control": "no-store",
                                       "Vary": "Host, X-Forwarded-Host, X-Forwarded-Proto"})
