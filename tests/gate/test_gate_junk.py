"""Junk: placeholders, fragments, questions (many scripts) and untyped transient state."""

from __future__ import annotations

import re
from typing import Any

import pytest

from jamgate_stages.junk import JunkStage


@pytest.fixture
def run(judge: Any) -> Any:
    return judge(JunkStage())


@pytest.mark.parametrize("text", [
    "{{user_name}} lives in {{city}}", "<name> prefers <drink>", "[PLACEHOLDER]",
    "User's favourite food is [INSERT FOOD]", "Hello ${USER_NAME}", "lorem ipsum dolor sit amet",
    "testing testing", "foo bar baz", "undefined undefined", "<USER_NAME> likes tea",
])
def test_placeholders(run: Any, text: str) -> None:
    assert run(text).reason_code == "junk.placeholder"


def test_template_syntax_discussed_as_a_fact_passes(run: Any) -> None:
    assert run("Jam's Jinja templates greet users with {{ user.name }} syntax.").decision is None


@pytest.mark.parametrize("text", [
    "1234", "abcd", "12 34", "jam 😀", "n/a n/a", "The the the", "......", "lol lol lol",
    "x" * 32_000,
])
def test_fragments(run: Any, text: str) -> None:
    assert run(text).reason_code == "junk.fragment"


@pytest.mark.parametrize("text", ["Jam codes", "我住在雅典", "서울에 살아요", "Ζω στην Αθήνα"])
def test_two_meaningful_words_in_any_script_pass(run: Any, text: str) -> None:
    assert run(text, type="identity").decision is None


@pytest.mark.parametrize("text", [
    "What is Jam's favourite colour?", "jam likes tea?", "What. jam likes tea. really?",
    "Is the deploy on Friday ？", "Does Jam like tea?  ", "what does jam like to eat",
    "Is Jam vegetarian", "How many kids does Jam have",
    "¿Dónde vive Jam?", "Wo wohnt Jam? Seit wann?", "Où habite Jam ? Depuis quand ?",
    "Πού μένει ο Τζαμ;", "چرا جم دیر آمد؟ او خسته بود؟", "هل يحب جام الشاي؟",
    "贾姆住在哪里？", "你喜欢茶吗", "ジャムはお茶が好きですか", "ジャムはどこ？ 東京ですか？",
    "Где живёт Джем?", "जैम कहाँ रहता है?", "잼은 어디에 살아요?",
])
def test_questions(run: Any, text: str) -> None:
    assert run(text).reason_code == "junk.question", text


def test_a_type_never_exempts_a_question(run: Any) -> None:
    assert run("Where does Jam live?", type="identity").reason_code == "junk.question"


@pytest.mark.parametrize("text", [
    "jam likes tea. really?", "What Jam wants from review is blunt feedback.",
    "Jam often asks why the build is slow.", "Do not use emojis in commit messages.",
    "Is Jam vegetarian? Yes, since 2019.", "Jam trinkt keinen Alkohol; warum, weiß niemand.",
])
def test_statements_pass(run: Any, text: str) -> None:
    assert run(text, type="preference").decision is None, text


@pytest.mark.parametrize("text", [
    "Jam is hungry right now.", "At the moment Jam is debugging.", "It's raining in Athens.",
    "The weather today is sunny.", "It's -3°C outside.", "Jam is currently feeling tired.",
    "Jam lives in Athens. It's sunny.", "Jam is in a meeting as we speak.",
    "Ahora mismo Jam está en el tren.", "الان جم در جلسه است.", "Il pleut en ce moment.",
])
def test_untyped_transient_state(run: Any, text: str) -> None:
    assert run(text).reason_code == "junk.transient", text


def test_typed_transient_state_passes(run: Any) -> None:
    assert run("Jam is hungry right now.", type="state").decision is None


@pytest.mark.parametrize("text", [
    "Jam likes the weather in Athens.", "Jam prefers cold weather.", "Jam hates raining days.",
    "Jam likes snowing days.", "Jam runs every morning when it's sunny.",
    "It's cold in Athens in January.", "Jam is tired today.", "Jam is currently learning Japanese.",
    "Jam keeps the office thermostat at 21°C.", "Jam checks the weather forecast every morning.",
    "Jam's colleague Alan works in Tehran.",
])
def test_durable_weather_and_today_pass(run: Any, text: str) -> None:
    assert run(text).decision is None, text


def test_questions_and_transient_rules_can_be_switched_off(judge: Any) -> None:
    stage = JunkStage(JunkStage.Options(questions=False, transient=False))
    assert judge(stage)("Where does Jam live?").decision is None
    assert judge(stage)("Jam is hungry right now.").decision is None


@pytest.mark.parametrize("text", [
    "Bu seferlik ayrıntılı anlat", "just this once, explain in detail",
    "For this answer, use bullet points.", "Erklär mir das diesmal bitte ausführlich.",
    "Pour cette réponse, utilise des puces.", "Solo esta vez, explícamelo con detalle.",
    "Αυτή τη φορά απάντησε αναλυτικά.", "这次请详细解释一下。", "今回だけ詳しく説明してください。",
    "Summarize this PDF for me.", "Translate the next paragraph into German.",
    "Übersetze diesen Absatz ins Englische.", "Traduis ce paragraphe en anglais.",
    "Resume este artículo en tres frases.", "Şu mesajı İngilizceye çevir.",
    "Μετάφρασε αυτό το κείμενο στα αγγλικά.", "请把这段话翻译成英文。",
    "このメールを英語に訳してください。",
    "Give me a regex that matches Greek phone numbers.", "Run the migrations on staging now.",
    "User asked to explain in detail just this once.",
])
def test_one_off_requests_are_refused_whatever_the_type(run: Any, text: str) -> None:
    result = run(text, type="preference")
    assert result.reason_code == "junk.one_off", text
    assert "standing" in (result.message or "")


@pytest.mark.parametrize("text", [
    "Always keep your answers short.", "Use pnpm, never npm, in my repos.",
    "Write commit messages that follow Conventional Commits.",
    "Check this repo's CI config before pushing.", "Give me a short summary first, then details.",
    "Antworte mir immer auf Deutsch.", "Réponds-moi toujours en français.",
    "Να μου απαντάς πάντα στα ελληνικά.", "以后请一直用简体中文回答我。",
    "いつも日本語で答えてください。",
    "Bana her zaman Türkçe cevap ver.", "Bu projede testleri pytest ile yaz.",
    "这个项目用 Go 写的。", "Format shopping lists as checkboxes.",
])
def test_standing_instructions_are_not_one_off(run: Any, text: str) -> None:
    assert run(text, type="preference").decision is None, text


@pytest.mark.parametrize("text", [
    "I'm vegan", "I'm vegetarian.", "Ich bin Veganerin", "Soy celíaca", "Is vegetarian",
    "I was born in 1991.", "I'm 34",
])
def test_short_first_person_claims_are_kept(run: Any, text: str) -> None:
    assert run(text).decision is None, text


@pytest.mark.parametrize("text", ["I'm hungry", "I test", "chicken", "User", "asdf", "test"])
def test_short_non_claims_are_still_refused(run: Any, text: str) -> None:
    assert run(text).reason_code in {"junk.fragment", "junk.placeholder"}, text


@pytest.mark.slow
@pytest.mark.parametrize("module,name", [
    ("junk", "_ONE_OFF"), ("junk", "_STANDING"), ("junk", "_MARKERS"),
    ("injection", "_OVERRIDE"), ("injection", "_PERSONA"), ("injection", "_ROLE_TAG"),
    ("injection", "_TOOL_CALL"), ("injection", "_DELIMITER")])
def test_a_hinted_pattern_finds_every_match_in_ascii_text(module: str, name: str) -> None:
    """The substring prefilter in front of the long case-insensitive patterns skips only
    texts that cannot match: every ASCII text the pattern matches holds one of its hints
    (hypothesis writes texts that match, in every case; D-181)."""
    import importlib

    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    hinted = getattr(importlib.import_module(f"jamgate_stages.{module}"), name)
    compiled = re.compile(hinted.pattern.pattern, hinted.pattern.flags)  # hypothesis needs one
    missed: list[str] = []

    @settings(max_examples=600, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.from_regex(compiled, alphabet=st.characters(max_codepoint=127)))
    def check(text: str) -> None:
        if hinted.pattern.search(text) and not hinted.search(text):
            missed.append(text)

    check()
    assert missed == []
    assert hinted.search("nothing to see here") is None
