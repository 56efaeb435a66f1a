"""The wheel as users get it: what it ships, what it declares, and that it works on its own.

The wheel is built from the working tree and installed (without dependencies) into a fresh,
plain virtualenv; the dependencies come from this environment's site-packages through
PYTHONPATH, minus this environment's own editable jamgate, so only the wheel provides it.
"""

from __future__ import annotations

import configparser
import json
import os
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from jamgate_core.loader import EXTRAS

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
IMPORT_PACKAGES = {"jamgate_core", "jamgate_stages", "jamgate_server", "jamgate_commands",
                   "jamgate_adapters"}
HEAVY = ("mem0", "graphiti_core", "supabase", "torch")
# Where each import package lives in the source tree.
SOURCE_ROOTS = {"jamgate_core": ROOT, "jamgate_stages": ROOT / "plugins",
                "jamgate_server": ROOT / "plugins", "jamgate_commands": ROOT / "plugins",
                "jamgate_adapters": ROOT / "adapters"}
# Data files the code reads with importlib.resources.
RESOURCES = ("jamgate_adapters/stores/supabase/sql/schema.sql",
             "jamgate_server/opening_replies.json")  # D-225


def declared_entry_points() -> set[tuple[str, str, str]]:
    """(group, name, target) for every entry point and script the source pyproject declares."""
    project = PYPROJECT["project"]
    declared = {("console_scripts", name, target)
                for name, target in project.get("scripts", {}).items()}
    for group, points in project.get("entry-points", {}).items():
        declared |= {(group, name, target) for name, target in points.items()}
    return declared


def in_source_tree(target: str) -> bool:
    """Whether the module an entry point names exists in the working tree yet."""
    module = target.split(":")[0]
    root = SOURCE_ROOTS[module.split(".")[0]]
    base = root.joinpath(*module.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


@dataclass
class FreshInstall:
    wheel: Path
    venv: Path
    dependencies: Path

    def run(self, *args: str, extra_path: Path | None = None, **env: str,
            ) -> subprocess.CompletedProcess[str]:
        path = [str(p) for p in (extra_path, self.dependencies) if p is not None]
        environ = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "PYTHONHOME"}}
        environ.update(PYTHONPATH=os.pathsep.join(path), PYTHONNOUSERSITE="1", **env)
        return subprocess.run(list(args), env=environ, cwd=environ["JAMGATE_HOME"],
                              capture_output=True, text=True, timeout=300)

    @property
    def python(self) -> str:
        return str(self.venv / "bin" / "python")

    @property
    def jamgate(self) -> str:
        return str(self.venv / "bin" / "jamgate")


@pytest.fixture(scope="module")
def fresh(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> FreshInstall:
    base = tmp_path_factory.mktemp("fresh")
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                   timeout=300)
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
         "--no-deps", "--no-index", "--disable-pip-version-check", "--quiet", str(wheel)],
        check=True, capture_output=True, text=True, timeout=300,
    )
    # This environment's packages, less its own (editable) jamgate.
    dependencies = base / "dependencies"
    dependencies.mkdir()
    for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
        lowered = entry.name.lower()
        if "jamgate" in lowered or entry.suffix == ".pth" or entry.name == "__pycache__":
            continue
        (dependencies / entry.name).symlink_to(entry)
    return FreshInstall(wheel, venv, dependencies)


def wheel_entry_points(wheel: Path) -> set[tuple[str, str, str]]:
    with zipfile.ZipFile(wheel) as archive:
        (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/entry_points.txt")]
        text = archive.read(name).decode("utf-8")
    parser = configparser.ConfigParser(delimiters=("=",), interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(text)
    return {(group, key, value) for group in parser.sections()
            for key, value in parser.items(group)}


def test_wheel_ships_the_five_import_packages_only(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    top = {name.split("/")[0] for name in names}
    assert top - {n for n in top if n.endswith(".dist-info")} == IMPORT_PACKAGES
    assert "plugins" not in top and "adapters" not in top
    for package in IMPORT_PACKAGES:
        assert f"{package}/__init__.py" in names
    assert "jamgate_core/py.typed" in names
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    for resource in RESOURCES:
        assert resource in names, resource


def test_wheel_declares_every_builtin(wheel: Path) -> None:
    declared = declared_entry_points()
    assert len(declared) >= 15
    assert wheel_entry_points(wheel) == declared


def test_wheel_ships_every_declared_module_that_exists(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    for _group, _name, target in declared_entry_points():
        if not in_source_tree(target):
            continue  # not written yet: nothing to ship
        path = target.split(":")[0].replace(".", "/")
        assert f"{path}.py" in names or f"{path}/__init__.py" in names, target


def test_fresh_venv_uses_the_wheel(fresh: FreshInstall) -> None:
    code = ("import importlib.metadata as md, json, jamgate_core; "
            "print(json.dumps([str(md.distribution('jamgate').locate_file('')), "
            "jamgate_core.__file__, [str(d.locate_file('')) for d in md.distributions() "
            "if d.metadata['Name'] == 'jamgate']]))")
    result = fresh.run(fresh.python, "-c", code)
    assert result.returncode == 0, result.stderr
    location, module, copies = json.loads(result.stdout)
    assert Path(location).is_relative_to(fresh.venv)
    assert Path(module).is_relative_to(fresh.venv)
    assert len(copies) == 1


def test_fresh_install_lists_every_builtin(fresh: FreshInstall) -> None:
    result = fresh.run(fresh.jamgate, "plugins", "--json")
    assert result.returncode == 0, result.stderr
    listed = {(r["group"], r["name"], r["target"]) for r in json.loads(result.stdout)
              if r["distribution"] == "jamgate" and r["builtin"]}
    expected = {p for p in declared_entry_points() if p[0] != "console_scripts"}
    assert listed == expected


def test_fresh_install_imports_every_builtin_module(fresh: FreshInstall) -> None:
    """Every built-in that exists imports from the wheel (the extras' adapters aside)."""
    targets = sorted({target for group, name, target in declared_entry_points()
                      if group != "console_scripts" and name not in EXTRAS
                      and in_source_tree(target)})
    code = ("import importlib, sys\n"
            "for target in sys.argv[1:]:\n"
            "    module, _, attr = target.partition(':')\n"
            "    obj = importlib.import_module(module)\n"
            "    if attr: getattr(obj, attr)\n")
    result = fresh.run(fresh.python, "-c", code, *targets)
    assert result.returncode == 0, result.stderr


def test_fresh_install_prints_the_supabase_schema(fresh: FreshInstall, jamgate_home: Path,
                                                  ) -> None:
    """The schema is read from the installed package (importlib.resources), not the source."""
    result = fresh.run(fresh.jamgate, "supabase", "init", "--print")
    assert result.returncode == 0, result.stderr
    assert "create table if not exists jamgate_memories" in result.stdout


def test_fresh_install_doctor_passes_on_defaults(fresh: FreshInstall, jamgate_home: Path) -> None:
    result = fresh.run(fresh.jamgate, "doctor", "--json")
    assert result.returncode == 0, result.stdout + result.stderr
    assert not [c for c in json.loads(result.stdout) if c["level"] == "error"]


def test_heavy_libraries_stay_unimported_on_a_default_start(
    fresh: FreshInstall, jamgate_home: Path, tmp_path: Path
) -> None:
    """With importable stand-ins for mem0, graphiti_core, supabase and torch on the path, a
    default start, a save, a check and a recall import none of them."""
    stand_ins = tmp_path / "stand-ins"
    for name in HEAVY:
        (stand_ins / name).mkdir(parents=True)
        (stand_ins / name / "__init__.py").write_text("", encoding="utf-8")
    code = (
        "import importlib.util, json, sys\n"
        "from jamgate_core.app import open_app\n"
        "from jamgate_core.models import SaveRequest\n"
        "app = open_app()\n"
        "app.save(SaveRequest(text='Jam lives in Athens'))\n"
        "app.check(SaveRequest(text='Jam drinks tea every morning'))\n"
        "app.recall('Athens')\n"
        "described = app.describe()\n"
        "app.close()\n"
        f"heavy = {HEAVY!r}\n"
        "print(json.dumps({'store': described['store'],\n"
        "                  'findable': [m for m in heavy if importlib.util.find_spec(m)],\n"
        "                  'imported': [m for m in heavy if m in sys.modules]}))\n"
    )
    result = fresh.run(fresh.python, "-c", code, extra_path=stand_ins)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["store"] == "sqlite"  # the defaults, untouched
    assert report["findable"] == list(HEAVY)  # so an eager import would have succeeded
    assert report["imported"] == []

