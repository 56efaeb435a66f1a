"""`jamgate export` and `jamgate audit` cover every scope of the store (its `scopes()`), not
only `default`, and the export summary names the scopes exported. The stores without a local
file are covered by the conformance suite's `scopes()` test."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from formats_kit import Run

from jamgate_commands.audit import audit
from jamgate_commands.transfer import export
from jamgate_core.app import App, open_app
from jamgate_core.models import SaveRequest
from jamgate_core.settings import load_settings

SAVES = [
    ("default", "Jam lives in Thessaloniki with two cats"),
    ("work", "The backend team deploys with Nomad on Fridays"),
    ("work/infra", "The staging cluster runs on three Hetzner machines"),
    ("personal", "Jam's partner is allergic to hazelnuts"),
    ("αβγ/日本", "Jam practises Japanese calligraphy on Sundays"),
]
SCOPES = sorted(scope for scope, _ in SAVES)
STORES = {"sqlite": "memory.db", "file": "memory.json"}


def filled(home: Path, store: str) -> App:
    app = open_app(load_settings(home=home, store=store, embedder="none"))
    for scope, text in SAVES:
        verdict = app.save(SaveRequest(text=text, scope=scope, source="user-explicit"))
        assert verdict.stored, verdict
    return app


@pytest.mark.parametrize("store", ["memory", *STORES.values()])
def test_export_writes_every_scope(jamgate_home: Path, store: str) -> None:
    import io

    app = filled(jamgate_home, store)
    try:
        out = io.StringIO()
        records, scopes = export(app, out)
    finally:
        app.close()
    assert scopes == SCOPES
    assert sorted((r.scope, r.text) for r in records) == sorted(SAVES)
    document = json.loads(out.getvalue())
    assert sorted(document["scopes"]) == SCOPES
    assert len(document["memories"]) == len(SAVES)


@pytest.mark.parametrize("store", sorted(STORES))
def test_the_export_command_names_the_scopes(jamgate_home: Path, store: str,
                                             monkeypatch: pytest.MonkeyPatch,
                                             cli: Callable[..., Run]) -> None:
    filled(jamgate_home, STORES[store]).close()
    monkeypatch.setenv("JAMGATE_STORE", STORES[store])
    target = jamgate_home.parent / "backup.json"
    done = cli("export", "-o", str(target))
    assert done.code == 0, done.err
    assert f"{len(SAVES)} memories" in done.err
    assert f"in scope(s) {', '.join(SCOPES)} " in done.err
    again = cli("import", "--dry-run", "--json", str(target))
    assert again.code == 0, again.err
    assert json.loads(again.out)["counts"]["records"] == len(SAVES)


@pytest.mark.parametrize("store", ["memory", *STORES.values()])
def test_audit_replays_every_scope(jamgate_home: Path, store: str) -> None:
    app = filled(jamgate_home, store)
    try:
        report = audit(app)
    finally:
        app.close()
    assert report.scopes == SCOPES
    assert report.total == len(SAVES)
