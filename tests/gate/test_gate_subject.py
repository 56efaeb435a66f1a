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
    ("her car was red", None),  # whose car is unclear: no longer the user's `car` (D-429)
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
def test_derived_subjects(text: str, subject: str | None) -> None:
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
    "My favourite colour is blue. It always was.",  # copula only for one sentence
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


@pytest.mark.parametrize(("text", "subject"), [
    # Whose fact it is (D-117): the person's own, or someone else's, named in the subject.
    ("My friend Anna lives in Oslo", "friend-anna-location"),
    ("My friend Bob lives in Lima", "friend-bob-location"),
    ("my sister Leda lives in Lyon", "sister-leda-location"),
    ("Kenji (my manager) lives in Tokyo", "kenji-location"),
    ("Jam's mother lives in Athens", "jam-mother-location"),
    ("Mi amiga Ana vive en Madrid", "friend-ana-location"),
    ("Mon amie Anna habite à Oslo", "friend-anna-location"),
    ("Meine Schwester Leda wohnt in Lyon", "sister-leda-location"),
    ("La mia amica Anna vive a Oslo", "friend-anna-location"),
    ("A minha irmã mora em Lisboa", "sister-location"),
    ("Η αδερφή μου η Λήδα μένει στη Λυών", "sister-ληδα-location"),
    ("Der Vater des Nutzers lebt in Linz", "father-location"),
    ("La mamma di Jam vive a Roma", "jam-mother-location"),
    # The person's own updates (D-118), in seven languages.
    ("I moved to Thessaloniki in May", "location"),
    ("I'm now based in Lisbon", "location"),
    ("I now work at Initech", "employer"),
    ("I started working at Acme", "employer"),
    ("I work for a small startup", "employer"),
    ("I switched to Fedora", "operating-system"),
    ("I switched to Neovim", "editor"),
    ("I moved to Rust", "programming-language"),
    ("Ich bin nach Berlin gezogen", "location"),
    ("Jetzt wohne ich in Berlin", "location"),
    ("Ich arbeite jetzt bei Siemens", "employer"),
    ("Ich wohne nicht mehr in Graz", "location"),
    ("J'ai déménagé à Lyon en mai", "location"),
    ("Je travaille maintenant chez Airbus", "employer"),
    ("Me mudé a Valencia", "location"),
    ("Empecé a trabajar en Globant", "employer"),
    ("Mi sono trasferita a Milano", "location"),
    ("Lavoro per Fiat", "employer"),
    ("Me mudei para o Porto", "location"),
    ("Trabalho na Google", "employer"),
    ("Μετακόμισα στη Θεσσαλονίκη τον Μάιο", "location"),
    ("Δουλεύω στην Intrakom", "employer"),
    ("El usuario vive en Lima", "location"),
    ("Ο χρήστης μένει στην Αθήνα", "location"),
])
def test_holders_and_updates(text: str, subject: str) -> None:
    assert derive_subject(text) == subject


@pytest.mark.parametrize("text", [
    "My friend Anna is a nurse",  # a named relation alone: which attribute?
    "My friend Anna's husband lives in Oslo",  # whose fact is unclear
    "I moved to the backend team",  # an update verb needs a place's name
    "That works for me",  # a thing has no employer
    "Trabajo en un proyecto nuevo",  # "trabajo en" needs a workplace's name
    "I worked at Acme from 2019 to 2023",  # the past (D-119)
    "I used to live in Lima",
    "Früher wohnte ich in Graz",
    "Δούλευα στην Intrakom από το 2010 έως το 2015",
    "Nutzerprofil: Lukas, 33, wohnt in Wien",  # a label, not a holder
    "Μετάφρασε αυτό το email στα αγγλικά.",  # beyond ASCII a name needs its verb
    "No vivo en Lima",
])
def test_declines_whose_fact_or_which_slot_is_unclear(text: str) -> None:
    assert derive_subject(text) is None


def test_a_text_without_letters_derives_no_subject_and_does_not_fail() -> None:
    from jamgate_stages.subject import derive_subject

    assert derive_subject("+30 210 1234567", 64) is None
