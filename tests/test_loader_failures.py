"""Every way loading can fail stops Jamgate before it starts, with one actionable message.

Throwaway distributions are real `<name>.dist-info` folders (METADATA, entry_points.txt) and
modules in a temporary folder on PYTHONPATH, so discovery is importlib.metadata's own. The CLI
runs in a subprocess. A witness distribution (a `jamgate.plugins` hook) writes a file in
JAMGATE_HOME on `jamgate_startup`: where it is absent, nothing started.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

WITNESS = '''
from pathlib import Path

from jamgate_core.hookspecs import hookimpl


@hookimpl
def jamgate_startup(app):
    (Path(app.settings.home) / "started").write_text("started", encoding="utf-8")
'''

GOOD_STAGE = '''
from typing import ClassVar

from pydantic import BaseModel

from jamgate_core.models import StageResult


class {cls}:
    name: ClassVar[str] = "{name}"
    requires: ClassVar[frozenset[str]] = frozenset()

    class Options(BaseModel):
        pass

    def __init__(self, options=None):
        self.options = options

    def evaluate(self, candidate, ctx):
        return StageResult.passed()
'''


def distribution(site: Path, name: str, entry_points: dict[str, dict[str, str]],
                 modules: dict[str, str]) -> None:
    """Install a minimal distribution into `site`, the way pip lays one out."""
    dist_info = site / f"{name.replace('-', '_')}-0.1.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n", encoding="utf-8"
    )
    lines: list[str] = []
    for group, points in entry_points.items():
        lines += [f"[{group}]", *(f"{key} = {value}" for key, value in points.items()), ""]
    (dist_info / "entry_points.txt").write_text("\n".join(lines), encoding="utf-8")
    for module, source in modules.items():
        (site / f"{module}.py").write_text(textwrap.dedent(source), encoding="utf-8")


@pytest.fixture
def site(tmp_path: Path) -> Path:
    folder = tmp_path / "site"
    folder.mkdir()
    distribution(folder, "jamgate-startup-witness",
                 {"jamgate.plugins": {"witness": "jamgate_witness"}}, {"jamgate_witness": WITNESS})
    return folder


def jamgate(site: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join(p for p in (str(site), os.environ.get("PYTHONPATH")) if p)
    environ = {**os.environ, "PYTHONPATH": path, "JAMGATE_STORE": "memory", **env}
    return subprocess.run(
        [sys.executable, "-m", "jamgate_core.cli", *args], env=environ,
        cwd=environ["JAMGATE_HOME"], stdin=subprocess.DEVNULL, capture_output=True, text=True,
        timeout=120,
    )


def assert_nothing_starts(site: Path, home: Path, fragments: list[str], **env: str) -> str:
    """`check` and `doctor` both refuse, naming every fragment; nothing starts. The message."""
    checked = jamgate(site, "check", "Jam lives in Athens", **env)
    assert checked.returncode == 2, checked.stdout + checked.stderr
    assert checked.stdout == ""
    assert "Traceback" not in checked.stderr
    message = checked.stderr.strip()
    assert message.startswith("jamgate: ")
    assert "\n" not in message  # one message
    for fragment in fragments:
        assert fragment in message

    doctor = jamgate(site, "doctor", **env)
    assert doctor.returncode == 1, doctor.stdout + doctor.stderr
    failures = [line for line in doctor.stdout.splitlines() if line.startswith("[FAIL]")]
    assert len(failures) == 1, doctor.stdout
    for fragment in fragments:
        assert fragment in failures[0]
    assert not (home / "started").exists()
    return message


def test_the_witness_sees_a_good_start(site: Path, jamgate_home: Path) -> None:
    result = jamgate(site, "check", "Jam lives in Athens")
    assert result.returncode == 0, result.stderr
    assert (jamgate_home / "started").exists()


def test_missing_stage_name(site: Path, jamgate_home: Path) -> None:
    message = assert_nothing_starts(
        site, jamgate_home,
        ["jamgate.stages plugin 'no-such-stage'", "no installed package provides it"],
        JAMGATE_STAGES_EXTRA='["no-such-stage"]',
    )
    remedy = message.split("Installed jamgate.stages plugins: ", 1)[1]
    for installed in ("validation", "prefilter", "dedup"):
        assert installed in remedy


def test_missing_store_names_its_group_and_remedy(site: Path, jamgate_home: Path) -> None:
    # Every store with an extra now has an entry point, so an unknown name stands in: the
    # message still names the group and says how to get the store installed.
    assert_nothing_starts(
        site, jamgate_home,
        ["jamgate.stores plugin 'postgres-cluster'",
         "Install the package that provides 'postgres-cluster'"],
        JAMGATE_STORE="postgres-cluster",
    )


def test_missing_store_without_an_extra(site: Path, jamgate_home: Path) -> None:
    message = assert_nothing_starts(site, jamgate_home, ["jamgate.stores plugin 'redis'"],
                                    JAMGATE_STORE="redis")
    assert "memory" in message.split("Installed jamgate.stores plugins: ", 1)[1]


def test_entry_point_whose_import_fails(site: Path, jamgate_home: Path) -> None:
    distribution(site, "jamgate-stage-broken",
                 {"jamgate.stages": {"broken": "jamgate_broken:BrokenStage"}},
                 {"jamgate_broken": "import jamgate_heavy_dependency_not_installed\n"})
    assert_nothing_starts(
        site, jamgate_home,
        ["jamgate.stages plugin 'broken' (from jamgate-stage-broken)",
         "importing jamgate_broken:BrokenStage failed",
         "ModuleNotFoundError", "jamgate_heavy_dependency_not_installed", "Install"],
        JAMGATE_STAGES_EXTRA='["broken"]',
    )


def test_two_distributions_register_one_stage_name(site: Path, jamgate_home: Path) -> None:
    for dist, module in [("jamgate-stage-one", "jamgate_one"),
                         ("jamgate-stage-two", "jamgate_two")]:
        distribution(site, dist, {"jamgate.stages": {"tidy": f"{module}:TidyStage"}},
                     {module: GOOD_STAGE.format(cls="TidyStage", name="tidy")})
    assert_nothing_starts(
        site, jamgate_home,
        ["jamgate.stages plugin 'tidy' (from jamgate-stage-one, jamgate-stage-two)",
         "more than one installed distribution", "Uninstall one of them"],
        JAMGATE_STAGES_EXTRA='["tidy"]',
    )


def test_a_package_shadowing_a_builtin_stage_stops_the_default_gate(
    site: Path, jamgate_home: Path
) -> None:
    """Installing a package must never silently replace a built-in judgement."""
    distribution(site, "jamgate-lenient", {"jamgate.stages": {"prefilter": "jamgate_lax:Lax"}},
                 {"jamgate_lax": GOOD_STAGE.format(cls="Lax", name="prefilter")})
    assert_nothing_starts(
        site, jamgate_home, ["jamgate.stages plugin 'prefilter' (from jamgate, jamgate-lenient)"],
    )


def test_unlisted_broken_stage_is_never_imported(site: Path, jamgate_home: Path) -> None:
    distribution(site, "jamgate-stage-broken",
                 {"jamgate.stages": {"broken": "jamgate_broken:BrokenStage"}},
                 {"jamgate_broken": "raise SystemExit('imported')\n"})
    result = jamgate(site, "check", "Jam lives in Athens", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["decision"] == "saved"


def test_object_that_breaks_the_stage_contract(site: Path, jamgate_home: Path) -> None:
    source = GOOD_STAGE.format(cls="Sloppy", name="sloppy").replace("def evaluate", "def judge")
    distribution(site, "jamgate-stage-sloppy",
                 {"jamgate.stages": {"sloppy": "jamgate_sloppy:Sloppy"}},
                 {"jamgate_sloppy": source})
    assert_nothing_starts(
        site, jamgate_home,
        ["jamgate.stages plugin 'sloppy' (from jamgate-stage-sloppy)",
         "does not satisfy the Stage contract (missing: evaluate)", "Report this"],
        JAMGATE_STAGES_EXTRA='["sloppy"]',
    )


def test_stage_whose_constructor_fails(site: Path, jamgate_home: Path) -> None:
    source = GOOD_STAGE.format(cls="Fussy", name="fussy").replace(
        "self.options = options", "raise RuntimeError('needs FUSSY_API_KEY')"
    )
    distribution(site, "jamgate-stage-fussy",
                 {"jamgate.stages": {"fussy": "jamgate_fussy:Fussy"}}, {"jamgate_fussy": source})
    assert_nothing_starts(
        site, jamgate_home,
        ["jamgate.stages plugin 'fussy' (from jamgate-stage-fussy)", "needs FUSSY_API_KEY"],
        JAMGATE_STAGES_EXTRA='["fussy"]',
    )


def test_invalid_stage_options(site: Path, jamgate_home: Path) -> None:
    (jamgate_home / "jamgate.toml").write_text(
        "[stage_options.prefilter]\nmin_length = 0\n", encoding="utf-8"
    )
    assert_nothing_starts(
        site, jamgate_home,
        ["jamgate.stages plugin 'prefilter'", "invalid options", "min_length",
         "greater than or equal to 1"],
    )


def test_unknown_setting(site: Path, jamgate_home: Path) -> None:
    (jamgate_home / "jamgate.toml").write_text('stroe = "memory"\n', encoding="utf-8")
    assert_nothing_starts(site, jamgate_home, ["invalid settings", "stroe", "jamgate.toml"])


def test_stage_list_without_validation(site: Path, jamgate_home: Path) -> None:
    assert_nothing_starts(
        site, jamgate_home, ["leaves out validation", '"@builtin"', "allow_unsafe_stage_list"],
        JAMGATE_STAGES='["prefilter"]',
    )


def test_unsafe_stage_list_allowed_starts_and_doctor_warns(
    site: Path, jamgate_home: Path
) -> None:
    env = {"JAMGATE_STAGES": '["prefilter"]', "JAMGATE_ALLOW_UNSAFE_STAGE_LIST": "true"}
    checked = jamgate(site, "check", "Jam lives in Athens", "--json", **env)
    assert checked.returncode == 0, checked.stderr
    assert json.loads(checked.stdout)["decision"] == "saved"
    assert (jamgate_home / "started").exists()
    doctor = jamgate(site, "doctor", "--json", **env)
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    checks = json.loads(doctor.stdout)
    assert {"level": "ok", "message": "stages: prefilter"} in checks
    warnings = [c["message"] for c in checks if c["level"] == "warning"]
    assert any("leaves out validation" in w and "unsafe" in w for w in warnings), warnings


@pytest.mark.parametrize(("env", "fragment"), [
    ({"JAMGATE_STORE": "postgres-cluster"}, "Install the package that provides"),
    ({"JAMGATE_STORE": "mem0", "JAMGATE_EMBEDDER": "none"}, "needs an embedder"),
    ({"JAMGATE_STAGES": '["prefilter"]'}, "allow_unsafe_stage_list"),
])
def test_serve_fails_before_starting(
    site: Path, jamgate_home: Path, env: dict[str, str], fragment: str
) -> None:
    result = jamgate(site, "serve", **env)
    assert result.returncode == 2
    assert result.stdout == ""  # not one byte of MCP on the protocol stream
    assert fragment in result.stderr
    assert "Traceback" not in result.stderr
    assert not (jamgate_home / "started").exists()


def test_a_stage_requiring_what_the_store_lacks_stops_startup() -> None:
    """`Stage.requires` is checked against the store's capabilities and the embedder."""
    from jamgate_core import BaseStage, Candidate, StageContext, StageResult
    from jamgate_core.errors import ConfigError
    from jamgate_core.loader import check_requirements
    from jamgate_core.stage import ConfiguredStage

    class NeedsVectors(BaseStage):
        name = "needs-vectors"
        requires = frozenset({"vector_search", "embedder"})

        def evaluate(self, candidate: Candidate, ctx: StageContext) -> StageResult:
            return StageResult.passed()

    class Store:
        capabilities = frozenset({"keyword_search"})

    stages = [ConfiguredStage(stage=NeedsVectors(), name="needs-vectors")]
    with pytest.raises(ConfigError, match="requires embedder, vector_search"):
        check_requirements(stages, "plain", Store(), None)  # type: ignore[arg-type]
    Store.capabilities = frozenset({"vector_search"})
    check_requirements(stages, "plain", Store(), object())  # type: ignore[arg-type]
