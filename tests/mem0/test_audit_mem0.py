"""`jamgate audit` on a real mem0 store: a seeded store of 1,000 records with planted junk,
duplicates, paraphrases, secrets and stale facts (written by "another mem0 app", so without
Jamgate's metadata), audited through the real gate with Jamgate's embedder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mem0_helpers import open_mem0_app

from jamgate_commands.audit import (
    apply,
    audit,
    planted_records,
    render_markdown,
    render_text,
    score,
    seed_store,
)

pytestmark = pytest.mark.slow


def test_audit_of_a_seeded_store_finds_the_planted_problems(tmp_path: Path) -> None:
    app = open_mem0_app(tmp_path)
    try:
        records, labels = planted_records(1000)
        ids = seed_store(app, records)
        before = app.store.integrity_check(), len(app.store.backend.rows(  # type: ignore
            app.store._where("default"), 10_000))  # type: ignore[attr-defined]
        report = audit(app)
        after = app.store.integrity_check(), len(app.store.backend.rows(  # type: ignore
            app.store._where("default"), 10_000))  # type: ignore[attr-defined]
    finally:
        app.close()
    assert before == after  # an audit changes nothing
    assert report.total == len(records) >= 1000
    scores = score(report, {ids[i]: label for i, label in labels.items()})
    print(f"\naudit of {report.total} mem0 records took {report.seconds:.1f} s")
    for label, figures in scores.items():
        print(f"  {label}: {figures}")
    assert scores["clean"]["share"] <= 0.01
    assert scores["all"]["precision"] >= 0.99
    for label in ("duplicate", "secret", "stale"):
        assert scores[label]["recall"] == 1.0, label
    assert scores["junk"]["recall"] >= 0.5 and scores["paraphrase"]["recall"] >= 0.3
    shown = render_text(report) + render_markdown(report) + json.dumps(report.to_json(50))
    assert "AKIA" not in shown and "ghp_" not in shown and "sk-proj" not in shown
    assert "[redacted: " in shown


def test_audit_apply_backs_up_then_removes_and_logs(tmp_path: Path) -> None:
    app = open_mem0_app(tmp_path)
    try:
        clean = app.store.add_foreign("default", "Jam plays the cello in a quartet",  # type: ignore
                                      records_time(0))
        junk = app.store.add_foreign("default", "ok thanks!", records_time(1))  # type: ignore
        copy = app.store.add_foreign("default", "jam plays the CELLO in a quartet",  # type: ignore
                                     records_time(2))
        report = audit(app)
        assert {f.record.id for f in report.findings} == {junk, copy}
        apply(app, report, tmp_path / "backups")
        assert report.applied == 2
        backup = Path(report.backup or "")
        assert backup.is_file() and "ok thanks!" in backup.read_text(encoding="utf-8")
        remaining = {m.id for m in app.list(limit=10).memories}
        assert remaining == {clean}
        log = (app.settings.gate_log_path(app.store_dir()) or tmp_path / "none")
    finally:
        app.close()
    entries = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert {e["id"] for e in entries if e.get("decision") == "forgotten"} == {junk, copy}


def records_time(minutes: int):  # type: ignore[no-untyped-def]
    from datetime import timedelta

    from jamgate_core.models import utcnow

    return utcnow() - timedelta(days=1) + timedelta(minutes=minutes)
