"""One table of the words that name the user, read by every stage that reads them (D-386)."""

from __future__ import annotations

import pytest

from jamgate_core import fold, words
from jamgate_stages import _reported_thanks, _self_shapes, change, source_strictness
from jamgate_stages._user_words import OTHER_FORMS, SUBJECT, UNSPACED
from jamgate_stages.classifier.markers import marker_features

_SUBJECTS = sorted(w.replace("_", " ") for w in SUBJECT)


@pytest.mark.parametrize("word", _SUBJECTS + list(UNSPACED))
def test_every_subject_form_opens_a_note_for_every_reader(word: str) -> None:
    text = f"{word} lives in Porto"
    assert _reported_thanks.USER_OPENING.match(text)
    assert _self_shapes._USER_OPENING.match(text)
    assert change._USER_OPENING.match(text)
    assert change.holder_kind(text.capitalize()) == "self"


@pytest.mark.parametrize("word", sorted(SUBJECT | OTHER_FORMS) + list(UNSPACED))
def test_every_form_is_a_user_marker_and_a_person(word: str) -> None:
    text = f"Note: {word.replace('_', ' ')} prefers tea"
    assert "m:user" in marker_features(words(fold(text)))
    assert source_strictness._PERSON.search(text)
    assert _self_shapes._THIRD.search(text.lower())


@pytest.mark.parametrize("text", [
    "Der Anwender hat sich bedankt", "Die Anwenderin bedankte sich", "Usuari agradeció",
    "यूज़र ने धन्यवाद कहा", "Kullanici tesekkur etti", "Uzytkownik podziekowal",
    "Die Nutzerin hat sich bedankt", "Utilizatoarea a mulțumit", "ผู้ใช้กล่าวขอบคุณ",
])
def test_a_reported_thanks_in_languages_of_the_table(text: str) -> None:
    assert _reported_thanks.reported_thanks(text)


@pytest.mark.parametrize("text", [
    "The user's wife lives in Rome", "用户的女朋友是上海人", "ユーザーの妻は東京に住んでいる",
    "사용자의 남편은 부산에 산다",
])
def test_a_possessive_after_the_word_is_someone_else_for_the_holder(text: str) -> None:
    assert not change._USER_OPENING.match(text.lower())


@pytest.mark.parametrize("text", [
    "Bruker VS Code hver dag", "Nutzerprofil: Lukas, 33", "Wanneer is de volgende gebruikerstest",
])
def test_a_verb_or_a_compound_is_no_opening(text: str) -> None:
    assert not _reported_thanks.USER_OPENING.match(text.lower())
    assert not change._USER_OPENING.match(text.lower())
