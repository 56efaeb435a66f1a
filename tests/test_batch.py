"""Imports: many saves judged as one atomic batch, in event-time order, through the gate."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from jamgate_core.app import App, open_app
from jamgate_core.contracts import Preconditions, WritePlan
from jamgate_core.models import Candidate, SaveRequest, utcnow
from jamgate_core.settings import load_settings

DAY = timedelta(days=1)


@pytest.fixture(params=["memory", "sqlite", "file"])
def app(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch,
        jamgate_home: Path) -> Iterator[App]:
    store = str(jamgate_home / "memory.json") if request.param == "file" else request.param
    monkeypatch.setenv("JAMGATE_STORE", store)
    application = open_app(load_settings())
    yield application
    application.close()


def req(text: str, days_ago: float, **kwargs: Any) -> SaveRequest:
    return SaveRequest(text=text, created_at=utcnow() - days_ago * DAY, **kwargs)


def test_a_batch_is_judged_in_event_time_order(app: App) -> None:
    verdicts = app.save_batch([
        req("Jam lives in Lisbon", 1, subject="location"),
        req("Jam lives in Athens", 300, subject="location"),
        req("Jam lives in Berlin", 100, subject="location"),
        req("jam lives in BERLIN", 50),
        req("hi", 10),
    ])
    assert [v.decision for v in verdicts] == ["superseded", "saved", "superseded", "duplicate",
                                              "rejected"]
    assert verdicts[3].id == verdicts[2].id
    active = [m for m in app.list().memories if m.subject == "location"]
    assert [m.text for m in active] == ["Jam lives in Lisbon"]
    history = {m.text for m in app.list(status="superseded").memories}
    assert history == {"Jam lives in Athens", "Jam lives in Berlin"}


def test_an_older_import_never_retires_a_newer_stored_fact(app: App) -> None:
    current = app.save(SaveRequest(text="Jam works at Acme", subject="employer"))
    verdicts = app.save_batch([req("Jam works at Initech", 400, subject="employer")])
    assert (verdicts[0].decision, verdicts[0].reason_code) == ("saved", "supersede.history")
    active = [m.id for m in app.list().memories if m.subject == "employer"]
    assert active == [current.id]


def test_dry_run_writes_and_logs_nothing(app: App, jamgate_home: Path) -> None:
    verdicts = app.save_batch([req("Jam likes figs", 2), req("Jam likes dates", 1)],
                              dry_run=True)
    assert [v.decision for v in verdicts] == ["saved", "saved"]
    assert app.list().memories == []
    assert not (jamgate_home / "gate.log").exists()


def test_every_decision_is_logged_with_origin_import(app: App, jamgate_home: Path) -> None:
    app.save_batch([req("Jam likes figs", 2), req("Jam likes figs", 1), req("ok", 1)])
    lines = [json.loads(line) for line in (jamgate_home / "gate.log").read_text().splitlines()]
    assert [(line["decision"], line["origin"]) for line in lines] == [
        ("saved", "import"), ("duplicate", "import"), ("rejected", "import")]


def test_a_bad_record_is_refused_alone(app: App) -> None:
    verdicts = app.save_batch([req("Jam likes figs", 2),
                               req("Jam likes dates", 1, subject="x" * 500)])
    assert verdicts[0].decision == "saved"
    assert verdicts[1].reason_code == "validation.invalid_argument"


def test_a_batch_raced_by_another_writer_is_judged_again(app: App) -> None:
    calls = {"n": 0}
    original = app.store.write_many

    def racing_write_many(plans: Any, preconditions: Any) -> None:
        calls["n"] += 1
        if calls["n"] == 1:  # another process takes the subject first
            rival = Candidate(id="rival-0000-0001", text="Jam lives in Paris", raw_length=18,
                              subject="location", created_at=utcnow()).to_record()
            original([WritePlan(scope="default", now=utcnow(), insert=rival)],
                     [Preconditions(scope="default")])
        original(plans, preconditions)

    app.store.write_many = racing_write_many  # type: ignore[method-assign]
    verdicts = app.save_batch([req("Jam lives in Athens", 30, subject="location"),
                               req("Jam likes figs", 20)])
    assert calls["n"] == 2
    assert verdicts[0].reason_code == "supersede.history"  # Paris is newer
    texts = sorted(m.text for m in app.list().memories)
    assert texts == ["Jam likes figs", "Jam lives in Paris"]


def test_a_batch_sees_its_own_near_duplicates(app: App) -> None:
    verdicts = app.save_batch([
        req("Jam plays the violin in a community orchestra on Thursdays", 3),
        req("Jam plays violin in the community orchestra on Thursdays", 2),
    ])
    assert [v.decision for v in verdicts] == ["saved", "possible_duplicate"]
    assert [m.text for m in app.list().memories] == [
        "Jam plays the violin in a community orchestra on Thursdays"]
