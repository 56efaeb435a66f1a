"""Fixtures for the stateless gate stages: judge one text with one stage, no store."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from jamgate_commands.bench_gate import offline_context
from jamgate_core.app import App
from jamgate_core.models import Candidate, StageResult, canonical_subject, new_id, utcnow
from jamgate_core.settings import Settings

Judge = Callable[..., StageResult]


def make_candidate(text: str, **fields: Any) -> Candidate:
    subject = canonical_subject(fields.pop("subject", None))
    return Candidate(
        id=new_id(), text=text, raw_length=len(text), created_at=utcnow(), subject=subject,
        subject_given=subject is not None, **fields,
    )


@pytest.fixture
def judge() -> Callable[[Any], Judge]:
    """`judge(stage)(text, type=..., source=...)` → the stage's StageResult."""
    def bind(stage: Any) -> Judge:
        def run(text: str, **fields: Any) -> StageResult:
            return stage.evaluate(make_candidate(text, **fields), offline_context())  # type: ignore[no-any-return]
        return run
    return bind


@pytest.fixture
def app(tmp_path: Path) -> Iterator[App]:
    """A whole app without an embedder on a fresh home (the stateful stages' tests; a test
    module may define its own)."""
    with App(Settings(home=tmp_path, embedder="none")) as started:
        yield started
