"""The blind split (issue #16): written from the definitions alone, measured, never trained on.

`scripts/train_gate_classifier.py` must never read it — neither by name nor through a source
or a text it shares with the train and dev splits — and `jamgate bench gate --split blind`
hides its misses as it does the test split's (D-161, D-195).
"""

from __future__ import annotations

import importlib.util
import json
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

from jamgate_commands.bench_gate import format_report, split_cases

ROOT = Path(__file__).resolve().parents[2]
GATE2 = ROOT / "tests" / "corpus" / "gate2"


def _module(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def trainer() -> ModuleType:
    pytest.importorskip("sklearn")  # the dev extra: the script imports it at the top
    return _module(ROOT / "scripts" / "train_gate_classifier.py")


def test_the_blind_sources_are_in_no_other_split() -> None:
    splits = tomllib.loads((GATE2 / "SPLITS.toml").read_text(encoding="utf-8"))
    blind = set(splits["blind"])
    assert blind == {"s16"}
    for name in ("train", "dev", "test"):
        assert blind & set(splits[name]) == set(), name


def test_the_training_script_refuses_the_blind_split(trainer: ModuleType) -> None:
    with pytest.raises(ValueError, match="never reads the 'blind' split"):
        trainer.split("blind")


def test_the_training_script_refuses_a_train_split_naming_a_blind_source(
        trainer: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "SPLITS.toml").write_text('train = ["s1", "s16"]\ndev = ["s5"]\n'
                                          'blind = ["s16"]\n', encoding="utf-8")
    monkeypatch.setattr(trainer, "CORPUS", tmp_path)
    with pytest.raises(ValueError, match="blind source"):
        trainer.split("train")


def test_train_and_dev_share_no_text_with_the_blind_split(trainer: ModuleType) -> None:
    """What the script reads (train with the regression corpora, dev) holds no blind text,
    folded as check_source.py folds them (case, accents and spacing ignored)."""
    fold = _module(GATE2 / "check_source.py")._key
    blind = {fold(case.text) for case in split_cases("blind", GATE2)}
    assert len(blind) >= 450
    for name in ("train", "dev"):
        read = {fold(case.text) for case in trainer.split(name)}
        shared = read & blind
        assert len(shared) == 0, f"{name} shares {len(shared)} text(s) with the blind split"


def test_bench_gate_hides_the_blind_splits_misses(capsys: pytest.CaptureFixture[str]) -> None:
    """Like the test split: the report carries the count of misses, never their texts."""
    from jamgate_core.cli import main

    assert main(["bench", "gate", "--split", "blind", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["failures"] == [] and "failures_hidden" in report
    assert report["split"] == "blind"
    assert report["overall"]["cases"] == len(split_cases("blind", GATE2))


def test_the_text_report_names_the_frozen_split() -> None:
    report = {"categories": {}, "overall": {"cases": 0, "accuracy": None, "precision": None,
                                            "recall": None},
              "reasons": {}, "failures": [], "failures_hidden": 3, "split": "blind"}
    assert "3 misses on the frozen blind split, texts hidden" in format_report(report)


def test_the_rule_stages_tuning_split_shares_no_text_with_the_blind_split() -> None:
    """The rules are tuned on rules_dev (s17): none of its texts may be a blind one."""
    fold = _module(GATE2 / "check_source.py")._key
    blind = {fold(case.text) for case in split_cases("blind", GATE2)}
    tuned = {fold(case.text) for case in split_cases("rules_dev", GATE2)}
    assert tuned and not tuned & blind
