"""Claude Code's and Gemini CLI's own `mcp list` connect to what `jamgate setup` wrote.

The wheel is installed the four ways a user does, offline, in a fresh HOME; then the real
CLIs (from npm, kept in .cache/agent-clis by scripts/test.sh) check the entries. Neither
needs a sign-in for `mcp list`. Skipped only when npm cannot install them.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from install_helpers import offline_env, run, setup_argv

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
PREFIX = ROOT / ".cache" / "agent-clis"
PACKAGES = ("@anthropic-ai/claude-code@2.1.197", "@google/gemini-cli@0.61.0")  # scripts/test.sh
CLIS = {"claude": "claude-code", "gemini": "gemini-cli"}


@pytest.fixture(scope="module")
def agent_clis() -> Path:
    """The folder holding `claude` and `gemini`, installed from npm if they are not yet."""
    bin_dir = PREFIX / "node_modules" / ".bin"
    if not all((bin_dir / name).exists() for name in CLIS):
        done = subprocess.run(
            ["npm", "i", "--no-save", "--no-audit", "--no-fund", "--silent", "--prefix",
             str(PREFIX), *PACKAGES], capture_output=True, text=True, timeout=900, check=False)
        if done.returncode != 0:
            pytest.skip(f"npm cannot install the agent CLIs here: {done.stderr[-500:]}")
    return bin_dir


@pytest.mark.parametrize("path", ["uv tool install", "uvx --from", "pipx install",
                                  "pipx run --spec"])
def test_the_clis_report_the_written_entries_connected(path: str, agent_clis: Path,
                                                       wheel: Path, wheelhouse: Path,
                                                       tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    (home / ".gemini").mkdir()
    # Gemini CLI runs no MCP server in a folder the user has not trusted (its first-run prompt).
    (home / ".gemini" / "trustedFolders.json").write_text(json.dumps({str(home): "TRUST_FOLDER"}))
    env = offline_env(home, wheelhouse)
    argv = setup_argv(path, f"{wheel}[semantic]", home, env)
    report = json.loads(run([*argv, *(f"--client={c}" for c in CLIS.values()), "--json"],
                            env).stdout)
    assert {c["outcome"] for c in report["clients"]} == {"configured"}, report
    for cli in CLIS:
        done = run([str(agent_clis / cli), "mcp", "list"], env)
        listed = done.stdout + done.stderr  # Gemini CLI prints the list on stderr
        line = next((ln for ln in listed.splitlines() if "jamgate" in ln), "")
        assert "Connected" in line and "Disconnected" not in line, f"{cli}: {listed}"
