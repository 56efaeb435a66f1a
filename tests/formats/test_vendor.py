"""Claude and ChatGPT memory lists (D-035): bullets, headings, dates; zips and folders
searched; conversation logs recognised, skipped and reported, never read."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from formats_kit import FIXTURES, Run

from jamgate_adapters.formats._vendor import json_entries, text_entries
from jamgate_adapters.formats.chatgpt import ChatGPTFormat
from jamgate_adapters.formats.claude import ClaudeFormat


def test_a_pasted_list_loses_bullets_numbers_headings_and_fences() -> None:
    entries = text_entries("# Memories\n**Work context**\nAbout me:\n---\n- Likes tea\n"
                           "2) Speaks Greek\n```\nnot a memory\n```\n> Quoted line here\n"
                           '* "Prefers vim"\nhi\n')
    assert [e.text for e in entries] == ["Likes tea", "Speaks Greek", "Quoted line here",
                                         "Prefers vim"]


def test_dates_are_understood_in_the_shapes_people_write() -> None:
    entries = text_entries("- 2026-03-02 – Likes tea\n- [March 3, 2026] Likes coffee\n"
                           "- 4 April 2026: Likes mate\n- Likes cocoa (saved 2026-05-06)\n"
                           "- 25/12/2025 | Likes juice\n- 03/04/2026 Likes water\n")
    assert [(e.text, e.date) for e in entries] == [
        ("Likes tea", datetime(2026, 3, 2, tzinfo=UTC)),
        ("Likes coffee", datetime(2026, 3, 3, tzinfo=UTC)),
        ("Likes mate", datetime(2026, 4, 4, tzinfo=UTC)),
        ("Likes cocoa", datetime(2026, 5, 6, tzinfo=UTC)),
        ("Likes juice", datetime(2025, 12, 25, tzinfo=UTC)),
        ("Likes water", None),  # 3 April or 4 March: stripped, not guessed
    ]


def test_json_lists_are_read_by_their_text_and_date_keys() -> None:
    document = {"memories": [{"content": "Likes tea", "created_at": 1767225600},
                             "Speaks Greek"],
                "account": {"model_set_context": "- Prefers vim\n- Uses fish"}}
    entries = json_entries(document)
    assert [e.text for e in entries] == ["Likes tea", "Speaks Greek", "Prefers vim",
                                         "Uses fish"]
    assert entries[0].date == datetime(2026, 1, 1, tzinfo=UTC)


def test_claude_memory_is_imported_as_user_confirmed_with_obvious_types(
        cli: Callable[..., Run]) -> None:
    report = json.loads(cli("import", str(FIXTURES / "claude-memory.md"), "--from", "claude",
                            "--json").out)
    texts = [r["text"] for r in report["records"]]
    assert "Work context" not in " ".join(texts)
    assert "this block is an example, not a memory" not in texts
    assert "Preparing a talk on SQLite for a local meetup" in texts
    from jamgate_core.app import open_app
    app = open_app()
    try:
        listed = {m.text: m for m in app.list().memories}
        talk = next(r for r in app.store.list("default", status="all", type=None, limit=50,
                                              cursor=None, now=datetime.now(UTC)).records
                    if r.text.startswith("Preparing a talk"))
    finally:
        app.close()
    assert listed["Prefers short code reviews with concrete suggestions"].type == "preference"
    assert listed["Lives in Lisbon with a cat named Miso"].type == "identity"
    assert listed["Jam's team ships the billing service"].type is None
    assert {m.source for m in listed.values()} == {"user-confirmed"}
    assert talk.created_at == datetime(2026, 7, 2, tzinfo=UTC)
    assert talk.provenance == "import:claude"


def test_an_export_without_a_memory_file_is_refused_naming_the_logs(
        cli: Callable[..., Run], jamgate_home: Path) -> None:
    result = cli("import", str(FIXTURES / "claude-export"), "--from", "claude")
    assert result.code == 1
    assert "no memory file found" in result.err and "never mines" in result.err
    assert "conversations.json" in result.err and "View and edit your memory" in result.err
    assert not (jamgate_home / "memory.db").exists()


def test_a_zip_is_searched_for_the_memory_file_and_logs_are_reported(
        cli: Callable[..., Run], planted: Callable[[str], Path],
        zipped: Callable[[Path, Path], Path], tmp_path: Path) -> None:
    folder = planted("chatgpt-export")
    (folder / "memories.md").write_text("- Prefers metric units\n- Name is Jam\n",
                                        encoding="utf-8")
    archive = zipped(folder, tmp_path / "chatgpt-export.zip")
    result = cli("import", str(archive), "--from", "chatgpt", "--dry-run")
    assert result.code == 0, result.err
    assert "read: chatgpt-export.zip:chatgpt-export/memories.md" in result.out
    assert "not read:" in result.out and "conversations.json" in result.out
    assert "chat.html" in result.out and "user.json" not in result.out
    assert "would import: 2" in result.out


def test_conversation_logs_are_never_opened(tmp_path: Path) -> None:
    folder = tmp_path / "export"
    folder.mkdir()
    (folder / "conversations.json").write_bytes(b"\xff not even utf-8")
    (folder / "memory.txt").write_text("Prefers metric units\n", encoding="utf-8")
    reading = ChatGPTFormat().read(folder)
    assert [r.text for r in reading.records] == ["Prefers metric units"]
    assert reading.skipped == ["export/conversations.json"]


def test_vendor_formats_are_never_guessed(tmp_path: Path) -> None:
    assert not ClaudeFormat.detect(FIXTURES / "claude-memory.md")
    assert not ChatGPTFormat.detect(FIXTURES / "chatgpt-memories.txt")
