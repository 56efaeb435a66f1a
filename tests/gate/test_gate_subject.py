"""Subject derivation: conservative, never overrides a caller's subject (§2.4, §14.2)."""

from __future__ import annotations

from typing import Any

import pytest

from jamgate_stages.subject import SubjectStage, derive_subject


@pytest.mark.parametrize(("text", "subject"), [
    ("I live in Athens", "location"),
    ("my os is linux", "operating-system"),
    ("My email is jam@example.org", "email"),
    ("I'm in utc+2", "timezone"),
    ("My name is Jam", "name"),
    ("I code in Python", "programming-language"),
    ("I'm working on Jamgate", "current-project"),
    ("the sky is blue", "sky"),
    ("her car was red", "car"),
    ("my favorite color is blue", "favorite-color"),
    ("my sister lives in Berlin", "sister-location"),
    ("Jam's sister lives in Berlin", "jam-sister-location"),
    ("jam's dog is called Rex", "jam-dog-name"),
    ("My dog is named Rex", "dog-name"),
    ("my dog's name is Rex", "dog-name"),
    ("Caroline lives in Sweden", "caroline-location"),
    ("jam is in utc+2", "jam-timezone"),
    ("The office is located in Athens", "office-location"),
    ("I no longer live in Athens", "location"),
])
def test_derived_subjects(text: str, subject: str) -> None:
    assert derive_subject(text) == subject


@pytest.mark.parametrize("text", [
    "jam's ex is nice",  # two-letter phrase
    "I live in Athens and code in Python",  # two rules
    "I don't use Windows",  # negation
    "My sister is a doctor",  # which attribute of the sister?
    "Nate has a dog named Max",
    "During her trip, Maria met a woman named Jean.",
    "Jon is learning new dance routines",
    "Ο Τζαμ μένει στην Αθήνα jam@example.org",  # non-Latin opening
    "I moved to Berlin in May. The job is there.",  # copula only for one sentence
])
def test_declines(text: str) -> None:
    assert derive_subject(text) is None


def test_length_boundary_is_inclusive() -> None:
    base = "I live in Athens "
    exactly = (base * 30)[:300]
    assert len(exactly) == 300 and derive_subject(exactly) == "location"
    assert derive_subject(exactly + "x") is None


def test_names_can_be_left_unprefixed() -> None:
    assert derive_subject("Caroline lives in Sweden", prefix_names=False) == "location"
    assert derive_subject("my sister lives in Berlin", prefix_names=False) == "sister-location"


def test_stage_updates_only_subjectless_saves(judge: Any) -> None:
    run = judge(SubjectStage())
    assert run("I live in Athens").updates == {"subject": "location"}
    assert run("I live in Athens", subject="home.city").updates == {}
    assert run("Jam went hiking").updates == {}
    short = judge(SubjectStage(SubjectStage.Options(max_length=10)))
    assert short("I live in Athens").updates == {}
