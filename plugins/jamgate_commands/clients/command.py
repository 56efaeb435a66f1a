"""The command a client should run to start this Jamgate: how was it installed?

- `uvx jamgate` / `pipx run jamgate` ran it from a throw-away cache environment: write the same
  launcher, since the cache path will not last.
- `uv tool install`, `pipx install`, a virtualenv or a plain install: write the absolute path
  of that environment's `jamgate` script, so clients need nothing on their PATH.
- No script at all (run from a source tree): the interpreter with `-m jamgate_core.cli`.
"""

from __future__ import annotations

import os
import sys
import sysconfig
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

PACKAGE = "jamgate"
SERVE = "serve"


@dataclass(frozen=True)
class Install:
    """How this Jamgate is installed, and the command line that serves it on stdio."""

    kind: str  # uvx, pipx-run, uv-tool, pipx, venv, system, module
    argv: list[str]
    note: str


def _under(path: Path, folder: str | None) -> bool:
    if not folder:
        return False
    try:
        path.relative_to(Path(folder))
    except ValueError:
        return False
    return True


def _is_uv_cache(prefix: Path, env: Mapping[str, str]) -> bool:
    if _under(prefix, env.get("UV_CACHE_DIR")):
        return True
    parts = [p.lower() for p in prefix.parts]
    return any(p == "uv" for p in parts) and any(
        p.startswith(("archive-v", "environments-v", "builds-v")) for p in parts)


def _is_pipx_run(prefix: Path, env: Mapping[str, str]) -> bool:
    if env.get("PIPX_HOME") and _under(prefix, str(Path(env["PIPX_HOME"]) / ".cache")):
        return True
    return prefix.parent.name == ".cache" and "pipx" in prefix.parent.parent.name.lower()


def _script(folder: Path, windows: bool) -> Path:
    return folder / ("jamgate.exe" if windows else PACKAGE)


def detect_install(prefix: str | None = None, base_prefix: str | None = None,
                   executable: str | None = None, env: Mapping[str, str] | None = None,
                   scripts: str | None = None, windows: bool | None = None) -> Install:
    """The install of the running interpreter (every argument defaults to this process)."""
    env = os.environ if env is None else env
    windows = sys.platform.startswith("win") if windows is None else windows
    root = Path(os.path.abspath(prefix or sys.prefix))
    in_env = (prefix or sys.prefix) != (base_prefix or sys.base_prefix)
    if _is_uv_cache(root, env):
        return Install("uvx", ["uvx", PACKAGE, SERVE],
                       "run through uvx from uv's cache, so clients start it with uvx too")
    if _is_pipx_run(root, env):
        return Install("pipx-run", ["pipx", "run", PACKAGE, SERVE],
                       "run through `pipx run` from pipx's cache, so clients use pipx run too")
    folder = root / ("Scripts" if windows else "bin") if in_env else Path(
        scripts or sysconfig.get_path("scripts"))
    script = _script(folder, windows)
    if (root / "uv-receipt.toml").is_file():
        kind, note = "uv-tool", f"installed with `uv tool install` in {root}"
    elif (root / "pipx_metadata.json").is_file():
        kind, note = "pipx", f"installed with `pipx install` in {root}"
    elif in_env:
        kind, note = "venv", f"installed in the virtual environment {root}"
    else:
        kind, note = "system", f"installed for {executable or sys.executable}"
    if script.is_file():
        return Install(kind, [str(script), SERVE], note)
    python = os.path.abspath(executable or sys.executable)
    return Install("module", [python, "-m", "jamgate_core.cli", SERVE],
                   f"no jamgate script in {folder}, so clients run the module with {python}")
