"""Jamgate records as mem0 memories, and back.

A memory Jamgate wrote carries flat, filterable metadata keys (`jamgate_id`, `jamgate_key`,
`jamgate_subject`, `jamgate_status`, `jamgate_type`, `jamgate_expires_at`) and everything else
under one `jamgate` key. A memory Jamgate did not write (no `jamgate_id`) reads as an active,
untyped, subject-less, agent-inferred record whose id is mem0's own.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from jamgate_core.models import ClientInfo, MemoryRecord, iso, parse_iso, text_key

ID, KEY, SUBJECT, STATUS, TYPE, EXPIRES = (
    "jamgate_id", "jamgate_key", "jamgate_subject", "jamgate_status", "jamgate_type",
    "jamgate_expires_at",
)
EXTRA = "jamgate"
VERSION = 1
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Row:
    """One mem0 memory: its mem0 id, its text and its flat payload (metadata and ids)."""

    mem0_id: str
    text: str
    payload: dict[str, Any]

    @property
    def ours(self) -> bool:
        """Written by Jamgate (it carries Jamgate's metadata)."""
        return isinstance(self.payload.get(ID), str)

    @property
    def gate_id(self) -> str:
        return str(self.payload[ID]) if self.ours else self.mem0_id

    @property
    def key(self) -> str:
        return str(self.payload.get(KEY)) if self.ours else text_key(self.text)


def metadata(record: MemoryRecord) -> dict[str, Any]:
    """The mem0 metadata of a record Jamgate writes."""
    meta: dict[str, Any] = {
        ID: record.id, KEY: record.key, STATUS: record.status,
        "created_at": iso(record.created_at),
        EXTRA: _extra(record),
    }
    if record.subject is not None:
        meta[SUBJECT] = record.subject
    if record.type is not None:
        meta[TYPE] = record.type
    if record.expires_at is not None:
        meta[EXPIRES] = iso(record.expires_at)
    return meta


def changes(record: MemoryRecord) -> dict[str, Any]:
    """The metadata an update (retire, source upgrade) sets on an existing record."""
    return {STATUS: record.status, EXTRA: _extra(record)}


def _extra(record: MemoryRecord) -> dict[str, Any]:
    return {
        "v": VERSION,
        "source": record.source,
        "updated_at": iso(record.updated_at),
        "superseded_by": record.superseded_by,
        "superseded_at": iso(record.superseded_at) if record.superseded_at else None,
        "client": record.client.model_dump() if record.client else None,
        "provenance": record.provenance,
        "embedding_model": record.embedding_model,
        "embedding": list(record.embedding) if record.embedding is not None else None,
    }


def expiration_date(record: MemoryRecord) -> str | None:
    """mem0's own `expiration_date` (a day) for a record, so mem0's readers hide it too."""
    if record.expires_at is None:
        return None
    return record.expires_at.astimezone(UTC).date().isoformat()


def to_record(row: Row, scope: str) -> MemoryRecord:
    """The Jamgate record a mem0 memory stands for."""
    if not row.ours:
        return _foreign(row, scope)
    payload = row.payload
    extra = payload.get(EXTRA) or {}
    client = extra.get("client")
    return MemoryRecord(
        id=row.gate_id,
        text=row.text,
        type=payload.get(TYPE),
        subject=payload.get(SUBJECT),
        scope=scope,
        source=extra.get("source") or "agent-inferred",
        status=payload.get(STATUS) or "active",
        created_at=_when(payload.get("created_at")) or EPOCH,
        updated_at=_when(extra.get("updated_at")) or _when(payload.get("created_at")) or EPOCH,
        expires_at=_when(payload.get(EXPIRES)),
        superseded_by=extra.get("superseded_by"),
        superseded_at=_when(extra.get("superseded_at")),
        client=ClientInfo(**client) if isinstance(client, dict) else None,
        provenance=extra.get("provenance"),
        embedding=extra.get("embedding"),
        embedding_model=extra.get("embedding_model"),
    )


def _foreign(row: Row, scope: str) -> MemoryRecord:
    payload = row.payload
    created = _when(payload.get("created_at")) or EPOCH
    who = [f"{k}={payload[k]}" for k in ("actor_id", "role", "agent_id", "run_id")
           if payload.get(k)]
    return MemoryRecord(
        id=row.mem0_id,
        text=row.text,
        scope=scope,
        created_at=created,
        updated_at=_when(payload.get("updated_at")) or created,
        expires_at=_day_end(payload.get("expiration_date")),
        provenance="mem0" + (f" ({', '.join(who)})" if who else ""),
    )


def _when(value: Any) -> datetime | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        return parse_iso(value)
    except ValueError:
        return None


def _day_end(value: Any) -> datetime | None:
    """mem0 hides a memory once its `expiration_date` is before today: the day after, 00:00."""
    if not isinstance(value, str) or not value:
        return None
    try:
        day = date.fromisoformat(value[:10])
    except ValueError:
        return None
    return datetime(day.year, day.month, day.day, tzinfo=UTC) + timedelta(days=1)
