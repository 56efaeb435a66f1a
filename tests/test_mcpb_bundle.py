"""The Claude Desktop bundle built by scripts/build_mcpb.py answers MCP from its own files.

The bundle is built offline from the wheel and the wheelhouse, unzipped, and started the way
its manifest says, by the base interpreter in isolated mode (no PYTHONPATH, no user site, no
virtualenv): only the bundle's `server/lib` can provide Jamgate and its dependencies.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

pytestmark = [pytest.mark.slow, pytest.mark.anyio]

ROOT = Path(__file__).resolve().parents[1]
BASE_PYTHON = os.path.realpath(getattr(sys, "_base_executable", sys.executable))


@pytest.fixture(scope="module")
def bundle(wheel: Path, wheelhouse: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("mcpb")
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "build_mcpb.py"), "--wheel", str(wheel),
         "--out", str(out), "--no-index", "--find-links", str(wheelhouse)],
        capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stderr
    (built,) = out.glob("jamgate-*.mcpb")
    return built


async def test_the_bundle_serves_from_its_own_files(bundle: Path, tmp_path: Path) -> None:
    folder = tmp_path / "installed"
    with zipfile.ZipFile(bundle) as archive:
        archive.extractall(folder)
    manifest = json.loads((folder / "manifest.json").read_text())
    for key in ("manifest_version", "name", "version", "description", "author", "server"):
        assert key in manifest, key
    assert manifest["version"] == bundle.name.split("-")[1]
    config = manifest["server"]["mcp_config"]
    assert (folder / manifest["server"]["entry_point"]).is_file()
    args = [a.replace("${__dirname}", str(folder)) for a in config["args"]]
    env = {"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin",
           "JAMGATE_HOME": str(tmp_path / "data")}
    env.update({k: v.replace("${__dirname}", str(folder)) for k, v in config["env"].items()})
    # -I: ignore PYTHONPATH and the user site; the manifest's PYTHONPATH is set in main.py too.
    params = StdioServerParameters(command=BASE_PYTHON, args=["-I", *args], env=env)
    async with Client(params, mode="legacy") as session:
        assert session.server_info is not None and session.server_info.name == "jamgate"
        names = {tool.name for tool in (await session.list_tools()).tools}
        assert names == {"save_memory", "check_memory", "recall_memory", "forget_memory",
                         "list_memories"}
        saved = await session.call_tool("save_memory", {"text": "Jam lives in Athens",
                                                        "subject": "location"})
        assert saved.structured_content is not None
        assert saved.structured_content["decision"] == "saved"
    probe = subprocess.run([BASE_PYTHON, "-I", "-c", "import jamgate_core"], env=env,
                           capture_output=True, text=True, timeout=60, check=False)
    assert probe.returncode != 0  # the base interpreter has no Jamgate of its own
