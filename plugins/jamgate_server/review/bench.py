"""`jamgate bench review`: how fast each view of the review page answers over loopback HTTP,
with a filled store, a held queue and a full gate log (a benchmark, not a timed test)."""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import threading
import time
from typing import TYPE_CHECKING, Any

from jamgate_core.hookspecs import hookimpl
from jamgate_core.models import SaveRequest, iso, utcnow

if TYPE_CHECKING:
    from jamgate_core.app import App
    from jamgate_core.contracts import Register

VIEWS = ("/review", "/review/memories", "/review/memories?q=kalo+mine", "/review/due",
         "/review/record")


def _write_log(app: App, lines: int) -> None:
    """A gate log of `lines` decisions (as the log writes them), oldest first."""
    path = app.settings.gate_log_path(app.store_dir())
    assert path is not None
    now = iso(utcnow())
    with path.open("a", encoding="utf-8") as handle:
        for n in range(lines):
            decision = ("saved", "rejected", "duplicate")[n % 3]
            handle.write(json.dumps({"ts": now, "decision": decision, "reason": "gate.accepted"
                                     if n % 3 == 0 else "junk.chatter", "origin": "mcp",
                                     "text": f"Jam noted synthetic decision {n}"},
                                    separators=(",", ":")) + "\n")


def _serve(app: App) -> tuple[str, Any, threading.Thread]:
    import uvicorn

    from jamgate_server.review.command import LOOPBACK, local_site

    starlette, sessions = local_site(app)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind((LOOPBACK, 0))
    base = f"http://{LOOPBACK}:{sock.getsockname()[1]}"
    server = uvicorn.Server(uvicorn.Config(starlette, log_level="warning", access_log=False,
                                           lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    return f"{base}/review/login?once={sessions.one_time_code()}", server, thread


def run(args: argparse.Namespace) -> int:
    import httpx

    from jamgate_commands.bench_speed import Progress, Workload, filled_app, isolated_home

    with isolated_home():
        app = filled_app("sqlite", args.size, Workload(), Progress())
        try:
            for n in range(args.queue):
                app.save(SaveRequest(text=f"I live in city number {n}", subject=f"home {n}",
                                     source="user-explicit"))
                app.save(SaveRequest(text=f"The user lives in town number {n}",
                                     subject=f"home {n}"))
            _write_log(app, args.log_lines)
            login, server, thread = _serve(app)
            rows = []
            with httpx.Client(timeout=30, follow_redirects=True) as http:
                assert http.get(login).status_code == 200
                for view in VIEWS:
                    http.get(view if view.startswith("http") else login.split("/review")[0]
                             + view)  # warm
                    times = []
                    for _ in range(args.samples):
                        started = time.perf_counter()
                        answer = http.get(login.split("/review")[0] + view)
                        times.append((time.perf_counter() - started) * 1000)
                        assert answer.status_code == 200, (view, answer.status_code)
                    times.sort()
                    rows.append({"view": view, "p50_ms": round(statistics.median(times), 1),
                                 "p95_ms": round(times[int(len(times) * 0.95) - 1], 1),
                                 "bytes": len(answer.content)})
            server.should_exit = True
            thread.join(timeout=10)
        finally:
            app.close()
    if args.json:
        print(json.dumps({"memories": args.size, "queue": args.queue,
                          "log_lines": args.log_lines, "views": rows}, indent=1))
        return 0
    print(f"review page, sqlite, {args.size:,} memories, {args.queue} held, "
          f"{args.log_lines:,} gate-log lines, {args.samples} requests a view:")
    for row in rows:
        print(f"  {row['view']:<32} p50 {row['p50_ms']:7.1f} ms   p95 {row['p95_ms']:7.1f} ms"
              f"   {row['bytes']:,} bytes")
    return 0


@hookimpl
def jamgate_register_benchmarks(register: Register) -> None:
    parser = register(
        "review", help="review page latency per view (p50/p95) over loopback HTTP",
        description="Fill a SQLite store, hold a queue, write a gate log, serve the review "
                    "page on loopback and time each view.", func=run, json=True)
    parser.add_argument("--size", type=int, default=10_000, help="memories (default 10000)")
    parser.add_argument("--queue", type=int, default=20, help="held conflicts (default 20)")
    parser.add_argument("--log-lines", type=int, default=20_000,
                        help="gate-log lines (default 20000, about the 5 MiB cap)")
    parser.add_argument("--samples", type=int, default=50, help="requests a view (default 50)")
