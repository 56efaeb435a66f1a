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


@pytest.mark.parametrize(("text", "code"), [
    ("I am an AI language model and cannot browse the web.", "source.assistant_self"),
    ("As an assistant, I give better answers when you paste the whole error.",
     "source.assistant_self"),
    ("I (the assistant) tend to over-explain.", "source.assistant_self"),
    ("Self-knowledge: I tend to over-explain short questions.", "source.assistant_self"),
    ("My training data may not include the latest release.", "source.assistant_self"),
    ("Als KI-Modell habe ich keinen Zugriff auf deine Dateien.", "source.assistant_self"),
    ("Je suis un assistant IA et je n'ai pas d'opinions.", "source.assistant_self"),
    ("作为AI助手，我无法访问你的日历。", "source.assistant_self"),
    ("You prefer dark mode in every editor.", "source.second_person"),
    ("Based on your background, you might enjoy Elixir.", "source.second_person"),
    ("Du könntest die Tests öfter laufen lassen.", "source.second_person"),
    ("Você parece gostar de arquitetura limpa.", "source.second_person"),
    ("A 503 status code means the service is unavailable.", "source.general_knowledge"),
    ("Le swahili est une langue bantoue.", "source.general_knowledge"),
    ("Η Αθήνα είναι η πρωτεύουσα της Ελλάδας.", "source.general_knowledge"),
    ("HTTP 404 表示请求的资源不存在。", "source.general_knowledge"),
    ("Der Nutzer ist vermutlich Frontend-Entwickler.", "source.speculative"),
    ("用户可能对机器学习感兴趣。", "source.speculative"),
    ("Quizás la usuaria prefiera viajar sola.", "source.speculative"),
])
def test_agent_inferred_is_held_to_more(run: Any, text: str, code: str) -> None:
    assert run(text, source="agent-inferred").reason_code == code, text
    assert run(text, source="user-explicit").decision is None, text


@pytest.mark.parametrize("text", [
    "The user asked me to always answer in Greek.",
    "You are allowed to push to main in Jam's sandbox repo.",
    "You should always answer in Greek.", "User is a data scientist at a fintech in Warsaw.",
    "My phone is a Pixel 8.", "Caroline works as an assistant teacher.",
    "Das Kaufwerk-Repo ist ein Turborepo mit apps/web und apps/admin.",
])
def test_agent_notes_about_the_user_or_for_the_agent_pass(run: Any, text: str) -> None:
    assert run(text, source="agent-inferred").decision is None, text
