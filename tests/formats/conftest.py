"""Helpers for the format tests: fixture files with a credential planted at run time, zips,
and the real `jamgate` CLI."""

from __future__ import annotations

import shutil
import sqlite3
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from formats_kit import FIXTURES, PLACEHOLDER, PLANTED, Run, files_containing

from jamgate_core.cli import main


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., Run]:
    """Run `jamgate ARGS…` in-process and capture what it printed."""
    def run(*argv: str) -> Run:
        capsys.readouterr()
        code = main(list(argv))
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)
    return run


@pytest.fixture
def planted(tmp_path: Path) -> Callable[[str], Path]:
    """A copy of a fixture (file or folder) with the credential line put in place."""
    def copy(name: str) -> Path:
        source = FIXTURES / name
        target = tmp_path / "in" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target)
            files = [p for p in target.rglob("*") if p.is_file()]
        else:
            shutil.copy2(source, target)
            files = [target]
        for file in files:
            text = file.read_text(encoding="utf-8")
            if PLACEHOLDER in text:
                file.write_text(text.replace(PLACEHOLDER, PLANTED), encoding="utf-8")
        return target
    return copy


def make_zip(folder: Path, target: Path) -> Path:
    """`folder` as a deflated zip whose entries sit under the folder's name, as exports do."""
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for file in sorted(folder.rglob("*")):
            if file.is_file():
                archive.write(file, f"{folder.name}/{file.relative_to(folder).as_posix()}")
    return target


@pytest.fixture
def zipped() -> Callable[[Path, Path], Path]:
    return make_zip


def checkpoint(home: Path) -> None:
    """Fold SQLite's write-ahead log into the database, so grep sees everything written."""
    for db in home.rglob("*.db"):
        with sqlite3.connect(db) as conn:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


@pytest.fixture
def grep_home(jamgate_home: Path) -> Callable[[str], list[Path]]:
    """Files under JAMGATE_HOME (after a WAL checkpoint) that contain `needle`."""
    def grep(needle: str) -> list[Path]:
        checkpoint(jamgate_home)
        return files_containing(jamgate_home, needle)
    return grep
