"""OAuth state lives in the store: shared by instances, hashes only, in every bundled store."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flow import exchange, get_code, mcp_save, refresh, register, rpc_message, tokens
from live_server import Running, serve

running = contextlib.contextmanager(serve)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_two_instances_on_one_sqlite_file_accept_each_others_tokens(tmp_path: Path) -> None:
    home = tmp_path / "shared-home"
    with running(home) as a, running(home) as b, a.client() as on_a, b.client() as on_b:
        client = register(on_a)
        code = get_code(on_b, client, b.token)  # consent on B, with B's instance token
        issued = exchange(on_a, client, code).json()  # redeemed on A
        assert "access_token" in issued, issued
        saved = mcp_save(on_b, issued["access_token"], "Jam's dentist is on Friday mornings")
        assert rpc_message(saved)["result"]["structuredContent"]["decision"] == "saved"
        assert on_a.get("/v1/memory", headers=bearer(issued["access_token"])).status_code == 200
        # Rotation on B invalidates on A; revocation on A is seen by B.
        fresh = refresh(on_b, client, issued["refresh_token"]).json()
        assert on_a.get("/v1/memory", headers=bearer(issued["access_token"])).status_code == 401
        assert on_a.get("/v1/memory", headers=bearer(fresh["access_token"])).status_code == 200
        on_a.post("/revoke", data={"token": fresh["access_token"],
                                   "client_id": client.client_id})
        assert on_b.get("/v1/memory", headers=bearer(fresh["access_token"])).status_code == 401
        # A code redeemed on one instance is spent on the other.
        code = get_code(on_a, client, a.token)
        assert exchange(on_b, client, code).status_code == 200
        assert exchange(on_a, client, code).json()["error"] == "invalid_grant"


def _secrets_of_a_full_flow(server: Running) -> list[str]:
    """Run the whole flow (with a confidential client too); every secret that crossed the wire."""
    seen = [server.token]
    with server.client() as http:
        assert http.get("/v1/memory", headers=server.auth()).status_code == 200
        for method in ("none", "client_secret_post"):
            client = register(http, method=method)
            if client.client_secret:
                seen.append(client.client_secret)
            code = get_code(http, client, server.token)
            seen.append(code)
            issued: dict[str, Any] = exchange(http, client, code).json()
            seen += [issued["access_token"], issued["refresh_token"]]
            assert mcp_save(http, issued["access_token"],
                            f"Jam keeps the spare charger in drawer {method}").status_code == 200
            fresh = refresh(http, client, issued["refresh_token"]).json()
            seen += [fresh["access_token"], fresh["refresh_token"]]
            http.post("/revoke", data={"token": fresh["access_token"],
                                       "client_id": client.client_id,
                                       "client_secret": client.client_secret or ""})
            seen.append(tokens(http, client, server.token)["access_token"])
    return seen


def _grep(home: Path, needles: list[str]) -> list[tuple[str, str]]:
    found = []
    for path in home.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            found += [(str(path), n[:8]) for n in needles if n.encode() in data]
    return found


@pytest.mark.parametrize("store", ["sqlite", "file"])
def test_no_plaintext_secret_in_jamgate_home(tmp_path: Path, store: str) -> None:
    home = tmp_path / "home"
    with running(home, store=store) as server:
        needles = _secrets_of_a_full_flow(server)
        location = Path(server.app.store.location())
        if store == "sqlite":
            with sqlite3.connect(location) as db:
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            with sqlite3.connect(location) as db:  # the hashes are there
                assert db.execute("SELECT count(*) FROM oauth_secrets").fetchone()[0] >= 10
        else:
            sidecar = location.with_name("memory.oauth.json")
            assert stat.S_IMODE(os.stat(sidecar).st_mode) == 0o600
            assert sidecar.read_text().count('"key"') >= 10
        assert len(set(needles)) == len(needles) == 14
        assert _grep(home, needles) == []


@pytest.fixture(params=["memory", "sqlite", "file"])
def state(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    from jamgate_core.app import open_app
    from jamgate_core.settings import load_settings
    with open_app(load_settings(store=request.param, home=tmp_path, embedder="none")) as app:
        yield app.store


def test_the_auth_state_contract(state: Any) -> None:
    from jamgate_core.contracts import AuthSecret, AuthState
    assert isinstance(state, AuthState)
    state.oauth_save_client("c1", '{"client_id": "c1"}', 1000.0)
    state.oauth_save_client("c2", '{"client_id": "c2"}', 1000.0)
    assert state.oauth_client("c1") == '{"client_id": "c1"}'
    assert state.oauth_client("nobody") is None
    code = AuthSecret("code", "k-code", "c1", "g1", expires_at=1060.0, data='{"x": 1}')
    state.oauth_put(code)
    state.oauth_put(AuthSecret("access", "k-access", "c1", "g1", expires_at=5000.0))
    state.oauth_put(AuthSecret("refresh", "k-refresh", "c1", "g1", expires_at=9000.0))
    state.oauth_put(AuthSecret("access", "k-other", "c1", "g2", expires_at=5000.0))
    assert state.oauth_get("code", "k-code") == code
    assert state.oauth_get("access", "k-code") is None  # kinds are separate
    # take: the first caller gets it unrevoked, the second sees it was taken.
    assert state.oauth_take("code", "k-code", 1010.0) == code
    taken = state.oauth_take("code", "k-code", 1020.0)
    assert taken is not None and taken.revoked_at == 1010.0
    assert state.oauth_take("code", "missing", 1020.0) is None
    # revoking a grant revokes its unrevoked secrets only, and nothing of other grants.
    assert state.oauth_revoke_grant("g1", 1030.0) == 2
    assert state.oauth_get("access", "k-access").revoked_at == 1030.0
    assert state.oauth_get("access", "k-other").revoked_at is None
    # prune: expired secrets go; never-authorized clients go after the grace period.
    assert state.oauth_prune(1100.0, 50.0) == 2  # the code, and client c2 (never authorized)
    assert state.oauth_get("code", "k-code") is None
    assert state.oauth_client("c1") is not None and state.oauth_client("c2") is None
    assert state.oauth_get("refresh", "k-refresh") is not None


def test_sqlite_v2_store_migrates_to_the_latest_with_a_verified_backup(tmp_path: Path) -> None:
    from jamgate_adapters.stores.sqlite import SqliteStore, schema
    path = tmp_path / "memory.db"
    conn = sqlite3.connect(path, isolation_level=None)
    for step in (0, 1):
        schema.MIGRATIONS[step](conn)
    conn.execute("PRAGMA user_version = 2")
    conn.close()
    store = SqliteStore(SqliteStore.Options(path=str(path)), tmp_path)
    store.open()
    try:
        assert store.last_backup is not None and store.last_backup.name.startswith(
            "memory.db.backup-v2-")
        with sqlite3.connect(store.last_backup) as copy:
            assert copy.execute("PRAGMA user_version").fetchone()[0] == 2
        store.oauth_save_client("c", "{}", 1.0)
        assert store.oauth_client("c") == "{}"
    finally:
        store.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION == 6


def test_stores_without_auth_state_are_refused_with_oauth_on() -> None:
    from jamgate_adapters.stores.memory import MemoryStore
    from jamgate_core.errors import ConfigError
    from jamgate_core.timeouts import TimedStore
    from jamgate_server.oauth import auth_state_of

    class PluginStoreWithoutAuthState:  # a third-party store written before the contract
        capabilities = frozenset({"durable"})

    with pytest.raises(ConfigError, match="JAMGATE_OAUTH=off"):
        auth_state_of(PluginStoreWithoutAuthState())  # type: ignore[arg-type]
    # A remote store is wrapped for deadlines; the wrapper passes the contract through.
    wrapped = TimedStore(MemoryStore(), 5)
    assert auth_state_of(wrapped) is wrapped


def test_oauth_off_serves_no_oauth_routes(tmp_path: Path) -> None:
    with running(tmp_path / "home", oauth=False) as server, server.client() as http:
        for path in ("/.well-known/oauth-protected-resource",
                     "/.well-known/oauth-authorization-server", "/authorize"):
            assert http.get(path).status_code == 401
        assert http.post("/register", json={"redirect_uris": ["https://a.example/cb"]}
                         ).status_code == 401
        challenge = http.get("/v1/memory").headers["www-authenticate"]
        assert challenge == 'Bearer realm="jamgate"'
        assert http.get("/v1/memory", headers=server.auth()).status_code == 200


def test_metadata_follows_the_forwarded_address(server: Running) -> None:
    """Behind a TLS proxy: X-Forwarded-Proto/Host shape the URLs, within the allowed hosts."""
    with server.client() as http:
        forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "localhost"}
        meta = http.get("/.well-known/oauth-authorization-server", headers=forwarded).json()
        assert meta["issuer"] == "https://localhost"
        assert meta["token_endpoint"] == "https://localhost/token"
        resource = http.get("/.well-known/oauth-protected-resource", headers=forwarded).json()
        assert resource == {**resource, "resource": "https://localhost/mcp",
                            "authorization_servers": ["https://localhost"]}
        challenge = http.get("/v1/memory", headers=forwarded).headers["www-authenticate"]
        assert 'resource_metadata="https://localhost/.well-known/oauth-protected-resource"' \
            in challenge
        # A host the server does not answer to is ignored; so is a scheme that is not http(s).
        spoofed = http.get("/.well-known/oauth-authorization-server", headers={
            "X-Forwarded-Proto": "gopher", "X-Forwarded-Host": "evil.example"}).json()
        assert spoofed["issuer"] == server.base
        assert http.get("/.well-known/oauth-authorization-server").headers[
            "cache-control"] == "no-store"


def test_unknown_well_known_paths_are_404_not_401(server: Running) -> None:
    with server.client() as http:
        assert http.get("/.well-known/openid-configuration").status_code == 404


def test_issued_tokens_are_not_the_static_token(server: Running) -> None:
    """An MCP session opened with an issued token answers only to that client."""
    with server.client() as http:
        client = register(http)
        issued = tokens(http, client, server.token)
        opened = http.post("/mcp", headers={
            **bearer(issued["access_token"]), "Accept": "application/json, text/event-stream",
            "Content-Type": "application/json"}, json={
            "jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "x", "version": "1"}}})
        session = opened.headers["mcp-session-id"]
        hijack = http.post("/mcp", headers={
            **server.auth(), "Mcp-Session-Id": session, "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream"},
            json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        assert hijack.status_code == 404
