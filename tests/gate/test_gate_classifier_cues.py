"""The rules around two of the lexical classifier's refusals (D-436, D-437): speculation needs a
hedge, and "now" with a verb of possession marks a possession that began."""

from __future__ import annotations

import pytest

from jamgate_commands.bench_gate import GateCase, candidate_for, offline_context
from jamgate_core import StageResult
from jamgate_stages.change_words import PENDING_REFUSAL
from jamgate_stages.classifier import UNSURE_NOTICE, ClassifierStage
from jamgate_stages.classifier.cues import hedged, owned_since_now


def judge(text: str, source: str = "user-explicit") -> StageResult:
    case = GateCase(text=text, source=source, type=None, category="x", expect="pass",
                    origin="test")
    return ClassifierStage(ClassifierStage.Options()).evaluate(candidate_for(case),
                                                               offline_context())


@pytest.mark.parametrize("text", [
    "El usuario prefiere respuestas breves",
    "La usuaria prefiere el modo oscuro",
    "The user prefers that glossaries be delivered as TSV files.",
])
def test_an_unhedged_note_about_the_user_is_not_refused_as_a_guess(text: str) -> None:
    """D-436: no hedge anywhere, so not speculation; the lexical model is unsure of it (these
    were refused as speculation before)."""
    result = judge(text, source="user-explicit")
    assert result.decision is None, result.reason_code
    assert result.notices and result.notices[0].startswith(UNSURE_NOTICE)


@pytest.mark.parametrize("text", [
    "El usuario quizás prefiere respuestas breves",
    "User might be thinking about moving to Spain.",
    "Vielleicht plant die Nutzerin einen Umzug.",
    "用户可能在考虑换工作。",
])
def test_a_hedged_guess_is_still_refused_as_speculation(text: str) -> None:
    assert judge(text, source="agent-inferred").reason_code == "classifier.speculation"


@pytest.mark.parametrize(("text", "expected"), [
    ("User probably likes jazz", True), ("Kullanıcı muhtemelen yeni bir iş arıyor", True),
    ("ユーザーはたぶん転職を考えている", True), ("사용자는 아마 이직을 고민한다", True),
    ("Użytkownik może chcieć się przeprowadzić", True), ("Labda mtumiaji anataka kuhamia", True),
    ("Судя по вопросам, пользователь учится в вузе", True),
    ("Der Nutzer ist Student, nach seinen Fragen zu urteilen", True),
    ("El usuario prefiere respuestas breves", False), ("User lives in Leeds", False),
    ("Der Nutzer hat einen Hund", False), ("用户喜欢简洁的回答", False),
])
def test_hedged_reads_the_closed_class_in_many_languages(text: str, expected: bool) -> None:
    assert hedged(text) is expected


@pytest.mark.parametrize("text", [
    "I now have a standing desk",
    "Ich habe jetzt einen Gemüsegarten hinter dem Haus.",
    "Sekarang saya punya kucing.",
    "Τώρα έχω ένα ποδήλατο βουνού.",
])
def test_now_with_a_possession_is_an_unsure_keep_not_passing_state(text: str) -> None:
    """D-437: "now" with a verb of possession says the person has something since; the
    lexical model's refusal as passing state becomes an unsure keep (refused before)."""
    result = judge(text)
    assert result.decision is None, result.reason_code
    assert result.notices and result.notices[0].startswith(UNSURE_NOTICE)


@pytest.mark.parametrize("text", [
    "Right now I have a terrible headache.",
    "Ahora mismo tengo muchísimo sueño.",
    "I'm now at the airport, my flight is delayed two hours.",
    "Je suis maintenant à la gare, le train a du retard.",
    "Ahora estoy en la sala de espera del dentista.",
])
def test_the_present_moment_stays_passing_state(text: str) -> None:
    """Refused, or left refused unless it updates a stored fact (D-289), as before."""
    result = judge(text)
    pending = result.updates.get("annotations", {}).get(PENDING_REFUSAL)
    reason = result.reason_code or (pending[0] if pending else None)
    assert reason == "classifier.transient", result


@pytest.mark.parametrize(("text", "expected"), [
    ("I now have a standing desk", True), ("Adesso ho un orto sul balcone.", True),
    ("Right now I have a headache", False), ("Ahora mismo tengo hambre", False),
    ("I have a standing desk", False), ("Now rerunning the ETL job", False),
])
def test_owned_since_now_needs_now_as_a_change_and_a_possession(text: str,
                                                                expected: bool) -> None:
    assert owned_since_now(text) is expected
