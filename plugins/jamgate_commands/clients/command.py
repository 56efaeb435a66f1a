"""The command a client should run to start this Jamgate: how was it installed?

- `uvx` / `pipx run` ran it from a throw-away cache environment: write the same launcher with
  the requirement it ran (`--from` / `--spec`): the source it came from (the environment's
  `direct_url.json`: a wheel, a folder, a Git commit — else the index, pinned to the running
  version), and the extras that are installed with it, so the cache path need not last.
- `uv tool install`, `pipx install`, a virtualenv or a plain install: write the absolute path
  of that environment's `jamgate` script, so clients need nothing on their PATH.
- No script at all (run from a source tree): the interpreter with `-m jamgate_core.cli`.
"""

from __future__ import annotations

import json
import os
import re
import sys
import sysconfig
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlsplit

PACKAGE = "jamgate"
SERVE = "serve"
_EXTRA = re.compile(r"""extra\s*==\s*["']([^"']+)["']""")
_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


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
    """`pipx run` keeps its environments in `<cache>/pipx/<hash>` (pipx 1.5+) or, before,
    in `$PIPX_HOME/.cache/<hash>`; `pipx install` in `$PIPX_HOME/venvs/<name>`."""
    if env.get("PIPX_HOME") and _under(prefix, str(Path(env["PIPX_HOME"]) / ".cache")):
        return True
    parent, grandparent = prefix.parent.name.lower(), prefix.parent.parent.name.lower()
    if parent == ".cache" and "pipx" in grandparent:
        return True
    return parent == "pipx" and (prefix / "pipx_metadata.json").is_file()


def _script(folder: Path, windows: bool) -> Path:
    return folder / ("jamgate.exe" if windows else PACKAGE)


# ---- the requirement a throw-away environment ran ------------------------------------------


def _site_paths(prefix: Path) -> list[str] | None:
    """Where the environment at `prefix` keeps its packages (None: this process's path)."""
    if prefix == Path(os.path.abspath(sys.prefix)):
        return None
    paths = [str(p) for p in sorted(prefix.glob("lib/python*/site-packages"))]
    return [*paths, str(prefix / "Lib" / "site-packages")]


def _distributions(prefix: Path, name: str | None = None) -> list[metadata.Distribution]:
    paths = _site_paths(prefix)
    found = metadata.distributions(path=sys.path if paths is None else paths)
    return [d for d in found if name is None or _normal(d.metadata["Name"]) == name]


def _normal(name: str | None) -> str:
    return re.sub(r"[-_.]+", "-", name or "").lower()


def _source(dist: metadata.Distribution) -> str | None:
    """Where the distribution came from as a requirement's location (a local path or a
    `git+` URL), or None when it came from an index. From PEP 610's `direct_url.json`."""
    text = dist.read_text("direct_url.json")
    if not text:
        return None
    try:
        record = json.loads(text)
        url = str(record["url"])
    except (ValueError, KeyError, TypeError):
        return None
    vcs = record.get("vcs_info")
    if isinstance(vcs, dict):
        commit = vcs.get("commit_id") or vcs.get("requested_revision")
        return f"{vcs.get('vcs', 'git')}+{url}" + (f"@{commit}" if commit else "")
    parts = urlsplit(url)
    if parts.scheme == "file":
        return unquote(parts.path)
    return url


def installed_extras(dist: metadata.Distribution, prefix: Path) -> list[str]:
    """The extras every requirement of which is installed beside jamgate (uv records no
    requested extras, so they are read off the environment); `all` is covered by its parts."""
    present = {_normal(d.metadata["Name"]) for d in _distributions(prefix)}
    needs: dict[str, set[str]] = {}
    for line in dist.requires or []:
        extra, name = _EXTRA.search(line), _NAME.match(line)
        if extra and name:
            needs.setdefault(extra.group(1), set()).add(_normal(name.group(1)))
    return sorted(extra for extra, names in needs.items()
                  if extra != "all" and PACKAGE not in names and names <= present)


def requirement(prefix: Path) -> str:
    """The requirement that reinstalls what runs here: source, extras and version."""
    found = _distributions(prefix, name=PACKAGE)
    if not found:
        return PACKAGE
    dist = found[0]
    extras = installed_extras(dist, prefix)
    suffix = f"[{','.join(extras)}]" if extras else ""
    source = _source(dist)
    if source is None:
        return f"{PACKAGE}{suffix}=={dist.version}"
    if source.startswith(("/", ".")) or re.match(r"^[A-Za-z]:[\\/]", source):
        return f"{source}{suffix}"
    return f"{PACKAGE}{suffix} @ {source}"


def _pipx_spec(prefix: Path) -> tuple[str | None, list[str]]:
    """`pipx run`'s own record of the spec it ran, and its pip arguments."""
    try:
        record = json.loads((prefix / "pipx_metadata.json").read_text(encoding="utf-8"))
        main = record["main_package"]
        spec, pip_args = main.get("package_or_url"), main.get("pip_args") or []
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None, []
    return (str(spec) if spec else None), [str(a) for a in pip_args]


def _launcher(kind: str, prefix: Path) -> Install:
    if kind == "uvx":
        spec = requirement(prefix)
        return Install("uvx", ["uvx", "--from", spec, PACKAGE, SERVE],
                       f"run through uvx from uv's cache, so clients start it with uvx "
                       f"--from {spec} too")
    spec_text, pip_args = _pipx_spec(prefix)
    spec = spec_text or requirement(prefix)
    extra = ["--pip-args", " ".join(pip_args)] if pip_args else []
    return Install("pipx-run", ["pipx", "run", *extra, "--spec", spec, PACKAGE, SERVE],
                   f"run through `pipx run` from pipx's cache, so clients use pipx run "
                   f"--spec {spec} too")


def detect_install(prefix: str | None = None, base_prefix: str | None = None,
                   executable: str | None = None, env: Mapping[str, str] | None = None,
                   scripts: str | None = None, windows: bool | None = None) -> Install:
    """The install of the running interpreter (every argument defaults to this process)."""
    env = os.environ if env is None else env
    windows = sys.platform.startswith("win") if windows is None else windows
    root = Path(os.path.abspath(prefix or sys.prefix))
    in_env = (prefix or sys.prefix) != (base_prefix or sys.base_prefix)
    if _is_uv_cache(root, env):
        return _launcher("uvx", root)
    if _is_pipx_run(root, env):
        return _launcher("pipx-run", root)
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
