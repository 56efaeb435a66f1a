"""The assistant about itself or to the user, by closed word classes (issue #16, D-311).

Texts written for this file from the `assistant-self` definition, none taken from a corpus:
each shape refuses an agent-inferred save that names it and keeps the standing instructions
and facts about the user that share its surface; the user's own word always passes.
"""

from __future__ import annotations

from typing import Any

import pytest

from jamgate_stages._self_shapes import addresses_user, speaks_as_assistant
from jamgate_stages.source_strictness import SourceStrictnessStage

SELF_TALK = [
    # an apology opening the save, for an earlier turn
    "Sorry, the totals I gave you a moment ago were off by one row",
    "Entschuldigung, die Zugverbindung von vorhin war falsch",
    "Perdona, antes te di mal la dirección del taller",
    "Przepraszam, źle przeliczyłem kurs euro",
    "Прошу прощения, я перепутал даты рейса",
    "Özür dilerim, linki yanlış gönderdim",
    "很抱歉，我把会议时间写错了",
    "申し訳ありません、住所を取り違えていました",
    "عذرًا، أرسلت لك الملف الخطأ",
    # its own answers: with "my", a habit, an earlier turn
    "Meine Antworten werden bei Rechtsfragen oft zu vage",
    "J'ai souvent tendance à rallonger mes réponses",
    "Nella risposta precedente ho confuso i due contratti",
    "Мои ответы про налоги стоит перепроверять",
    "上一条回复里的单位写错了",
    "제 답변은 가끔 너무 딱딱해요",
    # this turn's answer
    "For this reply I'll leave out the code samples",
    "En esta respuesta no incluyo los impuestos",
    "这次回答我先不考虑运费",
    # a channel it lacks, with a negation
    "Cannot reach the internet from this sandbox, so prices may be stale",
    "Ich habe keinen Zugriff auf deine Kontoauszüge",
    "No recuerdo las conversaciones anteriores",
    "Δεν βλέπω τις φωτογραφίες που στέλνεις",
    "之前的对话我都记不住",
    "인터넷에 연결할 수 없어서 환율을 모릅니다",
    # a note to itself
    "Notitie voor mezelf: eerst de bronnen checken",
    "Заметка для себя: не путать часовые пояса",
    # what it is
    "In quanto assistente virtuale non posso firmare documenti",
    "Yapay zeka olarak duygularım yok",
    "作为你的助手，我会尽量简洁",
    "AI라서 직접 전화를 걸 수는 없어요",
    # the same classes in languages s23 does not hold (D-314)
    "Förlåt, jag blandade ihop datumen nyss",
    "Maaf, tadi saya salah menghitung ongkos kirim",
    "Omlouvám se, spletl jsem si adresy",
    "סליחה, טעיתי בשעה של הפגישה",
    "Nemám přístup k internetu, takže kurz neznám",
    "من به اینترنت دسترسی ندارم",
    "Я не маю доступу до інтернету в цій сесії",
]
SAID_TO_USER = [
    "Ti piacerebbe la Val d'Orcia in primavera",
    "Jij houdt duidelijk van lange wandelingen",
    "Wyglądasz na kogoś, kto lubi porządek",
    "Вам стоит попробовать плавание",
    "Bu tarz filmleri çok seviyorsun",
    "Φαίνεσαι κουρασμένη αυτή την εβδομάδα",
    "Pan lubi chyba poranne spacery",
    "按照你说的，你会喜欢青岛",
    "お仕事が大変なようですね",
    "산책을 정말 좋아하시네요",
    "بناءً على ما ذكرته، ستعجبك مدينة فاس",
    "आपको सुबह टहलना चाहिए",
    "From what you've told me, you would enjoy Lisbon",
    "Du verkar gilla långa promenader",
    "Anda sepertinya suka kopi pahit",
    "Тобі варто більше відпочивати",
    "Sinulle sopisi varmasti joogatunti",
]
KEEPS = [
    # standing instructions that address the agent
    "Jij moet altijd in het Nederlands antwoorden",
    "Вам всегда нужно писать мне по-русски",
    "आपको हमेशा मुझे हिंदी में जवाब देना है",
    "你以后一律用繁体字回复我",
    # the user's facts that share the surface
    "User can't access the office VPN from home",
    "Ana no tiene internet en la casa del pueblo",
    "Pan Nowak jest moim sąsiadem",
    "Kenji builds chatbots for a logistics company",
    "Mijn dochter werkt als assistent bij een tandarts",
    "Lena answers support tickets for a bike shop",
    "The user told the assistant she is allergic to latex",
    "Nutzerin arbeitet an einem Sprachmodell für Behörden",
    "Use this answer format for every weekly status report",
    "Du ska alltid svara mig på svenska",
    "Anda harus selalu menjawab dalam bahasa Indonesia",
    "Sinun pitää aina vastata minulle suomeksi",
    "Arbetar med data i realtid, inte med batchjobb",
]


@pytest.fixture
def run(judge: Any) -> Any:
    return judge(SourceStrictnessStage())


@pytest.mark.parametrize("text", SELF_TALK)
def test_the_assistant_about_itself(run: Any, text: str) -> None:
    assert speaks_as_assistant(text), text
    assert run(text, source="agent-inferred").reason_code == "source.assistant_self"
    assert run(text, source="user-explicit").decision is None


@pytest.mark.parametrize("text", SAID_TO_USER)
def test_said_to_the_user(run: Any, text: str) -> None:
    assert addresses_user(text), text
    assert run(text, source="agent-inferred").reason_code in (
        "source.second_person", "source.speculative", "source.assistant_self")
    assert run(text, source="user-confirmed").decision is None


@pytest.mark.parametrize("text", KEEPS)
def test_same_surface_keeps(run: Any, text: str) -> None:
    assert run(text, source="agent-inferred").decision is None, text


@pytest.mark.parametrize(("text", "overruled"), [
    ("The user told the assistant that her son is allergic to peanuts", True),
    ("La usuaria le dijo al asistente que trabaja de noche", True),
    ("用户跟助手说过他不吃猪肉", True),
    ("As an AI assistant I cannot open your spreadsheets", False),
    ("User, based on what you told me you would enjoy Porto", False),
    ("Bence biraz dinlenmelisin", False),
])
def test_a_report_of_the_user_is_not_the_assistants_self_talk(text: str, overruled: bool) -> None:
    """The classifier's self-talk refusal does not stand where the user is the subject (D-312)."""
    from jamgate_core.models import Candidate, new_id, utcnow
    from jamgate_stages.classifier import _overruled

    candidate = Candidate(id=new_id(), text=text, raw_length=len(text), created_at=utcnow(),
                          source="agent-inferred")
    assert (_overruled("assistant-self", candidate) == "shape") is overruled
    assert _overruled("transient", candidate) is None
