"""The compact word tables (D-235) answer as the sets and dicts they replace did."""

from __future__ import annotations

from pathlib import Path

import pytest

from jamgate_core import fold, words
from jamgate_stages._word_table import WordTable

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "gate2"


def corpus_words() -> set[str]:
    found: set[str] = set()
    for path in sorted(CORPUS.glob("*.jsonl"))[:4]:
        found.update(words(fold(path.read_text(encoding="utf-8")[:400_000])))
    return found


def test_a_table_holds_its_words_and_values() -> None:
    table = WordTable([("abandon", 1), ("ability", 1), ("ábaco", 8), ("ability", 2)])
    assert table.get("ability") == 3 and table.get("ábaco") == 8 and table.get("able") == 0
    assert table.get("able", -1) == -1 and "abandon" in table and "able" not in table
    assert 1 not in table and len(table) == 3 and table
    assert not WordTable([]) and len(WordTable(["a", "a", "b"])) == 2
    # str hashes read a string's internal bytes: "of" (one byte a character) and "景" (two)
    # would collide; the table hashes UTF-8
    assert "景" not in WordTable(["of"]) and "\ud800" not in WordTable(["of"])


def test_the_name_table_answers_as_the_set_of_names() -> None:
    from jamgate_stages.classifier.markers import _known_names, first_names, marker_words

    names, table = first_names(), _known_names()
    assert len(table) == len(names) and all(name in table for name in names)
    others = (corpus_words() | marker_words()) - names
    assert len(others) > 5_000
    assert not any(word in table for word in others)


def test_the_seed_wordlists_answer_as_the_dict_of_masks() -> None:
    pytest.importorskip("mnemonic")
    from jamgate_stages._seed_phrase import read_wordlists, wordlists

    masks, latin = read_wordlists()
    table, same_latin = wordlists()
    assert same_latin == latin and len(table) == len(masks) > 20_000
    assert all(table.get(word) == mask for word, mask in masks.items())
    others = corpus_words() - set(masks)
    assert len(others) > 5_000
    assert not any(table.get(word) for word in others)
