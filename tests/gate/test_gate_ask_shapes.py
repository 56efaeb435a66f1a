"""Questions and one-off requests by their shape (issue #16, D-271 … D-273).

Texts written for this file from the `question` and `one-off-request` definitions, none taken
from a corpus: each shape refuses what it names and keeps the standing instructions and facts
that share its surface.
"""

from __future__ import annotations

import pytest

from jamgate_stages._question import is_question
from jamgate_stages.junk import is_one_off

QUESTIONS = [
    # an imperative of telling addressed to the agent, then what is asked
    "Tell me which gym I signed up for in January",
    "Sag mir bitte, wo ich den Ersatzschlüssel hingelegt habe",
    "Dis-moi combien j'ai payé pour le vélo",
    "Dimmi quando scade il mio passaporto",
    "Powiedz mi, kiedy mam wizytę u dentysty",
    "Πες μου πότε έχω το επόμενο ραντεβού",
    "Подскажи, где я оставил зарядку",
    "बताओ कि मेरी मीटिंग कब है",
    "أخبرني متى ينتهي اشتراكي",
    "告诉我我的护照号码放在哪个文件里",
    "내 비자 만료일 알려줘",
    # a yes/no question closed by its negative alternative
    "Did the plumber send the invoice or not",
    "Hat der Vermieter die Kaution überwiesen oder nicht",
    "Мы уже оплатили хостинг или нет",
    # an interrogative in place, in the languages that do not move it
    "Kira sözleşmesi hangi klasörde duruyor",
    "Vergi dairesi nerede acaba",
    "我的车险是哪家公司的",
    "王医生的电话是多少",
    "다음 진료가 언제예요",
    # a "when" that asks: a finite auxiliary follows at once, no main clause after a comma
    "Wanneer is mijn tandartsafspraak",
    "Kiedy jest termin złożenia wniosku",
    "Wann hatte ich die letzte Tetanusimpfung",
    "Cuándo cierra la biblioteca de la facultad",
    "C'est quand, le rendez-vous chez le notaire",
    # an Italian interrogative with a clitic before its auxiliary
    "Chi mi ha consigliato quel commercialista",
    "I'm curious whether I ever told you my blood type",
    # "how" that also means "as", before a closed complement (D-313)
    "Wie heißt die Hausärztin meiner Mutter",
    "Hoe oud is de cv-ketel in de kelder",
    "Jak się nazywa mój nowy kierownik",
    "Как зовут управляющего нашего дома",
    # "qu'est-ce que", a recall question with the thing recalled, Hungarian and Czech wh-words
    "Qu'est-ce qu'on avait offert à Lucie pour ses trente ans",
    "Tu te souviens du code postal de mes parents",
    "Ti ricordi il modello della mia lavatrice",
    "Mikor van a következő fogorvosi időpontom",
    "Kdy mi končí nájemní smlouva",
]

NOT_QUESTIONS = [
    "Tell me the truth even when it hurts",
    "Always tell me which tests failed before you summarise a CI run",
    "Tell me if a command needs sudo before you run it",
    "I never know whether to tip in Japan or not",
    "When it snows I work from home",
    "Wanneer het regent, neem ik de tram",
    "Kiedy tylko mogę, jeżdżę rowerem do pracy",
    "Ne zaman canım sıkılsa piyano çalarım",
    "Kim ne derse desin, her sabah yüzerim",
    "我什么都吃，就是不吃香菜",
    "什么时候有空，我都去游泳",
    "Wann immer ich in Wien bin, gehe ich ins Kaffeehaus",
    "Quando posso, vado al lavoro in bicicletta",
    "Cómo trabajo con clientes: siempre con contrato firmado",
    "説明するときは、まず結論を教えてください",
    "Yemek tarifi sorduğumda malzemeleri nasıl ölçeceğimi gram olarak yaz",
    "Wie immer fahre ich im August an die Ostsee",
    "Hoe meer koffie ik drink, hoe slechter ik slaap",
    "Jak co roku jedziemy na Mazury w lipcu",
    "Как и все в нашей семье, я левша",
    "Wie lange ich schon in Graz wohne, weiß kaum jemand: seit 2009",
]


@pytest.mark.parametrize("text", QUESTIONS)
def test_a_question_without_a_mark_is_refused(text: str) -> None:
    assert is_question(text)


@pytest.mark.parametrize("text", NOT_QUESTIONS)
def test_a_statement_or_instruction_of_the_same_surface_is_not_a_question(text: str) -> None:
    assert not is_question(text)


ONE_OFF = [
    # a polite frame: whatever follows is the request
    "Could you draft a thank-you note to my aunt",
    "Would you mind checking the table below for typos",
    "Könntest du mir eine Packliste für Norwegen schreiben",
    "Pourrais-tu relire le paragraphe ci-dessous",
    "Me podrías hacer un resumen del capítulo tres",
    "Ti dispiacerebbe tradurre questa lettera in francese",
    "Не могли бы вы проверить этот договор",
    "Czy możesz poprawić ten mail do szefa",
    "Zou je deze tekst korter kunnen maken",
    "Μπορείς να ελέγξεις αυτό το email",
    "هل يمكنك تلخيص هذه المقالة",
    # an imperative with its pronoun attached
    "Escríbeme un correo para el casero",
    "Mándame un resumen de esta reunión",
    "Spiegami questa formula",
    "Fais-moi un plan de révision pour demain",
    "Escreve-me uma mensagem para o senhorio",
    # verbs the list now names, objects of this turn, and verb-last languages
    "Turn this transcript into minutes",
    "Przetłumacz ten list na angielski",
    "Vat dit rapport samen in vijf punten",
    "Maak een boodschappenlijst voor het weekend",
    "Составь план по этим заметкам",
    "Correct the formula on line 8 of the budget sheet",
    "Translate the attached contract into German",
    "Annem için bir doğum günü mesajı yaz",
    "इस ईमेल का जवाब लिख दो",
    "给这封邮件写一个回复",
    "راجع العقد المرفق وأخبرني بالملاحظات",
]

NOT_ONE_OFF = [
    "Could you always answer me in Portuguese",
    "Can you call me Sasha from now on",
    "Escríbeme siempre de tú",
    "Mandami sempre le ricette in grammi",
    "Parece-me que este projeto vai durar anos",
    "Sólo uso este portátil para trabajar",
    "Zawsze tłumacz mi te maile na polski",
    "Maak samenvattingen altijd in opsommingstekens",
    "Always translate the attached files into English before summarising them",
    "हमेशा इस तरह के ईमेल का जवाब हिंदी में लिखो",
    "اكتب لي دائما هذه التقارير بالعربية",
    "Kod yorumlarını İngilizce yaz",
    "Review this repo's pull requests with the security checklist",
]


@pytest.mark.parametrize("text", ONE_OFF)
def test_a_request_for_this_turn_is_refused(text: str) -> None:
    assert is_one_off(text) or is_question(text)


@pytest.mark.parametrize("text", NOT_ONE_OFF)
def test_a_standing_instruction_or_fact_of_the_same_surface_is_kept(text: str) -> None:
    assert not is_one_off(text)
    assert not is_question(text)
