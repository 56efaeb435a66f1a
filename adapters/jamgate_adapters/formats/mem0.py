"""`mem0`: a dump of mem0's `get_all` (notes/mem0-graphiti.md §3.2, §4).

Accepted shapes: the open-source `Memory.get_all` result `{"results": [...]}`, the hosted
client's page `{"count", "next", "previous", "results": [...]}`, or a bare list of items. An
item is `{"id", "memory", "hash", "metadata", "created_at", "updated_at", "user_id",
"agent_id", "run_id", "actor_id", "role", "expiration_date", "categories"?}`.

Mapping: `memory` → text, `id` kept, `created_at` kept (mem0 writes it with an offset, e.g.
US/Pacific), `expiration_date` → expiry. mem0 extracts memories with an LLM, so the source is
`agent-inferred` unless `metadata` says otherwise (Jamgate's own mem0 store writes `type`,
`subject`, `source` and `status` there, and those are honoured). The type is otherwise guessed
only on obvious wording.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ClassVar, TextIO

from jamgate_adapters.formats._common import (
    Fields,
    guess_type,
    load_json,
    looks_like_json,
    read_text,
)
from jamgate_core.formats import ExportMeta, MalformedFile, Reading
from jamgate_core.models import MEMORY_TYPES, SOURCES, MemoryRecord, SaveRequest

PROVENANCE = "import:mem0"
SCOPE_KEYS = ("user_id", "agent_id", "run_id")


def _items(loaded: Any) -> list[Any] | None:
    if isinstance(loaded, list):
        return loaded
    if isinstance(loaded, dict) and isinstance(loaded.get("results"), list):
        return loaded["results"]
    return None


class Mem0Format:
    """A mem0 `get_all` dump."""

    name: ClassVar[str] = "mem0"
    can_write: ClassVar[bool] = False
    description: ClassVar[str] = "a mem0 get_all dump (JSON)"

    @classmethod
    def detect(cls, path: Path) -> bool:
        items = _items(looks_like_json(path)) if path.is_file() else None
        return bool(items) and all(isinstance(i, dict) and "memory" in i and "id" in i
                                   for i in items or [])

    def read(self, path: Path) -> Reading:
        items = _items(load_json(read_text(path), path))
        if items is None:
            raise MalformedFile(path, 'is not a mem0 get_all dump: expected {"results": [...]} '
                                      "or a list of memories")
        records = [self._request(raw, path, number) for number, raw in enumerate(items, 1)]
        owners = sorted({f"{key}={item[key]}" for item in items for key in SCOPE_KEYS
                         if isinstance(item, dict) and isinstance(item.get(key), str)})
        notes = [f"mem0 owners: {', '.join(owners)}"] if owners else []
        return Reading(records=records, files_read=[str(path)], notes=notes)

    @staticmethod
    def _request(raw: Any, path: Path, number: int) -> SaveRequest:
        fields = Fields(raw, path, number)
        text = fields.text("memory")
        metadata = raw.get("metadata") or {}
        if not isinstance(metadata, dict):
            raise fields.fail('"metadata" is not an object')
        kind = metadata.get("type") if metadata.get("type") in MEMORY_TYPES else None
        source = metadata.get("source") if metadata.get("source") in SOURCES \
            else "agent-inferred"
        subject = metadata.get("subject") if isinstance(metadata.get("subject"), str) else None
        status = "superseded" if metadata.get("status") == "superseded" else "active"
        expiry = fields.string("expiration_date")
        expires_at = None
        if expiry is not None:
            try:
                expires_at = datetime.fromisoformat(expiry).replace(tzinfo=UTC) \
                    if len(expiry) == 10 else fields.moment("expiration_date")
            except ValueError:
                raise fields.fail(f'"expiration_date" is {expiry!r}, not a date') from None
        return SaveRequest(
            id=fields.string("id"), text=text, type=kind or guess_type(text),  # type: ignore[arg-type]
            subject=subject, source=source, status=status,  # type: ignore[arg-type]
            created_at=fields.moment("created_at"), expires_at=expires_at,
            superseded_by=metadata.get("superseded_by")
            if isinstance(metadata.get("superseded_by"), str) else None,
            provenance=PROVENANCE,
        )

    def write(self, records: Iterable[MemoryRecord], out: TextIO, meta: ExportMeta) -> None:
        raise NotImplementedError("mem0 is import-only")
