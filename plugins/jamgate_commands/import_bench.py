"""`jamgate bench import`'s workload and timing: a synthetic native export of gate-passing
records, imported into a fresh store in a temporary home (`transfer` registers the command)."""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

from jamgate_commands.transfer import OUTCOMES, format_class, import_file
from jamgate_core.formats import ExportMeta
from jamgate_core.models import MemoryRecord, SaveRequest, utcnow

_PLACES = ("Lisbon", "Athens", "Berlin", "Kyoto", "Austin", "Nairobi", "Lima", "Oslo")
_TOOLS = ("ripgrep", "neovim", "tmux", "podman", "duckdb", "helix", "zellij", "fish")


def synthetic_requests(count: int) -> list[SaveRequest]:
    """`count` distinct, gate-passing records spread over two years; every tenth one restates
    a subject so the batch also supersedes and keeps history."""
    start = utcnow() - timedelta(days=730)
    requests = []
    for i in range(count):
        place, tool = _PLACES[i % len(_PLACES)], _TOOLS[(i // 8) % len(_TOOLS)]
        subject = f"project-{i % (count // 10 or 1)}-tool" if i % 10 == 0 else None
        requests.append(SaveRequest(
            text=f"For project {i} Jam uses {tool} while travelling to {place}",
            type="project" if i % 3 else "preference", subject=subject,
            source="user-confirmed", created_at=start + timedelta(minutes=7 * i)))
    return requests


def write_export(path: Path, requests: Sequence[SaveRequest]) -> Path:
    """A native export of `requests` as stored records (ids `bench-0000000` …)."""
    stored = [MemoryRecord(id=f"bench-{i:07d}", text=r.text, type=r.type, subject=r.subject,
                           source=r.source, created_at=r.created_at or utcnow(),
                           updated_at=r.created_at or utcnow()) for i, r in enumerate(requests)]
    with path.open("w", encoding="utf-8") as out:
        format_class("jamgate")().write(stored, out, ExportMeta(utcnow(), "bench", "bench",
                                                                ("default",), False))
    return path


def bench_import(count: int, store: str, embedder: str = "none",
                 requests: Sequence[SaveRequest] | None = None,
                 workers: int | None = None) -> dict[str, Any]:
    """Time a native-format import of `count` records (`requests`, by default synthetic ones)
    into a fresh store: read + gate + write (wall and this process's CPU time)."""
    from jamgate_core.app import open_app
    from jamgate_core.settings import load_settings

    with tempfile.TemporaryDirectory(prefix="jamgate-bench-import-") as home:
        source_file = write_export(Path(home) / "bench-export.json",
                                   requests or synthetic_requests(count))
        app = open_app(load_settings(home=Path(home), store=store, embedder=embedder))
        try:
            # The app's first judgement loads numpy and the classifier (D-154): a one-off,
            # timed apart like the app's opening, so the rate is the import's own.
            warm_up = time.process_time()
            app.check(SaveRequest(text="Jam warms the gate up before the import"))
            warm_up = time.process_time() - warm_up
            started, cpu, children = time.perf_counter(), time.process_time(), _children_cpu()
            report = import_file(app, source_file, name="jamgate", workers=workers)
            seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
            children = _children_cpu() - children
        finally:
            app.close()
    from jamgate_commands.judge_ahead import workers_for
    counts = report.counts
    return {"records": count, "store": store, "embedder": embedder,
            "workers": workers_for(app, count, workers),
            "seconds": round(seconds, 3), "cpu_seconds": round(cpu, 3),
            "workers_cpu_seconds": round(children, 3),
            "records_per_second": round(count / seconds, 1),
            "records_per_cpu_second": round(count / max(cpu + children, 1e-9), 1),
            "records_per_main_cpu_second": round(count / max(cpu, 1e-9), 1),
            "first_judgement_cpu_seconds": round(warm_up, 3),
            "outcomes": {name: counts.get(name, 0) for name in OUTCOMES}}


def _children_cpu() -> float:
    """CPU seconds of this process's ended children (the import's workers)."""
    usage = os.times()
    return usage.children_user + usage.children_system
