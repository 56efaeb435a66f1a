"""The reusable scorer behind `jamgate bench gate`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar

import pytest
from pydantic import BaseModel

from jamgate_commands.bench_gate import (
    GateCase,
    load_corpus,
    run_case,
    score_corpus,
    stateless_stages,
)
from jamgate_core.models import Candidate, StageResult


class RejectWordStage:
    """Refuses texts containing "bad" (a stand-in to test the scorer)."""

    name: ClassVar[str] = "reject-word"
    requires: ClassVar[frozenset[str]] = frozenset()

    class Options(BaseModel):
        pass

    def evaluate(self, candidate: Candidate, ctx: Any) -> StageResult:
        if "bad" in candidate.text:
            return StageResult.reject("test.bad", "bad")
        return StageResult.passed()


class ExplodingStage(RejectWordStage):
    name: ClassVar[str] = "boom"

    def evaluate(self, candidate: Candidate, ctx: Any) -> StageResult:
        raise RuntimeError("boom")


def case(text: str, expect: str, category: str = "c", reason: str | None = None) -> GateCase:
    return GateCase(text=text, expect=expect, category=category, reason=reason, origin="test")


def test_load_corpus_joins_text_parts_from_a_file_or_folder(tmp_path: Path) -> None:
    lines = [{"text_parts": ["a", "b"], "category": "x", "expect": "reject", "origin": "t"},
             {"text": "c", "category": "y", "expect": "pass", "origin": "t"}]
    (tmp_path / "one.jsonl").write_text("\n".join(json.dumps(x) for x in lines) + "\n\n")
    assert [c.text for c in load_corpus(tmp_path)] == ["ab", "c"]
    assert [c.text for c in load_corpus(tmp_path / "one.jsonl")] == ["ab", "c"]


def test_precision_and_recall_per_category_and_reason() -> None:
    cases = [
        case("bad one", "reject", "junk", "test"),
        case("bad two", "pass", "junk"),          # false reject
        case("fine", "reject", "junk", "test"),  # missed reject
        case("fine too", "pass", "facts"),
    ]
    report = score_corpus(cases, [RejectWordStage()])
    junk = report["categories"]["junk"]
    assert (junk["precision"], junk["recall"]) == (0.5, 0.5)
    assert (junk["false_rejects"], junk["missed_rejects"]) == (1, 1)
    assert report["categories"]["facts"]["accuracy"] == 1.0
    assert report["categories"]["facts"]["precision"] is None
    assert report["reasons"]["test"] == {"support": 2, "flagged": 2, "precision": 0.5,
                                         "recall": 0.5}
    assert report["overall"]["correct"] == 2 and len(report["failures"]) == 2


def test_wrong_reason_counts_as_wrong() -> None:
    outcome = run_case(case("bad", "reject", reason="secret"), [RejectWordStage()])
    assert outcome.decision == "reject" and not outcome.correct


def test_a_failing_stage_is_a_wrong_answer_not_a_crash() -> None:
    outcome = run_case(case("anything", "pass"), [ExplodingStage()])
    assert outcome.reason_code == "stage_error.boom" and not outcome.correct


def test_credentials_are_redacted_in_failures() -> None:
    secret = "".join(["gh", "p_", "Zq8Xw2Lm9Rt4Yb7Nc3Vd6Kp1"])
    report = score_corpus([case(secret, "pass", "credential")], stateless_stages())
    assert report["failures"][0]["text"].startswith("[redacted:")


def test_the_frozen_test_split_prints_no_missed_text(capsys: pytest.CaptureFixture[str]) -> None:
    """Reading the test split's misses would be tuning on it: only their count is shown."""
    from jamgate_core.cli import main

    assert main(["bench", "gate", "--split", "test", "--json"]) == 0
    frozen = json.loads(capsys.readouterr().out)
    assert frozen["failures"] == [] and frozen["failures_hidden"] > 0
    assert main(["bench", "gate", "--split", "rules_check", "--json"]) == 0
    checked = json.loads(capsys.readouterr().out)
    assert checked["failures"] == [] and checked["failures_hidden"] > 0
    assert main(["bench", "gate", "--split", "dev", "--json"]) == 0
    dev = json.loads(capsys.readouterr().out)
    assert dev["failures"] and "failures_hidden" not in dev


def test_every_split_of_splits_toml_is_a_bench_split(capsys: pytest.CaptureFixture[str]) -> None:
    """`--split` takes the names SPLITS.toml gives, so the rules' tuning set runs too."""
    from jamgate_commands.bench_gate import split_names
    from jamgate_core.cli import main

    assert {"train", "dev", "test", "rules_dev"} <= set(split_names())
    assert main(["bench", "gate", "--split", "rules_dev", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert "rules_dev split" in report["corpus"] and report["overall"]["cases"] >= 300


def test_an_unknown_split_is_a_usage_error_naming_the_splits(
        capsys: pytest.CaptureFixture[str]) -> None:
    from jamgate_core.cli import main

    assert main(["bench", "gate", "--split", "nosuch"]) == 2
    err = capsys.readouterr().err
    assert "no split 'nosuch'" in err and "rules_dev" in err and "blind" in err
