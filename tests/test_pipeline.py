"""The gate's pipeline over a real store: order, short-circuit, error policy, dry run,
optimistic writes re-judged when the store changes underneath, and the stateful stages."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any, ClassVar

import pytest
from pydantic import BaseModel

from jamgate_core.app import App, open_app
from jamgate_core.contracts import Preconditions, WritePlan
from jamgate_core.hookspecs import hookimpl
from jamgate_core.models import Candidate, SaveRequest, StageResult, utcnow
from jamgate_core.pipeline import ConfiguredStage, StageContext
from jamgate_core.settings import load_settings


@pytest.fixture(params=["memory", "sqlite"])
def app(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[App]:
    monkeypatch.setenv("JAMGATE_STORE", request.param)
    application = open_app(load_settings())
    yield application
    application.close()


def save(app: App, text: str, **kwargs: Any) -> Any:
    return app.save(SaveRequest(text=text, **kwargs))


class Boom:
    """A stage that always raises."""

    name: ClassVar[str] = "boom"
    requires: ClassVar[frozenset[str]] = frozenset()

    class Options(BaseModel):
        pass

    def evaluate(self, candidate: Candidate, ctx: StageContext) -> StageResult:
        raise RuntimeError("kaput")


class Recorder:
    """A stage that records what it saw and passes."""

    name: ClassVar[str] = "recorder"
    requires: ClassVar[frozenset[str]] = frozenset()

    class Options(BaseModel):
        pass

    def __init__(self) -> None:
        self.seen: list[str] = []

    def evaluate(self, candidate: Candidate, ctx: StageContext) -> StageResult:
        self.seen.append(candidate.text)
        return StageResult.passed()


def test_first_terminal_decision_short_circuits(app: App) -> None:
    recorder = Recorder()
    app.pipeline.stages.append(ConfiguredStage(recorder, "recorder"))
    assert save(app, "hi").reason_code == "prefilter.too_short"
    assert recorder.seen == []
    assert save(app, "Jam lives in Athens").decision == "saved"
    assert recorder.seen == ["Jam lives in Athens"]


def test_a_failing_stage_fails_closed_by_default_and_open_when_configured(app: App) -> None:
    app.pipeline.stages.insert(0, ConfiguredStage(Boom(), "boom"))
    verdict = save(app, "Jam lives in Athens")
    assert (verdict.decision, verdict.reason_code) == ("rejected", "stage_error.boom")
    assert app.list().memories == []
    app.pipeline.stages[0] = ConfiguredStage(Boom(), "boom", on_error="fail_open")
    verdict = save(app, "Jam lives in Athens")
    assert verdict.decision == "saved"
    assert any("boom stage failed" in notice for notice in verdict.notices)


def test_check_is_the_same_verdict_and_writes_nothing(app: App) -> None:
    first = save(app, "Jam lives in Athens", subject="location")
    checked = app.check(SaveRequest(text="Jam lives in Berlin", subject="location"))
    assert checked.decision == "superseded" and checked.superseded_ids == [first.id]
    assert [m.id for m in app.list().memories] == [first.id]
    assert app.check(SaveRequest(text="jam lives in athens")).decision == "duplicate"


def test_source_upgrade_on_a_more_trusted_restatement(app: App) -> None:
    first = save(app, "Jam lives in Athens")
    verdict = save(app, "Jam lives in Athens", source="user-explicit")
    assert (verdict.decision, verdict.reason_code) == ("duplicate", "dedup.exact.source_upgraded")
    assert verdict.id == first.id
    record = app.store.get("default", first.id)
    assert record is not None and record.source == "user-explicit"
    again = save(app, "Jam lives in Athens", source="user-confirmed")
    assert again.reason_code == "dedup.exact"


def test_an_older_fact_is_stored_as_history_and_retires_nothing(app: App) -> None:
    current = save(app, "Jam lives in Berlin", subject="location")
    older = app.save(SaveRequest(text="Jam lives in Athens", subject="location",
                                 created_at=utcnow() - timedelta(days=400)), origin="import")
    assert (older.decision, older.reason_code) == ("saved", "supersede.history")
    assert older.superseded_ids == []
    assert [m.id for m in app.recall("lives").memories] == [current.id]
    history = app.list(status="superseded").memories
    assert [m.id for m in history] == [older.id]


def test_expired_records_never_block_and_are_revived(app: App,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    app.settings.ttl_state_days = "0"
    stale = save(app, "Jam is travelling in Crete", type="state", subject="whereabouts")
    assert app.recall("crete").memories == []
    revived = save(app, "Jam is travelling in Crete", type="project")
    assert revived.decision == "superseded" and revived.superseded_ids == [stale.id]
    assert revived.reason_code == "ttl.revived"
    other = save(app, "Jam is on a ship", type="state", subject="whereabouts",
                 source="agent-inferred")
    assert other.decision == "saved"  # the expired user record on the subject never blocks


def test_short_lifespan_notice_for_a_person_s_own_words(app: App) -> None:
    verdict = save(app, "Jam is at the dentist this afternoon", type="state",
                   source="user-explicit")
    assert verdict.notices and "expires on" in verdict.notices[0]
    assert save(app, "Jam is debugging the parser today", type="state").notices == []


class RaceOnce:
    """A stage-run wrapper that, once, lets another writer take the subject mid-decision."""

    def __init__(self, app: App) -> None:
        self.app, self.fired = app, 0

    @hookimpl(wrapper=True)
    def jamgate_run_stage(self, stage: Any, candidate: Candidate, ctx: StageContext) -> Any:
        result = yield
        if stage.name == "supersede" and not self.fired and not ctx.dry_run:
            self.fired += 1
            rival = Candidate(id="rival-0000-0000", text="Jam lives in Paris", raw_length=18,
                              subject="location", created_at=utcnow()).to_record()
            self.app.store.write(WritePlan(scope="default", now=utcnow(), insert=rival),
                                 Preconditions(scope="default"))
        return result


def test_a_changed_snapshot_is_judged_again(app: App) -> None:
    race = RaceOnce(app)
    app.pm.register(race)
    verdict = save(app, "Jam lives in Lisbon", subject="location")
    assert race.fired == 1
    assert verdict.decision == "superseded" and verdict.superseded_ids == ["rival-0000-0000"]
    active = [m for m in app.list().memories if m.subject == "location"]
    assert [m.text for m in active] == ["Jam lives in Lisbon"]
