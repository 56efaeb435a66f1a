"""The OAuth flow as a client drives it over raw HTTP: small steps the tests combine."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import secrets
from dataclasses import dataclass
from html import unescape
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx2

CLAUDE_CALLBACK = "https://claude.ai/api/mcp/auth_callback"
ACCEPT = "application/json, text/event-stream"


def pkce() -> tuple[str, str]:
    """A (verifier, S256 challenge) pair."""
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest())
    return verifier, challenge.decode().rstrip("=")


def form_fields(html: str) -> dict[str, str]:
    """The hidden inputs of the consent form."""
    return {unescape(name): unescape(value) for name, value in re.findall(
        r'<input type=hidden name="([^"]*)" value="([^"]*)">', html)}


def query(location: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(urlsplit(location).query).items()}


@dataclass
class Client:
    """One registered client and the PKCE pair of its current authorization."""

    client_id: str
    redirect_uri: str
    client_secret: str | None = None
    verifier: str = ""
    challenge: str = ""


def register(http: httpx2.Client, redirect_uri: str = CLAUDE_CALLBACK,
             method: str = "none", name: str = "Claude") -> Client:
    body = {"redirect_uris": [redirect_uri], "token_endpoint_auth_method": method,
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"], "client_name": name}
    answer = http.post("/register", json=body)
    assert answer.status_code == 201, answer.text
    data = answer.json()
    return Client(data["client_id"], redirect_uri, data.get("client_secret"))


def authorize_params(client: Client, state: str = "st-1", **extra: str) -> dict[str, str]:
    client.verifier, client.challenge = pkce()
    return {"response_type": "code", "client_id": client.client_id,
            "redirect_uri": client.redirect_uri, "code_challenge": client.challenge,
            "code_challenge_method": "S256", "state": state, "scope": "jamgate", **extra}


def consent(http: httpx2.Client, client: Client, instance_token: str,
            **extra: str) -> httpx2.Response:
    """GET the consent page, then submit it with `instance_token` (no redirect followed)."""
    page = http.get("/authorize?" + urlencode(authorize_params(client, **extra)))
    assert page.status_code == 200, page.text
    fields = {**form_fields(page.text), "instance_token": instance_token,
              "decision": "approve"}
    return http.post("/authorize", data=fields)


def get_code(http: httpx2.Client, client: Client, instance_token: str) -> str:
    answer = consent(http, client, instance_token)
    assert answer.status_code == 302, answer.text
    location = answer.headers["location"]
    assert location.startswith(client.redirect_uri + "?")
    got = query(location)
    assert got["state"] == "st-1"
    return got["code"]


def exchange(http: httpx2.Client, client: Client, code: str,
             verifier: str | None = None) -> httpx2.Response:
    body = {"grant_type": "authorization_code", "code": code,
            "redirect_uri": client.redirect_uri, "client_id": client.client_id,
            "code_verifier": verifier or client.verifier}
    if client.client_secret:
        body["client_secret"] = client.client_secret
    return http.post("/token", data=body)


def refresh(http: httpx2.Client, client: Client, refresh_token: str) -> httpx2.Response:
    body = {"grant_type": "refresh_token", "refresh_token": refresh_token,
            "client_id": client.client_id}
    if client.client_secret:
        body["client_secret"] = client.client_secret
    return http.post("/token", data=body)


def tokens(http: httpx2.Client, client: Client, instance_token: str) -> dict[str, Any]:
    """Register-less: consent, code, token exchange; the token response."""
    answer = exchange(http, client, get_code(http, client, instance_token))
    assert answer.status_code == 200, answer.text
    assert answer.headers["cache-control"] == "no-store"
    return answer.json()  # type: ignore[no-any-return]


def rpc_message(response: httpx2.Response) -> dict[str, Any]:
    if response.headers["content-type"].startswith("application/json"):
        return response.json()  # type: ignore[no-any-return]
    data = [line[5:].strip() for line in response.text.splitlines() if line.startswith("data:")]
    return json.loads(data[-1])  # type: ignore[no-any-return]


def mcp_save(http: httpx2.Client, access_token: str, text: str) -> httpx2.Response:
    """A handshake-era session over /mcp: initialize, then one `save_memory` call."""
    headers = {"Authorization": f"Bearer {access_token}", "Accept": ACCEPT,
               "Content-Type": "application/json"}
    opened = http.post("/mcp", headers=headers, json={
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "claude-ai", "version": "1.0"}}})
    if opened.status_code != 200:
        return opened
    session = {"Mcp-Session-Id": opened.headers["mcp-session-id"]}
    http.post("/mcp", headers={**headers, **session},
              json={"jsonrpc": "2.0", "method": "notifications/initialized"})
    return http.post("/mcp", headers={**headers, **session}, json={
        "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "save_memory", "arguments": {"text": text}}})
