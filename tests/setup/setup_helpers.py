"""Helpers for the setup tests: the CLI run as a subprocess against a fake home."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

FIXTURE_HOME = Path(__file__).parent / "fixtures" / "home"
_CLIENT_VARIABLES = ("XDG_CONFIG_HOME", "APPDATA", "USERPROFILE", "CLAUDE_CONFIG_DIR",
                     "CODEX_HOME", "JAMGATE_TOKEN")

# Where each client's file sits in a Linux fake home.
PATHS = {
    "claude-code": ".claude.json",
    "claude-desktop": ".config/Claude/claude_desktop_config.json",
    "cursor": ".cursor/mcp.json",
    "windsurf": ".codeium/windsurf/mcp_config.json",
    "gemini-cli": ".gemini/settings.json",
    "vscode": ".config/Code/User/mcp.json",
    "cline": ".config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/"
             "cline_mcp_settings.json",
    "cline-cli": ".cline/data/settings/cline_mcp_settings.json",
    "roo": ".config/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/"
           "mcp_settings.json",
    "opencode": ".config/opencode/opencode.json",
    "zed": ".config/zed/settings.json",
    "codex": ".codex/config.toml",
}
FOLDERS = {
    "claude-code": ".claude", "claude-desktop": ".config/Claude", "cursor": ".cursor",
    "windsurf": ".codeium/windsurf", "gemini-cli": ".gemini", "vscode": ".config/Code/User",
    "cline": ".config/Code/User/globalStorage/saoudrizwan.claude-dev",
    "cline-cli": ".cline",
    "roo": ".config/Code/User/globalStorage/rooveterinaryinc.roo-cline",
    "opencode": ".config/opencode", "zed": ".config/zed", "codex": ".codex",
}

Run = Callable[..., subprocess.CompletedProcess[str]]


def client_env(home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _CLIENT_VARIABLES}
    env["HOME"] = str(home)
    env.update(extra)
    return env


def make_runner() -> Run:
    """Run `python -m jamgate_core.cli <args>` with HOME=home; returns the finished process."""
    def go(home: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "jamgate_core.cli", *args], env=client_env(home, **env),
            capture_output=True, text=True, timeout=120, check=False,
        )
    return go


def run_json(run: Run, home: Path, *args: str, **env: str) -> dict[str, Any]:
    done = run(home, *args, "--json", **env)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def outcomes(report: dict[str, Any]) -> dict[str, str]:
    return {item["client"]: item["outcome"] for item in report["clients"]}


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under `root`, by relative path."""
    return {str(p.relative_to(root)): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file() and not p.is_symlink()}
