"""The world sentences of `train_gate_classifier.py --world-sentences` (D-265): how a package
description becomes one sentence, and how much the sentences weigh in training. Offline: the
descriptions here are written for the test, in the files' format; nothing is fetched."""

from __future__ import annotations

import bz2
import importlib.util
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _module(name: str) -> ModuleType:
    path = ROOT / "scripts" / f"{name}.py"
    sys.path.insert(0, str(path.parent))
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def world() -> ModuleType:
    return _module("world_sentences")


@pytest.mark.parametrize(("paragraph", "expected"), [
    ("Quillpad is a small editor for plain text notes. It keeps one file a day.",
     "Quillpad is a small editor for plain text notes."),
    ("Das Werkzeug zählt die Wörter eines Textes und schreibt sie in eine Tabelle.",
     "Das Werkzeug zählt die Wörter eines Textes und schreibt sie in eine Tabelle."),
    ("这个程序可以把数码照片按拍摄日期和相机型号自动整理到不同的文件夹里。它没有图形界面。",
     "这个程序可以把数码照片按拍摄日期和相机型号自动整理到不同的文件夹里。"),
    ("Too short.", None),
    ("See https://quill.example for the manual of this small note editor.", None),
    ("It offers the following features:", None),
    ("The editor supports: * tabs * split views * themes and more settings.", None),
    ("Why would anyone write notes in a terminal editor at all today?", None),
])
def test_first_sentence_keeps_one_declarative_line_of_prose(
        world: ModuleType, paragraph: str, expected: str | None) -> None:
    assert world.first_sentence(paragraph) == expected


def test_descriptions_read_the_first_paragraph_of_each_long_description(
        world: ModuleType, tmp_path: Path) -> None:
    text = ("Package: quillpad\nDescription-md5: aaa\nDescription-xx: note editor\n"
            " Quillpad is a small editor\n for plain text notes.\n .\n"
            " This package contains the program.\n\n"
            "Package: quillpad-doc\nDescription-md5: aaa\nDescription-xx: note editor (doc)\n"
            " Another text under the same md5 is not read twice.\n\n"
            "Package: kanji-fmt\nDescription-md5: bbb\nDescription-xx: 整形\n"
            " この道具は日本語の文章を\n 整形します。\n")
    path = tmp_path / "Translation-xx.bz2"
    path.write_bytes(bz2.compress(text.encode("utf-8")))
    assert world._descriptions(path) == {
        "aaa": "Quillpad is a small editor for plain text notes.",
        "bbb": "この道具は日本語の文章を整形します。"}


def test_boilerplate_is_recognised_in_the_english_original(world: ModuleType) -> None:
    assert world.BOILERPLATE.search("This package contains the debugging symbols for quill.")
    assert world.BOILERPLATE.search("This is a transitional dummy package.")
    assert not world.BOILERPLATE.search("Quillpad is a small editor for plain text notes.")


def test_world_rows_weigh_their_share_of_general_knowledge(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    pytest.importorskip("sklearn")
    trainer = _module("train_gate_classifier")
    seen: dict[str, list[float]] = {}

    class Recorder:
        def __init__(self, **_: object) -> None:
            pass

        def fit(self, _x: object, labels: list[str], sample_weight: list[float]) -> None:
            seen["labels"], seen["weights"] = labels, sample_weight

    monkeypatch.setattr(trainer, "LogisticRegression", Recorder)
    corpus = ["keep"] * 4 + ["general-knowledge"] * 2 + ["transient"] * 2
    labels = corpus + ["general-knowledge"] * 3
    for within, world_total, corpus_gk in ((False, 0.5, 1.0), (True, 0.5, 0.5)):
        trainer.fit(None, labels, 1.0, world_rows=3, world_weight=0.5, world_within=within)
        weights = seen["weights"]
        total: Counter[str] = Counter()
        for y, w in zip(labels[:8], weights[:8], strict=True):
            total[y] += w
        gk = total["transient"]  # each refusal category's share before the world rows
        assert total["keep"] == pytest.approx(4.0)  # the corpus's scale: its row count
        assert total["general-knowledge"] == pytest.approx(corpus_gk * gk)
        assert sum(weights[8:]) == pytest.approx(world_total * gk)


def test_the_archive_is_apts_own_or_the_one_named(world: ModuleType,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """No archive host is written in the script: it reads apt's sources, or the setting."""
    monkeypatch.setenv("JAMGATE_DEBIAN_MIRROR", "http://archive.invalid/debian/")
    world.mirror.cache_clear()
    try:
        assert world.mirror() == "http://archive.invalid/debian"
    finally:
        world.mirror.cache_clear()
