"""`mcp-memory`: the MCP reference memory server's knowledge graph, `memory.jsonl`
(`@modelcontextprotocol/server-memory`, notes/competitors.md §1.7).

One JSON object per line: `{"type": "entity", "name", "entityType", "observations": [...]}`
or `{"type": "relation", "from", "to", "relationType"}`. Each observation becomes one memory,
and each relation one sentence ("Jam works at Acme"). The reference server's prompt calls the
person `default_user`; observations about that entity are stored as they are ("Prefers dark
mode"), others are prefixed with the entity's name ("Acme Corp: Based in Berlin").

The entity name is not the subject: an entity has many observations and a subject holds one
current fact, so every observation but the last would retire the others. The gate's subject
stage derives one from each sentence instead. The file has no dates; its modification time is
the event time (the facts were known by then). Agents wrote the graph: `agent-inferred`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any, ClassVar, TextIO

from jamgate_adapters.formats._common import file_time, guess_type, read_text
from jamgate_core.formats import ExportMeta, MalformedFile, Reading
from jamgate_core.models import MemoryRecord, SaveRequest

PROVENANCE = "import:mcp-memory"
THE_USER = frozenset({"default_user", "default user", "user", "the user", "me", "myself"})


def _display(name: str) -> str:
    return " ".join(name.replace("_", " ").split())


def _is_user(name: str) -> bool:
    return _display(name).lower() in THE_USER


def _parse_line(line: str, path: Path, number: int) -> dict[str, Any]:
    try:
        item = json.loads(line)
    except json.JSONDecodeError as exc:
        raise MalformedFile(path, f"is not a JSON object ({exc.msg}, column {exc.colno})",
                            number) from None
    if not isinstance(item, dict):
        raise MalformedFile(path, f"is a {type(item).__name__}, not a JSON object", number)
    kind = item.get("type")
    if kind == "entity":
        if not isinstance(item.get("name"), str) or not item["name"].strip():
            raise MalformedFile(path, 'is an entity without a "name"', number)
        observations = item.get("observations", [])
        if not isinstance(observations, list) or not all(
                isinstance(o, str) for o in observations):
            raise MalformedFile(path, '"observations" is not a list of strings', number)
    elif kind == "relation":
        for key in ("from", "to", "relationType"):
            if not isinstance(item.get(key), str) or not item[key].strip():
                raise MalformedFile(path, f'is a relation without "{key}"', number)
    else:
        raise MalformedFile(path, f'has "type" {kind!r}; expected "entity" or "relation"',
                            number)
    return item


def observation_text(entity: str, observation: str) -> str:
    observation = observation.strip()
    name = _display(entity)
    if _is_user(entity) or name.lower() in observation.lower():
        return observation
    return f"{name}: {observation}"


def relation_text(item: dict[str, Any]) -> str:
    verb = _display(item["relationType"])
    target = "the user" if _is_user(item["to"]) else _display(item["to"])
    if _is_user(item["from"]):
        return f"{verb[:1].upper()}{verb[1:]} {target}"
    return f"{_display(item['from'])} {verb} {target}"


class McpMemoryFormat:
    """The MCP reference memory server's `memory.jsonl`."""

    name: ClassVar[str] = "mcp-memory"
    can_write: ClassVar[bool] = False
    description: ClassVar[str] = "the MCP reference memory server's memory.jsonl"

    @classmethod
    def detect(cls, path: Path) -> bool:
        if not path.is_file():
            return False
        try:
            with path.open(encoding="utf-8") as handle:
                head = next((line for line in handle if line.strip()), "")
            item = json.loads(head)
        except (OSError, ValueError):
            return False
        return isinstance(item, dict) and item.get("type") in ("entity", "relation") \
            and ("entityType" in item or "relationType" in item)

    def read(self, path: Path) -> Reading:
        written = file_time(path)
        records: list[SaveRequest] = []
        entities = relations = 0
        for number, line in enumerate(read_text(path).splitlines(), start=1):
            if not line.strip():
                continue
            item = _parse_line(line, path, number)
            if item["type"] == "entity":
                entities += 1
                texts = [observation_text(item["name"], o) for o in item.get("observations", [])
                         if o.strip()]
            else:
                relations += 1
                texts = [relation_text(item)]
            records += [SaveRequest(text=text, type=guess_type(text),  # type: ignore[arg-type]
                                    created_at=written, provenance=PROVENANCE)
                        for text in texts]
        return Reading(records=records, files_read=[str(path)],
                       notes=[f"{entities} entities, {relations} relations"])

    def write(self, records: Iterable[MemoryRecord], out: TextIO, meta: ExportMeta) -> None:
        raise NotImplementedError("mcp-memory is import-only")
