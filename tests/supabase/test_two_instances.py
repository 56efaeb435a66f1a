"""Two `jamgate serve --http` processes on one Supabase database.

Hit concurrently (bounded, loopback) with overlapping subjects and identical texts, they end
with exactly one active record per subject and per text, every acknowledged save present and
no error seen by a client. OAuth issued through one instance works on the other.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from supabase_stack import Stack, free_port

from jamgate_core.testing import every_record

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning")]


@dataclass
class Instance:
    base: str
    token: str
    process: subprocess.Popen[bytes]

    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


def start_instance(stack: Stack, home: Path, token: str) -> Instance:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAMGATE_")}
    env.update(stack.env(), JAMGATE_HOME=str(home), JAMGATE_TOKEN=token,
               JAMGATE_PORT=str(port), JAMGATE_EMBEDDER="none")
    home.mkdir(parents=True, exist_ok=True)
    log = (home / "serve.log").open("wb")
    process = subprocess.Popen([sys.executable, "-m", "jamgate_core.cli", "serve", "--http"],
                               env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"jamgate serve exited: {(home / 'serve.log').read_text()}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
                return Instance(base, token, process)
        time.sleep(0.1)
    process.terminate()
    raise RuntimeError(f"jamgate serve did not start: {(home / 'serve.log').read_text()}")


@pytest.fixture
def pair(clean_stack: Stack, tmp_path: Path) -> Iterator[tuple[Instance, Instance]]:
    token = secrets.token_urlsafe(24)  # one deployment, one instance token
    a = start_instance(clean_stack, tmp_path / "a", token)
    try:
        b = start_instance(clean_stack, tmp_path / "b", token)
    except BaseException:
        a.process.terminate()
        raise
    try:
        yield a, b
    finally:
        for instance in (a, b):
            instance.process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                instance.process.wait(timeout=15)
            if instance.process.poll() is None:
                instance.process.kill()


TEXTS = [f"Jam's project {name} ships from the {place} office"
         for name, place in [("Alder", "Lisbon"), ("Birch", "Oslo"), ("Cedar", "Porto"),
                             ("Dogwood", "Turin"), ("Elm", "Ghent"), ("Fir", "Bergen")]]


def test_concurrent_saves_keep_one_active_record_per_subject_and_text(
        pair: tuple[Instance, Instance], clean_stack: Stack) -> None:
    a, b = pair

    def save(n: int) -> dict[str, Any]:
        target = (a, b)[n % 2]
        body = {"text": TEXTS[n % len(TEXTS)], "subject": f"project-{n % 4}",
                "type": "project"}
        with httpx.Client(base_url=target.base, timeout=60) as http:
            response = http.post("/v1/memory", json=body, headers=target.auth())
        assert response.status_code in (200, 201), response.text
        return dict(response.json())

    with ThreadPoolExecutor(max_workers=8) as pool:
        verdicts = list(pool.map(save, range(48)))
    assert all(v["decision"] != "error" for v in verdicts), verdicts
    acked = {v["id"] for v in verdicts if v.get("id")}
    from jamgate_adapters.stores.supabase import SupabaseStore
    store = SupabaseStore(SupabaseStore.Options(url=clean_stack.url,
                                                key=clean_stack.service_key))
    store.open()
    try:
        from datetime import UTC, datetime
        records = every_record(store, "default", datetime.now(UTC))
        assert records, "nothing was stored"
        by_id = {r.id: r for r in records}
        assert acked <= set(by_id), acked - set(by_id)
        active = [r for r in records if r.status == "active"]
        assert len({r.key for r in active}) == len(active)
        subjects = [r.subject for r in active if r.subject]
        assert len(set(subjects)) == len(subjects)
        assert store.integrity_check() == []
    finally:
        store.close()


def test_oauth_token_from_one_instance_works_on_the_other(
        pair: tuple[Instance, Instance]) -> None:
    import httpx2
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "oauth"))
    from flow import exchange, get_code, register

    a, b = pair
    with httpx2.Client(base_url=a.base, timeout=30) as on_a, \
            httpx2.Client(base_url=b.base, timeout=30) as on_b:
        client = register(on_a)
        code = get_code(on_a, client, a.token)
        issued = exchange(on_a, client, code).json()
        assert "access_token" in issued, issued
        access = {"Authorization": f"Bearer {issued['access_token']}"}
        assert on_b.get("/v1/memory", headers=access).status_code == 200
        revoked = on_a.post("/revoke", data={"token": issued["access_token"],
                                             "client_id": client.client_id})
        assert revoked.status_code == 200
        assert on_b.get("/v1/memory", headers=access).status_code == 401
        # A code is single-use across instances.
        code = get_code(on_b, client, b.token)
        assert exchange(on_a, client, code).status_code == 200
        assert exchange(on_b, client, code).json()["error"] == "invalid_grant"
