"""mem0 `get_all` dumps and the MCP reference server's memory.jsonl."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from formats_kit import FIXTURES

from jamgate_adapters.formats.mcp_memory import McpMemoryFormat
from jamgate_adapters.formats.mem0 import Mem0Format
from jamgate_commands.transfer import detect_format


def test_mem0_items_keep_ids_dates_and_gate_metadata() -> None:
    reading = Mem0Format().read(FIXTURES / "mem0-get-all.json")
    coffee, marathon, _planted, laptop = reading.records
    assert coffee.id == "a1b2c3d4-0000-4000-8000-000000000001"
    assert coffee.created_at == datetime(2026, 3, 4, 18, 11, 12, 345678, tzinfo=UTC)
    assert (coffee.source, coffee.type) == ("agent-inferred", "preference")
    assert marathon.expires_at == datetime(2026, 10, 1, tzinfo=UTC)
    assert (laptop.type, laptop.subject, laptop.source) == (
        "identity", "operating-system", "user-confirmed")
    assert {r.provenance for r in reading.records} == {"import:mem0"}
    assert reading.notes == ["mem0 owners: agent_id=cursor, user_id=jam"]


def test_the_hosted_clients_page_shape_is_read_too(tmp_path: Path) -> None:
    page = tmp_path / "page.json"
    page.write_text('{"count": 1, "next": null, "previous": null, "results": [{"id": "m-1", '
                    '"memory": "Likes tea", "created_at": "2026-01-01T00:00:00Z"}]}')
    assert detect_format(page) == "mem0"
    assert [r.text for r in Mem0Format().read(page).records] == ["Likes tea"]


def test_mcp_memory_observations_and_relations_become_sentences() -> None:
    reading = McpMemoryFormat().read(FIXTURES / "memory.jsonl")
    texts = [r.text for r in reading.records]
    assert texts[:2] == ["Prefers dark mode in every editor", "Lives in Lisbon"]
    assert "Acme Corp: Headquartered in Berlin" in texts
    assert texts[-1] == "Works at Acme Corp"
    assert {r.subject for r in reading.records} == {None}  # derived by the gate, per sentence
    assert {r.source for r in reading.records} == {"agent-inferred"}
    assert reading.notes == ["2 entities, 1 relations"]


def test_formats_are_recognised_by_shape() -> None:
    assert detect_format(FIXTURES / "memory.jsonl") == "mcp-memory"
    assert detect_format(FIXTURES / "mem0-get-all.json") == "mem0"
    assert detect_format(FIXTURES / "native.json") == "jamgate"
    for version in (1, 2, 3):
        assert detect_format(FIXTURES / f"ts-v{version}.json") == "jamgate-ts"
