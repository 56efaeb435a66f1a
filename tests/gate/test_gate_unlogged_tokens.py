"""A random token no credential rule names may be an unknown vendor's key: whatever the gate
decides about the text, its gate-log line never holds it (D-381)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jamgate_core.app import open_app
from jamgate_core.models import SaveRequest
from jamgate_core.settings import load_settings
from jamgate_stages.credentials import CredentialsStage

TOKEN = "q7Lm" + "Xw2Rk9Vt4Ns8Bp"  # built at run time: no scanner reads it as a key


@pytest.mark.parametrize(("text", "unlogged"), [
    (TOKEN, True),
    ("acme_live_" + TOKEN, True),
    (f"https://api.example.org/v1/hooks/{TOKEN}/deliveries", True),
    (f"Jam's locker tag reads {TOKEN}", True),
    ("https://github.com/jampap/jamgate/pull/42", False),
    ("3f9c2e1a7b4d9e0f3f9c2e1a7b4d9e0f", False),  # a digest
    ("7f0c2a9e-51d4-4c47-9a7e-2b0d6c1f3e55", False),  # a UUID
    ("src/jamgate/PipelineRunner.py", False),
    ("Jam's order SKU-AB12-CD34-EF56 ships Friday", False),
    ("Jam prefers PostgreSQL16 over MySQL8 for new services", False),
])
def test_a_random_token_passes_the_stage_marked_unfit_to_log(
        judge: Any, text: str, unlogged: bool) -> None:
    result = judge(CredentialsStage())(text)
    assert result.decision is None, text  # no credential rule refuses it
    assert result.redact is unlogged, text


def test_the_gate_log_never_holds_the_token_whatever_the_verdict(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "gate.log"
    monkeypatch.setenv("JAMGATE_GATE_LOG", str(log))
    texts = [TOKEN, "acme_live_" + TOKEN, f"Jam's locker tag reads {TOKEN}"]
    app = open_app(load_settings(home=tmp_path, store="sqlite", embedder="none"))
    try:
        verdicts = [app.save(SaveRequest(text=text)) for text in texts]
        app.save(SaveRequest(text="Jam likes figs."))
    finally:
        app.close()
    assert {v.decision for v in verdicts[:2]} == {"rejected"}
    lines = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert len(lines) == 4 and lines[-1]["text"] == "Jam likes figs."
    assert not any(TOKEN in json.dumps(line) for line in lines)
