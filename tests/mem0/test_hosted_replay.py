"""Mem0Store over the hosted platform through mem0's own `MemoryClient`.

The platform is a paid remote service, so it is replaced by a fake that replays the request
and response shapes taken from mem0's client source (mem0ai 2.2.1, `mem0/client/main.py`):
`GET /v1/ping/` → `{org_id, project_id, user_email}`; `POST /v3/memories/add/` with
`{messages, user_id, metadata, infer}` → `{"results": [{id, memory, event}]}`;
`POST /v3/memories/?page&page_size` with `{filters}` → `{count, next, previous, results}`;
`POST /v3/memories/search/` with `{query, filters, top_k}` → `{"results": [...]}`;
`GET|PUT|DELETE /v1/memories/{id}/`. mem0's client itself is real; only the transport is not.
"""

from __future__ import annotations

import json
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from jamgate_core.contracts import VECTOR_SEARCH, Preconditions, WritePlan
from jamgate_core.models import MemoryRecord, utcnow

KEY = "m0-test-key"


class FakePlatform:
    """Memories in a dict, answering in the platform's shapes; every request recorded."""

    def __init__(self) -> None:
        self.memories: dict[str, dict[str, Any]] = {}
        self.requests: list[tuple[str, str, Any]] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content) if request.content else None
        path = request.url.path
        self.requests.append((request.method, path, body))
        assert request.headers["Authorization"] == f"Token {KEY}"
        if path == "/v1/ping/":
            return httpx.Response(200, json={"status": "ok", "org_id": "org", "project_id": "p",
                                             "user_email": "jam@example.org"})
        if path == "/v3/memories/add/":
            new_id = str(uuid.uuid4())
            text = body["messages"][0]["content"]
            self.memories[new_id] = {"id": new_id, "memory": text, "user_id": body["user_id"],
                                     "metadata": body.get("metadata") or {},
                                     "created_at": "2026-01-01T00:00:00+00:00",
                                     "updated_at": "2026-01-01T00:00:00+00:00"}
            return httpx.Response(200, json={"results": [{"id": new_id, "memory": text,
                                                          "event": "ADD"}]})
        if path == "/v3/memories/":
            found = [m for m in self.memories.values() if self._holds(m, body["filters"])]
            return httpx.Response(200, json={"count": len(found), "next": None,
                                             "previous": None, "results": found})
        if path == "/v3/memories/search/":
            words = set(body["query"].lower().split())
            hits = [dict(m, score=len(words & set(m["memory"].lower().split())) / len(words))
                    for m in self.memories.values() if self._holds(m, body["filters"])]
            hits = sorted((h for h in hits if h["score"] > 0), key=lambda h: -h["score"])
            return httpx.Response(200, json={"results": hits[: body["top_k"]]})
        memory_id = path.split("/")[3]
        if memory_id not in self.memories:
            return httpx.Response(404, json={"detail": "Memory not found"})
        if request.method == "GET":
            return httpx.Response(200, json=self.memories[memory_id])
        if request.method == "PUT":
            self.memories[memory_id]["metadata"] = body["metadata"]
            return httpx.Response(200, json={"message": "Memory updated successfully!"})
        del self.memories[memory_id]
        return httpx.Response(200, json={"message": "Memory deleted successfully!"})

    def _holds(self, memory: dict[str, Any], filters: dict[str, Any]) -> bool:
        for clause in filters["AND"]:
            if "NOT" in clause:
                if any(self._holds(memory, {"AND": [c]}) for c in clause["NOT"]):
                    return False
            elif "metadata" in clause:
                if any(memory["metadata"].get(k) != v for k, v in clause["metadata"].items()):
                    return False
            elif any(memory.get(k) != v for k, v in clause.items()):
                return False
        return True


@pytest.fixture
def platform() -> FakePlatform:
    return FakePlatform()


@pytest.fixture
def store(platform: FakePlatform, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    from jamgate_adapters.stores.mem0 import Mem0Store

    monkeypatch.setenv("JAMGATE_TEST_MEM0_KEY", KEY)
    options = Mem0Store.Options(api_key_env="JAMGATE_TEST_MEM0_KEY", host="https://mem0.test",
                                user_id="jam")
    hosted = Mem0Store(options, tmp_path,
                       http_client=httpx.Client(transport=httpx.MockTransport(platform)))
    hosted.open()
    yield hosted
    hosted.close()


def record(text: str, subject: str | None = None, **fields: Any) -> MemoryRecord:
    now = utcnow()
    return MemoryRecord(id=str(uuid.uuid4()), text=text, subject=subject, created_at=now,
                        updated_at=now, **fields)


def test_hosted_store_writes_supersedes_reads_and_deletes(store: Any,
                                                          platform: FakePlatform) -> None:
    assert VECTOR_SEARCH not in store.capabilities and store.location().endswith("mem0.test")
    assert platform.requests[0][:2] == ("GET", "/v1/ping/")
    old = record("Jam lives in Athens", "location", type="identity")
    store.write(WritePlan(scope="default", now=old.created_at, insert=old),
                Preconditions(scope="default", by_subject={"location": frozenset()}))
    method, path, body = platform.requests[-1]
    assert (method, path, body["infer"], body["user_id"]) == (
        "POST", "/v3/memories/add/", False, "jam")
    assert body["messages"] == [{"role": "user", "content": "Jam lives in Athens"}]
    assert body["metadata"]["jamgate_id"] == old.id
    assert body["metadata"]["jamgate_subject"] == "location"

    new = record("Jam lives in Berlin", "location", type="identity")
    later = new.created_at + timedelta(seconds=1)
    store.write(WritePlan(scope="default", now=later, insert=new, retire=(old.id,)),
                Preconditions(scope="default", by_subject={"location": frozenset({old.id})}))
    put = [r for r in platform.requests if r[0] == "PUT"]
    assert len(put) == 1 and put[0][2]["metadata"]["jamgate_status"] == "superseded"
    assert put[0][2]["metadata"]["jamgate_id"] == old.id  # metadata merged, not replaced
    retired = store.get("default", old.id)
    assert retired.status == "superseded" and retired.superseded_by == new.id
    assert [r.id for r in store.by_subject("default", "location")] == [new.id]
    hits = store.search("default", "where does Jam live Berlin", limit=5, type=None,
                        now=utcnow(), vector=None)
    assert [r.id for r, _ in hits] == [new.id]
    assert store.delete("default", new.id).id == new.id
    assert store.get("default", new.id) is None
    method, path, _ = [r for r in platform.requests if r[0] == "DELETE"][-1]
    assert new.id not in path  # mem0's own id, found through the jamgate_id metadata
    assert [m["metadata"]["jamgate_id"] for m in platform.memories.values()] == [old.id]


def test_missing_api_key_variable_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                           ) -> None:
    from jamgate_adapters.stores.mem0 import Mem0Store
    from jamgate_core.errors import ConfigError

    monkeypatch.delenv("NO_SUCH_MEM0_KEY", raising=False)
    store = Mem0Store(Mem0Store.Options(api_key_env="NO_SUCH_MEM0_KEY"), tmp_path)
    with pytest.raises(ConfigError, match="NO_SUCH_MEM0_KEY"):
        store.open()
