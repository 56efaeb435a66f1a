"""The SQLite store's rows: the `records` columns, vectors as float32 blobs, and records
from rows and back."""

from __future__ import annotations

import sqlite3
import sys
from array import array

from jamgate_adapters.stores.kit.columns import record_columns, record_from_columns
from jamgate_adapters.stores.kit.ranking import norm
from jamgate_core.models import MemoryRecord

FIELDS = (
    "seq", "id", "scope", "text", "type", "subject", "source", "status", "created_at",
    "updated_at", "expires_at", "superseded_by", "superseded_at", "client_name",
    "client_version", "provenance", "embedding_model", "embedding",
)
COLUMNS = ", ".join(FIELDS)
LIVE = "status = 'active' AND (expires_at IS NULL OR expires_at > :now)"
LIVE_R = "r.status = 'active' AND (r.expires_at IS NULL OR r.expires_at > :now)"


def vector_blob(vector: list[float]) -> bytes:
    packed = array("f", vector)
    if sys.byteorder == "big":
        packed.byteswap()
    return packed.tobytes()


def blob_array(blob: bytes) -> array[float]:
    packed = array("f")
    packed.frombytes(blob)
    if sys.byteorder == "big":
        packed.byteswap()
    return packed


def blob_vector(blob: bytes) -> list[float]:
    return blob_array(blob).tolist()


def record_of(row: sqlite3.Row) -> MemoryRecord:
    blob = row["embedding"]
    return record_from_columns(row, blob_vector(blob) if blob is not None else None)


def insert_values(record: MemoryRecord) -> dict[str, object]:
    vector = record.embedding
    return {
        **record_columns(record),
        "embedding": vector_blob(vector) if vector is not None else None,
        "embedding_dim": len(vector) if vector is not None else None,
        "embedding_norm": norm(vector) if vector is not None else None,
    }
