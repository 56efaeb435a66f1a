"""A flood of unauthenticated OAuth client registrations is bounded, on SQLite and on the file
store (issue #18, item 4: 300 registrations of 60 kB in 16 s grew memory.db from 72 kB to
17 MB, and each one rewrote the file store's whole sidecar).

The bound stated and checked: from one address at most `register_burst` (10) registrations
get through at once, the rest 429 with `Retry-After`; over all addresses at most ten times
that; a request over 16 KiB or a field cap is 400; and the clients that never signed in are at
most `register_max_pending` per instance (the oldest evicted first; a client that signed in
stays). So the state holds at most `register_max_pending` × 16 KiB of registrations."""

from __future__ import annotations

import json
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

import pytest

TESTS = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(TESTS / "http"))
sys.path.insert(0, str(TESTS / "oauth"))

from flow import authorize_params, get_code  # noqa: E402
from flow import register as register_client  # noqa: E402
from live_server import Running, serve  # noqa: E402

from jamgate_server.limits import HttpLimits  # noqa: E402

STORES = {"sqlite": "memory.db", "file": "memory.json"}
DEFAULTS = HttpLimits()
REGISTER_BODY_LIMIT = 16 * 1024  # the stated cap on one registration request
ATTEMPTS = 150  # fifteen times the burst, as fast as one client sends them


def big_registration(n: int, size: int = 15_000) -> dict[str, object]:
    """A valid registration of about `size` bytes: long HTTPS redirect URIs."""
    per = min(2000, size // 8)
    uris = [f"https://flood.example/cb{n}-{i}/" + "a" * (per - 40) for i in range(size // per)]
    return {"redirect_uris": uris[:10], "token_endpoint_auth_method": "none",
            "client_name": f"flood {n}", "grant_types": ["authorization_code"],
            "response_types": ["code"]}


def pending_clients(home: Path, store: str) -> dict[str, int]:
    """client id → stored document size, for every registered client in the state."""
    if store == "sqlite":
        with sqlite3.connect(home / "memory.db") as conn:
            return {row[0]: row[1] for row in conn.execute(
                "SELECT client_id, length(document) FROM oauth_clients")}
    sidecar = home / "memory.oauth.json"
    if not sidecar.exists():
        return {}
    clients = json.loads(sidecar.read_text())["clients"]
    return {cid: len(row["document"]) for cid, row in clients.items()}


def state_bytes(home: Path, store: str) -> int:
    if store == "sqlite":
        return sum(p.stat().st_size for p in home.glob("memory.db*"))
    sidecar = home / "memory.oauth.json"
    return sidecar.stat().st_size if sidecar.exists() else 0


@pytest.fixture(params=list(STORES))
def store(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def flooded(store: str, tmp_path: Path) -> Iterator[tuple[Running, Path]]:
    home = tmp_path / f"flood-{store}"
    for server in serve(home, limits=DEFAULTS, store=STORES[store]):
        yield server, home


def test_a_flood_from_one_address_hits_429_and_the_state_stays_small(
        store: str, flooded: tuple[Running, Path]) -> None:
    server, home = flooded
    before = state_bytes(home, store)
    statuses: list[int] = []
    with server.client(headers={"X-Forwarded-For": "192.0.2.66"}) as http:
        for n in range(ATTEMPTS):
            answer = http.post("/register", json=big_registration(n))
            statuses.append(answer.status_code)
            if answer.status_code == 429:
                assert int(answer.headers["retry-after"]) >= 1
                assert answer.json()["error"] == "temporarily_unavailable"
    assert statuses.count(201) == DEFAULTS.register_burst
    assert statuses.count(429) == ATTEMPTS - DEFAULTS.register_burst
    clients = pending_clients(home, store)
    assert len(clients) == DEFAULTS.register_burst
    assert all(size < REGISTER_BODY_LIMIT for size in clients.values())
    # The stated bound: the burst's registrations, at most 16 KiB each, and little else.
    grown = state_bytes(home, store) - before
    assert grown < DEFAULTS.register_burst * REGISTER_BODY_LIMIT * 2 + 256 * 1024, grown


def test_oversized_registrations_are_400_and_store_nothing(
        store: str, flooded: tuple[Running, Path]) -> None:
    server, home = flooded
    with server.client() as http:
        for n, body in enumerate([
            big_registration(0, size=60_000),  # the 60 kB
            {**big_registration(1, size=2_000), "client_name": "x" * 5000},
            {**big_registration(2, size=2_000), "contacts": [f"c{i}@example.com"
                                                             for i in range(50)]},
            {**big_registration(3, size=2_000), "jwks": {"keys": [[[[[[[[1]]]]]]]]}},
            {**big_registration(4, size=2_000), **{f"x{i}": i for i in range(40)}},
        ]):
            answer = http.post("/register", json=body,
                               headers={"X-Forwarded-For": f"192.0.2.{100 + n}"})
            assert answer.status_code == 400, answer.text
            assert answer.json()["error"] == "invalid_client_metadata"
            assert "Nothing was registered" in answer.json()["error_description"]
        streamed = http.post("/register", content=b"{" + b" " * (2 * REGISTER_BODY_LIMIT),
                             headers={"Content-Type": "application/json",
                                      "X-Forwarded-For": "192.0.2.120"})
        assert streamed.status_code == 400
    assert pending_clients(home, store) == {}


def test_a_flood_from_many_addresses_evicts_the_oldest_unused_clients(
        store: str, tmp_path: Path) -> None:
    limits = HttpLimits(register_max_pending=20)
    home = tmp_path / f"spread-{store}"
    for server in serve(home, limits=limits, store=STORES[store]):
        with server.client(headers={"X-Forwarded-For": "192.0.2.1"}) as http:
            owner = register_client(http, name="the owner's app")
            get_code(http, owner, server.token)  # it signed in: never evicted
            first = register_client(http, name="first unused")
        ids: list[str] = []
        statuses: list[int] = []
        with server.client() as http:
            for n in range(150):
                answer = http.post("/register", json=big_registration(n, size=4_000),
                                   headers={"X-Forwarded-For": f"10.{n // 250}.{n % 250}.9"})
                statuses.append(answer.status_code)
                if answer.status_code == 201:
                    ids.append(answer.json()["client_id"])
        total = DEFAULTS.register_burst * 10  # the limit over all addresses
        assert len(ids) <= total and statuses.count(429) >= 150 - total
        clients = pending_clients(home, store)
        assert owner.client_id in clients
        assert first.client_id not in clients
        assert ids[-1] in clients and ids[0] not in clients
        assert len(clients) <= limits.register_max_pending + 1  # + the one that signed in
        with server.client() as http:
            gone = http.get("/authorize?" + urlencode(authorize_params(first)))
            assert gone.status_code == 400 and "Unknown client" in gone.text
            kept = http.get("/authorize?" + urlencode(authorize_params(owner)))
            assert kept.status_code == 200


def test_the_rate_refills() -> None:
    from jamgate_server.limits import RateLimiter

    now = [0.0]
    limiter = RateLimiter(burst=2, per_hour=60, clock=lambda: now[0])
    assert [limiter.take("a"), limiter.take("a")] == [0, 0]
    assert limiter.take("a") == pytest.approx(60)
    now[0] += 61
    assert limiter.take("a") == 0
    assert limiter.take("b") == 0  # every address has its own bucket

