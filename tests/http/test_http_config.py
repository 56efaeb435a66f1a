"""Starting remote mode: the token requirement, ports, hosts and the authentication hook."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx2
import pytest
from live_server import free_socket

from jamgate_core.app import open_app
from jamgate_core.errors import ConfigError
from jamgate_core.hookspecs import hookimpl
from jamgate_core.settings import Settings, load_settings
from jamgate_server import auth
from jamgate_server.http import build_http_app, resolve_port, serve_http


@pytest.mark.parametrize("cli, env, settings_port, expected", [
    (None, {}, None, (8420, "default")),
    (None, {}, 9001, (9001, "JAMGATE_PORT")),
    (None, {"PORT": "10000"}, 9001, (10000, "$PORT")),
    (7000, {"PORT": "10000"}, 9001, (7000, "--port")),
    (None, {"PORT": "http"}, 9001, (9001, "JAMGATE_PORT")),
    (None, {"PORT": "70000"}, None, (8420, "default")),
])
def test_port_precedence(cli: int | None, env: dict[str, str], settings_port: int | None,
                         expected: tuple[int, str]) -> None:
    assert resolve_port(cli, settings_port, env) == expected


def test_allowed_hosts_add_settings_and_platform_names() -> None:
    settings = Settings(allowed_hosts=["https://Memory.Example.com/", "lan-box:8420"])
    names = auth.allowed_hosts(settings, "192.168.1.20", {
        "RENDER_EXTERNAL_HOSTNAME": "jam.onrender.com", "FLY_APP_NAME": "jam-memory"})
    assert names == ["127.0.0.1", "localhost", "[::1]", "192.168.1.20", "memory.example.com",
                     "lan-box:8420", "jam.onrender.com", "jam-memory.fly.dev"]
    policy = auth.HostPolicy(tuple(names))
    assert policy.allows_host("memory.example.com")
    assert policy.allows_host("Memory.Example.com:443")
    assert policy.allows_host("lan-box:8420")
    assert not policy.allows_host("lan-box:8421")
    assert policy.allows_host("[::1]:8420")
    assert not policy.allows_host("evil.com")
    assert not policy.allows_host("memory.example.com.evil.com")
    assert not policy.allows_host(None)
    assert policy.allows_origin("https://jam.onrender.com")
    assert not policy.allows_origin("https://evil.com")
    assert policy.allows_origin(None)


def test_wildcard_bind_address_is_not_an_allowed_host() -> None:
    assert auth.allowed_hosts(Settings(), "0.0.0.0", {}) == ["127.0.0.1", "localhost", "[::1]"]


def test_allowed_hosts_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JAMGATE_ALLOWED_HOSTS", "a.example, b.example")
    assert load_settings().allowed_hosts == ["a.example", "b.example"]


def test_serve_http_refuses_to_start_without_a_token(capsys: pytest.CaptureFixture[str]) -> None:
    with open_app(load_settings(store="memory")) as app:
        assert serve_http(app, host=None, port=None) == 1
    err = capsys.readouterr().err
    assert "JAMGATE_TOKEN" in err
    assert "secrets.token_urlsafe(32)" in err


@pytest.mark.parametrize("token", [
    "abc", "short-token", "x" * 32, "abcabcabcabcabcabcabcabcabcabcabc", "0123456789" * 3,
    "correcthorsebatterystaple", "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d", secrets.token_urlsafe(15),
    "a" * 24 + "0123456789abcdef",  # 160 bits by its alphabet, but mostly one character
])
def test_weak_tokens_are_refused(token: str) -> None:
    assert auth.token_weakness(token) is not None
    with pytest.raises(ConfigError, match=r"(?s)too weak.*secrets\.token_urlsafe\(32\)"):
        auth.require_token(Settings(token=token))


@pytest.mark.parametrize("make", [
    lambda: secrets.token_urlsafe(16), lambda: secrets.token_urlsafe(32),
    lambda: secrets.token_hex(16), lambda: secrets.token_hex(32),
])
def test_random_tokens_of_128_bits_or_more_are_accepted(make: Callable[[], str]) -> None:
    for _ in range(200):  # every draw, not a lucky one
        token = make()
        assert auth.token_weakness(token) is None, token
        assert auth.require_token(Settings(token=token)) == token


def test_cli_refuses_a_weak_token_and_says_how_to_make_one(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "jamgate_core.cli", "serve", "--http"],
                          env=_env(tmp_path / "home", JAMGATE_TOKEN="abc"),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "too weak" in done.stderr and "128" in done.stderr
    assert "secrets.token_urlsafe(32)" in done.stderr
    assert not (tmp_path / "home" / "memory.db").exists()


class HeaderKey:
    """A third-party authenticator: a shared key in its own header."""

    @hookimpl
    def jamgate_authenticate(self, headers: dict[str, str], settings: Settings) -> str | None:
        return "phone" if headers.get("x-api-key") == "let-me-in" else None


@pytest.mark.anyio
async def test_authenticate_hook_admits_its_principals() -> None:
    token = secrets.token_urlsafe(32)
    with open_app(load_settings(store="memory", token=token)) as app:
        app.pm.register(HeaderKey())
        transport = httpx2.ASGITransport(app=build_http_app(app))
        async with httpx2.AsyncClient(transport=transport,
                                      base_url="http://127.0.0.1:8420") as http:
            assert (await http.get("/v1/memory")).status_code == 401
            assert (await http.get("/v1/memory", headers={"X-Api-Key": "nope"})).status_code == 401
            assert (await http.get("/v1/memory",
                                   headers={"X-Api-Key": "let-me-in"})).status_code == 200
            assert (await http.get("/v1/memory", headers={
                "Authorization": "Bearer " + token})).status_code == 200


# ---- the real command ------------------------------------------------------------------------

def _env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAMGATE_") and k != "PORT"}
    return {**env, "JAMGATE_HOME": str(home), "JAMGATE_EMBEDDER": "none", **extra}


def test_cli_without_a_token_exits_with_advice(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "jamgate_core.cli", "serve", "--http"],
                          env=_env(tmp_path / "home"), capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2  # a configuration error, refused before anything opens
    assert "secrets.token_urlsafe" in done.stderr
    assert not (tmp_path / "home" / "memory.db").exists()


@pytest.mark.slow
def test_cli_serves_on_the_platform_port(tmp_path: Path) -> None:
    """JAMGATE_HTTP=1 and $PORT, as a hosting platform starts it; $PORT beats JAMGATE_PORT."""
    sock = free_socket()
    port = sock.getsockname()[1]
    sock.close()
    token = secrets.token_urlsafe(32)
    process = subprocess.Popen(
        [sys.executable, "-m", "jamgate_core.cli", "serve"],
        env=_env(tmp_path / "home", JAMGATE_HTTP="1", JAMGATE_TOKEN=token,
                 JAMGATE_PORT="1", PORT=str(port)),
        stderr=subprocess.PIPE, text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                health = httpx2.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
                break
            except httpx2.TransportError:
                assert process.poll() is None, process.stderr.read()  # type: ignore[union-attr]
                assert time.monotonic() < deadline, "the server did not come up"
                time.sleep(0.1)
        assert health.json()["status"] == "ok"
        saved = httpx2.post(f"http://127.0.0.1:{port}/v1/memory",
                            json={"text": "Jam's spare key is with the neighbour"},
                            headers={"Authorization": "Bearer " + token}, timeout=10)
        assert saved.status_code == 201
    finally:
        process.terminate()
        _, err = process.communicate(timeout=30)
    assert process.returncode == 0
    assert f"127.0.0.1:{port}/mcp" in err and "port from $PORT" in err
    assert "Jam's spare key" not in err  # no memory content on stderr
