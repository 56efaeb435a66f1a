"""A malformed file is rejected before the store is touched, naming the file, the record
number and the problem."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from formats_kit import Run

from jamgate_core.app import open_app
from jamgate_core.models import SaveRequest
from jamgate_core.settings import load_settings

GOOD = {"id": "r-1", "text": "Jam likes figs", "created_at": "2026-01-01T00:00:00Z"}
CASES = [
    ("jamgate", "native.json",
     json.dumps({"format": "jamgate", "version": 1, "memories": [GOOD, {**GOOD, "id": "r-2",
                 "source": "the-boss"}]}), 'record #2: "source" is \'the-boss\''),
    ("jamgate", "native.json",
     json.dumps({"format": "jamgate", "version": 1, "memories": [GOOD, GOOD, "Jam"]}),
     "record #3: is a str, not a JSON object"),
    ("jamgate", "native.json",
     json.dumps({"format": "jamgate", "version": 1, "memories": [{**GOOD,
                 "created_at": "yesterday"}]}), 'record #1: "created_at" is \'yesterday\''),
    ("jamgate", "native.json", '{"format": "jamgate", "memories": [', "is not valid JSON"),
    ("jamgate-ts", "memory.json", json.dumps([{"id": "a", "text": "  ",
                                                "createdAt": "2026-01-01T00:00:00Z"}]),
     'record #1: has no non-empty "text" string'),
    ("jamgate-ts", "memory.json", json.dumps({"schemaVersion": 3, "memories": [
        {"text": "Jam likes figs", "createdAt": "2026-01-01T00:00:00Z", "type": "State"}]}),
     'record #1: "type" is \'State\''),
    ("mem0", "dump.json", json.dumps({"results": [{"id": "m", "memory": "Likes tea"},
                                                  {"id": "n", "text": "Likes figs"}]}),
     'record #2: has no non-empty "memory" string'),
    ("mcp-memory", "memory.jsonl",
     '{"type":"entity","name":"Jam","entityType":"person","observations":["Likes tea"]}\n'
     '{"type":"entity","name":"Jam","observations":"Likes figs"}\n',
     'record #2: "observations" is not a list of strings'),
    ("mcp-memory", "memory.jsonl", '{"type":"entity","name":"Jam","observations":[]}\n{oops\n',
     "record #2: is not a JSON object"),
    ("chatgpt", "memories.json", '{"memories": [', "is not valid JSON"),
]


@pytest.mark.parametrize(("fmt", "name", "content", "problem"), CASES)
def test_a_malformed_file_changes_nothing_and_says_where(
        fmt: str, name: str, content: str, problem: str, cli: Callable[..., Run],
        tmp_path: Path) -> None:
    app = open_app(load_settings())
    try:
        app.save(SaveRequest(text="Jam lives in Lisbon", subject="location"))
    finally:
        app.close()
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    result = cli("import", str(path), "--from", fmt)
    assert result.code == 1
    assert result.err.startswith(f"jamgate import: {path}: ")
    assert problem in result.err
    assert result.out == ""
    app = open_app(load_settings())
    try:
        assert [m.text for m in app.list(status="all").memories] == ["Jam lives in Lisbon"]
    finally:
        app.close()


def test_an_unrecognised_file_asks_for_from(cli: Callable[..., Run], tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("- Likes tea\n", encoding="utf-8")
    result = cli("import", str(path))
    assert result.code == 1 and "--from claude or --from chatgpt" in result.err


def test_a_missing_file_is_named(cli: Callable[..., Run], tmp_path: Path) -> None:
    result = cli("import", str(tmp_path / "nope.json"))
    assert result.code == 1 and "nope.json: does not exist" in result.err
