"""A bounded load test of remote mode, on loopback only.

Starts `jamgate serve --http` itself (fresh JAMGATE_HOME, SQLite, no embedder, a random
token, a free 127.0.0.1 port), runs N concurrent clients × M mixed operations against it, stops
it, and prints p50/p99 latencies and the error count. A quarter of the clients are MCP
sessions in the handshake era, a quarter use the 2026 protocol, half use the REST API. Each
client saves new facts (some repeated, some updating an earlier subject), recalls, checks and
forgets its own memories.

Run: python benchmarks/http_load.py [--clients 50] [--ops 200] [--stateless]
Exit status 1 if any operation failed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

import httpx2
from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import Implementation

PEOPLE = ["Alba", "Bruno", "Chiara", "Dmitri", "Esme", "Farid", "Greta", "Hugo", "Ines", "Jonas"]
CITIES = ["Athens", "Lisbon", "Tallinn", "Kyoto", "Quito", "Dakar", "Oslo", "Hanoi", "Cork"]
TOPICS = ["payments", "search", "billing", "mobile", "data", "design", "security", "support"]
QUERIES = ["colleague", "Athens", "payments team", "Lisbon", "who works on search", "design",
           "Kyoto office", "security", ""]


@dataclass
class Tally:
    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    decisions: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)


def fact(rng: random.Random, client: int, n: int) -> tuple[str, str]:
    person, city, topic = rng.choice(PEOPLE), rng.choice(CITIES), rng.choice(TOPICS)
    subject = f"colleague {client}-{n}"
    return (f"Jam's colleague {person} {client}-{n} works on the {topic} team in {city}",
            subject)


class Driver:
    """One client's operations, over MCP or REST."""

    async def save(self, text: str, subject: str) -> tuple[str, str | None]:
        raise NotImplementedError

    async def check(self, text: str) -> str:
        raise NotImplementedError

    async def recall(self, query: str) -> int:
        raise NotImplementedError

    async def forget(self, memory_id: str) -> None:
        raise NotImplementedError


class McpDriver(Driver):
    def __init__(self, client: Client, scope: str) -> None:
        self.client, self.scope = client, scope

    async def _call(self, tool: str, args: dict[str, Any]) -> dict[str, Any]:
        result = await self.client.call_tool(tool, {**args, "scope": self.scope})
        if result.is_error or result.structured_content is None:
            raise RuntimeError(f"{tool}: {result.content}")
        return result.structured_content

    async def save(self, text: str, subject: str) -> tuple[str, str | None]:
        verdict = await self._call("save_memory", {"text": text, "subject": subject})
        return verdict["decision"], verdict["id"] if verdict["decision"] in (
            "saved", "superseded") else None

    async def check(self, text: str) -> str:
        return str((await self._call("check_memory", {"text": text}))["decision"])

    async def recall(self, query: str) -> int:
        return len((await self._call("recall_memory", {"query": query}))["memories"])

    async def forget(self, memory_id: str) -> None:
        await self._call("forget_memory", {"id": memory_id})


class RestDriver(Driver):
    def __init__(self, http: httpx2.AsyncClient, scope: str) -> None:
        self.http, self.scope = http, scope

    @staticmethod
    def _ok(response: httpx2.Response, *statuses: int) -> dict[str, Any]:
        if response.status_code not in statuses:
            raise RuntimeError(f"{response.request.method} {response.request.url.path}: "
                               f"{response.status_code} {response.text[:200]}")
        return response.json()

    async def save(self, text: str, subject: str) -> tuple[str, str | None]:
        verdict = self._ok(await self.http.post("/v1/memory", json={
            "text": text, "subject": subject, "scope": self.scope}), 200, 201)
        return verdict["decision"], verdict["id"] if verdict["decision"] in (
            "saved", "superseded") else None

    async def check(self, text: str) -> str:  # REST has no dry run: recall the most recent
        self._ok(await self.http.get("/v1/memory", params={"scope": self.scope}), 200)
        return "recent"

    async def recall(self, query: str) -> int:
        found = self._ok(await self.http.get("/v1/memory", params={
            "query": query, "scope": self.scope, "limit": 10}), 200)
        return len(found["memories"])

    async def forget(self, memory_id: str) -> None:
        self._ok(await self.http.delete(f"/v1/memory/{memory_id}",
                                        params={"scope": self.scope}), 200)


async def run_client(index: int, driver: Driver, ops: int, seed: int, tally: Tally) -> None:
    rng = random.Random(seed * 1000 + index)
    mine: list[str] = []
    texts: list[tuple[str, str]] = []
    for n in range(ops):
        roll = rng.random()
        kind = ("save" if roll < 0.45 else "recall" if roll < 0.80
                else "check" if roll < 0.90 else "forget")
        if kind == "forget" and not mine:
            kind = "recall"
        start = time.perf_counter()
        try:
            if kind == "save":
                if texts and rng.random() < 0.1:
                    text, subject = rng.choice(texts)  # a repeat: duplicate
                elif texts and rng.random() < 0.1:
                    subject = rng.choice(texts)[1]  # an update: supersedes
                    text = fact(rng, index, n)[0]
                else:
                    text, subject = fact(rng, index, n)
                decision, stored = await driver.save(text, subject)
                tally.decisions[decision] += 1
                texts.append((text, subject))
                if stored:
                    mine.append(stored)
            elif kind == "recall":
                await driver.recall(rng.choice(QUERIES))
            elif kind == "check":
                await driver.check(fact(rng, index, n)[0])
            else:
                await driver.forget(mine.pop(rng.randrange(len(mine))))
        except Exception as exc:
            tally.errors.append(f"client {index} {kind}: {exc!r}"[:300])
            continue
        tally.latencies[kind].append(time.perf_counter() - start)


async def drive(base: str, token: str, clients: int, ops: int, seed: int) -> Tally:
    tally = Tally()
    headers = {"Authorization": f"Bearer {token}"}
    timeout = httpx2.Timeout(60, read=300)

    async def one(index: int) -> None:
        scope = f"load-{index}"
        async with httpx2.AsyncClient(base_url=base, headers=headers, timeout=timeout) as http:
            if index % 4 in (0, 1):
                mode = "legacy" if index % 4 == 0 else "2026-07-28"
                transport = streamable_http_client(f"{base}/mcp", http_client=http)
                async with Client(transport, mode=mode,
                                  client_info=Implementation(name=f"load-{index}",
                                                             version="1")) as client:
                    await run_client(index, McpDriver(client, scope), ops, seed, tally)
            else:
                await run_client(index, RestDriver(http, scope), ops, seed, tally)

    async def guarded(index: int) -> None:
        try:
            await one(index)
        except Exception as exc:
            tally.errors.append(f"client {index} could not run: {exc!r}"[:300])

    await asyncio.gather(*(guarded(i) for i in range(clients)))
    return tally


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(home: str, token: str, stateless: bool) -> tuple[subprocess.Popen[str], str]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAMGATE_") and k != "PORT"}
    env.update(JAMGATE_HOME=home, JAMGATE_TOKEN=token, JAMGATE_EMBEDDER="none",
               JAMGATE_HOST="127.0.0.1", JAMGATE_HTTP_STATELESS="1" if stateless else "0")
    process = subprocess.Popen(
        [sys.executable, "-m", "jamgate_core.cli", "serve", "--http", "--port", str(port)],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx2.get(f"{base}/healthz", timeout=2).status_code == 200:
                return process, base
        except httpx2.TransportError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise SystemExit(f"the server did not start:\n{process.communicate()[1]}")
        time.sleep(0.1)


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def report(tally: Tally, wall: float, clients: int, ops: int) -> None:
    every = [s for samples in tally.latencies.values() for s in samples]
    print(f"{clients} clients x {ops} operations = {clients * ops} requested, "
          f"{len(every)} done in {wall:.1f} s ({len(every) / wall:.0f} ops/s), "
          f"errors: {len(tally.errors)}")
    print(f"{'operation':<10}{'count':>8}{'p50 ms':>10}{'p99 ms':>10}")
    for kind, samples in [("all", every), *sorted(tally.latencies.items())]:
        if samples:
            print(f"{kind:<10}{len(samples):>8}{percentile(samples, 0.5) * 1000:>10.1f}"
                  f"{percentile(samples, 0.99) * 1000:>10.1f}")
    print("save decisions: " + ", ".join(f"{k} {v}" for k, v in tally.decisions.most_common()))
    for line in tally.errors[:10]:
        print("  error:", line)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--ops", type=int, default=200, help="operations per client")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stateless", action="store_true", help="serve in stateless mode")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="jamgate-load-") as home:
        token = secrets.token_urlsafe(32)
        process, base = start_server(home, token, args.stateless)
        try:
            start = time.perf_counter()
            tally = asyncio.run(drive(base, token, args.clients, args.ops, args.seed))
            wall = time.perf_counter() - start
        finally:
            process.terminate()
            try:
                process.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.communicate()
    print(f"server: {'stateless' if args.stateless else 'stateful sessions'}, SQLite, "
          f"lexical recall, loopback {base}")
    report(tally, wall, args.clients, args.ops)
    return 1 if tally.errors else 0


if __name__ == "__main__":
    sys.exit(main())
