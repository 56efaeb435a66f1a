"""The credentials stage alone on the measuring corpus's train and dev sources (s1–s5).

s6 is the frozen test split: it is never read here. Every `credential` record must be refused
with a `secret.*` code and redacted (recall 100%); no `expect: pass` record, look-alikes
included, may be refused (zero false refusals); and an ordinary text is judged fast.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import pytest

from jamgate_commands.bench_gate import GateCase, candidate_for, load_corpus, offline_context
from jamgate_stages.credentials import CredentialsStage

GATE2 = Path(__file__).resolve().parents[1] / "corpus" / "gate2"
TRAIN_AND_DEV = ("s1.jsonl", "s2.jsonl", "s3.jsonl", "s4.jsonl", "s5.jsonl")
P50_LIMIT_US = 300.0


@pytest.fixture(scope="module")
def cases() -> list[GateCase]:
    return [case for name in TRAIN_AND_DEV for case in load_corpus(GATE2 / name)]


def refused(case: GateCase) -> tuple[bool, str | None, bool]:
    result = CredentialsStage().evaluate(candidate_for(case), offline_context())
    return result.decision == "rejected", result.reason_code, result.redact


def test_every_credential_is_refused_and_redacted(cases: list[GateCase],
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("mnemonic")  # the seed-phrase records need the BIP-39 wordlists
    credentials = [c for c in cases if c.category == "credential"]
    outcomes = [(c, *refused(c)) for c in credentials]
    missed = [c.origin for c, rejected, code, redact in outcomes
              if not (rejected and redact and (code or "").startswith("secret."))]
    with capsys.disabled():
        print(f"\ncredentials (s1–s5): {len(credentials)}, recall "
              f"{1 - len(missed) / len(credentials):.2%}")
    assert len(credentials) >= 200
    assert missed == []


def test_no_kept_record_is_refused(cases: list[GateCase],
                                   capsys: pytest.CaptureFixture[str]) -> None:
    kept = [c for c in cases if c.expect == "pass"]
    wrong = [(c.category, c.text, refused(c)[1]) for c in kept if refused(c)[0]]
    with capsys.disabled():
        lookalikes = sum(c.category == "credential-lookalike" for c in kept)
        print(f"\nkept (s1–s5): {len(kept)} ({lookalikes} credential look-alikes), "
              f"false refusals {len(wrong)}")
    assert lookalikes >= 100
    assert wrong == []


def test_an_ordinary_text_is_judged_fast(cases: list[GateCase],
                                         capsys: pytest.CaptureFixture[str]) -> None:
    stage = CredentialsStage()
    texts = [c.text for c in cases if c.category != "credential"][:1000]
    for text in texts:  # warm up: wordlists, regex caches
        stage.detect(text)
    times = []
    for text in texts:
        start = time.perf_counter()
        stage.detect(text)
        times.append(time.perf_counter() - start)
    p50 = statistics.median(times) * 1e6
    with capsys.disabled():
        print(f"\ncredentials detect on {len(texts)} corpus texts: p50 {p50:.1f} µs")
    assert p50 < P50_LIMIT_US
