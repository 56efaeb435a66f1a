"""The public-client flow claude.ai runs, replayed over raw HTTP against a live server."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlencode

import httpx2
import pytest
from flow import (
    CLAUDE_CALLBACK,
    authorize_params,
    exchange,
    form_fields,
    mcp_save,
    query,
    refresh,
    register,
    rpc_message,
    tokens,
)
from live_server import Running


@pytest.fixture
def http(server: Running) -> Iterator[httpx2.Client]:
    with server.client() as client:
        yield client


def test_claude_ai_public_client_flow(http: httpx2.Client, server: Running) -> None:
    # 1. An unauthenticated MCP request points at the protected-resource metadata.
    first = http.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "initialize"},
                      headers={"Accept": "application/json, text/event-stream"})
    assert first.status_code == 401
    challenge = first.headers["www-authenticate"]
    assert f'resource_metadata="{server.base}/.well-known/oauth-protected-resource/mcp"' \
        in challenge

    # 2. Discovery through the bare well-known URLs.
    resource = http.get("/.well-known/oauth-protected-resource").json()
    assert resource["resource"] == f"{server.base}/mcp"
    assert resource["authorization_servers"] == [server.base]
    assert resource["bearer_methods_supported"] == ["header"]
    assert http.get("/.well-known/oauth-protected-resource/mcp").json() == resource
    metadata = http.get("/.well-known/oauth-authorization-server").json()
    assert metadata["issuer"] == server.base  # no trailing slash
    assert metadata["authorization_endpoint"] == f"{server.base}/authorize"
    assert metadata["token_endpoint"] == f"{server.base}/token"
    assert metadata["registration_endpoint"] == f"{server.base}/register"
    assert metadata["revocation_endpoint"] == f"{server.base}/revoke"
    assert metadata["code_challenge_methods_supported"] == ["S256"]
    assert "none" in metadata["token_endpoint_auth_methods_supported"]
    assert http.get("/.well-known/oauth-authorization-server/mcp").json() == metadata

    # 3. Registration with no client secret.
    client = register(http)
    assert client.client_secret is None

    # 4. Consent: the page carries the request, then asks for the instance token once.
    page = http.get("/authorize?" + urlencode(authorize_params(client)))
    assert page.status_code == 200
    assert "Claude" in page.text and 'name=instance_token' in page.text
    assert "<script" not in page.text.lower()
    assert page.headers["cache-control"] == "no-store"
    fields = form_fields(page.text)
    assert fields["code_challenge"] == client.challenge
    approved = http.post("/authorize", data={**fields, "instance_token": server.token,
                                             "decision": "approve"})
    assert approved.status_code == 302
    location = approved.headers["location"]
    assert location.startswith(CLAUDE_CALLBACK + "?")
    code = query(location)["code"]
    assert query(location)["state"] == "st-1"

    # 5. Token exchange with the PKCE verifier.
    answer = exchange(http, client, code)
    assert answer.status_code == 200, answer.text
    issued = answer.json()
    assert issued["token_type"] == "Bearer" and issued["expires_in"] > 0
    assert issued["access_token"] != issued["refresh_token"]

    # 6. A tool call over /mcp with the issued token.
    saved = mcp_save(http, issued["access_token"], "Jam's bike is the green one")
    assert saved.status_code == 200
    result = rpc_message(saved)["result"]
    assert not result.get("isError"), result
    assert result["structuredContent"]["decision"] == "saved"
    # REST takes it too.
    assert http.get("/v1/memory", headers={
        "Authorization": f"Bearer {issued['access_token']}"}).status_code == 200

    # 7. Refresh rotates both tokens; the old ones stop working.
    rotated = refresh(http, client, issued["refresh_token"])
    assert rotated.status_code == 200, rotated.text
    fresh = rotated.json()
    assert fresh["refresh_token"] != issued["refresh_token"]
    assert fresh["access_token"] != issued["access_token"]
    old = http.get("/v1/memory", headers={"Authorization": f"Bearer {issued['access_token']}"})
    assert old.status_code == 401
    assert refresh(http, client, issued["refresh_token"]).json()["error"] == "invalid_grant"
    again = mcp_save(http, fresh["access_token"], "Jam's bike lock code changed in May")
    assert again.status_code == 200
    assert rpc_message(again)["result"]["structuredContent"]["decision"] == "saved"


def test_confidential_client_with_a_secret(http: httpx2.Client, server: Running) -> None:
    """Some hosts register with client_secret_post; the secret is checked against its hash."""
    client = register(http, method="client_secret_post")
    assert client.client_secret
    issued = tokens(http, client, server.token)
    assert http.get("/v1/memory", headers={
        "Authorization": f"Bearer {issued['access_token']}"}).status_code == 200
    client.client_secret = "not-the-secret"
    assert refresh(http, client, issued["refresh_token"]).status_code == 401


def test_loopback_redirect_for_desktop_clients(http: httpx2.Client, server: Running) -> None:
    client = register(http, redirect_uri="http://127.0.0.1:33418/callback", name="Desktop")
    issued = tokens(http, client, server.token)
    assert issued["scope"] == "jamgate"


def test_cors_preflight_on_the_json_endpoints(http: httpx2.Client) -> None:
    for path in ("/token", "/register", "/.well-known/oauth-authorization-server"):
        answer = http.options(path, headers={
            "Origin": "https://inspector.example", "Access-Control-Request-Method": "POST"
            if path in ("/token", "/register") else "GET"})
        assert answer.status_code == 200, (path, answer.text)
        assert answer.headers["access-control-allow-origin"] == "*"
    # The consent page is not for cross-origin use: a foreign Origin is refused there.
    assert http.post("/authorize", data={}, headers={
        "Origin": "https://evil.example"}).status_code == 403
