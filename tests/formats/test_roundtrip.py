"""Export then import into an empty store reproduces the records: ids, scopes, dates,
sources, subjects, provenance and history."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from formats_kit import Run

from jamgate_commands.transfer import export_records
from jamgate_core.app import open_app
from jamgate_core.models import ClientInfo, MemoryRecord, SaveRequest, utcnow
from jamgate_core.settings import load_settings

DAY = timedelta(days=1)
FIELDS = ("id", "text", "type", "subject", "scope", "source", "status", "created_at",
          "updated_at", "expires_at", "superseded_by", "superseded_at", "client", "provenance")


def seed(home: Path, store: str) -> None:
    app = open_app(load_settings(home=home, store=store))
    try:
        now = utcnow()
        app.save_batch([
            SaveRequest(text="Jam lives in Athens", subject="location", type="identity",
                        source="user-explicit", created_at=now - 400 * DAY),
            SaveRequest(text="Jam lives in Lisbon", subject="location", type="identity",
                        source="user-explicit", created_at=now - 20 * DAY,
                        client=ClientInfo(name="claude-ai", version="0.1.0"), provenance="mcp"),
            SaveRequest(text="Jam prefers green tea over coffee", type="preference",
                        source="user-confirmed", created_at=now - 30 * DAY),
            SaveRequest(text="Jam is on call this week", type="state", created_at=now - 5 * DAY),
            SaveRequest(text="The billing service is written in Go", type="project",
                        scope="Work", created_at=now - 3 * DAY),
            SaveRequest(text="The billing service deploys on Fridays", subject="deploy-day",
                        scope="work", created_at=now - 60 * DAY),
            SaveRequest(text="The billing service deploys on Tuesdays", subject="deploy-day",
                        scope="work", created_at=now - 2 * DAY),
        ])
        app.save(SaveRequest(text="Jam prefers green tea over coffee", source="user-explicit"))
    finally:
        app.close()


def snapshot(home: Path, store: str, active_only: bool = False) -> list[dict[str, Any]]:
    app = open_app(load_settings(home=home, store=store))
    try:
        records = export_records(app, ["default", "work"], active_only=active_only)
    finally:
        app.close()
    return [comparable(r) for r in records]


def comparable(record: MemoryRecord) -> dict[str, Any]:
    return {name: getattr(record, name) for name in FIELDS}


@pytest.mark.parametrize("store", ["sqlite", "file"])
def test_export_then_import_reproduces_every_record(
        store: str, cli: Callable[..., Run], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    seed(first, store)
    original = snapshot(first, store)
    assert {r["status"] for r in original} == {"active", "superseded"}
    assert any(r["source"] == "user-explicit" and r["updated_at"] != r["created_at"]
               for r in original)  # the source upgrade moved updated_at

    monkeypatch.setenv("JAMGATE_STORE", store)
    monkeypatch.setenv("JAMGATE_HOME", str(first))
    exported = cli("export", "--scope", "default", "--scope", "work", "-o",
                   str(tmp_path / "export.json"))
    assert exported.code == 0 and exported.out == ""
    assert f"{len(original)} memories" in exported.err

    monkeypatch.setenv("JAMGATE_HOME", str(second))
    imported = cli("import", str(tmp_path / "export.json"), "--json")
    assert imported.code == 0, imported.err
    report = json.loads(imported.out)
    assert report["format"] == "jamgate"  # recognised without --from
    assert report["counts"]["refused"] == 0
    assert snapshot(second, store) == original

    again = json.loads(cli("import", str(tmp_path / "export.json"), "--json").out)
    assert again["counts"]["duplicate"] == len(original)
    assert snapshot(second, store) == original


def test_an_active_only_export_reproduces_the_active_set(
        cli: Callable[..., Run], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    seed(first, "sqlite")
    monkeypatch.setenv("JAMGATE_HOME", str(first))
    exported = cli("export", "--active-only", "--scope", "default", "--scope", "work")
    document = json.loads(exported.out)
    assert document["active_only"] is True
    assert {m["status"] for m in document["memories"]} == {"active"}
    (tmp_path / "active.json").write_text(exported.out, encoding="utf-8")

    monkeypatch.setenv("JAMGATE_HOME", str(second))
    assert cli("import", str(tmp_path / "active.json")).code == 0
    assert snapshot(second, "sqlite") == snapshot(first, "sqlite", active_only=True)


def test_markdown_export_lists_current_memories_and_history(
        cli: Callable[..., Run], jamgate_home: Path) -> None:
    seed(jamgate_home, "sqlite")
    result = cli("export", "--format", "markdown", "--scope", "work")
    assert result.code == 0
    assert "## Scope `work`" in result.out
    assert "- The billing service deploys on Tuesdays" in result.out
    assert "~~The billing service deploys on Fridays~~" in result.out
    assert "### History (superseded)" in result.out
    assert "Jam lives in Lisbon" not in result.out  # another scope


def test_an_imported_older_fact_is_kept_as_history_under_the_newer_one(
        cli: Callable[..., Run], tmp_path: Path, jamgate_home: Path) -> None:
    app = open_app(load_settings())
    try:
        current = app.save(SaveRequest(text="Jam works at Acme", subject="employer",
                                       source="user-explicit"))
    finally:
        app.close()
    older = {"format": "jamgate", "version": 1, "memories": [{
        "id": "7b1c0d2e-3f4a-4b5c-8d6e-7f8091a2b3c4", "text": "Jam works at Initech",
        "subject": "employer", "source": "user-explicit", "status": "active",
        "created_at": "2024-02-01T09:00:00.000Z"}]}
    (tmp_path / "older.json").write_text(json.dumps(older), encoding="utf-8")
    report = json.loads(cli("import", str(tmp_path / "older.json"), "--json").out)
    assert report["records"][0]["outcome"] == "history"
    app = open_app(load_settings())
    try:
        active = [m for m in app.list().memories if m.subject == "employer"]
        history = app.store.get("default", "7b1c0d2e-3f4a-4b5c-8d6e-7f8091a2b3c4")
    finally:
        app.close()
    assert [m.id for m in active] == [current.id]
    assert history is not None and history.status == "superseded"
    assert history.superseded_by == current.id
    assert history.created_at.year == 2024


def test_imported_history_is_judged_alone_and_retires_nothing(
        cli: Callable[..., Run], tmp_path: Path) -> None:
    app = open_app(load_settings())
    try:
        app.save(SaveRequest(text="Jam lives in Lisbon", subject="location",
                             source="user-explicit"))
    finally:
        app.close()
    history = {"format": "jamgate", "version": 1, "memories": [
        {"id": "h-1", "text": "Jam lives in Lisbon", "subject": "location",
         "source": "agent-inferred", "status": "superseded",
         "created_at": "2023-01-01T00:00:00.000Z", "superseded_at": "2024-01-01T00:00:00.000Z",
         "superseded_by": "gone"},
        {"id": "h-2", "text": "ok", "status": "superseded",
         "created_at": "2023-01-01T00:00:00.000Z"},
    ]}
    (tmp_path / "history.json").write_text(json.dumps(history), encoding="utf-8")
    report = json.loads(cli("import", str(tmp_path / "history.json"), "--json").out)
    # Not a duplicate of the live text, not a conflict with the more trusted one: history.
    assert [r["outcome"] for r in report["records"]] == ["history", "refused"]
    assert report["records"][1]["reason_code"].startswith("prefilter.")
    app = open_app(load_settings())
    try:
        live = app.list().memories
        stored = app.store.get("default", "h-1")
    finally:
        app.close()
    assert [m.text for m in live] == ["Jam lives in Lisbon"] and live[0].id != "h-1"
    assert stored is not None and stored.superseded_by == "gone"
    assert stored.superseded_at is not None and stored.superseded_at.year == 2024


def _import_document(cli: Callable[..., Run], path: Path,
                     memories: list[dict[str, Any]]) -> list[str]:
    path.write_text(json.dumps({"format": "jamgate", "version": 1, "memories": memories}),
                    encoding="utf-8")
    imported = cli("import", str(path), "--json")
    assert imported.code == 0, imported.err
    return [r["outcome"] for r in json.loads(imported.out)["records"]]


def switched(created_at: str) -> dict[str, Any]:
    return {"id": "editor-2", "text": "I switched from Vim to Helix", "source": "user-explicit",
            "status": "active", "created_at": created_at}


def test_an_import_never_retires_a_record_its_own_file_keeps_active(
        cli: Callable[..., Run], tmp_path: Path) -> None:
    """Both records were active where they came from, so importing them keeps both (D-380),
    although saved live the second retires the first (the change it declares)."""
    vim = {"id": "editor-1", "text": "I use Vim as my editor", "source": "user-explicit",
           "status": "active", "created_at": "2025-01-10T09:00:00.000Z"}
    outcomes = _import_document(cli, tmp_path / "both.json",
                                [vim, switched("2025-06-20T09:00:00.000Z")])
    assert outcomes == ["imported", "imported"]
    app = open_app(load_settings())
    try:
        assert {m.id for m in app.list().memories} == {"editor-1", "editor-2"}
        app.save(SaveRequest(text=vim["text"], source="user-explicit", scope="live"))
        live = app.save(SaveRequest(text="I switched from Vim to Helix", scope="live",
                                    source="user-explicit"))
    finally:
        app.close()
    assert live.decision == "superseded" and live.superseded_ids


def test_an_imported_change_still_retires_what_the_store_held_before(
        cli: Callable[..., Run], tmp_path: Path) -> None:
    app = open_app(load_settings())
    try:
        held = app.save(SaveRequest(text="I use Vim as my editor", source="user-explicit"))
    finally:
        app.close()
    now = utcnow().isoformat().replace("+00:00", "Z")
    assert _import_document(cli, tmp_path / "switch.json", [switched(now)]) == ["superseded"]
    app = open_app(load_settings())
    try:
        record = app.store.get("default", held.id or "")
    finally:
        app.close()
    assert record is not None and record.status == "superseded"
    assert record.superseded_by == "editor-2"
