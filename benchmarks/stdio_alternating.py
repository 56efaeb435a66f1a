"""Two stdio servers called alternately: this checkout's `jamgate serve` and another
interpreter's (another checkout's virtualenv), each on its own copy of one filled store, the
same save or recall sent to one then the other, call by call. Both see the same machine load
at the same moment, so on a shared machine their server CPU per call compares where separate
runs of `jamgate bench speed` drift by more than the difference.

Run: python benchmarks/stdio_alternating.py --other /path/to/other/.venv/bin/python
       [--size 10000] [--samples 300]
Prints each server's CPU p50 and mean (and wall p50) per save and per recall (all its threads, from
/proc/<pid>/task/*/schedstat, Linux), with the same workload as `jamgate bench speed`'s stdio
tier (seeded personal facts; a third of the saves on a subject that has a record).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from jamgate_commands.bench_speed import Progress, filled_app
from jamgate_commands.personal_facts import FactsWorkload
from jamgate_commands.stdio_client import StdioSession, server_cpu, server_env


def start(python: str, home: Path) -> StdioSession:
    process = subprocess.Popen([python, "-m", "jamgate_core.cli", "serve"],
                               env=server_env(home, store="sqlite"), stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    session = StdioSession(process)
    session.initialize("jamgate-alternating")
    return session


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--other", required=True, help="the other interpreter")
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="jamgate-alternating-") as folder:
        homes = {"this": Path(folder, "this"), "other": Path(folder, "other")}
        homes["this"].mkdir()
        os.environ["JAMGATE_HOME"] = str(homes["this"])
        workload = FactsWorkload(args.size, 10 + args.samples)
        filled_app("sqlite", args.size, workload, Progress(sys.stderr)).close()
        shutil.copytree(homes["this"], homes["other"])
        pythons = {"this": sys.executable, "other": args.other}
        sessions = {name: start(pythons[name], home) for name, home in homes.items()}
        cpu: dict[tuple[str, str], list[float]] = {}
        wall: dict[tuple[str, str], list[float]] = {}
        try:
            calls = [("save_memory", {"text": workload.text()}) for _ in range(5)]
            for i in range(args.samples):
                save: dict[str, str] = {"text": workload.text()}
                if (subject := workload.subject(i)) is not None:
                    save["subject"] = subject
                calls += [("save_memory", save), ("recall_memory", {"query": workload.query()})]
            for n, (tool, arguments) in enumerate(calls):
                # who goes first alternates per save-and-recall pair, for both tools alike
                for name in (("this", "other") if (n - 5) // 2 % 2 else ("other", "this")):
                    session = sessions[name]
                    before, began = server_cpu(session.process.pid), time.perf_counter()
                    session.call(tool, arguments)
                    elapsed, after = time.perf_counter() - began, server_cpu(session.process.pid)
                    if n >= 5 and before is not None and after is not None:
                        cpu.setdefault((name, tool), []).append(after - before)
                        wall.setdefault((name, tool), []).append(elapsed)
        finally:
            for session in sessions.values():
                session.close()
    for (name, tool), samples in sorted(cpu.items()):
        print(f"{name:5s} {tool:13s} server CPU p50 {statistics.median(samples) * 1e3:6.2f} ms"
              f"  mean {statistics.mean(samples) * 1e3:6.2f} ms"
              f"  wall p50 {statistics.median(wall[name, tool]) * 1e3:6.2f} ms  n={len(samples)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
