"""The OAuth provider: the SDK's provider interface over the store's `AuthState`, the issued
secrets (`jgc_`, `jga_`, `jgr_` and 256 random bits; stored as SHA-256 hashes only), their
lifetimes, and client authentication against a hashed client secret (see `oauth.py` for the
endpoints and D-107 for the choices).

A stored record that cannot be decoded counts as absent (one stderr line each), never a 500.
At most `max_pending` clients registered through this instance may wait for their first
sign-in; past that the oldest unused ones are evicted (D-132).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import secrets
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable
from typing import Any, TypeVar, cast
from urllib.parse import urlsplit

import anyio.to_thread
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
)
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken
from pydantic import AnyUrl, ValidationError
from starlette.requests import Request

from jamgate_core.contracts import AuthSecret, AuthState, SecretKind

_log = logging.getLogger(__name__)

T = TypeVar("T")

CODE_SECONDS = 60
ACCESS_SECONDS = 24 * 3600
REFRESH_SECONDS = 90 * 24 * 3600
UNUSED_CLIENT_SECONDS = 24 * 3600
# A rotated refresh token shown again after this long is a stolen copy: its grant is revoked.
REUSE_GRACE_SECONDS = 30
OWNER = "owner"
PREFIXES: dict[SecretKind, str] = {"code": "jgc_", "access": "jga_", "refresh": "jgr_"}
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]", "::1")


def digest(secret: str) -> str:
    """What is stored for a secret: its SHA-256, hex."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def mint(kind: SecretKind) -> str:
    """A new secret: a kind prefix (for secret scanners) and 256 random bits."""
    return PREFIXES[kind] + secrets.token_urlsafe(32)


def is_issued(token: str) -> bool:
    """Whether a bearer token has the shape of an access token this server issues."""
    return token.startswith(PREFIXES["access"])


_REPORTED: set[str] = set()


def unreadable(kind: str, key: str, exc: BaseException) -> None:
    """Report a stored OAuth record that cannot be decoded (once per record); it counts as
    absent, so its client registers again or its holder signs in again."""
    name = f"{kind}:{key[:12]}"
    if name in _REPORTED or len(_REPORTED) > 1000:
        return
    _REPORTED.add(name)
    detail = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    _log.warning(f"the stored OAuth {kind} {key[:12]}… cannot be decoded ({detail}); it is "
                 "treated as absent (its client registers again, or its holder signs in again).")


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


class Code(AuthorizationCode):
    grant_id: str


class Refresh(RefreshToken):
    grant_id: str


class Access(AccessToken):
    grant_id: str


def _data(secret: AuthSecret) -> dict[str, Any]:
    """A secret's recorded data; ValueError when it is not what this server writes."""
    loaded = json.loads(secret.data)
    if not isinstance(loaded, dict) or not isinstance(loaded.get("scopes"), list):
        raise ValueError("its data is not an object with scopes")
    if not isinstance(secret.expires_at, (int, float)) or not isinstance(secret.client_id, str):
        raise ValueError("its expiry or client is not of the right type")
    return loaded


_UNDECODABLE = (ValueError, TypeError, KeyError)


class JamgateProvider(OAuthAuthorizationServerProvider[Code, Refresh, Access]):
    """The SDK's provider interface over an `AuthState`; store calls run in worker threads.

    At most `max_pending` clients registered through this instance within the last
    UNUSED_CLIENT_SECONDS may be waiting for their first sign-in: a registration beyond that
    evicts the unused clients registered before the `max_pending` newest ones (a client that
    ever signed in is never evicted).
    """

    def __init__(self, state: AuthState, clock: Callable[[], float] = time.time,
                 max_pending: int = 200) -> None:
        self.state = state
        self.clock = clock
        self.max_pending = max_pending
        self._registered: deque[float] = deque()
        self._register_lock = threading.Lock()

    async def _run(self, call: Callable[..., T], *args: Any) -> T:
        return await anyio.to_thread.run_sync(call, *args)

    # ---- clients ----------------------------------------------------------------------------

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        document = await self._run(self.state.oauth_client, client_id)
        if document is None:
            return None
        try:
            return OAuthClientInformationFull.model_validate_json(document)
        except ValidationError as exc:
            unreadable("client", client_id, exc)
            return None

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        for uri in client_info.redirect_uris or []:
            problem = redirect_uri_problem(str(uri))
            if problem:
                raise RegistrationError("invalid_redirect_uri", problem)
        stored = client_info.model_copy()
        if stored.client_secret is not None:  # kept as a hash, like every other secret
            stored.client_secret = "sha256:" + digest(stored.client_secret)
        await self._run(self._register, stored.client_id or "",
                        stored.model_dump_json(exclude_none=True))

    def _register(self, client_id: str, document: str) -> None:
        with self._register_lock:
            now = self.clock()
            self.state.oauth_prune(now, UNUSED_CLIENT_SECONDS)
            recent = self._registered
            while recent and recent[0] < now - UNUSED_CLIENT_SECONDS:
                recent.popleft()
            if len(recent) >= self.max_pending:
                first_kept = len(recent) - self.max_pending + 1
                keep_from = recent[first_kept] if first_kept < len(recent) else now
                self.state.oauth_prune(now, now - keep_from)
                while recent and recent[0] < keep_from:
                    recent.popleft()
            self.state.oauth_save_client(client_id, document, now)
            recent.append(now)

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
        try:
            data = _data(found)
            return Code(code=authorization_code, scopes=data["scopes"],
                        expires_at=found.expires_at, client_id=found.client_id,
                        code_challenge=data["challenge"],
                        redirect_uri=AnyUrl(data["redirect_uri"]),
                        redirect_uri_provided_explicitly=data["explicit"],
                        resource=data.get("resource"), subject=OWNER, grant_id=found.grant_id)
        except (*_UNDECODABLE, ValidationError) as exc:
            unreadable("code", found.key, exc)
            return None

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
        try:
            if found.revoked_at is not None:
                if now - found.revoked_at > REUSE_GRACE_SECONDS:
                    await self._run(self.state.oauth_revoke_grant, found.grant_id, now)
                return None
            data = _data(found)
            return Refresh(token=refresh_token, client_id=found.client_id,
                           scopes=data["scopes"], expires_at=int(found.expires_at),
                           resource=data.get("resource"), subject=OWNER,
                           grant_id=found.grant_id)
        except (*_UNDECODABLE, ValidationError) as exc:
            unreadable("refresh token", found.key, exc)
            return None

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
        if found is None:
            return None
        try:
            data = _data(found)
            if found.revoked_at is not None or found.expires_at <= self.clock():
                return None
            return Access(token=token, client_id=found.client_id, scopes=data["scopes"],
                          expires_at=int(found.expires_at), resource=data.get("resource"),
                          subject=OWNER, grant_id=found.grant_id)
        except (*_UNDECODABLE, ValidationError) as exc:
            unreadable("access token", found.key, exc)
            return None

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
