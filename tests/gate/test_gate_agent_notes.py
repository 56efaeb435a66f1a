"""An agent's notes about the user, in the third person (issue #16, D-370 … D-372).

Texts written for this file from the keep and refusal definitions, none taken from a corpus:
a request the user made of the agent, reported as "the user asked that … / asked the agent to
…", is a standing instruction when it says so ("always", "never", "stop …ing"), not a question
nor narration of the conversation; the report of a question or of this turn's request still is.
"""

from __future__ import annotations

import pytest

from jamgate_stages._question import is_question
from jamgate_stages._reported_asks import reported_question, reported_request
from jamgate_stages._reported_thanks import reported_thanks
from jamgate_stages.chatter import chatter_reason

STANDING_REQUESTS = [
    "The user asked that the agent never push straight to main.",
    "User asked that the assistant always cite the page number.",
    "The user asked the assistant to always reply in Greek.",
    "User asked the agent never to rename public functions without asking.",
    "User asked the agent to stop adding emojis to commit messages.",
    "The user asked me to stop apologising at the start of every reply.",
    "User asked Claude to no longer open pull requests on its own.",
]

TURN_REPORTS = [
    "The user asked how to reset the router.",
    "User asked what a 502 status means.",
    "The user asked whether the build passed.",
]

NARRATION = [
    "User asked the assistant to summarise the attached PDF.",
    "User asked the agent to stop the deployment.",
    "The user asked that question twice.",
    "User asked about the difference between TCP and UDP.",
]


@pytest.mark.parametrize("text", STANDING_REQUESTS)
def test_a_standing_request_is_neither_a_question_nor_narration(text: str) -> None:
    assert not is_question(text)
    assert chatter_reason(text) is None


@pytest.mark.parametrize("text", TURN_REPORTS)
def test_the_report_of_a_question_still_asks(text: str) -> None:
    assert is_question(text)


@pytest.mark.parametrize("text", NARRATION)
def test_this_turns_request_is_still_narration(text: str) -> None:
    assert chatter_reason(text) == ("conversation", "narration of the conversation")


# The user's thanks, greeting or goodbye reported in the third person (D-372): one a language
# class — Latin, Cyrillic, Greek, Arabic and Hebrew scripts, verb-final languages and scripts
# without spaces.
REPORTED_THANKS = [
    "User thanked the agent for the help.",
    "The user said good night.",
    "La usuaria agradeció la ayuda.",
    "Der Nutzer hat sich verabschiedet.",
    "L'utilisatrice a dit au revoir.",
    "O usuário disse obrigado.",
    "De gebruiker nam afscheid.",
    "Użytkowniczka podziękowała za pomoc.",
    "Пользовательница поблагодарила.",
    "Η χρήστρια ευχαρίστησε.",
    "Kullanıcı veda etti.",
    "المستخدمة شكرت المساعد.",
    "המשתמשת אמרה תודה.",
    "用户表示感谢。",
    "ユーザーは感謝した。",
    "사용자는 감사하다고 했다.",
    "उपयोगकर्ता ने शुक्रिया कहा।",
    "Pengguna berterima kasih.",
]

THANKS_KEEPS = [
    "The user thanks people in writing, never by phone.",
    "User thanked Dr. Okafor in a letter after the 2023 surgery.",
    "The user is grateful to her former manager, who mentored her for years.",
    "La usuaria agradeció a Marta su ayuda con la mudanza a Oaxaca.",
    "Der Nutzer bedankt sich immer schriftlich, nie am Telefon.",
    "用户的女儿叫小雨。",
    "User says thanks in Welsh to his grandmother.",
]


@pytest.mark.parametrize("text", REPORTED_THANKS)
def test_reported_thanks_are_narration(text: str) -> None:
    assert reported_thanks(text), text
    assert chatter_reason(text) is not None


@pytest.mark.parametrize("text", THANKS_KEEPS)
def test_a_fact_beside_thanks_is_not_a_reported_pleasantry(text: str) -> None:
    assert not reported_thanks(text), text


# "The user asked" in the languages the conversation rule reads, with that language's standing
# word: a standing instruction or habit, exempted as the English "always" exempts it (D-375).
STANDING_ASKS = [
    "L'utilisateur a demandé que les dates soient toujours au format jour/mois/année.",
    "El usuario pregunta siempre por la opción sin lactosa en los restaurantes.",
    "Der Nutzer fragt bei Hotels immer nach einem ruhigen Zimmer.",
    "Ο χρήστης ρώτησε να του απαντάμε πάντα στα ελληνικά.",
    "Пользователь спрашивает всегда, есть ли в ресторане веганское меню.",
    "用户问过以后一律用公制单位回答。",
]
TURN_ASKS = [
    "El usuario preguntó por el horario del museo.",
    "Der Nutzer fragte, wann der Zug nach Graz fährt.",
    "L'utilisateur a demandé la météo de ce soir.",
]


@pytest.mark.parametrize("text", STANDING_ASKS)
def test_a_reported_ask_with_a_standing_word_is_not_narration(text: str) -> None:
    assert chatter_reason(text) is None


@pytest.mark.parametrize("text", TURN_ASKS)
def test_a_reported_ask_of_this_turn_is_narration(text: str) -> None:
    assert chatter_reason(text) == ("conversation", "narration of the conversation")


# A question of this turn reported in the third person, one a language class; a verb that asks
# *for* something ("pidió", "bat", "попросил") or a standing word leaves it to the classifier
# (D-376).
REPORTED_QUESTIONS = [
    "La usuaria preguntó a qué hora abre la farmacia.",
    "Die Nutzerin wollte wissen, wie spät es in Tokio ist.",
    "L'utilisatrice a demandé comment on réinitialise le routeur.",
    "De gebruiker vroeg wat een 404 betekent.",
    "Användaren frågade hur man byter däck.",
    "Użytkowniczka spytała, ile kosztuje bilet.",
    "Пользовательница спросила, как сбросить пароль роутера.",
    "Η χρήστρια ρώτησε πόσο κρατά το ταξίδι.",
    "Kullanıcı trenin kaçta kalktığını sordu.",
    "المستخدمة سألت عن موعد الرحلة.",
    "המשתמשת שאלה כמה זמן לוקחת הנסיעה.",
    "用户询问明天会不会下雨。",
    "ユーザーは駅までの道を尋ねた。",
    "사용자가 환율을 물었다.",
    "Käyttäjä kysyi, milloin kauppa aukeaa.",
]
NOT_REPORTED_QUESTIONS = [
    "La usuaria pidió que siempre le respondan de usted.",
    "Der Nutzer bat darum, Termine nie vor 9 Uhr zu legen.",
    "Пользователь попросил называть его Лёшей.",
    "L'utilisatrice demande qu'on la tutoie.",
    "De gebruiker vroeg om altijd in het Nederlands te antwoorden.",
    "Kullanıcı her zaman vejetaryen seçenekleri soruyor.",
    "La usuaria pregunta siempre por el menú vegano.",
]


@pytest.mark.parametrize("text", REPORTED_QUESTIONS)
def test_a_reported_question_is_narration(text: str) -> None:
    assert reported_question(text), text
    assert chatter_reason(text) == ("conversation", "narration of the conversation")


@pytest.mark.parametrize("text", NOT_REPORTED_QUESTIONS)
def test_a_reported_request_or_habit_is_not_narration(text: str) -> None:
    assert chatter_reason(text) is None, text


# A request for this turn's object reported in the third person (D-377), one a language class;
# a reported request without a demonstrative, or with a standing word, is left to the classifier.
REPORTED_REQUESTS = [
    "User asked for this log to be explained line by line.",
    "La usuaria pidió resumir este artículo.",
    "Die Nutzerin bat darum, diesen Absatz zu kürzen.",
    "Użytkownik poprosił o sprawdzenie tego maila.",
    "Пользовательница попросила проверить эту таблицу.",
    "Ο χρήστης ζήτησε περίληψη αυτού του άρθρου.",
    "Kullanıcı bu metnin çevirisini istedi.",
    "המשתמש ביקש לסכם את המאמר הזה.",
    "المستخدم طلب ترجمة هذه الرسالة.",
    "用户让我检查这段代码。",
    "ユーザーはこの文章を短くしてほしいと頼んだ。",
    "사용자가 이 표를 정리해 달라고 했다.",
    "Pengguna minta terjemahan paragraf ini.",
]
REQUEST_KEEPS = [
    "La usuaria pidió que este proyecto use siempre pnpm.",
    "Der Nutzer bat darum, ihn Toni zu nennen.",
    "User asked for a window seat on every long flight.",
    "Пользователь попросил называть его по имени, без отчества.",
    "The user wants this repo to stay MIT-licensed.",
    "Pengguna minta dipanggil Budi mulai hari ini.",
    "Пользователь попросил с этого момента называть его Лёшей.",
    "La usuaria pidió que a partir de ahora este repositorio use pnpm.",
]


@pytest.mark.parametrize("text", REPORTED_REQUESTS)
def test_a_reported_request_for_this_turn_is_narration(text: str) -> None:
    assert reported_request(text), text
    assert chatter_reason(text) == ("conversation", "narration of the conversation")


@pytest.mark.parametrize("text", REQUEST_KEEPS)
def test_a_reported_request_that_holds_is_not_narration(text: str) -> None:
    assert chatter_reason(text) is None, text
