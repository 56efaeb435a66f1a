"""The OpenAPI document is the contract: schemathesis drives every operation against a real
server, authenticated, with every check on (responses must conform to the document, valid
requests must be accepted and invalid ones refused, unsupported methods are 405, …)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from live_server import Running, serve

from jamgate_server.rest import openapi_document

EXAMPLES = 100
SEED = 20261130


@pytest.fixture(scope="module")
def fuzzed_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    """A server of its own: schemathesis writes hundreds of odd memories into it."""
    yield from serve(tmp_path_factory.mktemp("schemathesis-home"))


def test_document_lists_every_route_with_its_models(server: Running) -> None:
    document = httpx2.get(f"{server.base}/openapi.json").json()
    assert document["openapi"] == "3.1.0"
    operations = {(path, method) for path, item in document["paths"].items()
                  for method in item}
    assert operations == {("/v1/memory", "post"), ("/v1/memory", "get"),
                          ("/v1/memory/{id}", "delete"), ("/healthz", "get")}
    assert {"Verdict", "RecallResult", "ForgetResult", "ErrorBody", "SaveBody"} <= set(
        document["components"]["schemas"])
    scope = document["components"]["schemas"]["SaveBody"]["properties"]["scope"]["anyOf"][0]
    assert scope["maxLength"] == 200  # the validation stage's default, carried over
    assert document["paths"]["/healthz"]["get"]["security"] == []


def test_document_without_an_app_has_no_stage_rules() -> None:
    scope = openapi_document()["components"]["schemas"]["SaveBody"]["properties"]["scope"]
    assert "maxLength" not in scope["anyOf"][0]


@pytest.mark.slow
def test_schemathesis_finds_nothing(fuzzed_server: Running, tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    done = subprocess.run(
        [sys.executable, "-m", "schemathesis.cli", "run", f"{fuzzed_server.base}/openapi.json",
         "--checks", "all", "--max-examples", str(EXAMPLES), "--seed", str(SEED),
         "--header", f"Authorization: Bearer {fuzzed_server.token}",
         "--generation-database", "none", "--workers", "1", "--no-color",
         "--report", "json", "--report-json-path", str(report)],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    result = json.loads(report.read_text())
    assert result["operations"]["tested"] == 4
    assert result["test_cases"]["with_failures"] == 0
    assert result["test_cases"]["errored"] == 0
    assert result["test_cases"]["generated"] >= 3 * EXAMPLES
    assert all(phase["status"] == "success"
               for name, phase in result["phases"].items() if name != "examples")
    assert not any(result["warnings"].values()), result["warnings"]
