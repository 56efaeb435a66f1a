"""The load script runs end to end (a small run; the full one is a benchmark)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "http_load.py"


@pytest.mark.slow
def test_load_script_small_run() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--clients", "4", "--ops", "15"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "60 done" in done.stdout and "errors: 0" in done.stdout
    assert "p50 ms" in done.stdout and "p99 ms" in done.stdout
