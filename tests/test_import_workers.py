"""An import's worker processes (D-207): a worker that dies or fails ends the import clearly,
nothing written or logged; the command line's import uses them with its progress bar."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from jamgate_commands import judge_ahead
from jamgate_commands.import_bench import synthetic_requests, write_export
from jamgate_commands.judge_ahead import ImportWorkerFailed
from jamgate_commands.transfer import import_file
from jamgate_core.app import open_app
from jamgate_core.models import utcnow
from jamgate_core.settings import load_settings
from jamgate_stages.chatter import ChatterStage

MARK = "project 150 "  # the 151st synthetic record


def _in_a_worker(act: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """`act()` when a worker process judges the marked record (never in this process)."""
    parent, evaluate = os.getpid(), ChatterStage.evaluate

    def evaluate_or_act(self: ChatterStage, candidate: Any, ctx: Any) -> Any:
        if os.getpid() != parent and MARK in candidate.text:
            act()
        return evaluate(self, candidate, ctx)

    monkeypatch.setattr(ChatterStage, "evaluate", evaluate_or_act)
    monkeypatch.setattr(judge_ahead, "PARALLEL_FROM", 1)
    monkeypatch.setattr(judge_ahead, "CHUNK", 16)


def _import_fails(tmp_path: Path, jamgate_home: Path) -> str:
    export = write_export(tmp_path / "export.json", synthetic_requests(400))
    app = open_app(load_settings(home=jamgate_home, store="sqlite"))
    started = time.monotonic()
    try:
        with pytest.raises(ImportWorkerFailed) as failed:
            import_file(app, export, name="jamgate", workers=2)
        assert time.monotonic() - started < 30  # no hang
        assert app.store.list("default", status="all", type=None, limit=10, cursor=None,
                              now=utcnow()).records == []
    finally:
        app.close()
    log = jamgate_home / "gate.log"
    assert not log.exists() or log.read_text(encoding="utf-8") == ""
    return str(failed.value)


def test_a_killed_worker_ends_the_import_with_nothing_written(
        tmp_path: Path, jamgate_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _in_a_worker(lambda: os.kill(os.getpid(), signal.SIGKILL), monkeypatch)
    message = _import_fails(tmp_path, jamgate_home)
    assert "killed by signal 9" in message and "nothing was written" in message


def test_a_failing_worker_ends_the_import_naming_the_failure(
        tmp_path: Path, jamgate_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure outside the stages (whose own errors are verdicts: fail closed or open)."""
    judge = judge_ahead._judge_chunk

    def judge_or_fail(prefix: Any, chunk: list[Any], now: Any) -> Any:
        if any(MARK in candidate.text for candidate in chunk):
            raise MemoryError("the worker ran out of memory")
        return judge(prefix, chunk, now)

    _in_a_worker(lambda: None, monkeypatch)
    monkeypatch.setattr(judge_ahead, "_judge_chunk", judge_or_fail)
    message = _import_fails(tmp_path, jamgate_home)
    assert "MemoryError: the worker ran out of memory" in message


def test_the_command_imports_through_workers_with_its_progress_bar(tmp_path: Path) -> None:
    """1,000 records (the size from which workers start): the bar reaches the end and the
    records are stored; the same file with `--workers 0` gives the same counts."""
    export = write_export(tmp_path / "export.json", synthetic_requests(1000))
    counts = []
    for workers in ("2", "0"):
        home = tmp_path / f"home-{workers}"
        run = subprocess.run(
            [sys.executable, "-m", "jamgate_core", "import", str(export), "--json",
             "--progress", "--workers", workers],
            env={**os.environ, "JAMGATE_HOME": str(home), "JAMGATE_STORE": "sqlite"},
            capture_output=True, text=True, timeout=300, check=True)
        assert run.stderr.rstrip().endswith("1000/1000"), run.stderr[-300:]
        counts.append(json.loads(run.stdout)["counts"])
    assert counts[0] == counts[1] and counts[0]["imported"] + counts[0]["superseded"] == 1000


def test_a_bad_worker_count_is_a_usage_error(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "jamgate_core", "import",
                          str(tmp_path / "x.json"), "--workers", "two"],
                         capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 2 and "whole number of workers" in run.stderr
