"""The example third-party stage, installed with pip and driven through the real loader and CLI;
and the example `jamgate.toml` files, loaded as users would load them."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from jamgate_core.settings import BUILTIN_STAGES, Settings

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
EXAMPLE_PACKAGE = EXAMPLES / "jamgate-stage-example"
SHOUT = "JAM LIVES IN ATHENS AND DRINKS GREEN TEA"  # a fact, only shouted
REASON = "example.shouting"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder the example package is pip-installed into (a real wheel build, no network)."""
    target = tmp_path_factory.mktemp("site")
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--no-build-isolation",
         "--no-index", "--disable-pip-version-check", "--quiet", "--target", str(target),
         str(EXAMPLE_PACKAGE)],
        check=True, capture_output=True, text=True, timeout=300,
    )
    return target


def jamgate(site: Path | None, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Run the real CLI in a subprocess with `site` on PYTHONPATH and the given variables."""
    environ = {**os.environ, **env}
    if site is not None:
        outer = environ.get("PYTHONPATH")
        environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(site), outer) if p)
    environ.setdefault("JAMGATE_STORE", "memory")
    environ = {k: v for k, v in environ.items() if v != ""}  # "" removes a variable
    return subprocess.run(
        [sys.executable, "-m", "jamgate_core.cli", *args], env=environ,
        cwd=environ["JAMGATE_HOME"], capture_output=True, text=True, timeout=120,
    )


def check(site: Path | None, text: str = SHOUT, **env: str) -> dict[str, Any]:
    result = jamgate(site, "check", text, "--json", **env)
    assert result.returncode == 0, result.stderr
    verdict: dict[str, Any] = json.loads(result.stdout)
    return verdict


# ---- the installed example stage ----------------------------------------------------------

def test_listed_stage_rejects_shouting(site: Path) -> None:
    verdict = check(site, JAMGATE_STAGES_EXTRA='["no-shouting"]')
    assert verdict["decision"] == "rejected"
    assert verdict["reason_code"] == REASON


def test_listed_stage_passes_ordinary_text(site: Path) -> None:
    verdict = check(site, "Jam lives in Athens", JAMGATE_STAGES_EXTRA='["no-shouting"]')
    assert verdict["decision"] == "saved"


def test_installed_but_unlisted_stage_does_not_run(site: Path) -> None:
    verdict = check(site)
    assert verdict["reason_code"] != REASON
    doctor = jamgate(site, "doctor", "--json")
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    assert "no-shouting" not in doctor.stdout


def test_plugins_lists_it_with_its_distribution(site: Path) -> None:
    result = jamgate(site, "plugins", "--json")
    assert result.returncode == 0, result.stderr
    rows = [r for r in json.loads(result.stdout) if r["name"] == "no-shouting"]
    assert rows == [{
        "group": "jamgate.stages", "name": "no-shouting",
        "target": "jamgate_no_shouting:NoShoutingStage",
        "distribution": "jamgate-stage-example", "builtin": False, "usable": True,
    }]
    human = jamgate(site, "plugins")
    assert re.search(r"no-shouting\s+jamgate_no_shouting:NoShoutingStage\s+"
                     r"\(jamgate-stage-example\)", human.stdout)


def test_plugins_without_it_does_not_list_it(jamgate_home: Path) -> None:
    result = jamgate(None, "plugins", "--json")
    assert result.returncode == 0, result.stderr
    names = {r["name"] for r in json.loads(result.stdout)}
    assert "validation" in names
    assert "no-shouting" not in names


@pytest.mark.parametrize(("min_letters", "rejected"), [(100, False), (5, True)])
def test_stage_options_from_jamgate_toml(
    site: Path, jamgate_home: Path, min_letters: int, rejected: bool
) -> None:
    (jamgate_home / "jamgate.toml").write_text(
        f'stages_extra = ["no-shouting"]\n\n[stage_options.no-shouting]\n'
        f"min_letters = {min_letters}\n", encoding="utf-8",
    )
    verdict = check(site)
    assert (verdict["reason_code"] == REASON) is rejected


def test_bad_stage_option_in_jamgate_toml_stops_startup(site: Path, jamgate_home: Path) -> None:
    (jamgate_home / "jamgate.toml").write_text(
        'stages_extra = ["no-shouting"]\n\n[stage_options.no-shouting]\nmin_leters = 5\n',
        encoding="utf-8",
    )
    result = jamgate(site, "check", SHOUT, "--json")
    assert result.returncode == 2
    assert result.stdout == ""
    assert "jamgate.stages plugin 'no-shouting'" in result.stderr
    assert "min_leters" in result.stderr


def test_the_examples_own_tests_pass(site: Path, jamgate_home: Path) -> None:
    """The example's test suite, as its author runs it (the module is not installed there)."""
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(EXAMPLE_PACKAGE)],
        cwd=EXAMPLE_PACKAGE, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.search(r"\b\d+ passed\b", result.stdout)


# ---- the example jamgate.toml files -------------------------------------------------------

EXAMPLE_CONFIGS = sorted(p.name for p in EXAMPLES.glob("*.toml"))


def use_config(home: Path, name: str) -> None:
    (home / "jamgate.toml").write_text((EXAMPLES / name).read_text(encoding="utf-8"),
                                       encoding="utf-8")


def test_there_is_one_config_per_user_type() -> None:
    assert EXAMPLE_CONFIGS == [
        "mem0-offline.toml", "newcomer.toml", "outgrown-one-machine.toml",
        "plugin-author.toml", "power-user-mem0.toml",
    ]


@pytest.mark.parametrize("name", EXAMPLE_CONFIGS)
def test_example_config_is_valid_settings(jamgate_home: Path, name: str) -> None:
    """Every key is a Settings field (extra keys are forbidden) with a valid value."""
    use_config(jamgate_home, name)
    settings = Settings()
    assert "validation" in settings.stage_list()
    written = tomllib.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    for key, value in written.items():
        assert getattr(settings, key) == value, key


def test_example_configs_select_what_they_say(jamgate_home: Path) -> None:
    expected = {
        "mem0-offline.toml": ("mem0", []),
        "newcomer.toml": ("sqlite", []),
        "power-user-mem0.toml": ("mem0", []),
        "plugin-author.toml": ("sqlite", ["no-shouting"]),
        "outgrown-one-machine.toml": ("supabase", []),
    }
    for name, (store, extra_stages) in expected.items():
        use_config(jamgate_home, name)
        settings = Settings()
        assert settings.store_choice()[0] == store, name
        assert [s for s in settings.stage_list() if s not in BUILTIN_STAGES] == extra_stages
    use_config(jamgate_home, "outgrown-one-machine.toml")
    settings = Settings()
    assert settings.http and settings.port == 8420 and settings.token is None


def test_newcomer_comments_show_the_real_defaults(jamgate_home: Path) -> None:
    """Uncommenting every `# key = value` line of newcomer.toml changes nothing."""
    text = (EXAMPLES / "newcomer.toml").read_text(encoding="utf-8")
    assert not tomllib.loads(text), "newcomer.toml sets nothing: every line is a comment"
    uncommented = "\n".join(
        match.group(1) for match in re.finditer(r"^# ([a-z_]+ = .+)$", text, re.MULTILINE)
    )
    values = tomllib.loads(uncommented)
    assert len(values) >= 15
    defaults = Settings()
    (jamgate_home / "jamgate.toml").write_text(uncommented, encoding="utf-8")
    spelled_out = Settings()
    for key in values:
        if not key.startswith("ttl_"):  # a TTL left unset means its default; compared below
            assert getattr(spelled_out, key) == getattr(defaults, key), key
    assert spelled_out.ttl_days() == defaults.ttl_days()


@pytest.mark.parametrize("name", ["newcomer.toml", "plugin-author.toml"])
def test_example_config_starts_for_real(site: Path, jamgate_home: Path, name: str) -> None:
    """The configs whose plugins exist pass `jamgate doctor` as written (no overrides)."""
    use_config(jamgate_home, name)
    doctor = jamgate(site, "doctor", "--json", JAMGATE_STORE="")
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    checks = json.loads(doctor.stdout)
    assert not [c for c in checks if c["level"] == "error"]
    shouted = check(site, JAMGATE_STORE="")
    assert (shouted["reason_code"] == REASON) is (name == "plugin-author.toml")
    assert (jamgate_home / "memory.db").exists()  # the default store, where the docs say
