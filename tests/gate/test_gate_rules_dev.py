"""The rule stages on the categories a blind set showed weak (issue #16, D-197 … D-199, D-164).

Every credential of s17 (the rules' tuning source, `rules_dev`) is refused and redacted in the
text and in every other field; none of its kept records is refused by the credentials stage.
The other rules are checked on texts written for this file, not taken from any corpus: each
signal refuses what it names and keeps the durable facts that share its surface.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from jamgate_commands.bench_gate import GateCase, load_corpus
from jamgate_core.models import ClientInfo
from jamgate_stages._question import is_question
from jamgate_stages.chatter import chatter_reason
from jamgate_stages.credentials import CredentialsStage
from jamgate_stages.granularity import multiple_facts
from jamgate_stages.junk import is_one_off
from jamgate_stages.source_strictness import SourceStrictnessStage

GATE2 = Path(__file__).resolve().parents[1] / "corpus" / "gate2"


@pytest.fixture(scope="module")
def s17() -> list[GateCase]:
    """The rules_dev sources: s17 and s19 (the credentials' own, D-254)."""
    pytest.importorskip("mnemonic")  # the seed-phrase records need the BIP-39 wordlists
    return load_corpus(GATE2 / "s17.jsonl") + load_corpus(GATE2 / "s19.jsonl")


def _fields(secret: str) -> dict[str, dict[str, Any]]:
    return {
        "subject": {"annotations": {"raw_subject": secret}},
        "scope": {"annotations": {"raw_scope": secret}},
        "client name": {"client": ClientInfo(name=secret)},
        "client version": {"client": ClientInfo(name="cursor", version=secret)},
        "provenance": {"provenance": secret},
        "origin": {"origin": secret},
    }


def test_every_s17_credential_is_refused_in_every_field(judge: Any, s17: list[GateCase]) -> None:
    stage = judge(CredentialsStage())
    credentials = [c for c in s17 if c.category == "credential"]
    assert len(credentials) >= 270
    missed = []
    for case in credentials:
        results = {"text": stage(case.text)}
        results.update({field: stage("Jam likes figs.", **fields)
                        for field, fields in _fields(case.text).items()})
        missed += [(case.origin, field) for field, result in results.items()
                   if not (result.decision == "rejected" and result.redact
                           and (result.reason_code or "").startswith("secret."))]
    assert missed == []


def test_no_kept_s17_record_is_refused_as_a_credential(judge: Any, s17: list[GateCase]) -> None:
    stage = judge(CredentialsStage())
    kept = [c for c in s17 if c.expect == "pass"]
    assert sum(c.category == "credential-lookalike" for c in kept) >= 100
    assert [c.text for c in kept if stage(c.text).decision is not None] == []


def test_a_secret_named_in_another_language_before_a_copula(judge: Any) -> None:
    stage = judge(CredentialsStage())
    token = "".join(["7hQ2", "mZr9", "LxW4", "vKp8", "Nd3T"])
    for text in (f"Das Geheimnis für den Webhook ist {token}",
                 f"El secreto del webhook es {token}", f"The secret for the hook is {token}"):
        assert stage(text).reason_code == "secret.password", text
    for text in ("My secret photo is iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB",
                 "Das Geheimnis meines Erfolgs ist Geduld"):
        assert stage(text).decision is None, text


@pytest.mark.parametrize("text", [
    "Do we still pay for the Notion team plan",
    "which of the two flats did I end up renting",
    "Haben wir den Vertrag mit Vodafone gekündigt",
    "Heb ik mijn paspoort al verlengd",
    "As-tu noté le nom du plombier",
    "Dónde guardé las facturas del coche",
    "Cosa ho ordinato l'ultima volta da Deliveroo",
    "Πού έβαλα τα κλειδιά του γραφείου",
    "Где лежит мой загранпаспорт",
    "Купил ли я билеты на концерт",
    "Czy zapłaciłem już za prąd",
    "Annem hangi gün geliyordu biliyor musun",
    "هل دفعت فاتورة الكهرباء",
    "آیا بلیط قطار را خریدم",
    "क्या मैंने बिजली का बिल भरा",
    "मेरी बहन की शादी कब है",
    "我上次去北京是什么时候",
    "我有没有告诉过你我的生日",
    "駐車場の番号は何番だっけ",
    "내 여권 어디에 뒀지",
    "ฉันจ่ายค่าไฟแล้วหรือยัง",
    "Tôi có khóa cửa chưa",
    "Apakah saya sudah bayar listrik",
    "Será que eu deixei o fogão ligado",
    "I'm wondering if I renewed the car insurance",
    "Ik vraag me af wanneer de huur omhoog gaat",
    "Mi chiedo quando scade il mio abbonamento",
    "Do you remember which hotel we booked in Porto",
    "Weißt du, wann mein Flug geht",
    "Te acuerdas de cómo se llama mi vecino",
    "User wants to know whether their visa is still valid",
    "Question: which dentist did I see in March",
    "任何时候都行吗？",
])
def test_questions_without_a_question_mark_are_questions(text: str) -> None:
    assert is_question(text), text


@pytest.mark.parametrize("text", [
    "One question my kids always ask is why we moved: the job was in Leipzig",
    "Where possible, I walk to work",
    "Where possible I cycle instead of driving",
    "What I like most about Lisbon is the light",
    "Who runs the on-call rota: Priya, since March",
    "When I travel I always book an aisle seat",
    "Why I quit coffee: it ruined my sleep",
    "Do not deploy on Fridays",
    "Ich frage immer nach dem Preis, bevor ich buche",
    "Quando viajo, levo sempre o meu próprio travesseiro",
    "Dove abito c'è un mercato ogni sabato",
    "我什么都吃，除了香菜",
    "I keep a list of questions for my doctor in Apple Notes",
    "Kenji asks whether a change is tested before he reviews it",
    "Wie jeden Sommer fahre ich nach Kreta",
    "Var tredje vecka åker jag till Oslo",
    "不管有没有时间，我每天都跑步",
    "나는 어디서나 잘 자지",
    "मुझे पता है कि खाना कैसे बनाते हैं",
])
def test_statements_that_share_a_question_s_surface_are_not_questions(text: str) -> None:
    assert not is_question(text), text


@pytest.mark.parametrize("text", [
    "Nombre: Iker; ciudad: Bilbao; trabajo: cocinero; mascota: perro",
    "이름: 박지훈, 직업: 교사, 사는 곳: 대전, 취미: 테니스",
    "नाम: सीमा; शहर: भोपाल; पेशा: डॉक्टर; शौक: बागवानी",
    "name: Ines\ncity: Graz\njob: midwife",
    "Hobbies: pottery, tennis, chess, baking, salsa",
    "Χόμπι: κολύμπι, σκάκι, ζωγραφική, κιθάρα, τρέξιμο",
    "爱好：游泳、书法、烹饪、钓鱼、旅行",
    '["lives in Lyon", "works at Airbus", "two sons", "plays rugby", "speaks Basque"]',
    "Woont in Gent, werkt bij de KBC, getrouwd met Lies, twee dochters, speelt hockey en "
    "eet geen vlees",
])
def test_profile_dumps_in_any_shape_are_refused(text: str) -> None:
    assert multiple_facts(text), text


@pytest.mark.parametrize("text", [
    "Our stack: Go, Postgres, Redis, Kafka, React",
    "I like hiking, cycling, swimming, climbing and skiing",
    "Config: the API reads PORT from the environment, default 8080",
    "Staging runs at 10:30, 12:00, 14:30 and 16:00 on weekdays",
    "Decidimos usar Vite en lugar de Webpack: compila más rápido y en menos pasos.",
    "Caroline's friends, family, and mentors are her rocks, motivating her and giving her "
    "strength to push on.",
])
def test_one_fact_with_a_list_is_not_a_dump(text: str) -> None:
    assert not multiple_facts(text), text


@pytest.mark.parametrize("text", [
    "Fehler: Verbindung zum Server abgelehnt",
    "Erreur : permission refusée",
    "エラー：ファイルが見つかりません",
    "error[E0425]: cannot find value `x` in this scope",
    "Instalación completada con 2 advertencias",
    "Сборка завершена за 12 секунд",
    "编译失败：缺少头文件",
    "빌드 성공",
    "Je vais maintenant relancer les tests",
    "Estoy revisando el repositorio, dame un momento",
    "Successfully installed numpy-2.1.0",
    "[2026-05-01 08:00:01] ERROR worker crashed",
])
def test_tool_output_in_any_language_is_chatter(text: str) -> None:
    found = chatter_reason(text)
    assert found is not None and found[0] == "tool_output", text


@pytest.mark.parametrize("text", [
    "Ich arbeite jetzt bei SAP in Walldorf",
    "Voy a mudarme a Madrid en junio",
    "I'm using pytest for the tests in all my repos",
    "Sto sviluppando un'app e il codice è su GitHub",
    "I will always run the tests before pushing",
    "Vou ao ginásio e depois leio os logs do servidor no trabalho",
    "The build server for the app is a Hetzner AX41",
    "Our tests run on GitHub Actions with Python 3.12",
    "Error budgets for the API are reviewed every quarter",
])
def test_facts_about_work_are_not_tool_output(text: str) -> None:
    found = chatter_reason(text)
    assert found is None or found[0] != "tool_output", text


@pytest.mark.parametrize("text", [
    "Proofread the paragraph above", "Explain the error I just pasted",
    "لخص هذا المقال", "ترجم لي هذه الرسالة", "תרגם את הטקסט הזה",
])
def test_one_off_requests_in_more_shapes(text: str) -> None:
    assert is_one_off(text), text


def test_the_assistant_about_its_own_answers_is_refused_from_an_agent(judge: Any) -> None:
    stage = judge(SourceStrictnessStage())
    for text in ("I tend to write long replies to short questions",
                 "एक एआई के रूप में मैं वेब नहीं देख सकता"):
        assert stage(text, source="agent-inferred").reason_code == "source.assistant_self"
        assert stage(text, source="user-explicit").decision is None
