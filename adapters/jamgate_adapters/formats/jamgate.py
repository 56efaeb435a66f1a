"""`jamgate`: the native JSON export, lossless.

```json
{"format": "jamgate", "version": 1, "exported_at": "…Z", "generator": "jamgate 0.1.0",
 "store": "…", "scopes": ["default"], "active_only": false,
 "memories": [{"id", "text", "type", "subject", "scope", "source", "status", "created_at",
               "updated_at", "expires_at", "superseded_by", "superseded_at", "client",
               "provenance"}, …]}
```

Every key of every record is written (null when absent), oldest first. Vectors are not
exported: they belong to the embedder that made them and are rebuilt on import. Reading is
strict: a record that is not an object, lacks text, or has a bad enum or date rejects the file.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any, ClassVar, TextIO

from jamgate_adapters.formats._common import Fields, load_json, looks_like_json, read_text
from jamgate_core.formats import ExportMeta, MalformedFile, Reading
from jamgate_core.models import MemoryRecord, SaveRequest, iso

FORMAT_NAME = "jamgate"
VERSION = 1


def record_json(record: MemoryRecord) -> dict[str, Any]:
    """One record as the native format writes it."""
    def stamp(moment: Any) -> str | None:
        return iso(moment) if moment is not None else None

    return {
        "id": record.id, "text": record.text, "type": record.type, "subject": record.subject,
        "scope": record.scope, "source": record.source, "status": record.status,
        "created_at": iso(record.created_at), "updated_at": iso(record.updated_at),
        "expires_at": stamp(record.expires_at), "superseded_by": record.superseded_by,
        "superseded_at": stamp(record.superseded_at),
        "client": record.client.model_dump(exclude_none=True) if record.client else None,
        "provenance": record.provenance,
    }


class JamgateFormat:
    """Jamgate's own export: every field of every record, in any scope."""

    name: ClassVar[str] = FORMAT_NAME
    can_write: ClassVar[bool] = True
    description: ClassVar[str] = "Jamgate's native JSON export (lossless)"

    @classmethod
    def detect(cls, path: Path) -> bool:
        loaded = looks_like_json(path) if path.is_file() else None
        return isinstance(loaded, dict) and loaded.get("format") == FORMAT_NAME

    def read(self, path: Path) -> Reading:
        loaded = load_json(read_text(path), path)
        if not isinstance(loaded, dict) or loaded.get("format") != FORMAT_NAME:
            raise MalformedFile(path, 'is not a Jamgate export (no "format": "jamgate"); for '
                                      "the TypeScript Jamgate's memory.json use --from jamgate-ts")
        version = loaded.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise MalformedFile(path, f'has an unknown "version" {version!r}')
        if version > VERSION:
            raise MalformedFile(path, f"is version {version}, written by a newer Jamgate (this "
                                      f"one reads up to {VERSION}); upgrade jamgate")
        memories = loaded.get("memories")
        if not isinstance(memories, list):
            raise MalformedFile(path, 'has no "memories" list')
        return Reading(records=[self._request(raw, path, number)
                                for number, raw in enumerate(memories, start=1)],
                       files_read=[str(path)])

    @staticmethod
    def _request(raw: Any, path: Path, number: int) -> SaveRequest:
        fields = Fields(raw, path, number)
        status = fields.status()
        created = fields.moment("created_at")
        if created is None:
            raise fields.fail('has no "created_at"')
        return SaveRequest(
            id=fields.string("id"), text=fields.text(), type=fields.type(),  # type: ignore[arg-type]
            subject=fields.string("subject"), scope=fields.string("scope") or "default",
            source=fields.source(), status=status,  # type: ignore[arg-type]
            created_at=created, updated_at=fields.moment("updated_at"),
            expires_at=fields.moment("expires_at"),
            superseded_by=fields.string("superseded_by"),
            superseded_at=fields.moment("superseded_at"),
            client=fields.client(), provenance=fields.string("provenance"), keep_subject=True,
        )

    def write(self, records: Iterable[MemoryRecord], out: TextIO, meta: ExportMeta) -> None:
        """The envelope, one record per line inside it, so large exports diff and grep well."""
        head = {
            "format": FORMAT_NAME, "version": VERSION, "exported_at": iso(meta.exported_at),
            "generator": meta.generator, "store": meta.store, "scopes": list(meta.scopes),
            "active_only": meta.active_only,
        }
        out.write(json.dumps(head, ensure_ascii=False, indent=2)[:-2] + ',\n  "memories": [')
        for index, record in enumerate(records):
            out.write(("," if index else "") + "\n    "
                      + json.dumps(record_json(record), ensure_ascii=False))
        out.write("\n  ]\n}\n")
