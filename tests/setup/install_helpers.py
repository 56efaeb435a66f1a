"""Installing the built wheel the four ways a user does, offline, in a fresh HOME.

uv and pipx come from the dev extra (this environment's bin folder). Every dependency comes
from a local wheelhouse (`.cache/wheelhouse`, filled by scripts/test.sh or on first use).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.prefix) / "bin"
BASE_PYTHON = os.path.realpath(getattr(sys, "_base_executable", sys.executable))


def offline_env(home: Path, wheelhouse: Path) -> dict[str, str]:
    """A fresh user's environment whose installers read only the wheelhouse."""
    keep = ("LANG", "LC_ALL", "TMPDIR", "SSL_CERT_FILE")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    env.update(
        HOME=str(home), PATH=os.pathsep.join([str(home / ".local" / "bin"), str(BIN),
                                               "/usr/local/bin", "/usr/bin", "/bin"]),
        UV_NO_INDEX="1", UV_OFFLINE="1", UV_FIND_LINKS=str(wheelhouse), UV_PYTHON=BASE_PYTHON,
        UV_PYTHON_DOWNLOADS="never", UV_NO_CONFIG="1",
        PIP_NO_INDEX="1", PIP_FIND_LINKS=str(wheelhouse), PIP_CONFIG_FILE=os.devnull,
        PIP_DISABLE_PIP_VERSION_CHECK="1", PIPX_DEFAULT_PYTHON=BASE_PYTHON,
        JAMGATE_EMBEDDER="none")
    return env


def run(argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(argv, env=env, cwd=env["HOME"], capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode == 0, f"{argv}: {done.stdout}\n{done.stderr}"
    return done


def setup_argv(path: str, spec: str, home: Path, env: dict[str, str]) -> list[str]:
    """The command the user types to run `jamgate setup` after installing along `path`."""
    if path == "uvx --from":
        return ["uvx", "--from", spec, "jamgate", "setup"]
    if path == "pipx run --spec":
        return ["pipx", "run", "--spec", spec, "jamgate", "setup"]
    install = ["uv", "tool", "install", spec] if path == "uv tool install" else [
        "pipx", "install", spec]
    run(install, env)
    return [str(home / ".local" / "bin" / "jamgate"), "setup"]
