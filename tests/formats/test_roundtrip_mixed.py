"""A store's own export, re-imported into an empty store, yields exactly the same active
records (issue 21): a realistic mixed memory built through the live save path (six languages,
four scopes, superseded, forgotten, expired and re-saved records), on the real CLI."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from formats_kit import Run
from mixed_memory import SCOPES, fill_mixed
from test_roundtrip import comparable

from jamgate_commands import judge_ahead
from jamgate_commands.transfer import export_records
from jamgate_core.app import open_app
from jamgate_core.models import utcnow
from jamgate_core.settings import load_settings


def records(home: Path) -> list[dict[str, object]]:
    app = open_app(load_settings(home=home, embedder="none"))
    try:
        return [comparable(r) for r in export_records(app, list(SCOPES))]
    finally:
        app.close()


@pytest.mark.slow
@pytest.mark.parametrize("workers", ["0", "2"])
def test_a_mixed_memory_survives_its_own_export_and_import(
        workers: str, cli: Callable[..., Run], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """In one process, and with the stateless stages in two worker processes (D-207)."""
    monkeypatch.setattr(judge_ahead, "PARALLEL_FROM", 1)
    first, second = tmp_path / "first", tmp_path / "second"
    monkeypatch.setenv("JAMGATE_EMBEDDER", "none")
    app = open_app(load_settings(home=first))
    try:
        fill_mixed(app, 900)
    finally:
        app.close()
    original = records(first)
    active = [r for r in original if r["status"] == "active"]
    assert len(active) > 400 and len(original) - len(active) > 50, "history and forgetting"
    assert {r["scope"] for r in active} == set(SCOPES)
    assert any(not str(r["text"]).isascii() for r in active)
    now = utcnow()
    assert any(r["expires_at"] is not None and r["expires_at"] < now for r in active)

    monkeypatch.setenv("JAMGATE_HOME", str(first))
    assert cli("export", "-o", str(tmp_path / "export.json")).code == 0
    monkeypatch.setenv("JAMGATE_HOME", str(second))
    imported = cli("import", str(tmp_path / "export.json"), "--json", "--workers", workers)
    assert imported.code == 0, imported.err
    counts = json.loads(imported.out)["counts"]
    assert counts["records"] == len(original)
    assert counts["refused"] == counts["near-duplicate"] == counts["duplicate"] == 0, counts
    assert records(second) == original
