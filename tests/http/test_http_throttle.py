"""Wrong tokens are throttled per client address, and the right one never is (issue #18, item
6: about 1,500 wrong bearer tokens and 1,000 wrong instance tokens a second were answered with
no delay or lockout).

One server with the default limits (10 free failures, then 429 for 1 s doubling up to 300 s).
Client addresses are set with `X-Forwarded-For`, which uvicorn honours from 127.0.0.1 (the
reverse proxy's place), exactly as behind Caddy or nginx."""

from __future__ import annotations

import secrets
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

import pytest
from live_server import Running, serve

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "oauth"))

from flow import authorize_params, form_fields, query, register

from jamgate_server.limits import HttpLimits

DEFAULTS = HttpLimits()
WRONG = 50


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    yield from serve(tmp_path_factory.mktemp("throttle-home"), limits=DEFAULTS)


def address() -> str:
    return f"198.51.100.{secrets.randbelow(250) + 1}"


def test_wrong_bearer_tokens_get_429_and_the_right_one_still_answers_at_once(
        server: Running) -> None:
    client = {"X-Forwarded-For": "203.0.113.7"}
    with server.client() as http:
        statuses = []
        for _ in range(WRONG):
            answer = http.get("/v1/memory", headers={
                **client, "Authorization": f"Bearer {secrets.token_urlsafe(32)}"})
            statuses.append(answer.status_code)
        assert statuses[:DEFAULTS.auth_free_failures] == [401] * DEFAULTS.auth_free_failures
        assert set(statuses[DEFAULTS.auth_free_failures:]) == {429}
        locked = http.get("/v1/memory", headers={**client, "Authorization": "Bearer nope"})
        assert locked.status_code == 429
        assert int(locked.headers["retry-after"]) >= 1
        assert locked.json()["error"] == "too_many_attempts"
        # MCP speaks JSON-RPC even when it refuses.
        on_mcp = http.post("/mcp", headers={**client, "Authorization": "Bearer nope"}, json={})
        assert on_mcp.status_code == 429 and "jsonrpc" in on_mcp.json()

        for _ in range(5):  # the right token, from the locked address: never slowed
            started = time.monotonic()
            right = http.get("/v1/memory", headers={**client, **server.auth()})
            assert right.status_code == 200
            assert time.monotonic() - started < 0.5
        saved = http.post("/v1/memory", headers={**client, **server.auth()},
                          json={"text": "Jam's bike is a green Brompton", "scope": "throttle"})
        assert saved.status_code == 201


def test_no_credential_is_no_guess_so_oauth_discovery_still_works(server: Running) -> None:
    client = {"X-Forwarded-For": "203.0.113.8"}
    with server.client() as http:
        for _ in range(DEFAULTS.auth_free_failures + 5):
            http.get("/v1/memory", headers={**client, "Authorization": "Bearer wrong"})
        bare = http.post("/mcp", headers=client, json={})
    assert bare.status_code == 401
    assert "resource_metadata=" in bare.headers["www-authenticate"]


def test_another_address_is_not_locked(server: Running) -> None:
    with server.client() as http:
        for _ in range(DEFAULTS.auth_free_failures + 5):
            http.get("/v1/memory", headers={"X-Forwarded-For": "203.0.113.9",
                                            "Authorization": "Bearer wrong"})
        other = http.get("/v1/memory", headers={"X-Forwarded-For": "203.0.113.10",
                                                "Authorization": "Bearer wrong"})
    assert other.status_code == 401


def test_ipv6_addresses_count_by_their_64(server: Running) -> None:
    with server.client() as http:
        statuses = [http.get("/v1/memory", headers={
            "X-Forwarded-For": f"2001:db8:1:2::{n:x}", "Authorization": "Bearer wrong"}
        ).status_code for n in range(1, DEFAULTS.auth_free_failures + 3)]
    assert statuses[-1] == 429  # a new address in the same /64 is the same client


def test_wrong_instance_tokens_on_the_consent_page_get_429(server: Running) -> None:
    client = {"X-Forwarded-For": "203.0.113.20"}
    with server.client(headers=client) as http:
        app = register(http)
        page = http.get("/authorize?" + urlencode(authorize_params(app)))
        fields = {**form_fields(page.text), "decision": "approve"}
        statuses = []
        for _ in range(WRONG):
            answer = http.post("/authorize", data={**fields,
                                                   "instance_token": secrets.token_urlsafe(32)})
            statuses.append(answer.status_code)
            assert "code=" not in answer.headers.get("location", "")
        assert statuses[:DEFAULTS.auth_free_failures] == [401] * DEFAULTS.auth_free_failures
        assert set(statuses[DEFAULTS.auth_free_failures:]) == {429}
        assert "Too many wrong tokens" in answer.text and int(answer.headers["retry-after"]) >= 1
        started = time.monotonic()
        right = http.post("/authorize", data={**fields, "instance_token": server.token})
        assert time.monotonic() - started < 0.5
    assert right.status_code == 302
    assert "code" in query(right.headers["location"])


def test_empty_consent_submissions_are_not_counted(server: Running) -> None:
    client = {"X-Forwarded-For": address()}
    with server.client(headers=client) as http:
        app = register(http)
        page = http.get("/authorize?" + urlencode(authorize_params(app)))
        fields = {**form_fields(page.text), "decision": "approve", "instance_token": ""}
        statuses = {http.post("/authorize", data=fields).status_code
                    for _ in range(DEFAULTS.auth_free_failures + 5)}
    assert statuses == {401}


def test_a_wrong_token_answer_stays_cheap(server: Running) -> None:
    """The lockout answers at once: a locked address learns nothing by waiting either."""
    client = {"X-Forwarded-For": "203.0.113.30", "Authorization": "Bearer wrong"}
    with server.client() as http:
        for _ in range(DEFAULTS.auth_free_failures + 1):
            http.get("/v1/memory", headers=client)
        started = time.monotonic()
        for _ in range(20):
            assert http.get("/v1/memory", headers=client).status_code == 429
    assert time.monotonic() - started < 2.0


def test_bearer_lockout_grows_and_ends() -> None:
    from jamgate_server.limits import FailureThrottle

    now = [1000.0]
    throttle = FailureThrottle(free=3, maximum=8, clock=lambda: now[0])
    assert [throttle.fail("a")[0] for _ in range(3)] == [0, 0, 0]
    assert [throttle.fail("a")[0] for _ in range(5)] == [1, 2, 4, 8, 8]
    assert throttle.locked("b") == 0
    now[0] += 8.5
    assert throttle.locked("a") == 0  # the lockout ends
    now[0] += 100
    assert throttle.fail("a")[0] == 0  # quiet for twice the maximum: a fresh start

