"""Startup figures: `jamgate --help`, and `jamgate serve` answering `initialize` over stdio.

Run: python benchmarks/startup.py [--runs N]. Prints medians and maxima in seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def time_help(runs: int) -> list[float]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "jamgate_core.cli", "--help"], check=True,
                       capture_output=True)
        samples.append(time.perf_counter() - start)
    return samples


def time_initialize(runs: int) -> list[float]:
    request = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"}}}
    samples = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as home:
            env = {**os.environ, "JAMGATE_HOME": home}
            start = time.perf_counter()
            proc = subprocess.Popen([sys.executable, "-m", "jamgate_core.cli", "serve"],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
            assert proc.stdin and proc.stdout
            proc.stdin.write((json.dumps(request) + "\n").encode())
            proc.stdin.flush()
            answer = json.loads(proc.stdout.readline())
            samples.append(time.perf_counter() - start)
            assert answer["result"]["serverInfo"]["name"] == "jamgate", answer
            proc.stdin.close()
            proc.wait(timeout=30)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=10)
    runs = parser.parse_args().runs
    for label, samples in (("jamgate --help", time_help(runs)),
                           ("serve → initialize answered", time_initialize(runs))):
        print(f"{label:<30} median {statistics.median(samples):.3f} s   "
              f"max {max(samples):.3f} s   ({runs} runs)")


if __name__ == "__main__":
    main()
