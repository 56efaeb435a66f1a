"""Build a Claude Desktop bundle (`.mcpb`): Jamgate and every dependency in one zip.

The bundle holds `manifest.json` (MCPB manifest 0.3), `server/main.py` and `server/lib/` (the
wheel and its dependencies, installed with pip --target). Claude Desktop starts
`python server/main.py`; main.py puts `server/lib` first on sys.path, so the bundle runs from
its own files. Compiled dependencies make a bundle specific to the platform and Python version
it was built on; its name and `compatibility` say which.

Usage: .venv/bin/python scripts/build_mcpb.py [--wheel W] [--out DIR] [pip options …]
(pip options, e.g. `--no-index --find-links .cache/wheelhouse`, go to the install step.)
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAIN = '''"""Start Jamgate on stdio from this bundle's own files."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from jamgate_core.cli import main  # noqa: E402

sys.exit(main(["serve"]))
'''
PLATFORMS = {"Linux": "linux", "Darwin": "darwin", "Windows": "win32"}


def build_wheel(out: Path) -> Path:
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir",
                    str(out), str(ROOT)], check=True, capture_output=True, text=True)
    return next(out.glob("jamgate-*.whl"))


def manifest(version: str) -> dict[str, object]:
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    return {
        "manifest_version": "0.3",
        "name": "jamgate",
        "display_name": "Jamgate",
        "version": version,
        "description": "One memory of you for every AI agent, with a quality gate in the "
                       "write path.",
        "author": {"name": "Jamgate contributors"},
        "license": "MIT",
        "keywords": ["memory", "mcp", "agents"],
        "server": {
            "type": "python",
            "entry_point": "server/main.py",
            "mcp_config": {"command": "python", "args": ["${__dirname}/server/main.py"],
                           "env": {"PYTHONPATH": "${__dirname}/server/lib"}},
        },
        "tools": [{"name": n, "description": d} for n, d in (
            ("save_memory", "Save one durable memory through the quality gate"),
            ("check_memory", "The verdict a save would get; writes nothing"),
            ("recall_memory", "Recall memories relevant to a query"),
            ("forget_memory", "Delete one memory by id"),
            ("list_memories", "List memories, newest first"))],
        "compatibility": {"platforms": [PLATFORMS.get(platform.system(), "linux")],
                          "runtimes": {"python": f"~={python}.0"}},  # compiled for this one
    }


def build(wheel: Path, out: Path, pip_options: list[str]) -> Path:
    version = wheel.name.split("-")[1]
    with tempfile.TemporaryDirectory() as temp:
        stage = Path(temp) / "bundle"
        lib = stage / "server" / "lib"
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--target", str(lib),
                        "--disable-pip-version-check", *pip_options, str(wheel)], check=True)
        shutil.rmtree(lib / "bin", ignore_errors=True)  # scripts with this machine's paths
        (stage / "server" / "main.py").write_text(MAIN, encoding="utf-8")
        (stage / "manifest.json").write_text(json.dumps(manifest(version), indent=2) + "\n",
                                             encoding="utf-8")
        shutil.copy(ROOT / "LICENSE", stage / "LICENSE")
        tag = f"{PLATFORMS.get(platform.system(), 'linux')}-{platform.machine().lower()}-py" \
              f"{sys.version_info.major}{sys.version_info.minor}"
        out.mkdir(parents=True, exist_ok=True)
        target = out / f"jamgate-{version}-{tag}.mcpb"
        with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
            for path in sorted(stage.rglob("*")):
                if path.is_file() and "__pycache__" not in path.parts:
                    archive.write(path, path.relative_to(stage).as_posix())
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheel", type=Path, help="a built jamgate wheel (default: build one)")
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="where the bundle goes")
    args, pip_options = parser.parse_known_args()
    with tempfile.TemporaryDirectory() as temp:
        wheel = args.wheel or build_wheel(Path(temp))
        print(build(wheel, args.out, pip_options))


if __name__ == "__main__":
    main()
