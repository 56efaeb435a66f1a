"""The shell blocks the README and docs/ say run, run as written in a fresh HOME.

A fenced block preceded by `<!-- runs in a fresh HOME -->` must exit 0 under
`bash -euo pipefail` from the repository root, with an empty HOME and no JAMGATE_* variable (a
new user's shell; `.venv` is this checkout's). One marked `<!-- runs in a fresh HOME: serves -->`
starts a server: it must print its start line and keep running until it is stopped (on a free
port given as JAMGATE_PORT, since another process here may hold 8420).
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
MARKER = re.compile(r"^<!-- runs in a fresh HOME(?P<serves>: serves)? -->\n"
                    r"```(?:bash|sh)\n(?P<body>.*?)^```$", re.M | re.S)


@dataclass(frozen=True)
class Block:
    where: str
    body: str
    serves: bool


def marked_blocks() -> list[Block]:
    blocks = []
    for path in DOCUMENTS:
        text = path.read_text(encoding="utf-8")
        for found in MARKER.finditer(text):
            line = text.count("\n", 0, found.start()) + 1
            blocks.append(Block(f"{path.relative_to(ROOT)}:{line}", found["body"],
                                bool(found["serves"])))
    return blocks


BLOCKS = marked_blocks()


def fresh_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("JAMGATE_", "SUPABASE_")) and k not in ("PORT", "PYTHONPATH")}
    env["HOME"] = str(home)
    return env


def test_the_docs_mark_blocks_that_run() -> None:
    where = {block.where.split(":")[0] for block in BLOCKS}
    assert {"README.md", "docs/remote.md"} <= where
    assert any(block.serves for block in BLOCKS)


@pytest.mark.parametrize("block", BLOCKS, ids=[b.where for b in BLOCKS])
def test_a_marked_block_runs_as_written(block: Block, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    argv = ["bash", "-euo", "pipefail", "-c", block.body]
    if not block.serves:
        done = subprocess.run(argv, cwd=ROOT, env=fresh_env(home), capture_output=True,
                              text=True, timeout=600, check=False)
        assert done.returncode == 0, f"{block.where}\n{done.stdout}\n{done.stderr}"
        return
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()  # a free port instead of 8420, which another process here may hold
    process = subprocess.Popen(argv, cwd=ROOT, env={**fresh_env(home), "JAMGATE_PORT": str(port)},
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    assert process.stderr is not None
    try:
        deadline = time.monotonic() + 60
        seen = ""
        while "MCP on http://" not in seen:
            assert time.monotonic() < deadline, f"{block.where}: no start line\n{seen}"
            line = process.stderr.readline()
            assert line or process.poll() is None, f"{block.where} exited:\n{seen}"
            seen += line
        time.sleep(1)
        assert process.poll() is None, f"{block.where} stopped:\n{seen}"
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
