"""`jamgate bench speed` at CI sizes: every tier prints figures, and the options work.

The full sizes (1,000 / 10,000 / 100,000, stdio at 10,000) are run by hand; their figures
and commands are in docs/benchmarks.md.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from jamgate_commands.bench_speed import Latency, Progress, Row, Workload, format_table


def bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "jamgate_core.cli", "bench", "speed", *args],
                          capture_output=True, text=True, timeout=900)


@pytest.mark.slow
def test_small_run_covers_every_tier_kind() -> None:
    done = bench("--sizes", "300,10500", "--stores", "sqlite,file,memory", "--samples", "20",
                 "--mcp-size", "300", "--json")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    tiers = {(r["path"], r["store"], r["records"]) for r in rows}
    assert tiers == {("in-process", "sqlite", 300), ("in-process", "file", 300),
                     ("in-process", "memory", 300), ("in-process", "sqlite", 10500),
                     ("stdio MCP", "sqlite", 300)}, "sizes above 10,000 run on SQLite only"
    for row in rows:
        assert row["samples"] == 20
        assert 0 < row["save_p50_ms"] <= row["save_p95_ms"]
        assert 0 < row["recall_p50_ms"] <= row["recall_p95_ms"]
        assert row["peak_mb"] > 10


def test_bad_options_are_usage_errors() -> None:
    done = bench("--stores", "sqlite,postgres")
    assert done.returncode == 2 and "unknown store(s) postgres" in done.stderr
    done = bench("--sizes", "ten")
    assert done.returncode == 2 and "numbers separated by commas" in done.stderr


def test_table_progress_and_workload() -> None:
    latency = Latency([0.001, 0.002, 0.003, 0.004])
    assert latency.p50_ms == pytest.approx(2.5) and latency.p95_ms == pytest.approx(4.0)
    table = format_table([Row("in-process", "sqlite", 100_000, latency, latency, 80.0)])
    assert "100,000" in table and "2.50 ms" in table
    stream = io.StringIO()
    progress = Progress(stream)
    progress.start("fill", 10)
    progress.update(5)
    progress.finish()
    assert stream.getvalue() == "fill: done \n", "no redrawing when stderr is not a terminal"
    one, two = Workload(seed=3), Workload(seed=3)
    assert [one.text() for _ in range(5)] == [two.text() for _ in range(5)]
    assert len({one.text() for _ in range(1000)}) == 1000
