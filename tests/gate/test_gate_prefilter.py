"""Prefilter: length in code points (4..32,000) and pleasantries."""

from __future__ import annotations

from typing import Any

import pytest

from jamgate_stages.prefilter import PrefilterStage, is_pleasantry


@pytest.fixture
def run(judge: Any) -> Any:
    return judge(PrefilterStage())


@pytest.mark.parametrize(("text", "code"), [
    ("abc", "prefilter.too_short"),
    ("x" * 32_001, "prefilter.too_long"),
])
def test_length_limits(run: Any, text: str, code: str) -> None:
    result = run(text)
    assert result.decision == "rejected" and result.reason_code == code


def test_length_boundaries_are_inclusive(run: Any) -> None:
    assert run("abcd").decision is None
    assert run("x" * 32_000).decision is None


def test_too_long_is_redacted_and_too_short_says_how_long(run: Any) -> None:
    assert run("x" * 32_001).redact is True
    assert "3 characters, minimum 4" in (run("abc").message or "")


def test_length_counts_code_points_not_utf16_units(run: Any) -> None:
    assert run("😀😀😀").reason_code == "prefilter.too_short"  # 3 code points, 6 UTF-16 units
    assert run("a" * 31_999 + "😀").decision is None


@pytest.mark.parametrize("text", [
    "thanks", "thank you!", "Hey, good morning!", "got it", "That's noted.", "thanks!!",
    "ok cool", "lol lol", "Sounds good, thanks!", "Hi Claude!", "👍👍👍👍", "😀😀😀😀", "🙏 🎉 👍",
    "Merci beaucoup !", "¡Muchas gracias!", "Ευχαριστώ πολύ!", "谢谢你！", "Спасибо!", "감사합니다",
])
def test_pleasantries_are_refused(run: Any, text: str) -> None:
    assert run(text).reason_code == "prefilter.pleasantry"


@pytest.mark.parametrize("text", [
    "thanks — note that I moved to Berlin", "Jam says thanks a lot", "Claude Code is Jam's editor",
    "good morning routine: coffee then a run", "jam 😀", "....",
])
def test_pleasantry_with_content_passes(run: Any, text: str) -> None:
    assert run(text).decision is None


def test_short_emoji_and_cjk_thanks_are_too_short_first(run: Any) -> None:
    assert run("👍👍").reason_code == "prefilter.too_short"
    assert run("谢谢！").reason_code == "prefilter.too_short"


def test_an_addressee_alone_is_not_a_pleasantry() -> None:
    assert not is_pleasantry("claude assistant")
    assert is_pleasantry("thanks claude")


def test_pleasantries_can_be_switched_off(judge: Any) -> None:
    stage = PrefilterStage(PrefilterStage.Options(pleasantries=False))
    assert judge(stage)("thanks!!").decision is None


def test_a_three_character_cjk_first_person_claim_is_not_too_short(run: Any) -> None:
    assert run("我吃素").decision is None  # I'm vegetarian
    assert run("测试").reason_code == "prefilter.too_short"
    assert run("ok").reason_code == "prefilter.too_short"
