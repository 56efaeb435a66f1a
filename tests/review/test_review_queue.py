"""The review queue: what the gate holds for the person, and `jamgate review --list`."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from jamgate_core.app import App, open_app
from jamgate_core.cli import main
from jamgate_core.models import SaveRequest
from jamgate_core.settings import load_settings
from jamgate_server.review.queue import pending


@pytest.fixture
def app(jamgate_home: Path) -> App:
    opened = open_app(load_settings())
    yield opened
    opened.close()


def conflict(app: App) -> tuple[str, str]:
    kept = app.save(SaveRequest(text="I live in Oslo", subject="home city",
                                source="user-explicit"))
    held = app.save(SaveRequest(text="The user lives in Lisbon", subject="home city",
                                source="agent-inferred"))
    assert held.decision == "conflict"
    return str(kept.id), held.notices[-1]


def test_a_conflict_is_held_with_its_verdict_the_other_memory_and_provenance(app: App) -> None:
    kept_id, notice = conflict(app)
    assert notice.startswith("Waiting for review: nothing is saved until the user settles it")
    [held] = pending(app)
    assert held.item.id in notice
    assert (held.kind, held.reason_code, held.touches) == ("conflict", "trust.conflict", kept_id)
    assert held.candidate["source"] == "agent-inferred" and held.text == "The user lives in Lisbon"
    assert [m.text for m in app.recall("Lisbon").memories] == []
    assert [m.text for m in app.list(status="all").memories] == ["I live in Oslo"]


def test_a_possible_duplicate_is_held(app: App) -> None:
    app.save(SaveRequest(text="jam prefers a dark theme in all of his code editors"))
    verdict = app.save(SaveRequest(text="jam prefers dark theme in all his code editors"))
    assert verdict.decision == "possible_duplicate", verdict
    [held] = pending(app)
    assert held.kind == "possible_duplicate" and held.touches == verdict.id


def test_refusals_credentials_and_checks_are_never_held(app: App) -> None:
    token = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
    secret = app.save(SaveRequest(text=f"my github token is {token}", source="user-explicit"))
    assert secret.decision == "rejected"
    assert app.save(SaveRequest(text="ok thanks")).decision == "rejected"
    app.save(SaveRequest(text="I live in Oslo", subject="home city", source="user-explicit"))
    app.check(SaveRequest(text="The user lives in Lisbon", subject="home city"))
    assert pending(app) == []


def test_expired_items_drop(jamgate_home: Path) -> None:
    app = open_app(load_settings(review_hold_days=0.00001))  # under a second
    try:
        conflict(app)
        time.sleep(1.2)
        assert pending(app) == []
    finally:
        app.close()


def test_review_list_on_the_command_line(app: App, capsys: pytest.CaptureFixture[str]) -> None:
    kept_id, _ = conflict(app)
    app.close()
    assert main(["review", "--list"]) == 0
    out = capsys.readouterr().out
    assert "conflict  trust.conflict" in out and "The user lives in Lisbon" in out
    assert f"other: I live in Oslo  [{kept_id}]" in out
    assert main(["review", "--list", "--json"]) == 0
    [item] = json.loads(capsys.readouterr().out)
    assert item["touches"] == kept_id and item["source"] == "agent-inferred"


def test_an_unsure_keep_is_held_and_a_redacted_one_never() -> None:
    from jamgate_core.models import Verdict
    from jamgate_server.review.queue import held_kind

    unsure = Verdict(decision="saved", reason_code="gate.accepted", message="Saved",
                     notices=["Unsure: the gate could not tell"])
    assert held_kind(unsure, False, "mcp") == "unsure"
    assert held_kind(unsure, True, "mcp") is None
    assert held_kind(unsure, False, "import") is None
    sure = Verdict(decision="saved", reason_code="gate.accepted", message="Saved")
    assert held_kind(sure, False, "mcp") is None
