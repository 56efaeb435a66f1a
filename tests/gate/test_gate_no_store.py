"""Stateless stages never touch the store or the embedder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jamgate_commands.bench_gate import candidate_for, load_corpus, stateless_stages
from jamgate_core.models import utcnow
from jamgate_core.pipeline import StageContext
from jamgate_core.settings import Settings

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


class Forbidden:
    """Raises on any attribute access."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"a stateless stage touched {name!r}")


class ForeignEmbedder(Forbidden):
    """An embedder the classifier has no weights for (a remote one, say): its model id may be
    read, nothing may be embedded."""

    model_id = "some-remote-model"


def test_no_stage_reads_the_view_or_embeds() -> None:
    """Only the classifier may embed, and only with the local model its weights were trained
    on; credentials are refused before it runs."""
    ctx = StageContext(view=Forbidden(), settings=Settings(), embedder=ForeignEmbedder(),  # type: ignore[arg-type]
                       now=utcnow())
    stages = stateless_stages()
    for case in load_corpus(CORPUS):
        candidate = candidate_for(case)
        for stage in stages:
            try:
                result = stage.evaluate(candidate, ctx)
            except AssertionError:
                raise
            except Exception as exc:  # validation may refuse by raising; nothing else may
                assert stage.name == "validation", f"{stage.name}: {exc}"
                break
            if result.decision is not None:
                break
            if result.updates:
                candidate = candidate.model_copy(update=result.updates)


@pytest.mark.parametrize("stage", stateless_stages(), ids=lambda s: s.name)
def test_stages_declare_no_requirements(stage: Any) -> None:
    assert stage.requires == frozenset()
