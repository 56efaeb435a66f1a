"""The figures `jamgate bench speed` prints: latency samples, table rows, the import rate,
cold starts, and the report that holds them (`bench_speed.py` measures them)."""

from __future__ import annotations

import resource
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Latency:
    """Samples of one operation, in seconds."""

    samples: list[float] = field(default_factory=list)

    def quantile(self, q: float) -> float:
        ordered = sorted(self.samples)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")

    @property
    def p50_ms(self) -> float:
        return statistics.median(self.samples) * 1000 if self.samples else float("nan")

    @property
    def p95_ms(self) -> float:
        return self.quantile(0.95) * 1000


@dataclass
class Row:
    """One line of the table. `save_cpu` / `recall_cpu`: CPU seconds per call (the server's
    over stdio, this process's in-process)."""

    path: str  # "in-process" | "stdio MCP"
    store: str
    records: int
    save: Latency
    recall: Latency
    peak_mb: float
    embedder: str = "none"
    save_cpu: Latency = field(default_factory=Latency)
    recall_cpu: Latency = field(default_factory=Latency)
    refused: int = 0  # timed saves the gate did not store (stdio tiers count them)
    resident_mb: float = float("nan")  # the server's VmRSS at the end of a stdio tier

    def as_dict(self) -> dict[str, Any]:
        return {"path": self.path, "store": self.store, "embedder": self.embedder,
                "records": self.records,
                "save_p50_ms": round(self.save.p50_ms, 3),
                "save_p95_ms": round(self.save.p95_ms, 3),
                "save_cpu_p50_ms": _rounded(self.save_cpu.p50_ms),
                "recall_p50_ms": round(self.recall.p50_ms, 3),
                "recall_p95_ms": round(self.recall.p95_ms, 3),
                "recall_cpu_p50_ms": _rounded(self.recall_cpu.p50_ms),
                "samples": len(self.save.samples), "refused": self.refused,
                "peak_mb": round(self.peak_mb, 1),
                "resident_mb": _rounded(self.resident_mb, 1)}


def _rounded(value: float, digits: int = 3) -> float | None:
    return None if value != value else round(value, digits)  # NaN (no figure): null


@dataclass
class ImportRate:
    """One `bench import` run: records judged and written per second, wall and CPU."""

    embedder: str
    records: int
    seconds: float
    cpu_seconds: float
    outcomes: dict[str, int]

    def as_dict(self) -> dict[str, Any]:
        return {"embedder": self.embedder, "records": self.records,
                "seconds": round(self.seconds, 3), "cpu_seconds": round(self.cpu_seconds, 3),
                "records_per_second": round(self.records / self.seconds, 1),
                "records_per_cpu_second": round(self.records / max(self.cpu_seconds, 1e-9), 1),
                "outcomes": self.outcomes}

    def line(self) -> str:
        return (f"import     {self.embedder:<7} {self.records:>8,} records  "
                f"{self.records / self.seconds:>7,.0f} records/s wall  "
                f"{self.records / max(self.cpu_seconds, 1e-9):>7,.0f} records/s of CPU")


@dataclass
class ColdStart:
    """Cold starts of `jamgate serve` over stdio on an empty home, in seconds."""

    embedder: str
    tools_list: list[float]  # process start → first tools/list answer
    exit: list[float]  # stdin closed → process gone
    cpu: list[float] = field(default_factory=list)  # the server's CPU time at that answer

    def as_dict(self) -> dict[str, Any]:
        return {"embedder": self.embedder, "runs": len(self.tools_list),
                "first_tools_list_p50_s": round(statistics.median(self.tools_list), 3),
                "first_tools_list_max_s": round(max(self.tools_list), 3),
                "cpu_at_first_tools_list_p50_s": (round(statistics.median(self.cpu), 3)
                                                  if self.cpu else None),
                "exit_p50_s": round(statistics.median(self.exit), 3)}

    def line(self) -> str:
        return (f"cold start {self.embedder:<7} first tools/list "
                f"{statistics.median(self.tools_list):.3f} s p50 "
                f"(max {max(self.tools_list):.3f} s; server CPU {self._cpu()}), exit after "
                f"stdin closes "
                f"{statistics.median(self.exit):.3f} s ({len(self.tools_list)} runs)")


    def _cpu(self) -> str:
        return f"{statistics.median(self.cpu):.3f} s" if self.cpu else "n/a"


@dataclass
class Report:
    """What a run measured, phase by phase."""

    rows: list[Row] = field(default_factory=list)
    imports: list[ImportRate] = field(default_factory=list)
    starts: list[ColdStart] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"tiers": [row.as_dict() for row in self.rows],
                "import": [rate.as_dict() for rate in self.imports],
                "cold_start": [start.as_dict() for start in self.starts],
                "notes": self.notes}


def peak_mb(who: int = resource.RUSAGE_SELF) -> float:
    """Peak resident memory so far, in MiB (Linux reports KiB, macOS bytes)."""
    peak = resource.getrusage(who).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def format_table(rows: Sequence[Row]) -> str:
    head = (f"{'path':<10} {'embedder':<8} {'records':>8}  {'save p50':>9} {'p95':>9} "
            f"{'cpu':>9}  {'recall p50':>10} {'p95':>9} {'cpu':>9}  {'peak MiB':>8} "
            f"{'RSS MiB':>7} {'n':>4}")
    lines = [head, "-" * len(head)]
    for r in rows:
        path = "stdio" if r.path == "stdio MCP" else r.store
        lines.append(f"{path:<10} {r.embedder:<8} {r.records:>8,}  {_ms(r.save.p50_ms)} "
                     f"{_ms(r.save.p95_ms)} {_ms(r.save_cpu.p50_ms)}  "
                     f"{_ms(r.recall.p50_ms, 10)} {_ms(r.recall.p95_ms)} "
                     f"{_ms(r.recall_cpu.p50_ms)}  {r.peak_mb:>8.0f} {_mib(r.resident_mb)} "
                     f"{len(r.save.samples):>4}")
    return "\n".join(lines)


def _mib(value: float, width: int = 7) -> str:
    return f"{'-':>{width}}" if value != value else f"{value:>{width}.0f}"


def _ms(value: float, width: int = 9) -> str:
    return f"{'-':>{width}}" if value != value else f"{value:>{width - 3}.2f} ms"
