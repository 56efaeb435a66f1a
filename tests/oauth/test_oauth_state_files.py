"""The OAuth state on disk: a corrupt sidecar is refused and left as it is (the predecessor
answered HTTP 500 for a corrupt oauth.json, reference §14.1 #9); HTTP mode will not start on
one and `jamgate doctor` reports it; a corrupt record counts as absent (issue #18, item 8)."""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import sqlite3
import subprocess
import sys
from html import unescape
from pathlib import Path
from urllib.parse import urlencode

import pytest
from flow import CLAUDE_CALLBACK, authorize_params, register, tokens
from live_server import Running, free_socket, serve

from jamgate_adapters.stores.file import FileStore
from jamgate_adapters.stores.kit.authstate import sidecar_path
from jamgate_core.app import open_app
from jamgate_core.errors import ConfigError, StoreCorrupt
from jamgate_core.settings import load_settings
from jamgate_core.testing import NOW, insert, make_record
from jamgate_server.http import build_http_app


def test_a_corrupt_sidecar_is_refused_untouched_and_memories_still_work(tmp_path: Path) -> None:
    store = FileStore(FileStore.Options(), tmp_path)
    store.open()
    record = make_record("Jam keeps a sourdough starter called Bob")
    insert(store, record)
    sidecar = sidecar_path(store.path)
    sidecar.write_bytes(b'{"version": 1, "clients": ')
    digest = hashlib.sha256(sidecar.read_bytes()).hexdigest()
    with pytest.raises(StoreCorrupt, match=r"OAuth state file .* Move it aside"):
        store.oauth_client("some-client")
    with pytest.raises(StoreCorrupt):
        store.oauth_save_client("some-client", "{}", 0.0)
    assert hashlib.sha256(sidecar.read_bytes()).hexdigest() == digest
    hits = store.search("default", "sourdough", limit=5, type=None, now=NOW)
    assert [r.id for r, _ in hits] == [record.id]
    store.close()


# ---- issue #18, item 8: a corrupt state stops the start, and doctor says so -----------------

CORRUPT = b'{"version": 1, "clients": '


def _env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAMGATE_") and k != "PORT"}
    return {**env, "JAMGATE_HOME": str(home), "JAMGATE_EMBEDDER": "none",
            "JAMGATE_STORE": "memory.json", **extra}


def _corrupt_home(tmp_path: Path) -> tuple[Path, Path]:
    home = tmp_path / "home"
    home.mkdir()
    sidecar = home / "memory.oauth.json"
    sidecar.write_bytes(CORRUPT)
    return home, sidecar


def test_serve_http_refuses_to_start_on_a_corrupt_sidecar_and_names_it(tmp_path: Path) -> None:
    home, sidecar = _corrupt_home(tmp_path)
    sock = free_socket()
    port = sock.getsockname()[1]
    sock.close()
    process = subprocess.Popen(
        [sys.executable, "-m", "jamgate_core.cli", "serve", "--http"],
        env=_env(home, JAMGATE_TOKEN=secrets.token_urlsafe(32), JAMGATE_PORT=str(port)),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _, err = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail("the server started on a corrupt OAuth state file")
    assert process.returncode != 0
    assert str(sidecar) in err
    assert "Move it aside" in err and "JAMGATE_OAUTH=off" in err
    assert "Traceback" not in err
    assert sidecar.read_bytes() == CORRUPT  # left exactly as it was


def test_doctor_reports_a_corrupt_sidecar_as_an_error(tmp_path: Path) -> None:
    home, sidecar = _corrupt_home(tmp_path)
    done = subprocess.run([sys.executable, "-m", "jamgate_core.cli", "doctor", "--json"],
                          env=_env(home), capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stdout + done.stderr
    errors = [c["message"] for c in json.loads(done.stdout) if c["level"] == "error"]
    assert any(str(sidecar) in message and "OAuth" in message for message in errors), errors
    assert sidecar.read_bytes() == CORRUPT


def test_doctor_says_a_readable_oauth_state_is_ok(tmp_path: Path) -> None:
    home = tmp_path / "home"
    done = subprocess.run([sys.executable, "-m", "jamgate_core.cli", "doctor", "--json"],
                          env=_env(home), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert any(c["level"] == "ok" and "OAuth state" in c["message"]
               for c in json.loads(done.stdout))


def test_build_refuses_a_corrupt_sidecar_with_a_config_error(tmp_path: Path) -> None:
    home, sidecar = _corrupt_home(tmp_path)
    settings = load_settings(home=home, store="memory.json", embedder="none",
                             token=secrets.token_urlsafe(32))
    with open_app(settings) as app, pytest.raises(ConfigError, match="OAuth state") as caught:
        build_http_app(app)
    assert str(sidecar) in str(caught.value)


def test_a_sidecar_corrupted_while_serving_gives_503_not_500(tmp_path: Path) -> None:
    for server in serve(tmp_path / "live", store="memory.json"):
        with server.client() as http:
            client = register(http)
            access = tokens(http, client, server.token)["access_token"]
            sidecar = sidecar_path(Path(server.app.store.location()))
            sidecar.write_bytes(CORRUPT)
            for answer in (
                http.post("/register", json={"redirect_uris": [CLAUDE_CALLBACK]}),
                http.get("/v1/memory", headers={"Authorization": f"Bearer {access}"}),
                http.get("/authorize?" + urlencode(authorize_params(client))),
            ):
                assert answer.status_code == 503, answer.text
                assert str(sidecar) in unescape(answer.text)
            # The static token needs no OAuth state: memories are served on.
            assert http.get("/v1/memory", headers=server.auth()).status_code == 200


def test_corrupt_sqlite_rows_count_as_absent_never_a_500(server: Running) -> None:
    with server.client() as http:
        client = register(http)
        other = register(http)
        issued = tokens(http, other, server.token)
        with sqlite3.connect(server.app.store.location()) as db:
            db.execute("UPDATE oauth_clients SET document = 'not json {' WHERE client_id = ?",
                       (client.client_id,))
            db.execute("UPDATE oauth_secrets SET data = '[1, 2', expires_at = 'soon' "
                       "WHERE client_id = ?", (other.client_id,))
        unknown = http.get("/authorize?" + urlencode(authorize_params(client)))
        assert unknown.status_code == 400 and "Unknown client" in unknown.text
        bearer = http.get("/v1/memory",
                          headers={"Authorization": f"Bearer {issued['access_token']}"})
        assert bearer.status_code == 401
        refreshed = http.post("/token", data={
            "grant_type": "refresh_token", "refresh_token": issued["refresh_token"],
            "client_id": other.client_id})
        assert refreshed.status_code == 400 and refreshed.json()["error"] == "invalid_grant"
