"""An agent's notes about the user, in the third person (issue #16, D-370 … D-372).

Texts written for this file from the keep and refusal definitions, none taken from a corpus:
a request the user made of the agent, reported as "the user asked that … / asked the agent to
…", is a standing instruction when it says so ("always", "never", "stop …ing"), not a question
nor narration of the conversation; the report of a question or of this turn's request still is.
"""

from __future__ import annotations

import pytest

from jamgate_stages._question import is_question
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
