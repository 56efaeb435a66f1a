"""A change that names what it replaces retires the fact holding it (D-302), and only ever the
person's own (D-303).

Written from the definition of an update (D-015) and the frames that name the old side of a
change: "from X to Y" beside a verb of changing or moving, a verb of replacing and its object
("replaced X with Y"), "instead of X", and the CJK and Korean frames (把X换成Y, X에서 Y로 바꿨어요).
The pairs share few words beside the named thing, so word overlap alone would not find them.
"""

from __future__ import annotations

import pytest
from gate_saves import save

from jamgate_core.app import App
from jamgate_stages._replaced_names import holds_all, replaced_terms
from jamgate_stages.change import holder_kind


def active(app: App) -> set[str]:
    return {m.text for m in app.list().memories}


# (the old fact, the change that names it)
NAMED = [
    ("I take notes in OneNote", "I ditched OneNote for Logseq"),
    ("Our database is MongoDB", "We moved everything from MongoDB to Postgres"),
    ("Ma voiture est une Renault Clio", "J'ai remplacé ma Clio par une Peugeot 208"),
    ("Mi cafetera es una Nespresso", "Cambié la Nespresso por una moka italiana"),
    ("Mein Mailprogramm ist Thunderbird", "Ich bin von Thunderbird auf Outlook umgestiegen"),
    ("Ik gebruik Spotify", "Ik ben van Spotify naar Deezer overgestapt"),
    ("我用的是三星手机。", "我把三星手机换成了苹果。"),
    ("카카오톡을 써요.", "카카오톡에서 라인으로 바꿨어요."),
]
# (a fact, a later save that names something in it but replaces nothing of the person's)
STANDS = [
    ("My sister uses Spotify", "I switched from Spotify to Deezer"),  # the sister's
    ("I use Spotify", "I'd like to switch from Spotify to Deezer"),  # a wish
    ("I drive a Toyota", "My dad replaced his Toyota with a Honda"),  # the father's change
    ("I have yoga on Mondays", "I moved the meeting from Monday to Friday"),  # a range, passing
    # a relation, opening with a word that is a first person elsewhere (Polish "my")
    ("My brother drinks coffee every morning",
     "I now drink tea every morning instead of coffee"),
]


@pytest.mark.parametrize(("old", "new"), NAMED)
def test_a_change_that_names_the_old_thing_retires_it(app: App, old: str, new: str) -> None:
    before = save(app, old)
    after = save(app, new)
    assert (after.decision, after.superseded_ids) == ("superseded", [before.id]), after.message
    assert active(app) == {new}


@pytest.mark.parametrize(("old", "new"), NAMED)
def test_the_named_thing_is_read(old: str, new: str) -> None:
    terms = replaced_terms(new)
    assert terms and holds_all(old, terms)


@pytest.mark.parametrize(("old", "new"), STANDS)
def test_someone_else_s_fact_a_wish_or_a_range_is_left(app: App, old: str, new: str) -> None:
    save(app, old)
    after = save(app, new)
    assert after.superseded_ids == [], after.message
    assert old in active(app)


@pytest.mark.parametrize("text", [
    "I now work from Monday to Friday", "Vivo de lunes a viernes en Madrid",
    "I drove from Paris to Lyon",
])
def test_a_range_names_nothing_replaced(text: str) -> None:
    assert replaced_terms(text) == ()


@pytest.mark.parametrize(("text", "kind"), [
    ("My brother drinks coffee every morning", "other"),
    ("Mi hermana vive en Sevilla", "other"),
    ("Ik werk bij ING in Amsterdam", "self"),
    ("My favourite drink is tea", "self"),
])
def test_whose_fact_the_change_stage_reads(text: str, kind: str) -> None:
    assert holder_kind(text) == kind


# Greek puts the possessive after the noun: "Το αγαπημένο μου …" is the person's own (D-305).
@pytest.mark.parametrize(("text", "kind"), [
    ("Το αγαπημένο μου βιβλίο είναι η Οδύσσεια", "self"),
    ("Το σπίτι της Μαρίας είναι μεγάλο", "thing"),
    ("Η αδερφή μου πίνει καφέ κάθε πρωί", "other"),
])
def test_a_greek_possessive_after_the_noun_is_the_person_s(text: str, kind: str) -> None:
    from jamgate_stages.subject import holder

    assert holder(text)[0] == kind


# (an old fact, its update) where the update names the slot as the person's "new" one (D-306)
RENEWED = [
    ("Το αγαπημένο μου άθλημα είναι το τένις", "Το αγαπημένο μου άθλημα τώρα είναι το μπάσκετ"),
    ("Mijn fiets is een Gazelle", "Mijn nieuwe fiets is een Cortina"),
    ("Mon vélo est un Peugeot", "Mon nouveau vélo est un Btwin"),
    ("मेरी कार मारुति है।", "मेरी नई कार टाटा है।"),
    ("我的手机是华为。", "我的新手机是小米。"),
]
RENEWED_STANDS = [
    ("Η αδερφή μου πίνει καφέ κάθε πρωί", "Τώρα πίνω τσάι κάθε πρωί"),  # the sister's
    ("Mijn broer heeft een fiets", "Mijn nieuwe buurman heeft een fiets"),  # another relation
]


@pytest.mark.parametrize(("old", "new"), RENEWED)
def test_the_person_s_new_thing_replaces_the_old_one(app: App, old: str, new: str) -> None:
    before = save(app, old)
    after = save(app, new)
    assert (after.decision, after.superseded_ids) == ("superseded", [before.id]), after.message


@pytest.mark.parametrize(("old", "new"), RENEWED_STANDS)
def test_someone_else_s_new_thing_replaces_nothing_of_the_person_s(app: App, old: str,
                                                                   new: str) -> None:
    save(app, old)
    assert save(app, new).superseded_ids == []
    assert old in active(app)


@pytest.mark.parametrize("text", ["A new study says coffee is good",
                                  "La nueva ley entra en vigor", "New York is my city"])
def test_a_new_thing_of_no_one_declares_no_change(text: str) -> None:
    from jamgate_stages.change_words import declares_change

    assert not declares_change(text)


# "No longer X" replaces X whatever it adds beside, and names what ceased (D-307).
CEASED = [
    ("I play squash with my colleagues on Fridays", "I no longer play squash, my knee hurts"),
    ("我每天晚上看电视。", "我不再看电视了，现在每天晚上看书。"),
    ("मैं मांस खाता हूँ।", "अब मैं मांस नहीं खाता हूँ, मैं सब्ज़ियाँ भी खाता हूँ।"),
]
CEASED_STANDS = [
    ("I play squash on Fridays", "My sister no longer plays squash"),  # the sister's
    ("Juego al pádel los sábados", "Ya no juego al fútbol, pero sigo nadando"),  # another sport
]


@pytest.mark.parametrize(("old", "new"), CEASED)
def test_what_ceased_is_retired_whatever_is_added(app: App, old: str, new: str) -> None:
    before = save(app, old)
    after = save(app, new)
    assert (after.decision, after.superseded_ids) == ("superseded", [before.id]), after.message


@pytest.mark.parametrize(("old", "new"), CEASED_STANDS)
def test_a_cessation_of_someone_else_or_of_something_else_leaves_it(app: App, old: str,
                                                                   new: str) -> None:
    save(app, old)
    assert save(app, new).superseded_ids == []
    assert old in active(app)
