"""The labelled corpus through the recommended stateless stage list."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from jamgate_commands.bench_gate import (
    STATELESS_ORDER,
    GateCase,
    Outcome,
    format_report,
    load_corpus,
    run_case,
    score_outcomes,
    stateless_stages,
)
from jamgate_stages.credentials import _SHAPES

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
MUST_PASS = {"durable", "durable-multilingual", "agent-preference"}


@pytest.fixture(scope="module")
def cases() -> list[GateCase]:
    return load_corpus(CORPUS)


@pytest.fixture(scope="module")
def outcomes(cases: list[GateCase]) -> list[Outcome]:
    stages = stateless_stages()
    return [run_case(case, stages) for case in cases]


def test_corpus_shape(cases: list[GateCase]) -> None:
    assert len(cases) >= 250
    categories = Counter(c.category for c in cases)
    assert categories["agent-preference"] >= 20
    for needed in ("durable", "durable-multilingual", "junk", "pleasantry", "question",
                   "transient", "chatter", "profile-dump", "general-knowledge", "credential"):
        assert categories[needed] > 0, needed
    assert all(c.origin for c in cases)
    assert all(c.expect in {"pass", "reject"} for c in cases)


def test_corpus_file_holds_no_whole_vendor_secret() -> None:
    for file in CORPUS.glob("*.jsonl"):
        for line in file.read_text(encoding="utf-8").splitlines():
            for kind, _label, pattern in _SHAPES:
                if kind in {"bearer_token", "private_key"}:
                    continue  # split below the threshold / a header alone
                assert not pattern.search(line), (file.name, kind)


def test_every_credential_is_refused_and_redacted(outcomes: list[Outcome]) -> None:
    credentials = [o for o in outcomes if o.case.category == "credential"]
    assert credentials
    missed = [o.shown_text() for o in credentials
              if o.decision != "reject" or not (o.reason_code or "").startswith("secret.")]
    assert missed == []


def test_no_durable_fact_or_agent_preference_is_refused(outcomes: list[Outcome]) -> None:
    refused = [(o.case.category, o.case.text, o.reason_code) for o in outcomes
               if o.case.category in MUST_PASS and o.decision == "reject"]
    assert refused == []


def test_no_credential_lookalike_is_refused(outcomes: list[Outcome]) -> None:
    refused = [(o.case.text, o.reason_code) for o in outcomes
               if o.case.category == "credential-lookalike" and o.decision == "reject"]
    assert refused == []


def test_per_category_accuracy(outcomes: list[Outcome], capsys: pytest.CaptureFixture[str]) -> None:
    report = score_outcomes(outcomes)
    with capsys.disabled():
        print("\nstage order:", " → ".join(STATELESS_ORDER))
        print(format_report(report))
    assert report["overall"]["accuracy"] >= 0.95
    for name, row in report["categories"].items():
        assert row["accuracy"] >= 0.85, name


def test_report_never_prints_a_credential(outcomes: list[Outcome]) -> None:
    text = format_report(score_outcomes(outcomes))
    for outcome in outcomes:
        if outcome.case.category == "credential":
            assert outcome.case.text not in text
    assert not re.search(r"sk-(?:proj|ant)-", text)
