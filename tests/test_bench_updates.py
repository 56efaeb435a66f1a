"""`jamgate bench updates`: the update-sequence corpus and its scorer."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from jamgate_commands.bench_updates import (
    SequenceOutcome,
    UpdateSequence,
    format_report,
    load_sequences,
    score_outcomes,
)
from jamgate_core.cli import main

CORPUS = Path(__file__).resolve().parent / "corpus" / "updates" / "sequences.jsonl"
KINDS = {"update", "addition", "other-person", "past", "wish", "one-off", "other-slot", "refine"}



def well_formed(sequences: list[UpdateSequence]) -> None:
    """Every sequence well formed, and each persona wholly in one split."""
    for s in sequences:
        assert 2 <= len(s.saves) <= 3 and s.kind in KINDS and s.split in ("dev", "test")
        for later, earlier in s.expected_pairs():
            assert 0 <= earlier < later < len(s.saves), s.id
        assert (s.kind == "update") == (len(s.saves) - 1 in s.retires), s.id
    splits: dict[str, set[str]] = {}
    for s in sequences:
        splits.setdefault(s.persona, set()).add(s.split)
    assert all(len(found) == 1 for found in splits.values())  # whole personas per split

def test_the_corpus_is_well_formed() -> None:
    sequences = load_sequences(CORPUS)
    assert len(sequences) >= 240
    assert len({s.id for s in sequences}) == len(sequences)
    well_formed(sequences)
    languages = Counter(s.lang for s in sequences)
    assert len(languages) >= 10 and languages["en"] <= 0.55 * len(sequences)


def _sequence(kind: str, retires: dict[int, list[int]], saves: int = 2) -> UpdateSequence:
    return UpdateSequence(id="x-01", lang="en", saves=[f"fact {i}" for i in range(saves)],
                          retires=retires, kind=kind, persona="x", split="dev")


def test_wrong_retirements_are_facts_lost_and_counted_apart() -> None:
    right = SequenceOutcome(_sequence("update", {1: [0]}), ["saved", "superseded"],
                            ["gate.accepted", "supersede.recency"], {(1, 0)})
    lost = SequenceOutcome(_sequence("other-person", {}), ["saved", "superseded"],
                           ["gate.accepted", "supersede.recency"], {(1, 0)})
    missed = SequenceOutcome(_sequence("update", {1: [0]}), ["saved", "saved"],
                             ["gate.accepted", "gate.accepted"])
    report = score_outcomes([right, lost, missed], show_misses=True)["splits"]["dev"]
    overall = report["overall"]
    assert overall["sequences"] == 3 and overall["accuracy"] == pytest.approx(1 / 3, abs=1e-3)
    assert overall["recall"] == 0.5 and overall["precision"] == 0.5
    assert overall["facts_lost"] == 1 and overall["non_updates_left_alone"] == 0.0
    assert report["kinds"]["other-person"]["facts_lost"] == 1
    assert [m["kind"] for m in report["miss_list"]] == ["other-person", "update"]


def test_a_one_off_request_may_be_refused_but_nothing_else() -> None:
    one_off = SequenceOutcome(_sequence("one-off", {}), ["saved", "rejected"],
                              ["gate.accepted", "classifier.one_off_request"])
    wish = SequenceOutcome(_sequence("wish", {}), ["saved", "rejected"],
                           ["gate.accepted", "classifier.speculation"])
    assert one_off.correct and not one_off.refused
    assert not wish.correct and wish.refused == [1]


def test_the_test_split_never_prints_its_misses() -> None:
    sequence = _sequence("update", {1: [0]}).model_copy(update={"split": "test"})
    miss = SequenceOutcome(sequence, ["saved", "saved"], ["gate.accepted", "gate.accepted"])
    report = score_outcomes([miss], show_misses=True)
    assert "miss_list" not in report["splits"]["test"]
    assert "fact 1" not in format_report(report)


def test_the_command_runs_a_few_sequences(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    lines = CORPUS.read_text(encoding="utf-8").splitlines()
    few = tmp_path / "few.jsonl"
    few.write_text("\n".join([lines[0], lines[3], lines[4]]) + "\n", encoding="utf-8")
    assert main(["bench", "updates", "--corpus", str(few), "--embedder", "none",
                 "--show-misses", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    dev = report["splits"]["dev"]
    assert dev["overall"]["sequences"] == 3 and dev["overall"]["errors"] == 0
    assert set(dev["kinds"]) <= KINDS and "miss_list" in dev
    assert main(["bench", "updates", "--corpus", str(few), "--limit", "1"]) == 0
    assert "== dev ==" in capsys.readouterr().out


def test_a_missing_corpus_is_a_usage_error(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:
    assert main(["bench", "updates", "--corpus", str(tmp_path / "none.jsonl")]) == 2
    assert "no corpus" in capsys.readouterr().err


CORPUS2 = CORPUS.with_name("sequences2.jsonl")


def test_the_second_source_is_well_formed_and_apart_from_the_first() -> None:
    sequences = load_sequences(CORPUS2)
    assert len(sequences) >= 200 and len({s.id for s in sequences}) == len(sequences)
    well_formed(sequences)
    assert all(int(s.persona[1:]) >= 31 for s in sequences)  # new personas only
    by_split = {split: {s.lang for s in sequences if s.split == split} for split in ("dev", "test")}
    required = {"ar", "ja", "pl", "tr", "ko", "zh", "hi", "ru", "uk", "id", "sw", "vi", "he", "fa",
                "sv", "en"}
    assert required <= by_split["dev"] and required <= by_split["test"]
    assert set(Counter(s.kind for s in sequences)) == KINDS
    assert 0.35 <= sum(s.kind == "update" for s in sequences) / len(sequences) <= 0.45
    first = {text for s in load_sequences(CORPUS) for text in s.saves}
    assert not first & {text for s in sequences for text in s.saves}


def test_the_source_option_reads_the_second_corpus(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(CORPUS.parents[3])
    assert main(["bench", "updates", "--source", "sequences2", "--split", "dev", "--limit", "2",
                 "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["corpus"].endswith("sequences2.jsonl")
    assert report["splits"]["dev"]["overall"]["sequences"] == 2
    assert main(["bench", "updates", "--source", "all", "--split", "dev", "--limit", "1"]) == 0
    out = capsys.readouterr().out
    assert "sequences2.jsonl" in out and "sequences.jsonl" in out
