"""Home and work said whole in eight more languages, and with a time before the verb (D-350).

Written from the definition of an update (D-015: same slot, same holder, new value) and of what
is not one (another person's fact, a wish, the past, a negation). One replacement and one fact
left standing for each language's rule; the slot phrase itself is checked on single texts.
"""

from __future__ import annotations

import pytest
from gate_saves import save

from jamgate_core.app import App
from jamgate_stages._slot_phrases import slot_phrase

# (a home or job, a later save that replaces it)
REPLACED = [
    ("أسكن في عمّان.", "انتقلت إلى الزرقاء."),  # ar, pro-drop
    ("أعمل محاسبًا في شركة زين.", "تركت زين وانضممت إلى أورنج."),  # ar, a role before "in"
    ("אני גרה בנתניה.", "עברתי לחולון."),  # he
    ("אני עובד בוויקס.", "אני עובד עכשיו במאנדיי."),  # he
    ("در کرج زندگی می‌کنم.", "اخیراً به رشت نقل مکان کردم."),  # fa
    ("در همکاران سیستم کار می‌کنم.", "اخیراً در کافه‌بازار کار می‌کنم."),  # fa, ZWNJ in names
    ("मैं इंदौर में रहती हूँ।", "इस साल मैं भोपाल शिफ्ट हो गई।"),  # hi
    ("मैं एचसीएल में काम करती हूँ।", "अब मैं विप्रो में नौकरी करती हूँ।"),  # hi
    ("Jag bor i Västerås.", "Vi har flyttat till Örebro."),  # sv
    ("Jag jobbar på Volvo.", "Numera jobbar jag på Scania."),  # sv, inverted
    ("Saya tinggal di Semarang.", "Sejak Maret saya pindah ke Solo."),  # id
    ("Aku kerja di Bukalapak.", "Sekarang aku kerja di Traveloka."),  # id
    ("Ninaishi Arusha.", "Nimehamia Moshi."),  # sw
    ("Ninafanya kazi Airtel.", "Sasa ninafanya kazi Vodacom."),  # sw
    ("Tôi sống ở Huế.", "Tôi vừa chuyển ra Đà Nẵng tháng trước."),  # vi
    ("Tôi làm việc ở Tiki.", "Bây giờ tôi làm ở Shopee."),  # vi
    ("Mtumiaji anaishi Mwanza.", "Mtumiaji amehamia Dodoma."),  # sw, the agent's note
    ("Живу в Туле.", "С осени живу в Калуге."),  # ru, pro-drop and "since"
    ("Работаю в Сбере.", "Перешёл из Сбера в Авито."),  # ru, from X to Y
    ("Pracuję w Orlenie.", "Przeszłam z Orlenu do Allegro."),  # pl
    ("Bursa'da yaşıyorum.", "Geçen yıl Antalya'ya taşındım."),  # tr, a time first
    ("福岡に住んでいます。", "今年、広島に引っ越しました。"),  # ja, a time first
    ("楽天で営業として働いています。", "今はLINEで働いています。"),  # ja, a role
    ("我住在成都。", "去年搬到了重庆。"),  # zh, pro-drop and a time
    ("광주에 살아요.", "작년에 대구로 이사했어요."),  # ko, a time first
]
# (a home or job, a later save that leaves it standing)
STANDS = [
    ("أسكن في عمّان.", "أختي تسكن في الزرقاء."),  # a sister's
    ("אני גרה בנתניה.", "אחי גר בחולון."),  # a brother's
    ("در کرج زندگی می‌کنم.", "خواهرم در رشت زندگی می‌کند."),  # a sister's
    ("मैं इंदौर में रहती हूँ।", "मेरी बहन भोपाल में रहती है।"),  # a sister's
    ("मैं इंदौर में रहती हूँ।", "मेरा भाई भोपाल शिफ्ट हो गया।"),  # a brother's move
    ("Jag bor i Västerås.", "Min syster bor i Örebro."),  # a sister's
    ("Saya tinggal di Semarang.", "Adik saya tinggal di Solo."),  # a sibling's
    ("Ninaishi Arusha.", "Dada yangu anaishi Moshi."),  # a sister's
    ("Tôi sống ở Huế.", "Tôi muốn chuyển ra Đà Nẵng."),  # a wish
    ("Работаю в Сбере.", "Брат перешёл из Сбера в Авито."),  # a brother's
    ("Работаю в Сбере.", "Перешёл из бэкенда во фронтенд."),  # a team, not an employer
]


@pytest.mark.parametrize(("old", "new"), REPLACED)
def test_a_new_home_or_job_retires_the_old_one(app: App, old: str, new: str) -> None:
    before = save(app, old)
    after = save(app, new)
    assert (after.decision, after.superseded_ids) == ("superseded", [before.id]), after.message


@pytest.mark.parametrize(("old", "new"), STANDS)
def test_someone_else_a_wish_or_another_slot_leaves_it(app: App, old: str, new: str) -> None:
    before = save(app, old)
    after = save(app, new)
    assert before.decision == "saved" and after.superseded_ids == [], after.message


@pytest.mark.parametrize("text", [new for _, new in STANDS] + [
    "تسكن في جدة.",  # "she lives" / "you live": not the person
    "Anaishi Nairobi.",  # "he/she lives"
    "Jag bor inte i Malmö.",  # a negation
    "Saya tidak tinggal di Bandung.",
    "वे पुणे में रहते हैं।",  # "they live"
    "Od 2015 do 2019 roku pracowałem w Asseco.",  # the past
])
def test_not_the_persons_present_home_or_job(text: str) -> None:
    assert slot_phrase(text) is None


def test_a_bare_now_before_a_home_or_job_is_its_change_not_passing_state(app: App) -> None:
    """D-351: the junk rule read Persian "الان" (now) as "right now" and refused the update."""
    from jamgate_stages.junk import is_transient

    before = save(app, "در علی‌بابا کار می‌کنم.")
    after = save(app, "الان در تپسی کار می‌کنم.")
    assert (after.decision, after.superseded_ids) == ("superseded", [before.id]), after.message
    assert is_transient("الان در جلسه هستم.")  # "I'm in a meeting now": still passing state
    assert is_transient("الان خیلی خسته‌ام.")


@pytest.mark.parametrize(("text", "subject"), [
    ("Since June I've been living in Leeds.", "location"),
    ("Last month I moved to Porto.", "location"),
    ("In May I started working at Stripe.", "employer"),
    ("Since June my brother has been living in Leeds.", "brother-location"),  # his, prefixed
    ("When I travel I live in hotels.", None),  # a condition, not a time: still unread
])
def test_a_time_before_the_holder_is_read_past(text: str, subject: str | None) -> None:
    """D-356: "Since March I've been living in …" had no holder, so no subject."""
    from jamgate_stages.subject import derive_subject

    assert derive_subject(text) == subject


@pytest.mark.parametrize(("text", "subject"), [
    ("Actually I live in Porto.", "location"),
    ("Honestly, I work at Siemens.", "employer"),
    ("Eigentlich wohne ich in Graz.", "location"),
    ("Finalement j'habite à Lyon.", "location"),
    ("Depuis mai j'habite à Lyon.", "location"),  # an elision after a time, joined again
    ("Honestly my sister lives in Oslo.", "sister-location"),
    ("Kowalczyk works at Siemens.", "kowalczyk-employer"),  # no person follows: a name
    ("Ana and I live in Oslo.", "ana-location"),  # a known first name stays the holder
])
def test_an_opening_word_before_the_person_is_no_holder(text: str, subject: str | None) -> None:
    """D-401: any capitalised opening word was read as another person's name, so "Actually I
    live in Porto" had the subject `actually-location` and retired nothing."""
    from jamgate_stages.subject import derive_subject

    assert derive_subject(text) == subject


@pytest.mark.parametrize(("text", "subject"), [
    ("The user's employer is Bosch.", "employer"),
    ("The user's dog is called Rex.", "dog-name"),
    ("The user's favourite tea is sencha.", "favourite-tea"),
    ("The user's sister is a doctor.", None),  # which attribute of hers: unknown, as "my sister"
    ("The user’s sister lives in Oslo.", "sister-location"),  # was `user’s-location`
    ("The user’s employer is Bosch.", "employer"),
])
def test_the_users_slot_reads_as_my_slot(text: str, subject: str | None) -> None:
    """D-403: "The user's employer is Bosch", an agent's note, had no subject, so "The user
    now works at Siemens" retired nothing."""
    from jamgate_stages.subject import derive_subject

    assert derive_subject(text) == subject


def test_the_users_employer_is_updated(app: App) -> None:
    before = save(app, "The user's employer is Bosch.")
    after = save(app, "The user now works at Siemens.")
    assert (after.decision, after.superseded_ids) == ("superseded", [before.id]), after.message


def test_an_update_after_an_opening_word_retires_the_old_home(app: App) -> None:
    before = save(app, "I live in Bristol.")
    after = save(app, "Actually, I live in Leeds now.")
    assert (after.decision, after.superseded_ids) == ("superseded", [before.id]), after.message


def test_a_move_said_after_a_time_retires_the_old_home(app: App) -> None:
    before = save(app, "I live in Bristol.")
    after = save(app, "Since June I've been living in Leeds.")
    assert (after.decision, after.superseded_ids) == ("superseded", [before.id]), after.message


@pytest.mark.parametrize(("text", "subject"), [
    ("Todavía vivo en Salamanca.", "location"),
    ("Sinceramente trabajo en Repsol.", "employer"),
    ("Ainda moro em Coimbra.", "location"),
    ("Comunque abito a Bergamo.", "location"),
    ("Πάντα μένω στη Λάρισα.", "location"),
    ("Tatsächlich wohne ich in Kassel.", "location"),  # a person follows: D-401's reading
    ("Xiomara vive en Cusco.", "xiomara-location"),  # a third person's verb: a name
    ("Bruno trabaja en Repsol.", "bruno-employer"),
])
def test_an_opening_adverb_before_a_first_persons_verb_is_no_holder(
        text: str, subject: str | None) -> None:
    """D-419: in a pro-drop language the verb names the person ("vivo" is "I live"); the word
    before it was read as someone's name, so "Todavía vivo en …" had `todavia-location`."""
    from jamgate_stages.subject import derive_subject

    assert derive_subject(text) == subject


def test_a_pro_drop_move_after_an_adverb_retires_the_old_home(app: App) -> None:
    before = save(app, "Vivo en Salamanca.")
    after = save(app, "Finalmente vivo en Valladolid.")
    assert (after.decision, after.superseded_ids) == ("superseded", [before.id]), after.message


@pytest.mark.parametrize(("text", "subject"), [
    ("The user is called Alex.", "name"),  # was `user-name`
    ("User is called Alex.", "name"),  # was none
    ("The user is named Alex Moreau.", "name"),
    ("User is named after her grandmother.", None),  # whom she is named after: no name
    ("User was called Sasha as a child.", None),  # the past
    ("The user's dog is called Rex.", "dog-name"),
])
def test_the_user_called_reads_as_my_name(text: str, subject: str | None) -> None:
    """D-428: "The user is called Alex" had the subject `user-name`, which "User's name is
    Alex" (`name`) never met."""
    from jamgate_stages.subject import derive_subject

    assert derive_subject(text) == subject


@pytest.mark.parametrize("text", ["Her favourite film is Encanto.", "His car is a BMW.",
                                  "Their house is in Lyon."])
def test_a_third_persons_possessive_leaves_the_owner_unclear(text: str) -> None:
    """D-429: "her", "his" and "their" before anything but a relation read as the person's own
    ("Her favourite film is …" → `favourite-film`, the user's slot)."""
    from jamgate_stages.subject import derive_subject, holder

    assert holder(text) == ("unknown", None) and derive_subject(text) is None


def test_her_new_favourite_leaves_the_users(app: App) -> None:
    mine = save(app, "My favourite film is Amélie.")
    save(app, "My daughter's favourite film is Frozen.")
    after = save(app, "Her favourite film is now Encanto.")
    assert after.superseded_ids == [], (mine.text, after.message)
