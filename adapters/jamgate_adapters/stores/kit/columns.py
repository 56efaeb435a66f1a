"""A record as the flat columns the SQL stores keep (sqlite, supabase), and back."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol

from jamgate_core.models import ClientInfo, MemoryRecord, iso, parse_iso, text_key


class Columns(Protocol):
    """A row of the flat record columns, by name (a dict, or an `sqlite3.Row`)."""

    def __getitem__(self, name: str) -> Any: ...


def record_from_columns(row: Columns, embedding: list[float] | None) -> MemoryRecord:
    """A record from the flat columns of `record_columns` (timestamps as ISO text) and its
    vector, decoded by the caller from however the store keeps it."""
    moment = lambda value: parse_iso(value) if value else None  # noqa: E731
    return MemoryRecord(
        id=row["id"], text=row["text"], type=row["type"], subject=row["subject"],
        scope=row["scope"], source=row["source"], status=row["status"],
        created_at=parse_iso(row["created_at"]), updated_at=parse_iso(row["updated_at"]),
        expires_at=moment(row["expires_at"]), superseded_by=row["superseded_by"],
        superseded_at=moment(row["superseded_at"]),
        client=(ClientInfo(name=row["client_name"], version=row["client_version"])
                if row["client_name"] is not None else None),
        provenance=row["provenance"], embedding_model=row["embedding_model"],
        embedding=embedding,
    )


def _stamp(moment: datetime | None) -> str | None:
    return iso(moment) if moment else None


def record_columns(record: MemoryRecord) -> dict[str, Any]:
    """A record as the flat columns the SQL stores keep (sqlite, supabase): every field but
    the vector, timestamps as fixed-width ISO text, the text key beside the text."""
    client = record.client
    return {
        "id": record.id, "scope": record.scope, "text": record.text,
        "text_key": text_key(record.text), "type": record.type, "subject": record.subject,
        "source": record.source, "status": record.status,
        "created_at": iso(record.created_at), "updated_at": iso(record.updated_at),
        "expires_at": _stamp(record.expires_at), "superseded_by": record.superseded_by,
        "superseded_at": _stamp(record.superseded_at),
        "client_name": client.name if client else None,
        "client_version": client.version if client else None,
        "provenance": record.provenance, "embedding_model": record.embedding_model,
    }
