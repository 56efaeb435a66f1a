"""A credential in an import record's other fields — subject, scope, client name and version,
provenance, mem0's metadata subject — is refused like one in the text, reported redacted, and
found nowhere on disk afterwards (store, gate log, export). The secret is of a shape added
with s19 (a HashiCorp Vault token, D-255), joined here so no file holds it whole."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from formats_kit import Run

BODY = "".join(["Q7hV2mLx9R", "tY4bNc8KpW", "3sZd6FgJ1aEu"])
SECRET = "hv" + "s." + BODY
FACT = "Jam grows figs on the balcony in Lisbon"
STAMP = "2026-02-02T10:00:00.000Z"


def native(field: str) -> dict[str, Any]:
    record: dict[str, Any] = {
        "id": "9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c03", "text": FACT, "type": "identity",
        "subject": None, "scope": "default", "source": "user-explicit", "status": "active",
        "created_at": STAMP, "updated_at": STAMP, "expires_at": None, "superseded_by": None,
        "superseded_at": None, "client": None, "provenance": None}
    if field == "client name":
        record["client"] = {"name": SECRET}
    elif field == "client version":
        record["client"] = {"name": "cursor", "version": SECRET}
    else:
        record[field] = SECRET
    return {"format": "jamgate", "version": 1, "exported_at": STAMP, "generator": "jamgate 0.1.0",
            "scopes": ["default"], "active_only": False, "memories": [record]}


def ts_v3(field: str) -> dict[str, Any]:
    record: dict[str, Any] = {
        "id": "33333333-4444-4555-8666-777777777701", "text": FACT, "type": "identity",
        "scope": "default", "source": "user-explicit", "status": "active",
        "createdAt": STAMP, "updatedAt": STAMP}
    if field == "client name":
        record["client"] = {"name": SECRET, "version": "1.0"}
    elif field == "client version":
        record["client"] = {"name": "claude-ai", "version": SECRET}
    else:
        record[field] = SECRET
    return {"schemaVersion": 3, "exportedAt": STAMP, "generator": "jamgate/0.11.2",
            "memories": [record]}


def mem0(field: str) -> dict[str, Any]:
    return {"results": [{"id": "7f1e2d3c-4b5a-4968-8776-655443322110", "memory": FACT,
                         "hash": "0" * 32, "metadata": {field: SECRET}, "created_at": STAMP,
                         "updated_at": STAMP, "user_id": "jam"}]}


CASES = [("jamgate", native, f) for f in ("subject", "scope", "provenance", "client name",
                                          "client version")]
CASES += [("jamgate-ts", ts_v3, f) for f in ("subject", "scope", "client name",
                                             "client version")]
CASES += [("mem0", mem0, "subject")]


@pytest.mark.parametrize(("fmt", "build", "field"), CASES,
                         ids=[f"{c[0]}:{c[2]}" for c in CASES])
def test_a_secret_in_a_record_field_is_refused_and_never_written(
        fmt: str, build: Callable[[str], dict[str, Any]], field: str, cli: Callable[..., Run],
        grep_home: Callable[[str], list[Path]], jamgate_home: Path, tmp_path: Path) -> None:
    path = tmp_path / "in.json"
    path.write_text(json.dumps(build(field)), encoding="utf-8")
    result = cli("import", str(path), "--from", fmt, "--json", "--no-progress")
    assert result.code == 0, result.err
    report = json.loads(result.out)
    refused = [r for r in report["records"] if r["reason_code"].startswith("secret.")]
    assert len(refused) == 1 and refused[0]["outcome"] == "refused", report["records"]
    exported = cli("export", "--scope", "default")
    assert exported.code == 0
    for output in (result, exported):
        assert BODY not in output.out + output.err
    assert grep_home(BODY) == []
    assert BODY not in (jamgate_home / "gate.log").read_text(encoding="utf-8")
