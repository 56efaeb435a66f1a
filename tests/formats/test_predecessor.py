"""The TypeScript predecessor's memory.json, schema versions 1-3: ids and dates kept."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from formats_kit import FIXTURES, Run

from jamgate_core.app import open_app
from jamgate_core.models import MemoryRecord, parse_iso
from jamgate_core.settings import load_settings


def stored(record_id: str, scope: str = "default") -> MemoryRecord | None:
    app = open_app(load_settings())
    try:
        return app.store.get(scope, record_id)
    finally:
        app.close()


@pytest.mark.parametrize("version", [1, 2, 3])
def test_each_schema_version_imports_with_ids_and_dates_kept(
        version: int, cli: Callable[..., Run], planted: Callable[[str], Path]) -> None:
    path = planted(f"ts-v{version}.json")
    result = cli("import", str(path), "--json")  # recognised without --from
    assert result.code == 0, result.err
    report = json.loads(result.out)
    assert report["format"] == "jamgate-ts"
    raw = json.loads(path.read_text(encoding="utf-8"))
    items = raw if isinstance(raw, list) else raw["memories"]
    kept = [item for item in items if "billing API" not in item["text"]]
    for item in kept:
        scope = (item.get("scope") or "default").lower() if version >= 3 else "default"
        record = stored(item["id"], scope)
        assert record is not None, item["text"]
        assert record.text == item["text"]
        assert record.created_at == parse_iso(item["createdAt"])
        assert record.status == item["status"]
        assert record.source == item["source"]
        assert record.provenance == "import:jamgate-ts"


def test_v1_expiry_is_stamped_from_created_at_as_the_predecessor_migrated(
        cli: Callable[..., Run], planted: Callable[[str], Path]) -> None:
    cli("import", str(planted("ts-v1.json")))
    record = stored("11111111-2222-4333-8444-555555555502")
    assert record is not None and record.type == "project"
    assert record.expires_at == datetime(2026, 6, 21, 10, tzinfo=UTC) + timedelta(days=90)
    assert record.client is not None and record.client.name == "claude-ai"
    untyped = stored("11111111-2222-4333-8444-555555555501")
    assert untyped is not None and untyped.expires_at is None and untyped.subject == "indentation"


def test_v2_history_keeps_its_link_and_dates(cli: Callable[..., Run],
                                              planted: Callable[[str], Path]) -> None:
    cli("import", str(planted("ts-v2.json")))
    old = stored("22222222-3333-4444-8555-666666666601")
    assert old is not None and old.status == "superseded"
    assert old.superseded_by == "22222222-3333-4444-8555-666666666602"
    assert old.superseded_at == parse_iso("2026-06-30T09:00:00.000Z")
    assert old.updated_at == parse_iso("2026-06-30T09:00:00.000Z")
    on_call = stored("22222222-3333-4444-8555-666666666603")
    assert on_call is not None and on_call.expires_at == parse_iso("2026-07-03T07:00:00.000Z")


def test_v3_scopes_are_kept_and_vectors_dropped(cli: Callable[..., Run],
                                                planted: Callable[[str], Path]) -> None:
    cli("import", str(planted("ts-v3.json")))
    work = stored("33333333-4444-4555-8666-777777777702", "work")
    assert work is not None and work.expires_at == parse_iso("2026-10-13T14:00:00.000Z")
    name = stored("33333333-4444-4555-8666-777777777701")
    assert name is not None and name.embedding is None


def test_a_newer_schema_version_is_refused(cli: Callable[..., Run], tmp_path: Path,
                                           jamgate_home: Path) -> None:
    path = tmp_path / "memory.json"
    path.write_text(json.dumps({"schemaVersion": 4, "memories": []}), encoding="utf-8")
    result = cli("import", str(path), "--from", "jamgate-ts")
    assert result.code == 1
    assert "schemaVersion 4" in result.err and str(path) in result.err
    assert not (jamgate_home / "memory.db").exists()


def test_fixture_files_have_the_predecessor_shapes() -> None:
    assert isinstance(json.loads((FIXTURES / "ts-v1.json").read_text()), list)
    assert json.loads((FIXTURES / "ts-v2.json").read_text())["schemaVersion"] == 2
    assert json.loads((FIXTURES / "ts-v3.json").read_text())["generator"].startswith("jamgate/")
