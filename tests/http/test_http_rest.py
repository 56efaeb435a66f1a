"""`/v1/memory`: the same gate and the same models as the MCP tools, with HTTP statuses."""

from __future__ import annotations

from collections.abc import Iterator

import httpx2
import pytest
from live_server import Running

from jamgate_core.models import ForgetResult, RecallResult, SaveRequest, Verdict
from jamgate_server.rest import ErrorBody


@pytest.fixture
def http(server: Running) -> Iterator[httpx2.Client]:
    with server.client(headers=server.auth()) as client:
        yield client


def test_save_is_201_then_200_for_a_duplicate(http: httpx2.Client) -> None:
    body = {"text": "Jam's cello is called Bartholomew", "subject": "cello", "scope": "rest-1"}
    first = http.post("/v1/memory", json=body)
    assert first.status_code == 201
    verdict = Verdict.model_validate(first.json())
    assert verdict.decision == "saved" and verdict.memory is not None
    assert verdict.memory.client is None  # no X-Jamgate-Client header
    again = http.post("/v1/memory", json=body)
    assert again.status_code == 200
    assert again.json()["decision"] == "duplicate"
    assert again.json()["id"] == verdict.id


def test_superseding_save_is_201(http: httpx2.Client) -> None:
    old = http.post("/v1/memory", json={"text": "Jam lives in Lyon", "subject": "home city",
                                        "scope": "rest-2"}).json()
    new = http.post("/v1/memory", json={"text": "Jam lives in Porto", "subject": "home city",
                                        "scope": "rest-2"})
    assert new.status_code == 201
    assert new.json()["decision"] == "superseded"
    assert new.json()["superseded_ids"] == [old["id"]]


def test_a_rejection_is_an_answer_not_an_error(http: httpx2.Client) -> None:
    response = http.post("/v1/memory", json={"text": "what time is it?", "scope": "rest-3"})
    assert response.status_code == 200
    assert response.json()["decision"] == "rejected"
    assert response.json()["reason_code"]


def test_aliases_and_client_header(http: httpx2.Client) -> None:
    response = http.post("/v1/memory", json={"content": "Jam drinks oolong in the morning",
                                             "scope": "rest-4", "unknown": 1},
                         headers={"X-Jamgate-Client": "shortcuts/2.1"})
    assert response.status_code == 201
    assert response.json()["memory"]["client"] == {"name": "shortcuts", "version": "2.1"}


@pytest.mark.parametrize("content, needle", [
    (b"{not json", "not valid JSON"),
    (b"[1, 2]", "JSON object"),
    (b"{}", '"text" is required'),
    (b'{"text": 5}', "not a string"),
    (b'{"text": "   "}', "empty"),
    (b'{"text": "Jam likes figs", "type": "fact"}', "unknown type"),
    (b'{"text": "Jam likes figs", "source": "rumour"}', "unknown source"),
    (b'{"text": "Jam likes figs", "content": "  "}', "content"),
    (b'{"text": "Jam likes figs", "scope": 3}', "scope"),
])
def test_usage_errors_are_400(http: httpx2.Client, content: bytes, needle: str) -> None:
    response = http.post("/v1/memory", content=content,
                         headers={"Content-Type": "application/json"})
    assert response.status_code == 400
    error = ErrorBody.model_validate(response.json())
    assert needle in error.message
    assert error.error in {"parse_error", "invalid_request"}


def test_recall(http: httpx2.Client) -> None:
    saved = http.post("/v1/memory", json={"text": "Jam runs the Athens half marathon",
                                          "type": "project", "scope": "rest-5"}).json()
    found = http.get("/v1/memory", params={"query": "marathon", "scope": "rest-5",
                                           "limit": 500, "type": "project"})
    assert found.status_code == 200
    result = RecallResult.model_validate(found.json())
    assert [m.id for m in result.memories] == [saved["id"]]
    other_type = http.get("/v1/memory", params={"query": "marathon", "scope": "rest-5",
                                                "type": "identity"})
    assert other_type.json() == {"memories": []}
    recent = http.get("/v1/memory", params={"scope": "rest-5"})
    assert [m["id"] for m in recent.json()["memories"]] == [saved["id"]]


@pytest.mark.parametrize("params", [{"limit": "0"}, {"limit": "-2"}, {"limit": "ten"},
                                    {"limit": ""}, {"type": "fact"}, {"type": ""}])
def test_recall_usage_errors_are_400(http: httpx2.Client, params: dict[str, str]) -> None:
    response = http.get("/v1/memory", params=params)
    assert response.status_code == 400
    assert response.json()["error"] == "invalid_request"


def test_forget_by_id_and_prefix(http: httpx2.Client) -> None:
    saved = http.post("/v1/memory", json={"text": "Jam's locker number is 42",
                                          "scope": "rest-6"}).json()
    missing_scope = http.delete(f"/v1/memory/{saved['id']}")
    assert missing_scope.status_code == 404
    assert '"default"' in missing_scope.json()["message"]
    gone = http.delete(f"/v1/memory/{saved['id'][:8]}", params={"scope": "rest-6"})
    assert gone.status_code == 200
    assert ForgetResult.model_validate(gone.json()).forgotten == saved["id"]
    again = http.delete(f"/v1/memory/{saved['id']}", params={"scope": "rest-6"})
    assert again.status_code == 404


def test_forget_an_ambiguous_prefix_is_409(http: httpx2.Client, server: Running) -> None:
    ids = ["abcdef12-aaaa-4000-8000-000000000001", "abcdef12-bbbb-4000-8000-000000000002"]
    for number, memory_id in enumerate(ids):
        server.app.save(SaveRequest(text=f"Jam owns {number + 2} bicycles", scope="rest-7",
                                    subject=f"bikes-{number}", id=memory_id), origin="rest")
    response = http.delete("/v1/memory/abcdef12", params={"scope": "rest-7"})
    assert response.status_code == 409
    error = ErrorBody.model_validate(response.json())
    assert error.error == "ambiguous"
    assert sorted(error.matches or []) == ids


def test_an_id_that_cannot_be_an_id_is_404(http: httpx2.Client) -> None:
    response = http.delete("/v1/memory/%C3%A4%20x")
    assert response.status_code == 404
    assert "not a memory id" in response.json()["message"]


@pytest.mark.parametrize("method, path, allow", [("PUT", "/v1/memory", "POST"),
                                                 ("GET", "/v1/memory/abc", "DELETE")])
def test_405_names_the_allowed_methods(http: httpx2.Client, method: str, path: str,
                                       allow: str) -> None:
    response = http.request(method, path)
    assert response.status_code == 405
    assert allow in response.headers["allow"]
    assert response.json()["error"] == "method_not_allowed"


def test_unknown_rest_path_lists_the_routes(http: httpx2.Client) -> None:
    response = http.get("/v1/memories")
    assert response.status_code == 404
    assert "DELETE /v1/memory/{id}" in response.json()["message"]


@pytest.mark.parametrize("header", [
    "".join(["hv", "s.", "Q7hV2mLx9RtY4bNc8KpW3sZd6FgJ1aEu"]) + "/2.1",
    "shortcuts/" + "".join(["gh", "p_", "Q7hV2mLx9RtY4bNc8KpW3sZd6FgJ1aEuXyZw"]),
], ids=["name", "version"])
def test_a_secret_in_the_client_header_is_refused(http: httpx2.Client, header: str) -> None:
    response = http.post("/v1/memory", json={"text": "Jam drinks oolong at noon",
                                             "scope": "rest-5"},
                         headers={"X-Jamgate-Client": header})
    assert response.status_code == 200
    assert response.json()["decision"] == "rejected"
    assert response.json()["reason_code"].startswith("secret.")
    assert "Q7hV2mLx9R" not in response.text
