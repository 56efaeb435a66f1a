"""A credential planted in any import format is refused, reported redacted, and found nowhere
on disk afterwards: not in the store (after a WAL checkpoint), the gate log, or an export."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from formats_kit import PLANTED, SECRET_BODY, Run, files_containing

CASES = [
    ("jamgate", "native.json", None),
    ("jamgate-ts", "ts-v1.json", None),
    ("jamgate-ts", "ts-v2.json", None),
    ("jamgate-ts", "ts-v3.json", None),
    ("claude", "claude-memory.md", None),
    ("chatgpt", "chatgpt-memories.txt", None),
    ("chatgpt", "chatgpt-export", "chatgpt-memories.txt"),  # list dropped into the export zip
    ("mem0", "mem0-get-all.json", None),
    ("mcp-memory", "memory.jsonl", None),
]


@pytest.mark.parametrize(("fmt", "fixture", "added"), CASES,
                         ids=[f"{c[0]}:{c[1]}" for c in CASES])
def test_a_planted_credential_is_refused_and_never_written(
        fmt: str, fixture: str, added: str | None, cli: Callable[..., Run],
        planted: Callable[[str], Path], zipped: Callable[[Path, Path], Path],
        grep_home: Callable[[str], list[Path]], jamgate_home: Path, tmp_path: Path) -> None:
    path = planted(fixture)
    if added is not None:
        (path / "saved-memories.txt").write_text(planted(added).read_text(encoding="utf-8"),
                                                  encoding="utf-8")
    assert files_containing(path if path.is_dir() else path.parent, SECRET_BODY)
    if added is not None:
        path = zipped(path, tmp_path / "export.zip")
    result = cli("import", str(path), "--from", fmt, "--json", "--no-progress")
    assert result.code == 0, result.err
    report = json.loads(result.out)
    refused = [r for r in report["records"] if r["reason_code"].startswith("secret.")]
    assert len(refused) == 1
    assert refused[0]["outcome"] == "refused"
    assert refused[0]["text"].startswith("[redacted: ") and refused[0]["text"].endswith(
        " characters]")
    assert report["counts"]["imported"] + report["counts"]["superseded"] >= 1

    human = cli("import", str(path), "--from", fmt, "--dry-run", "--no-progress")
    assert "[redacted: " in human.out and "refused" in human.out
    exported = cli("export", "--scope", "default", "--scope", "work")
    assert exported.code == 0

    for output in (result, human, exported):
        assert SECRET_BODY not in output.out + output.err
    assert grep_home(SECRET_BODY) == []
    assert (jamgate_home / "gate.log").exists()
    assert PLANTED not in (jamgate_home / "gate.log").read_text(encoding="utf-8")
