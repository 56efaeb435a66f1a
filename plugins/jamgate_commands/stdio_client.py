"""A raw JSON-RPC client for `jamgate serve` over stdio (newline-delimited messages), and what
the benchmarks read of the server process: its CPU time and its peak memory (Linux /proc).
Used by `jamgate bench speed` and the reliability tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO, Any

PROTOCOL_VERSION = "2025-06-18"


def server_env(home: Path, **settings: str) -> dict[str, str]:
    """The environment for `jamgate serve`: ours without JAMGATE_*, plus `home` and settings
    (lexical-only unless `embedder` is given)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAMGATE_")}
    env["JAMGATE_HOME"] = str(home)
    env["JAMGATE_EMBEDDER"] = "none"
    env.update({f"JAMGATE_{k.upper()}": v for k, v in settings.items()})
    return env


class ServerGone(Exception):
    """The server closed stdout (it exited or was killed) before answering."""


class StdioSession:
    """`jamgate serve` as a subprocess, spoken to in newline-delimited JSON-RPC."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process
        self._next_id = 0

    @classmethod
    @contextmanager
    def start(cls, env: dict[str, str], stderr: IO[bytes] | int | None = subprocess.DEVNULL,
              client: str = "jamgate-bench") -> Iterator[StdioSession]:
        process = subprocess.Popen(
            [sys.executable, "-m", "jamgate_core.cli", "serve"], env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr)
        session = cls(process)
        try:
            session.initialize(client)
            yield session
        finally:
            session.close()

    def initialize(self, client: str) -> dict[str, Any]:
        answer = self.request("initialize", {
            "protocolVersion": PROTOCOL_VERSION, "capabilities": {},
            "clientInfo": {"name": client, "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return answer

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps(message).encode() + b"\n")
            self.process.stdin.flush()
        except (BrokenPipeError, ValueError) as exc:
            raise ServerGone(f"the server is gone ({exc})") from exc

    def exchange(self, method: str, params: Any) -> dict[str, Any]:
        """Send one request and return the whole answer (`result` or `error`)."""
        self._next_id += 1
        self.send({"jsonrpc": "2.0", "id": self._next_id, "method": method, "params": params})
        assert self.process.stdout is not None
        while True:
            line = self.process.stdout.readline()
            if not line.endswith(b"\n"):  # EOF, or a line cut short by a kill
                raise ServerGone(f"the server closed stdout during {method}")
            message: dict[str, Any] = json.loads(line)
            if message.get("id") == self._next_id:
                return message
            # anything else is a notification or a log message

    def request(self, method: str, params: Any) -> dict[str, Any]:
        """Send one request and return its `result` (a JSON-RPC error raises RuntimeError)."""
        message = self.exchange(method, params)
        if "error" in message:
            raise RuntimeError(f"JSON-RPC error from {method}: {message['error']}")
        result: dict[str, Any] = message["result"]
        return result

    def call(self, tool: str, arguments: Any) -> dict[str, Any]:
        """One `tools/call`: the result (`isError`, `content`, `structuredContent`)."""
        return self.request("tools/call", {"name": tool, "arguments": arguments})

    def close(self, timeout: float = 30) -> int | None:
        if self.process.stdin is not None and not self.process.stdin.closed:
            with suppress(BrokenPipeError):
                self.process.stdin.close()
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()
        finally:
            if self.process.stdout is not None:
                self.process.stdout.close()


def process_peak_mb(pid: int) -> float:
    """Peak resident memory of a running process (Linux VmHWM), else NaN."""
    return _status_mb(pid, "VmHWM:")


def process_resident_mb(pid: int) -> float:
    """Resident memory of a running process now (Linux VmRSS), else NaN."""
    return _status_mb(pid, "VmRSS:")


def _status_mb(pid: int, field: str) -> float:
    """A size field of /proc/<pid>/status in MiB, else NaN."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def server_cpu(pid: int) -> float | None:
    """CPU seconds used so far by every thread of process `pid` (Linux), else None."""
    total = 0
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return None
    for task in tasks:
        try:
            total += int((task / "schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            continue  # a thread that ended meanwhile
    return total / 1e9
