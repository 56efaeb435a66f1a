"""Everything the OAuth server must refuse, against a live server."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from urllib.parse import urlencode

import httpx2
import pytest
from flow import (
    authorize_params,
    consent,
    exchange,
    form_fields,
    get_code,
    mcp_save,
    query,
    refresh,
    register,
    tokens,
)
from live_server import Running


@pytest.fixture
def http(server: Running) -> Iterator[httpx2.Client]:
    with server.client() as client:
        yield client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_wrong_instance_token_re_renders_the_page_without_a_code(
        http: httpx2.Client, server: Running) -> None:
    client = register(http)
    for wrong in ("", "nope", server.token + "x", server.token[:-1]):
        answer = consent(http, client, wrong)
        assert answer.status_code == 401
        assert "location" not in answer.headers
        assert "didn&#x27;t match" in answer.text
        assert "code=" not in answer.text
        assert form_fields(answer.text)["client_id"] == client.client_id  # try again in place


def test_deny_redirects_with_access_denied(http: httpx2.Client) -> None:
    client = register(http)
    page = http.get("/authorize?" + urlencode(authorize_params(client)))
    answer = http.post("/authorize", data={**form_fields(page.text), "decision": "deny"})
    assert answer.status_code == 302
    got = query(answer.headers["location"])
    assert got["error"] == "access_denied" and got["state"] == "st-1" and "code" not in got


def test_a_code_works_once_and_its_reuse_revokes_the_tokens(
        http: httpx2.Client, server: Running) -> None:
    client = register(http)
    code = get_code(http, client, server.token)
    first = exchange(http, client, code)
    assert first.status_code == 200
    access = first.json()["access_token"]
    assert http.get("/v1/memory", headers=bearer(access)).status_code == 200
    second = exchange(http, client, code)
    assert second.status_code == 400 and second.json()["error"] == "invalid_grant"
    # RFC 6749 §4.1.2: a replayed code revokes what it was exchanged for.
    assert http.get("/v1/memory", headers=bearer(access)).status_code == 401


def test_wrong_verifier_fails_and_burns_the_code(http: httpx2.Client, server: Running) -> None:
    client = register(http)
    code = get_code(http, client, server.token)
    wrong = exchange(http, client, code, verifier="x" * 64)
    assert wrong.status_code == 400 and wrong.json()["error"] == "invalid_grant"
    right = exchange(http, client, code)
    assert right.status_code == 400 and right.json()["error"] == "invalid_grant"


def test_another_clients_code_is_refused(http: httpx2.Client, server: Running) -> None:
    owner, thief = register(http), register(http)
    code = get_code(http, owner, server.token)
    thief.verifier = owner.verifier
    assert exchange(http, thief, code).json()["error"] == "invalid_grant"


def test_expired_code(http: httpx2.Client, server: Running) -> None:
    client = register(http)
    code = get_code(http, client, server.token)
    with sqlite3.connect(server.app.store.location()) as db:  # let 61 s pass
        db.execute("UPDATE oauth_secrets SET expires_at = expires_at - 61 WHERE kind = 'code'")
    answer = exchange(http, client, code)
    assert answer.status_code == 400
    assert answer.json() == {"error": "invalid_grant",
                             "error_description": "authorization code has expired"}


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_unregistered_redirect_uri_is_an_error_page(http: httpx2.Client, server: Running,
                                                    method: str) -> None:
    client = register(http)
    for forged in ("https://evil.example/callback", "https://claude.ai/api/mcp/auth_callback/x",
                   "https://claude.ai/api/mcp/auth_callback?x=1", "not a url"):
        params = {**authorize_params(client), "redirect_uri": forged,
                  "instance_token": server.token, "decision": "approve"}
        answer = (http.get("/authorize?" + urlencode(params)) if method == "GET"
                  else http.post("/authorize", data=params))
        assert answer.status_code == 400, forged
        assert "location" not in answer.headers
        assert "Invalid redirect" in answer.text and "text/html" in answer.headers["content-type"]


def test_unknown_or_missing_client_is_an_error_page(http: httpx2.Client) -> None:
    unknown = http.get("/authorize?" + urlencode({
        "client_id": "nobody", "redirect_uri": "https://evil.example/cb",
        "response_type": "code", "code_challenge": "a" * 43}))
    assert unknown.status_code == 400 and "Unknown client" in unknown.text
    assert "location" not in unknown.headers
    missing = http.get("/authorize")
    assert missing.status_code == 400 and "location" not in missing.headers


@pytest.mark.parametrize("change, error", [
    ({"code_challenge_method": "plain"}, "invalid_request"),
    ({"code_challenge": ""}, "invalid_request"),
    ({"code_challenge": "short"}, "invalid_request"),
    ({"response_type": "token"}, "unsupported_response_type"),
])
def test_bad_authorization_requests_go_back_to_the_client(
        http: httpx2.Client, change: dict[str, str], error: str) -> None:
    client = register(http)
    answer = http.get("/authorize?" + urlencode({**authorize_params(client), **change}))
    assert answer.status_code == 302
    got = query(answer.headers["location"])
    assert got["error"] == error and got["state"] == "st-1" and "code" not in got


@pytest.mark.parametrize("uris, error", [
    (["http://claude.ai/callback"], "invalid_redirect_uri"),
    (["https://claude.ai/cb#frag"], "invalid_redirect_uri"),
    (["javascript:alert(1)"], "invalid_redirect_uri"),
    ([], "invalid_client_metadata"),
    (["custom-app://callback"], "invalid_redirect_uri"),
])
def test_registration_refuses_unsafe_redirect_uris(http: httpx2.Client, uris: list[str],
                                                   error: str) -> None:
    answer = http.post("/register", json={"redirect_uris": uris,
                                          "token_endpoint_auth_method": "none"})
    assert answer.status_code == 400
    assert answer.json()["error"] == error


def test_revoked_token_is_refused_everywhere(http: httpx2.Client, server: Running) -> None:
    client = register(http)
    issued = tokens(http, client, server.token)
    assert mcp_save(http, issued["access_token"], "Jam's locker is number 12").status_code == 200
    revoked = http.post("/revoke", data={"token": issued["access_token"],
                                         "client_id": client.client_id})
    assert revoked.status_code == 200
    assert http.get("/v1/memory", headers=bearer(issued["access_token"])).status_code == 401
    answer = mcp_save(http, issued["access_token"], "Jam's locker moved")
    assert answer.status_code == 401
    assert 'error="invalid_token"' in answer.headers["www-authenticate"]
    # Revoking the access token ends the grant: its refresh token is dead too.
    assert refresh(http, client, issued["refresh_token"]).json()["error"] == "invalid_grant"


def test_revoking_a_refresh_token_ends_the_grant(http: httpx2.Client, server: Running) -> None:
    client = register(http)
    issued = tokens(http, client, server.token)
    http.post("/revoke", data={"token": issued["refresh_token"], "client_id": client.client_id,
                               "token_type_hint": "refresh_token"})
    assert http.get("/v1/memory", headers=bearer(issued["access_token"])).status_code == 401


def test_another_client_cannot_revoke_or_refresh(http: httpx2.Client, server: Running) -> None:
    owner, other = register(http), register(http)
    issued = tokens(http, owner, server.token)
    http.post("/revoke", data={"token": issued["access_token"], "client_id": other.client_id})
    assert http.get("/v1/memory", headers=bearer(issued["access_token"])).status_code == 200
    assert refresh(http, other, issued["refresh_token"]).json()["error"] == "invalid_grant"
    assert refresh(http, owner, issued["refresh_token"]).status_code == 200


def test_a_stolen_rotated_refresh_token_ends_the_grant(http: httpx2.Client,
                                                       server: Running) -> None:
    client = register(http)
    issued = tokens(http, client, server.token)
    fresh = refresh(http, client, issued["refresh_token"]).json()
    with sqlite3.connect(server.app.store.location()) as db:  # the rotation was a minute ago
        db.execute("UPDATE oauth_secrets SET revoked_at = revoked_at - 60 "
                   "WHERE kind = 'refresh' AND revoked_at IS NOT NULL")
    assert refresh(http, client, issued["refresh_token"]).json()["error"] == "invalid_grant"
    assert http.get("/v1/memory", headers=bearer(fresh["access_token"])).status_code == 401
    assert refresh(http, client, fresh["refresh_token"]).json()["error"] == "invalid_grant"


def test_unsupported_grant_type(http: httpx2.Client) -> None:
    client = register(http)
    answer = http.post("/token", data={"grant_type": "password", "client_id": client.client_id})
    assert answer.status_code == 400


def test_a_made_up_token_of_the_issued_shape_is_refused(http: httpx2.Client) -> None:
    assert http.get("/v1/memory", headers=bearer("jga_" + "A" * 43)).status_code == 401


@pytest.mark.parametrize("uri", ["http://[::1]:8123/callback", "http://localhost:9/cb",
                                 "http://127.0.0.1/cb"])
def test_registration_accepts_every_loopback_redirect(http: httpx2.Client, uri: str) -> None:
    """The predecessor refused `::1` (reference §14.1 #8)."""
    answer = http.post("/register", json={"redirect_uris": [uri],
                                          "token_endpoint_auth_method": "none"})
    assert answer.status_code == 201, answer.text
    assert answer.json()["redirect_uris"] == [uri]
