"""Jamgate as its own OAuth 2.1 authorization server, for claude.ai and the Claude apps.

The static `JAMGATE_TOKEN` stays the one human credential: the consent page asks for it once,
and an application then gets its own tokens. What is served (no bearer token needed):

- `/.well-known/oauth-protected-resource[/mcp]` (RFC 9728) and
  `/.well-known/oauth-authorization-server[/mcp]` (RFC 8414), built per request from the
  public address (`X-Forwarded-Proto` / `X-Forwarded-Host`, see `public_base`).
- `POST /register` (RFC 7591): HTTPS or loopback redirect URIs only; public clients
  (`token_endpoint_auth_method: "none"`) and secret-holding ones both accepted.
- `GET /authorize` shows the consent page; `POST /authorize` checks the instance token and
  redirects with a single-use code (60 s). An unknown client or a redirect URI that is not
  exactly a registered one is an error page, never a redirect.
- `POST /token` (PKCE S256 only; refresh tokens rotate): the MCP SDK's handler over
  `JamgateProvider`. `POST /revoke` (RFC 7009) is ours: the SDK's requires a
  `client_secret` field even from public clients.

State lives behind the store's `AuthState` contract, as SHA-256 hashes only: several
instances on one store accept each other's tokens.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, cast
from urllib.parse import urlsplit

import anyio.to_thread
from mcp.server.auth.handlers.register import RegistrationHandler
from mcp.server.auth.handlers.token import TokenHandler
from mcp.server.auth.middleware.client_auth import AuthenticationError, ClientAuthenticator
from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    AuthorizeError,
    OAuthAuthorizationServerProvider,
    RefreshToken,
    RegistrationError,
    TokenError,
    construct_redirect_uri,
)
from mcp.server.auth.routes import build_metadata
from mcp.server.auth.settings import ClientRegistrationOptions, RevocationOptions
from mcp.server.transport_security import RequestBodyLimitMiddleware
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken, ProtectedResourceMetadata
from mcp.shared.inbound import MCP_PROTOCOL_VERSION_HEADER
from pydantic import AnyHttpUrl, AnyUrl, ValidationError
from starlette.datastructures import Headers
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route, request_response
from starlette.types import ASGIApp, Scope

from jamgate_core.contracts import AuthSecret, AuthState, SecretKind, Store
from jamgate_core.errors import ConfigError
from jamgate_server import oauth_pages

T = TypeVar("T")

SCOPE = "jamgate"
CODE_SECONDS = 60
ACCESS_SECONDS = 24 * 3600
REFRESH_SECONDS = 90 * 24 * 3600
UNUSED_CLIENT_SECONDS = 24 * 3600
# A rotated refresh token shown again after this long is a stolen copy: its grant is revoked.
REUSE_GRACE_SECONDS = 30
BODY_LIMIT = 64 * 1024
OWNER = "owner"
PREFIXES: dict[SecretKind, str] = {"code": "jgc_", "access": "jga_", "refresh": "jgr_"}
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]", "::1")
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


def digest(secret: str) -> str:
    """What is stored for a secret: its SHA-256, hex."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def mint(kind: SecretKind) -> str:
    """A new secret: a kind prefix (for secret scanners) and 256 random bits."""
    return PREFIXES[kind] + secrets.token_urlsafe(32)


def is_issued(token: str) -> bool:
    """Whether a bearer token has the shape of an access token this server issues."""
    return token.startswith(PREFIXES["access"])


def auth_state_of(store: Store) -> AuthState:
    """The configured store's auth state; ConfigError when it keeps none."""
    if isinstance(store, AuthState):
        return store
    raise ConfigError(
        f"the configured store ({type(store).__name__}) cannot keep OAuth state, which "
        "remote mode needs for claude.ai and the Claude apps. Use the sqlite or file store, "
        "or set JAMGATE_OAUTH=off to accept the static JAMGATE_TOKEN only."
    )


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

def redirect_uri_problem(uri: str) -> str | None:
    """Why a redirect URI cannot be registered, or None: HTTPS, or HTTP on loopback."""
    parts = urlsplit(uri)
    if parts.fragment:
        return f"redirect URI {uri!r} has a fragment"
    if parts.scheme == "https" and parts.hostname:
        return None
    if parts.scheme == "http" and parts.hostname in LOOPBACK_HOSTS:
        return None
    return (f"redirect URI {uri!r} must use https, or http on localhost / 127.0.0.1 / [::1]")


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


# ---- the provider ---------------------------------------------------------------------------

class Code(AuthorizationCode):
    grant_id: str


class Refresh(RefreshToken):
    grant_id: str


class Access(AccessToken):
    grant_id: str


def _data(secret: AuthSecret) -> dict[str, Any]:
    loaded = json.loads(secret.data)
    return loaded if isinstance(loaded, dict) else {}


class JamgateProvider(OAuthAuthorizationServerProvider[Code, Refresh, Access]):
    """The SDK's provider interface over an `AuthState`; store calls run in worker threads."""

    def __init__(self, state: AuthState, clock: Callable[[], float] = time.time) -> None:
        self.state = state
        self.clock = clock

    async def _run(self, call: Callable[..., T], *args: Any) -> T:
        return await anyio.to_thread.run_sync(call, *args)

    # ---- clients ----------------------------------------------------------------------------

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        document = await self._run(self.state.oauth_client, client_id)
        if document is None:
            return None
        return OAuthClientInformationFull.model_validate_json(document)

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        for uri in client_info.redirect_uris or []:
            problem = redirect_uri_problem(str(uri))
            if problem:
                raise RegistrationError("invalid_redirect_uri", problem)
        stored = client_info.model_copy()
        if stored.client_secret is not None:  # kept as a hash, like every other secret
            stored.client_secret = "sha256:" + digest(stored.client_secret)
        now = self.clock()
        await self._run(self.state.oauth_prune, now, UNUSED_CLIENT_SECONDS)
        await self._run(self.state.oauth_save_client, stored.client_id or "",
                        stored.model_dump_json(exclude_none=True), now)

    async def authorize(self, client: OAuthClientInformationFull,
                        params: AuthorizationParams) -> str:
        raise AuthorizeError("server_error", "authorization runs through /authorize's consent page")

    # ---- codes --------------------------------------------------------------------------------

    def issue_code(self, client_id: str, redirect_uri: str, explicit: bool, challenge: str,
                   scopes: list[str], resource: str | None) -> str:
        """Mint and store a code (synchronous: call from a worker thread)."""
        code = mint("code")
        now = self.clock()
        self.state.oauth_prune(now, UNUSED_CLIENT_SECONDS)
        self.state.oauth_put(AuthSecret(
            kind="code", key=digest(code), client_id=client_id, grant_id=uuid.uuid4().hex,
            expires_at=now + CODE_SECONDS,
            data=json.dumps({"redirect_uri": redirect_uri, "explicit": explicit,
                             "challenge": challenge, "scopes": scopes, "resource": resource}),
        ))
        return code

    async def load_authorization_code(self, client: OAuthClientInformationFull,
                                      authorization_code: str) -> Code | None:
        """Consume the code on presentation: whatever happens next, it never works again.
        A code shown a second time revokes everything issued from it (RFC 6749 §4.1.2)."""
        now = self.clock()
        found = await self._run(self.state.oauth_take, "code", digest(authorization_code), now)
        if found is None:
            return None
        if found.revoked_at is not None:
            await self._run(self.state.oauth_revoke_grant, found.grant_id, now)
            return None
        data = _data(found)
        return Code(code=authorization_code, scopes=data["scopes"], expires_at=found.expires_at,
                    client_id=found.client_id, code_challenge=data["challenge"],
                    redirect_uri=AnyUrl(data["redirect_uri"]),
                    redirect_uri_provided_explicitly=data["explicit"],
                    resource=data.get("resource"), subject=OWNER, grant_id=found.grant_id)

    async def exchange_authorization_code(self, client: OAuthClientInformationFull,
                                          authorization_code: Code) -> OAuthToken:
        return await self._run(self._issue_tokens, authorization_code.client_id,
                               authorization_code.grant_id, authorization_code.scopes,
                               authorization_code.resource)

    def _issue_tokens(self, client_id: str, grant_id: str, scopes: list[str],
                      resource: str | None) -> OAuthToken:
        now = self.clock()
        access, refresh = mint("access"), mint("refresh")
        data = json.dumps({"scopes": scopes, "resource": resource})
        for kind, secret, seconds in (("access", access, ACCESS_SECONDS),
                                      ("refresh", refresh, REFRESH_SECONDS)):
            self.state.oauth_put(AuthSecret(
                kind=cast(SecretKind, kind), key=digest(secret), client_id=client_id,
                grant_id=grant_id, expires_at=now + seconds, data=data))
        return OAuthToken(access_token=access, token_type="Bearer", expires_in=ACCESS_SECONDS,
                          scope=" ".join(scopes), refresh_token=refresh)

    # ---- refresh tokens ---------------------------------------------------------------------

    async def load_refresh_token(self, client: OAuthClientInformationFull,
                                 refresh_token: str) -> Refresh | None:
        found = await self._run(self.state.oauth_get, "refresh", digest(refresh_token))
        if found is None:
            return None
        now = self.clock()
        if found.revoked_at is not None:
            if now - found.revoked_at > REUSE_GRACE_SECONDS:
                await self._run(self.state.oauth_revoke_grant, found.grant_id, now)
            return None
        data = _data(found)
        return Refresh(token=refresh_token, client_id=found.client_id, scopes=data["scopes"],
                       expires_at=int(found.expires_at), resource=data.get("resource"),
                       subject=OWNER, grant_id=found.grant_id)

    async def exchange_refresh_token(self, client: OAuthClientInformationFull,
                                     refresh_token: Refresh, scopes: list[str]) -> OAuthToken:
        """Rotate: the presented refresh token and the grant's access tokens end here."""
        now = self.clock()
        taken = await self._run(self.state.oauth_take, "refresh", digest(refresh_token.token),
                                now)
        if taken is None or taken.revoked_at is not None:
            raise TokenError("invalid_grant", "refresh token was already used")
        await self._run(self.state.oauth_revoke_grant, taken.grant_id, now)
        return await self._run(self._issue_tokens, taken.client_id, taken.grant_id,
                               scopes or refresh_token.scopes, refresh_token.resource)

    # ---- access tokens ----------------------------------------------------------------------

    def verify(self, token: str) -> Access | None:
        """The live access token `token`, or None (synchronous: for a worker thread)."""
        if not is_issued(token):
            return None
        found = self.state.oauth_get("access", digest(token))
        if found is None or found.revoked_at is not None or found.expires_at <= self.clock():
            return None
        data = _data(found)
        return Access(token=token, client_id=found.client_id, scopes=data["scopes"],
                      expires_at=int(found.expires_at), resource=data.get("resource"),
                      subject=OWNER, grant_id=found.grant_id)

    async def load_access_token(self, token: str) -> Access | None:
        return await self._run(self.verify, token)

    async def revoke_token(self, token: Access | Refresh) -> None:
        """Revoking either token of a grant revokes the whole grant."""
        await self._run(self.state.oauth_revoke_grant, token.grant_id, self.clock())


class HashedSecretAuthenticator(ClientAuthenticator):
    """The SDK's client authentication at /token and /revoke, against a hashed secret."""

    async def authenticate_request(self, request: Request) -> OAuthClientInformationFull:
        form = await request.form()
        client_id = form.get("client_id")
        if not isinstance(client_id, str) or not client_id:
            raise AuthenticationError("Missing client_id")
        client = await self.provider.get_client(client_id)
        if client is None:
            raise AuthenticationError("Invalid client_id")
        method = client.token_endpoint_auth_method or "client_secret_post"
        if method == "none":
            return client
        presented: str | None = None
        if method == "client_secret_basic":
            header = request.headers.get("authorization", "")
            try:
                user, _, password = base64.b64decode(header[6:]).decode().partition(":")
            except (ValueError, UnicodeDecodeError):
                raise AuthenticationError("Invalid Basic authentication header") from None
            if not header.startswith("Basic ") or user != client_id:
                raise AuthenticationError("Missing or invalid Basic authentication")
            presented = password
        elif method == "client_secret_post":
            value = form.get("client_secret")
            presented = value if isinstance(value, str) else None
        stored = client.client_secret or ""
        if not presented or not stored.startswith("sha256:") or not hmac.compare_digest(
                stored[7:], digest(presented)):
            raise AuthenticationError("Invalid client_secret")
        return client


# ---- the routes -------------------------------------------------------------------------------

def _cors(app: ASGIApp, methods: list[str]) -> ASGIApp:
    return CORSMiddleware(app, allow_origins=["*"], allow_methods=methods,
                          allow_headers=["Authorization", "Content-Type",
                                         MCP_PROTOCOL_VERSION_HEADER], max_age=86400)


@dataclass
class OAuthServer:
    """The OAuth endpoints of one HTTP app."""

    provider: JamgateProvider
    instance_token: str
    allows_host: Callable[[str], bool]

    @property
    def registration(self) -> ClientRegistrationOptions:
        return ClientRegistrationOptions(enabled=True, default_scopes=[SCOPE])

    def routes(self) -> list[Route]:
        authenticator = HashedSecretAuthenticator(self.provider)
        token = TokenHandler(self.provider, authenticator)
        register = RegistrationHandler(self.provider, options=self.registration)

        async def revoke(request: Request) -> Response:
            return await self.revoke(request, authenticator)

        def posted(handler: Callable[[Request], Any]) -> ASGIApp:
            limited = RequestBodyLimitMiddleware(request_response(handler), BODY_LIMIT)
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
            Route("/authorize", RequestBodyLimitMiddleware(request_response(self.authorize),
                                                           BODY_LIMIT), methods=["GET", "POST"]),
            Route("/token", posted(token.handle), methods=["POST", "OPTIONS"]),
            Route("/register", posted(register.handle), methods=["POST", "OPTIONS"]),
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

        def page(wrong_token: bool = False) -> Response:
            return oauth_pages.consent_page(
                client_name=client.client_name, redirect_host=urlsplit(redirect).netloc,
                scopes=scopes, carried=carried, wrong_token=wrong_token)

        if request.method == "GET":
            return page()
        if values.get("decision") == "deny":
            return refuse("access_denied", "the owner declined")
        given = values.get("instance_token", "").strip().encode("utf-8")
        if not hmac.compare_digest(given, self.instance_token.encode("utf-8")):
            return page(wrong_token=True)
        code = await anyio.to_thread.run_sync(
            self.provider.issue_code, client_id, redirect, "redirect_uri" in values, challenge,
            scopes, values.get("resource"))
        target = construct_redirect_uri(redirect, code=code, state=state)
        return RedirectResponse(target, status_code=302, headers={"Cache-Control": "no-store"})


def _document(body: dict[str, Any]) -> Response:
    # Built from request headers, so never cached by a shared cache.
    return JSONResponse(body, headers={"Cache-Control": "no-store",
                                       "Vary": "Host, X-Forwarded-Host, X-Forwarded-Proto"})
