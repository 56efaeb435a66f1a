"""The deployment files: the Dockerfile's command runs (outside Docker), nginx forwards every
route the app serves (D-053), the systemd unit and Caddyfile agree with them.

No Docker engine runs here: nothing in this file builds or claims to build the image.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx2
import pytest
from live_server import free_socket
from starlette.routing import BaseRoute, Mount, Route

from jamgate_core.app import open_app
from jamgate_core.settings import load_settings
from jamgate_server.http import build_http_app

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


# ---- the app's route table ------------------------------------------------------------------

def _paths(routes: list[BaseRoute], prefix: str = "") -> list[str]:
    found: list[str] = []
    for route in routes:
        if isinstance(route, Mount):
            found += _paths(list(route.routes), prefix + route.path)
        elif isinstance(route, Route):
            found.append(prefix + route.path)
    return found


def served_paths() -> list[str]:
    """Every path the Starlette app routes, OAuth on; `{param}` filled with a sample value."""
    with open_app(load_settings(store="memory", token=secrets.token_urlsafe(32),
                                embedder="none")) as app:
        starlette = build_http_app(app)
    return sorted({re.sub(r"\{[^}]+\}", "sample-id", p) for p in _paths(starlette.routes)})


# ---- nginx ----------------------------------------------------------------------------------

def nginx_locations(text: str) -> list[tuple[str, str, str]]:
    """(modifier, path, body) of each location block of the TLS server."""
    tls = text[text.index("listen 443"):]
    return [(m.group(1) or "", m.group(2), m.group(3)) for m in re.finditer(
        r"location\s+(=\s+|\^~\s+)?(\S+)\s*\{([^}]*)\}", tls)]


def nginx_pick(locations: list[tuple[str, str, str]], path: str) -> tuple[str, str, str] | None:
    """The location nginx chooses for `path`: an exact match, else the longest prefix."""
    for location in locations:
        if location[0].strip() == "=" and location[1] == path:
            return location
    prefixes = [loc for loc in locations
                if loc[0].strip() != "=" and path.startswith(loc[1])]
    return max(prefixes, key=lambda loc: len(loc[1]), default=None)


def test_the_route_table_is_what_we_think() -> None:
    paths = served_paths()
    for expected in ("/mcp", "/healthz", "/openapi.json", "/v1/memory", "/v1/memory/sample-id",
                     "/.well-known/oauth-protected-resource",
                     "/.well-known/oauth-protected-resource/mcp",
                     "/.well-known/oauth-authorization-server",
                     "/.well-known/oauth-authorization-server/mcp",
                     "/authorize", "/token", "/register", "/revoke"):
        assert expected in paths


def test_nginx_example_forwards_every_route() -> None:
    locations = nginx_locations((DEPLOY / "nginx.conf").read_text())
    assert not any(loc[1] == "/" for loc in locations), "the example is the path-scoped kind"
    missing = []
    for path in served_paths():
        chosen = nginx_pick(locations, path)
        if chosen is None or "proxy_pass http://jamgate;" not in chosen[2]:
            missing.append(path)
    assert missing == [], f"nginx.conf does not forward: {missing}"
    mcp = nginx_pick(locations, "/mcp")
    assert mcp is not None and "proxy_buffering off" in mcp[2]  # the event stream


def test_nginx_route_check_catches_a_gap() -> None:
    """The check above fails when a location is missing (the D-053 shape)."""
    text = (DEPLOY / "nginx.conf").read_text().replace("location = /register", "location = /x")
    locations = nginx_locations(text)
    assert nginx_pick(locations, "/register") is None


def test_nginx_sends_what_the_oauth_metadata_needs() -> None:
    text = (DEPLOY / "nginx.conf").read_text()
    for header in ("proxy_set_header Host $host;", "proxy_set_header X-Forwarded-Proto $scheme;",
                   "proxy_set_header X-Forwarded-Host $host;"):
        assert header in text


# ---- systemd and Caddy ------------------------------------------------------------------------

def test_systemd_unit_and_caddyfile_agree() -> None:
    unit = (DEPLOY / "jamgate.service").read_text()
    settings = dict(re.findall(r"^Environment=(\w+)=(.*)$", unit, re.M))
    assert settings["JAMGATE_HOST"] == "127.0.0.1"
    assert "JAMGATE_TOKEN" not in settings  # it comes from the 0600 EnvironmentFile
    assert re.search(r"^EnvironmentFile=/etc/jamgate/jamgate.env$", unit, re.M)
    assert re.search(r"^ExecStart=\S+/jamgate serve --http$", unit, re.M)
    assert re.search(r"^User=jamgate$", unit, re.M)
    port = settings["JAMGATE_PORT"]
    assert f"reverse_proxy 127.0.0.1:{port}" in (DEPLOY / "Caddyfile").read_text()
    assert f"server 127.0.0.1:{port};" in (DEPLOY / "nginx.conf").read_text()


def test_systemd_unit_gives_the_connection_cap_its_file_descriptors() -> None:
    """Issue #18, item 5: with the usual 1,024 open files, 1,100 connections locked every
    client out. The unit's limit fits the default cap with its backlog, so none is lowered."""
    from jamgate_server.connections import BACKLOG, BURSTS, RESERVED
    from jamgate_server.limits import HttpLimits

    unit = (DEPLOY / "jamgate.service").read_text()
    found = re.search(r"^LimitNOFILE=(\d+)$", unit, re.M)
    assert found, "the unit sets no LimitNOFILE"
    needed = HttpLimits().max_connections + BURSTS * BACKLOG + RESERVED
    assert int(found.group(1)) >= needed


# ---- the Dockerfile ---------------------------------------------------------------------------

def dockerfile() -> dict[str, object]:
    """The final stage's ENV, USER, EXPOSE, CMD and HEALTHCHECK command."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    stage = text[text.rindex("\nFROM "):]
    env: dict[str, str] = {}
    for line in re.findall(r"^ENV (.*)$", stage, re.M):
        for pair in shlex.split(line):
            name, _, value = pair.partition("=")
            env[name] = value
    return {
        "env": env,
        "user": re.findall(r"^USER (\S+)", stage, re.M)[-1],
        "expose": re.findall(r"^EXPOSE (\d+)", stage, re.M),
        "cmd": json.loads(re.findall(r"^CMD (\[.*\])$", stage, re.M)[-1]),
        "healthcheck": json.loads(re.search(r"^HEALTHCHECK .*?CMD (\[.*\])$", stage,
                                            re.M).group(1)),  # type: ignore[union-attr]
        "volume": re.findall(r"^VOLUME", stage, re.M),
    }


def test_dockerfile_settings() -> None:
    image = dockerfile()
    env = image["env"]
    assert isinstance(env, dict)
    assert env["JAMGATE_HOME"] == "/data" and env["JAMGATE_HOST"] == "0.0.0.0"
    assert "JAMGATE_PORT" not in env  # so a platform's $PORT wins
    assert "JAMGATE_TOKEN" not in env  # supplied at run time
    assert image["user"] not in ("root", "0")
    assert image["cmd"] == ["jamgate", "serve", "--http"]
    assert image["expose"] == ["8420"]
    assert image["volume"] == []  # Railway refuses a VOLUME line; mount one at /data


@pytest.mark.slow
def test_the_images_command_serves_with_the_images_environment(tmp_path: Path) -> None:
    """CMD with the image's ENV, outside Docker: /data is a temp folder, $PORT a free port."""
    image = dockerfile()
    env_in_image = image["env"]
    assert isinstance(env_in_image, dict)
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    sock = free_socket()
    port = sock.getsockname()[1]
    sock.close()
    token = "docker-test-" + secrets.token_urlsafe(32)
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAMGATE_") and k != "PORT"}
    env.update(env_in_image)
    env.update({"JAMGATE_HOME": str(data), "PORT": str(port), "JAMGATE_TOKEN": token,
                "PATH": f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"})
    cmd = image["cmd"]
    assert isinstance(cmd, list)
    process = subprocess.Popen(cmd, env=env, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                health = httpx2.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
                break
            except httpx2.TransportError:
                assert process.poll() is None, process.stderr.read()  # type: ignore[union-attr]
                assert time.monotonic() < deadline, "the server did not come up"
                time.sleep(0.1)
        assert health.status_code == 200 and health.json()["status"] == "ok"
        # The image's HEALTHCHECK command agrees.
        check = image["healthcheck"]
        assert isinstance(check, list) and check[0] == "python"
        done = subprocess.run([sys.executable, *check[1:]], env=env, timeout=30)
        assert done.returncode == 0
        meta = httpx2.get(f"http://127.0.0.1:{port}/.well-known/oauth-authorization-server",
                          timeout=10).json()
        assert meta["issuer"] == f"http://127.0.0.1:{port}"
        saved = httpx2.post(f"http://127.0.0.1:{port}/v1/memory", timeout=10,
                            json={"text": "Jam's server runs in a container"},
                            headers={"Authorization": f"Bearer {token}"})
        assert saved.status_code == 201
    finally:
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    assert "0.0.0.0" in err and "port from $PORT" in err
    assert (data / "memory.db").is_file()
    assert token not in err
