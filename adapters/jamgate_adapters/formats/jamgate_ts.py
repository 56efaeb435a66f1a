"""`jamgate-ts`: the TypeScript predecessor's `memory.json` (and its `jamgate export` file).

Shapes (predecessor reference §1.6, §5.8):
- v1: a bare JSON array of records (no `expiresAt`, no `scope`);
- v2: `{"schemaVersion": 2, "memories": [...]}`, records may carry `expiresAt`;
- v3: every record carries `scope`; the export adds `exportedAt` and `generator`.
Records use camelCase keys. Ids, dates, sources, clients and history are kept; the
predecessor's 384-float vectors are dropped (this install's embedder makes its own). A v1
record's expiry is not in the file: the gate's TTL stage stamps it from `createdAt`, as the
predecessor's own migration did.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, ClassVar, TextIO

from jamgate_adapters.formats._common import Fields, load_json, looks_like_json, read_text
from jamgate_core.formats import ExportMeta, MalformedFile, Reading
from jamgate_core.models import MemoryRecord, SaveRequest

NEWEST_VERSION = 3
PROVENANCE = "import:jamgate-ts"


def _records_of(loaded: Any, path: Path) -> tuple[int, list[Any]]:
    if isinstance(loaded, list):
        return 1, loaded
    if isinstance(loaded, dict) and isinstance(loaded.get("memories"), list):
        version = loaded.get("schemaVersion", 2)
        if isinstance(version, bool) or not isinstance(version, int) or version < 1:
            raise MalformedFile(path, f'has an unknown "schemaVersion" {version!r}')
        if version > NEWEST_VERSION:
            raise MalformedFile(path, f"has schemaVersion {version}; this importer reads "
                                      f"versions 1 to {NEWEST_VERSION}")
        return version, loaded["memories"]
    raise MalformedFile(path, "is not a TypeScript Jamgate store: expected a JSON array of "
                              'memories (v1) or an object with a "memories" array (v2, v3)')


class JamgateTsFormat:
    """The predecessor's store file, schema versions 1 to 3."""

    name: ClassVar[str] = "jamgate-ts"
    can_write: ClassVar[bool] = False
    description: ClassVar[str] = "the TypeScript Jamgate's memory.json (schema v1-v3)"

    @classmethod
    def detect(cls, path: Path) -> bool:
        loaded = looks_like_json(path) if path.is_file() else None
        if isinstance(loaded, dict) and loaded.get("format") is None:
            items = loaded.get("memories")
        else:
            items = loaded if isinstance(loaded, list) else None
        return isinstance(items, list) and all(
            isinstance(item, dict) and "text" in item and "createdAt" in item for item in items
        ) and (bool(items) or (isinstance(loaded, dict) and "schemaVersion" in loaded))

    def read(self, path: Path) -> Reading:
        version, items = _records_of(load_json(read_text(path), path), path)
        records = [self._request(raw, version, path, number)
                   for number, raw in enumerate(items, start=1)]
        return Reading(records=records, files_read=[str(path)],
                       notes=[f"schema version {version}"])

    @staticmethod
    def _request(raw: Any, version: int, path: Path, number: int) -> SaveRequest:
        fields = Fields(raw, path, number)
        scope = fields.string("scope") if version >= 3 else None
        return SaveRequest(
            id=fields.string("id"), text=fields.text(), type=fields.type(),  # type: ignore[arg-type]
            subject=fields.string("subject"), scope=scope or "default",
            source=fields.source(), status=fields.status(),  # type: ignore[arg-type]
            created_at=fields.moment("createdAt"), updated_at=fields.moment("updatedAt"),
            expires_at=fields.moment("expiresAt"),
            superseded_by=fields.string("supersededBy"),
            superseded_at=fields.moment("supersededAt"),
            client=fields.client(), provenance=fields.string("provenance") or PROVENANCE,
            keep_subject=True,
        )

    def write(self, records: Iterable[MemoryRecord], out: TextIO, meta: ExportMeta) -> None:
        raise NotImplementedError("jamgate-ts is import-only; export with --format jamgate")
