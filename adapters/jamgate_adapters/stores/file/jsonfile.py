"""The JSON file format of the file store: parse, migrate, serialise, back up.

The format is the predecessor's: `{"schemaVersion": 3, "memories": [...]}`, 2-space indent,
records in insertion order with camelCase keys. Older versions (a bare array = v1, a v2
envelope) are migrated in memory; keys this code does not know are kept as they are. Each
record's raw dict is the truth on disk; `Entry.record` is its lenient reading.
"""

from __future__ import annotations

import codecs
import contextlib
import json
import os
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from jamgate_adapters.stores.kit.files import fsync_dir
from jamgate_core.errors import StoreCorrupt, StoreError, StoreTooNew
from jamgate_core.models import (
    MEMORY_TYPES,
    SOURCES,
    ClientInfo,
    MemoryRecord,
    canonical_scope,
    canonical_subject,
    iso,
    parse_iso,
    text_key,
    utcnow,
)
from jamgate_core.settings import DEFAULT_TTL_DAYS

CURRENT_VERSION = 3
# The predecessor's key order; keys it does not know (ours, then anyone's) follow.
KEY_ORDER = (
    "id", "text", "type", "subject", "scope", "source", "status", "createdAt", "updatedAt",
    "expiresAt", "supersededBy", "supersededAt", "client", "embedding", "provenance",
    "embeddingModel",
)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_ID_NAMESPACE = uuid.UUID("6f1c2a8e-3b1d-4c55-9a43-6a0f3e9b7d21")


@dataclass(slots=True, eq=False)
class Entry:
    """One stored record: its raw dict (as on disk) and what it reads as."""

    raw: dict[str, Any]
    record: MemoryRecord
    problems: tuple[str, ...] = ()
    key: str = ""
    chunk: str | None = None
    norm: float | None = None
    order: tuple[str, str] | None = None

    @classmethod
    def of(cls, raw: dict[str, Any], position: int = 0) -> Entry:
        record, problems = read_record(raw, position)
        return cls(raw=raw, record=record, problems=problems, key=text_key(record.text))


@dataclass
class Document:
    """A parsed store file: its schema version, records and unknown top-level keys."""

    version: int = CURRENT_VERSION
    entries: list[Entry] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)


# --- reading ---------------------------------------------------------------------------------

def corrupt(path: Path, problem: str) -> StoreCorrupt:
    return StoreCorrupt(
        f"the memory store {path} {problem}. Your memories have NOT been modified or deleted: "
        "Jamgate refuses to overwrite a store it cannot read. Restore it from a backup (a "
        f"{path.name}.backup-* file beside it, or your own), or move it aside to start a new "
        "store."
    )


def parse(data: bytes, path: Path) -> Document:
    """The document in `data`; StoreCorrupt or StoreTooNew when it cannot be used."""
    try:
        text = data.removeprefix(codecs.BOM_UTF8).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise corrupt(path, f"is not UTF-8 text ({exc})") from None
    if not text.strip():
        return Document()
    try:
        loaded = json.loads(text)
    except json.JSONDecodeError as exc:
        raise corrupt(path, f"is not valid JSON ({exc})") from None
    if isinstance(loaded, list):
        version, items, extra = 1, loaded, {}
    elif isinstance(loaded, dict) and isinstance(loaded.get("memories"), list):
        extra = {k: v for k, v in loaded.items() if k not in ("schemaVersion", "memories")}
        version, items = _version(loaded.get("schemaVersion", 2), path), loaded["memories"]
    else:
        raise corrupt(path, "is JSON of an unknown shape (neither a list of memories nor an "
                            'object with a "memories" list)')
    entries: list[Entry] = []
    for position, item in enumerate(items):
        if not isinstance(item, dict):
            raise corrupt(path, f"holds record #{position}, which is not a JSON object")
        if not isinstance(item.get("text"), str) or not item["text"].strip():
            raise corrupt(path, f'holds record #{position} without a non-empty "text"')
        _migrate(item, version)
        entries.append(Entry.of(item, position))
    return Document(version=version, entries=entries, extra=extra)


def _version(value: Any, path: Path) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise corrupt(path, f"has an unknown schemaVersion {value!r}")
    if value > CURRENT_VERSION:
        raise StoreTooNew(
            f"the memory store {path} has schemaVersion {value}, written by a newer Jamgate "
            f"(this one reads up to {CURRENT_VERSION}). It was not modified. Upgrade Jamgate "
            "to use it, or point JAMGATE_STORE at another file."
        )
    return value


def _migrate(raw: dict[str, Any], version: int) -> None:
    """Bring one record to v3 in place: stamp the default scope, backfill v1 expiry."""
    scope = raw.get("scope")
    if not isinstance(scope, str) or not scope.strip():
        raw["scope"] = "default"
    if version > 1 or raw.get("expiresAt") is not None:
        return
    days = DEFAULT_TTL_DAYS.get(raw.get("type") or "")
    created = _moment(raw.get("createdAt"))
    if days is not None and created is not None:
        raw["expiresAt"] = iso(created + timedelta(days=days))


def _moment(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return parse_iso(value.strip())
    except ValueError:
        return None


def read_record(raw: dict[str, Any], position: int = 0) -> tuple[MemoryRecord, tuple[str, ...]]:
    """A raw record read leniently, and what was wrong with it (nothing is dropped on disk)."""
    problems: list[str] = []

    def bad(name: str) -> None:
        problems.append(f"{name} {raw.get(name)!r} is not valid")

    record_id = raw.get("id")
    if not isinstance(record_id, str) or not record_id.strip():
        problems.append("it has no id")
        record_id = str(uuid.uuid5(_ID_NAMESPACE, f"{position}:{raw.get('text')}"))
        raw["id"] = record_id
    memory_type = raw.get("type")
    if memory_type is not None and memory_type not in MEMORY_TYPES:
        bad("type")
        memory_type = None
    source = raw.get("source", "agent-inferred")
    if source not in SOURCES:
        bad("source")
        source = "agent-inferred"
    status = raw.get("status", "active")
    if status not in ("active", "superseded"):
        bad("status")
        status = "superseded"
    created = _moment(raw.get("createdAt"))
    if created is None:
        bad("createdAt")
        created = _EPOCH
    stamps: dict[str, datetime | None] = {}
    for name in ("updatedAt", "expiresAt", "supersededAt"):
        stamps[name] = _moment(raw.get(name))
        if raw.get(name) is not None and stamps[name] is None:
            bad(name)
    embedding = raw.get("embedding")
    if embedding is not None and not _is_vector(embedding):
        bad("embedding")
        embedding = None
    subject = raw.get("subject")
    client = raw.get("client")
    record = MemoryRecord.model_construct(
        id=record_id,
        text=raw["text"],
        type=memory_type,
        subject=canonical_subject(subject) if isinstance(subject, str) else None,
        scope=canonical_scope(raw.get("scope") if isinstance(raw.get("scope"), str) else None),
        source=source,
        status=status,
        created_at=created,
        updated_at=stamps["updatedAt"] or created,
        expires_at=stamps["expiresAt"],
        superseded_by=_text_or_none(raw.get("supersededBy")),
        superseded_at=stamps["supersededAt"],
        client=_client(client),
        provenance=_text_or_none(raw.get("provenance")),
        embedding_model=_text_or_none(raw.get("embeddingModel")),
        embedding=[float(x) for x in embedding] if embedding else None,
    )
    return record, tuple(problems)


def _is_vector(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(x, int | float) and not isinstance(x, bool) for x in value
    )


def _text_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _client(value: Any) -> ClientInfo | None:
    if not isinstance(value, dict) or not isinstance(value.get("name"), str) or not value["name"]:
        return None
    version = value.get("version")
    return ClientInfo(name=value["name"], version=version if isinstance(version, str) else None)


# --- writing ---------------------------------------------------------------------------------

def raw_record(record: MemoryRecord) -> dict[str, Any]:
    """The on-disk form of a new record, keys in the predecessor's order, absent ones omitted."""
    raw: dict[str, Any] = {"id": record.id, "text": record.text}
    if record.type is not None:
        raw["type"] = record.type
    if record.subject is not None:
        raw["subject"] = record.subject
    raw |= {"scope": record.scope, "source": record.source, "status": record.status,
            "createdAt": iso(record.created_at), "updatedAt": iso(record.updated_at)}
    if record.expires_at is not None:
        raw["expiresAt"] = iso(record.expires_at)
    if record.superseded_by is not None:
        raw["supersededBy"] = record.superseded_by
    if record.superseded_at is not None:
        raw["supersededAt"] = iso(record.superseded_at)
    if record.client is not None:
        raw["client"] = record.client.model_dump(exclude_none=True)
    if record.embedding is not None:
        raw["embedding"] = list(record.embedding)
    if record.provenance is not None:
        raw["provenance"] = record.provenance
    if record.embedding_model is not None:
        raw["embeddingModel"] = record.embedding_model
    return raw


def changed(raw: dict[str, Any], **updates: Any) -> dict[str, Any]:
    """A copy of `raw` with `updates` applied, known keys in order, unknown ones kept after."""
    merged = {**raw, **updates}
    ordered = {k: merged[k] for k in KEY_ORDER if k in merged}
    return ordered | {k: v for k, v in merged.items() if k not in ordered}


def _chunk(entry: Entry) -> str:
    """One record as it sits in the file: indented 4, vectors on one line."""
    if entry.chunk is None:
        lines = []
        for name, value in entry.raw.items():
            if name == "embedding" and isinstance(value, list):
                body = json.dumps(value, ensure_ascii=False)
            else:
                body = json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n      ")
            lines.append(f"      {json.dumps(name, ensure_ascii=False)}: {body}")
        entry.chunk = "    {\n" + ",\n".join(lines) + "\n    }" if lines else "    {}"
    return entry.chunk


def serialise(document: Document) -> bytes:
    """The file's bytes: always schemaVersion 3, records in order, unknown top keys kept."""
    parts = ['{\n  "schemaVersion": 3,\n  "memories": [']
    if document.entries:
        parts.append("\n" + ",\n".join(_chunk(e) for e in document.entries) + "\n  ]")
    else:
        parts.append("]")
    for name, value in document.extra.items():
        body = json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n  ")
        parts.append(f",\n  {json.dumps(name, ensure_ascii=False)}: {body}")
    parts.append("\n}\n")
    return "".join(parts).encode("utf-8")


def write_backup(path: Path, data: bytes, version: int) -> Path:
    """Copy the old-format file to `<file>.backup-v<N>-<timestamp>`, verified by reading it back.

    Raises StoreError (nothing changed) when the backup cannot be written or does not match.
    """
    stamp = utcnow().strftime("%Y%m%dT%H%M%S")
    backup = path.with_name(f"{path.name}.backup-v{version}-{stamp}Z")
    suffix = 1
    while backup.exists():
        suffix += 1
        backup = path.with_name(f"{path.name}.backup-v{version}-{stamp}Z-{suffix}")
    try:
        fd = os.open(backup, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        verified = backup.read_bytes() == data
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(backup)
        raise StoreError(
            f"the memory store {path} uses schema version {version} and must be upgraded, but "
            f"a backup could not be written to {backup} ({exc.strerror or exc}). Nothing was "
            "changed. Make the folder writable (or free space) and try again."
        ) from exc
    if not verified:
        raise StoreError(
            f"the backup {backup} of {path} did not read back identical; the upgrade was "
            "aborted and nothing was changed."
        )
    fsync_dir(path.parent)
    return backup
