"""Chatter: status tokens, bare identifiers, timestamps, echoes and conversation narration."""

from __future__ import annotations

from typing import Any

import pytest

from jamgate_stages.chatter import ChatterStage


@pytest.fixture
def run(judge: Any) -> Any:
    return judge(ChatterStage())


@pytest.mark.parametrize(("text", "code"), [
    ("HEARTBEAT_OK", "status"), ("NO_REPLY", "status"), ("[DONE]", "status"),
    ("TASK_COMPLETE DONE", "status"),
    ("https://github.com/jampap/jamgate/pull/42", "identifier"),
    ("/home/jam/projects/jamgate/README.md", "identifier"),
    ("src/jamgate/pipeline.py", "identifier"),
    ("README.md", "identifier"), ("3f9c2e1a7b4d", "identifier"), ("jam@example.org", "identifier"),
    ("id: 7f0c2a9e-51d4-4c47-9a7e-2b0d6c1f3e55", "recall_echo"),
    ("2026-07-21T10:00:00Z", "timestamp"), ("Tue Jul 21 10:00:00 UTC 2026", "timestamp"),
    ("[2026-07-21 10:00]", "timestamp"),
    ("Recalled memories: Jam lives in Athens.", "recall_echo"),
    ("- [preference] Jam prefers tea (score 0.82)", "recall_echo"),
    ('Saved: "Jam lives in Athens"', "recall_echo"),
    ("You are a helpful assistant. Answer concisely.", "system_prompt"),
    ("As an AI language model, I don't have personal preferences.", "system_prompt"),
    ("No memories found.", "system_prompt"),
    ("User asked about the weather in Athens.", "conversation"),
    ("The assistant said the build was fixed.", "conversation"),
    ("Conversation summary: we discussed the deploy.", "conversation"),
    ("We discussed the migration plan.", "conversation"),
    ("El usuario preguntó por el clima.", "conversation"),
])
def test_chatter_is_refused(run: Any, text: str, code: str) -> None:
    assert run(text).reason_code == f"chatter.{code}", text


@pytest.mark.parametrize("text", [
    "Jam's blog is at https://jam.example.org", "The docs live in /home/jam/docs.",
    "The user said they moved to Berlin in May.", "The user asked me to always answer in Greek.",
    "The assistant should answer in Greek.", "Jam told the assistant he is allergic to nuts.",
    "Jam was born on 1991-03-14.", "Jam works DONE-first: finish before starting.",
    "User asked to be called Sam rather than Samuel.",  # D-292: how to be treated
    "The user requested to be addressed formally in emails.",
    "1234", "NASA", "Memory: Jam's laptop has 32 GB of RAM.",
])
def test_statements_about_the_person_pass(run: Any, text: str) -> None:
    assert run(text).decision is None, text
