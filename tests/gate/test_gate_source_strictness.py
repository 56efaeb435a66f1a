"""Source strictness: agent-inferred general knowledge and guesses are refused."""

from __future__ import annotations

from typing import Any

import pytest

from jamgate_stages.source_strictness import SourceStrictnessStage


@pytest.fixture
def run(judge: Any) -> Any:
    return judge(SourceStrictnessStage())


@pytest.mark.parametrize("text", [
    "Water boils at 100 degrees", "Python is a programming language",
    "The capital of France is Paris.", "Mount Everest is the tallest mountain on Earth.",
    "HTTP 404 means not found.", "The Earth orbits the Sun.",
])
def test_general_knowledge_depends_on_source(run: Any, text: str) -> None:
    assert run(text, source="agent-inferred").reason_code == "source.general_knowledge"
    assert run(text, source="user-explicit").decision is None
    assert run(text, source="user-confirmed").decision is None


@pytest.mark.parametrize("text", [
    "Python is Jam's favourite language.", "Caroline is a transgender woman.",
    "Jamgate uses SQLite by default.", "Always run the tests before pushing.",
    "Jam moved to Berlin in May.", "Nate believes the trilogy is probably the best ever.",
])
def test_facts_about_people_and_work_pass(run: Any, text: str) -> None:
    assert run(text, source="agent-inferred").decision is None, text


def test_project_saves_are_exempt_from_general_knowledge(run: Any) -> None:
    assert run("Rust is a systems programming language.", type="project").decision is None


@pytest.mark.parametrize("text", [
    "User probably likes jazz.", "Jam might be a software developer at Google.",
    "It seems the user prefers Vim.", "I think the user is vegetarian.",
])
def test_guesses(run: Any, text: str) -> None:
    assert run(text, source="agent-inferred").reason_code == "source.speculative"
    assert run(text, source="user-explicit").decision is None


def test_strict_sources_are_configurable(judge: Any) -> None:
    stage = SourceStrictnessStage(
        SourceStrictnessStage.Options(strict_sources=["agent-inferred", "user-confirmed"])
    )
    assert judge(stage)("Water boils at 100 degrees", source="user-confirmed").decision
