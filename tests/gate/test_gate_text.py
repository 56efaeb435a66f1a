"""The shared Unicode word splitter and text helpers."""

from __future__ import annotations

import pytest

from jamgate_core.text import fold, folded_words, sentences, words
from jamgate_stages._text import char_classes, entropy


def test_cjk_characters_are_one_token_each_and_latin_runs_stay_whole() -> None:
    assert words("ジャムはiPhone用") == ["ジ", "ャ", "ム", "は", "iPhone", "用"]
    assert words("我住在雅典") == ["我", "住", "在", "雅", "典"]


def test_korean_stays_whole_word() -> None:
    assert words("나는 서울에 살아요") == ["나는", "서울에", "살아요"]


def test_zwnj_separates_persian_but_marks_stay_inside_words() -> None:
    assert words("می\u200cکند") == ["می", "کند"]
    assert words("धन्यवाद मित्र") == ["धन्यवाद", "मित्र"]


def test_punctuation_apostrophes_and_symbols_split() -> None:
    assert words("that's n/a, ok!") == ["that", "s", "n", "a", "ok"]
    assert words("😀😀") == []


def test_decomposed_input_is_normalised_before_splitting() -> None:
    assert words("cafe\u0301") == ["café"]


def test_fold_strips_diacritics_and_casefolds() -> None:
    assert fold("Café Müller ﬁ") == "cafe muller fi"
    assert fold("Straße") == fold("STRASSE") == "strasse"
    assert folded_words("Ελληνικά ΚΑΦΈ") == ["ελληνικα", "καφε"]


def test_char_classes_and_entropy() -> None:
    assert char_classes("abc") == 1
    assert char_classes("aB1-") == 4
    assert entropy("aaaa") == 0.0
    assert entropy("abcd") == pytest.approx(2.0)


def test_sentences_ignore_decimals_and_abbreviations() -> None:
    assert sentences("Dr. Who is 3.5 m tall. He likes tea!") == [
        "Dr. Who is 3.5 m tall.", "He likes tea!",
    ]
    assert sentences("我住在雅典。我喜欢茶。") == ["我住在雅典。", "我喜欢茶。"]
    assert sentences("one\ntwo") == ["one", "two"]
