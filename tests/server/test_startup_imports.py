"""What a start imports (issue 21): a lexical stdio server never loads numpy or Jamgate's HTTP
modules, and `jamgate --help` loads neither the MCP SDK nor the HTTP stack. Each is checked in
a real subprocess, whose `sys.modules` is written out by an atexit handler."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from jamgate_commands.bench_speed import StdioSession, server_env

# Jamgate's own HTTP-mode modules; the SDK's server imports starlette and uvicorn itself (D-150).
HTTP_MODULES = ("jamgate_server.http", "jamgate_server.rest", "jamgate_server.auth",
                "jamgate_server.oauth", "jamgate_server.oauth_provider",
                "jamgate_server.oauth_pages", "jamgate_server.connections")

RUN_WITH_MODULES_DUMP = """
import atexit, json, sys
out = sys.argv.pop(1)
atexit.register(lambda: open(out, "w").write(json.dumps(sorted(sys.modules))))
from jamgate_core.cli import main
sys.exit(main(sys.argv[1:]))
"""


def wrapped(out: Path, *argv: str) -> list[str]:
    return [sys.executable, "-c", RUN_WITH_MODULES_DUMP, str(out), *argv]


def packages(out: Path) -> set[str]:
    names: list[str] = json.loads(out.read_text())
    return set(names) | {name.split(".")[0] for name in names}


def test_a_lexical_stdio_server_loads_neither_numpy_nor_the_http_modules(tmp_path: Path) -> None:
    out = tmp_path / "modules.json"
    process = subprocess.Popen(wrapped(out, "serve"), env=server_env(tmp_path / "home"),
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)
    session = StdioSession(process)
    session.initialize("imports-test")
    assert {tool["name"] for tool in session.request("tools/list", {})["tools"]} >= {
        "save_memory", "recall_memory"}
    recalled = session.call("recall_memory", {"query": "anything"})
    assert recalled["structuredContent"]["memories"] == []
    session.call("list_memories", {})
    assert session.close() == 0
    loaded = packages(out)
    assert "mcp" in loaded, "the dump did not see the server's modules"
    assert "numpy" not in loaded
    assert not loaded & set(HTTP_MODULES)


def test_help_loads_neither_the_sdk_nor_the_http_stack(tmp_path: Path) -> None:
    for argv in (["--help"], ["serve", "--help"]):
        out = tmp_path / "modules.json"
        done = subprocess.run(wrapped(out, *argv), capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        assert "serve" in done.stdout
        loaded = packages(out)
        assert "jamgate_core" in loaded
        assert not loaded & {"mcp", "mcp_types", "numpy", "starlette", "uvicorn", "anyio",
                             "sse_starlette", *HTTP_MODULES}, argv
