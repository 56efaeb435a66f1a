"""Granularity: several independent facts in one save are refused; one fact with parts passes."""

from __future__ import annotations

from typing import Any

import pytest

from jamgate_stages.granularity import GranularityStage, multiple_facts


@pytest.mark.parametrize("text", [
    "Name: Jam. Lives in Athens. Works at Acme. Likes tea. Has a dog.",
    "- Jam lives in Athens\n- Jam works at Acme\n- Jam likes tea",
    "Name: Jam\nAge: 34\nCity: Athens",
    "Jam lives in Athens. He works at Acme. He loves hiking. His sister is a doctor.",
    "Jam likes tea, has a dog, works at Acme and lives in Athens.",
    "User profile: lives in Athens; vegetarian; uses Linux; speaks Greek.",
])
def test_profile_dumps(text: str) -> None:
    assert multiple_facts(text)


@pytest.mark.parametrize("text", [
    "I moved to Berlin in May. The job is there.",
    "Jam loves hiking, cycling and swimming.",
    "Jam lives in Athens with his wife and two dogs.",
    "Jam's deploy checklist:\n- run the tests\n- bump the version\n- tag the release",
    "Jam quit his job at Acme because the commute was long. He now freelances.",
    "Jam likes tea. Jam likes coffee. Jam likes juice.",  # one topic: conservative
    "I'm vegan, I run marathons and I work remotely for Acme.",
])
def test_one_fact_with_reason_or_parts_passes(text: str) -> None:
    assert not multiple_facts(text)


def test_stage_refusal_and_thresholds(judge: Any) -> None:
    text = "Jam lives in Athens. He works at Acme. He loves hiking."
    result = judge(GranularityStage())(text)
    assert result.reason_code == "granularity.multiple_facts"
    assert "one fact per call" in (result.message or "")
    lenient = GranularityStage(GranularityStage.Options(min_clauses=4))
    assert judge(lenient)(text).decision is None
