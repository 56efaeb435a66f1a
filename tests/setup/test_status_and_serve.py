"""`jamgate status`, and every command setup writes answering MCP `initialize`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from setup_helpers import PATHS, Run, client_env, run_json

from jamgate_commands.clients import jsonedit

JAMGATE = str(Path(sys.prefix) / "bin" / "jamgate")
CONTAINERS = {"opencode": "mcp", "zed": "context_servers", "vscode": "servers"}


def test_status_reports_each_client(run: Run, home: Path) -> None:
    run_json(run, home, "setup")
    report = run_json(run, home, "status")
    clients = {item["client"]: item for item in report["clients"]}
    assert clients["claude-code"]["state"] == "wired"
    assert clients["claude-code"]["transport"] == "stdio"
    assert clients["claude-code"]["target"] == f"{JAMGATE} serve"
    assert clients["claude-code"]["current"] is True
    assert clients["claude-code"]["runnable"] is True
    assert clients["cursor"]["transport"] == "remote"
    assert clients["cursor"]["target"] == "https://memory.jam.example/mcp"
    assert clients["windsurf"]["state"] == "unreadable"
    assert "not valid JSON" in clients["windsurf"]["detail"]
    assert clients["vscode"]["state"] == "wired"  # written through its comments
    assert clients["zed"]["state"] == "wired"
    assert clients["cline-cli"]["state"] == "wired"
    assert clients["codex"]["state"] == "wired"
    assert report["install"]["command"] == [JAMGATE, "serve"]
    jamgate = report["jamgate"]
    assert jamgate["store"] == "sqlite"
    assert jamgate["location"] == str(Path(os.environ["JAMGATE_HOME"]) / "memory.db")
    assert jamgate["embedder"] == "none"
    assert jamgate["stages"][:2] == ["validation", "prefilter"]
    text = run(home, "status").stdout
    assert f"Claude Code     wired (local): {JAMGATE} serve" in text
    assert "Cursor          wired (remote): https://memory.jam.example/mcp" in text
    assert "Windsurf        cannot read its config" in text
    assert "store: sqlite at" in text


def test_status_flags_a_stale_command(run: Run, empty_home: Path) -> None:
    (empty_home / ".cursor").mkdir()
    (empty_home / ".cursor" / "mcp.json").write_text(json.dumps({"mcpServers": {"jamgate": {
        "command": "/gone/venv/bin/jamgate", "args": ["serve"]}}}))
    report = run_json(run, empty_home, "status")
    cursor = next(i for i in report["clients"] if i["client"] == "cursor")
    assert cursor["runnable"] is False and cursor["current"] is False
    assert "its command does not exist here" in run(empty_home, "status").stdout


def test_status_still_reports_clients_when_the_configuration_is_broken(
        run: Run, home: Path) -> None:
    run_json(run, home, "setup")
    done = run(home, "status", "--json", JAMGATE_STORE="no-such-store")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert "no-such-store" in report["jamgate"]["error"]
    assert {i["client"]: i["state"] for i in report["clients"]}["claude-code"] == "wired"
    text = run(home, "status", JAMGATE_STORE="no-such-store").stdout
    assert "configuration problem" in text and "Claude Code" in text


def test_status_on_an_empty_home(run: Run, empty_home: Path) -> None:
    done = run(empty_home, "status")
    assert done.returncode == 0
    assert "No client is wired yet: run `jamgate setup`." in done.stdout
    assert list(empty_home.iterdir()) == []


# ---- the written commands serve MCP --------------------------------------------------------


def _written_commands(home: Path) -> dict[str, list[str]]:
    """The stdio command line setup wrote for each client."""
    import tomllib

    commands: dict[str, list[str]] = {}
    for client, relative in PATHS.items():
        path = home / relative
        if not path.is_file():
            continue
        text = path.read_text()
        try:
            data = tomllib.loads(text) if path.suffix == ".toml" else jsonedit.parse(text)
        except ValueError:
            continue
        entry = data.get(CONTAINERS.get(client, "mcp_servers" if client == "codex"
                                        else "mcpServers"), {}).get("jamgate")
        if not entry or "command" not in entry:
            continue
        command = entry["command"]
        argv = list(command) if isinstance(command, list) else [command, *entry.get("args", [])]
        commands[client] = argv
    return commands


@pytest.mark.anyio
@pytest.mark.slow
async def test_every_written_command_answers_initialize(run: Run, home: Path,
                                                        tmp_path: Path) -> None:
    run_json(run, home, "setup", "--force")
    commands = _written_commands(home)
    assert set(commands) == {"claude-code", "claude-desktop", "cursor", "gemini-cli", "vscode",
                             "cline", "cline-cli", "roo", "opencode", "zed", "codex"}
    distinct = {tuple(argv): client for client, argv in commands.items()}
    for argv_tuple, client in distinct.items():
        argv = list(argv_tuple)
        data = tmp_path / f"jamgate-{client}"
        env = {k: v for k, v in client_env(home).items() if not k.startswith("JAMGATE_")}
        env["JAMGATE_HOME"] = str(data)
        env["JAMGATE_EMBEDDER"] = "none"
        params = StdioServerParameters(command=argv[0], args=argv[1:], env=env)
        async with Client(params, mode="legacy") as session:
            assert session.server_info is not None
            assert session.server_info.name == "jamgate", client
            names = {tool.name for tool in (await session.list_tools()).tools}
            assert "save_memory" in names, client


def test_the_written_command_answers_a_raw_initialize_line(run: Run, home: Path,
                                                           tmp_path: Path) -> None:
    run_json(run, home, "setup", "--client", "claude-desktop")
    entry = json.loads((home / PATHS["claude-desktop"]).read_text())["mcpServers"]["jamgate"]
    env = {k: v for k, v in client_env(home).items() if not k.startswith("JAMGATE_")}
    env["JAMGATE_HOME"] = str(tmp_path / "raw")
    request = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"}}}
    done = subprocess.run([entry["command"], *entry["args"]], input=json.dumps(request) + "\n",
                          env=env, capture_output=True, text=True, timeout=60, check=False)
    reply = json.loads(done.stdout.splitlines()[0])
    assert reply["id"] == 1
    assert reply["result"]["serverInfo"]["name"] == "jamgate"
