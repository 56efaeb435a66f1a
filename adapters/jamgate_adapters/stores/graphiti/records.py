"""How one Jamgate record lives in Graphiti's graph (pure mapping, no graphiti import).

A record is one `RELATES_TO` fact edge: `uuid` = the record id, `fact` = the text,
`fact_embedding` = its vector, `name` = its type in capitals (`PREFERENCE`, or `MEMORY` when it
has none), from the subject's `Entity` node to itself. Graphiti's validity fields tell the
truth about time: `valid_at` = when it was saved, `invalid_at` = when it stopped being true
(superseded, or its expiry), `expired_at` = when the graph marked it superseded.

Jamgate's own fields ride along as flat `jamgate_*` edge properties: the whole record as JSON
(authoritative for reads) plus the few that queries filter or sort on.
"""

from __future__ import annotations

import hashlib
import uuid
from datetime import UTC, datetime
from typing import Any

from jamgate_adapters.stores.kit.lexical import cjk_grams, subject_text
from jamgate_core.models import MemoryRecord, iso
from jamgate_core.text import fold, runs

NODE_NAMESPACE = uuid.UUID("5d0c4a43-7f39-4c8e-9a57-3a0f6a4e6b21")
NO_SUBJECT = "memory"


def stamp(moment: datetime) -> str:
    """A fixed-width, sortable, exact UTC timestamp (microseconds)."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def edge_name(type: str | None) -> str:
    """The relation name a record's edge carries: its type, or MEMORY."""
    return (type or "memory").upper()


def subject_node_id(group_id: str, subject: str | None) -> str:
    """The deterministic uuid of a subject's Entity node within a group."""
    return str(uuid.uuid5(NODE_NAMESPACE, f"{group_id}\x00{subject or ''}"))


def key_digest(key: str) -> str:
    """What the edge stores for a text key: its SHA-256 (a 32 KB text key is too long for
    FalkorDB's range index, which then misses it)."""
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def episode_id(record_id: str) -> str:
    return f"{record_id}.episode"


def index_text(record: MemoryRecord) -> str:
    """The terms of Graphiti's BM25 (`jamgate_terms`): the words of `jamgate_core.text.fold`
    (café → cafe, Straße → strasse: the gate's own folding) and CJK bigrams/characters, which
    FalkorDB's tokenizer does not produce from the raw text. A change here is a schema change
    (`store.SCHEMA_VERSION`: opening an older graph rewrites every edge's terms)."""
    text = f"{record.text} {subject_text(record.subject)}"
    grams, chars = cjk_grams(text)
    return " ".join(dict.fromkeys([*runs(fold(text)), *grams, *chars]))


def validity(record: MemoryRecord) -> tuple[datetime | None, datetime | None]:
    """Graphiti's (invalid_at, expired_at) for a record."""
    if record.status == "superseded":
        ended = record.superseded_at or record.updated_at
        if record.expires_at is not None and record.expires_at < ended:
            return record.expires_at, ended
        return ended, ended
    return record.expires_at, None


def properties(record: MemoryRecord) -> dict[str, Any]:
    """The `jamgate_*` properties of a record's edge (Graphiti's `attributes`)."""
    props: dict[str, Any] = {
        "jamgate_record": record.model_dump_json(),
        "jamgate_key": key_digest(record.key),
        "jamgate_subject": record.subject,
        "jamgate_type": record.type,
        "jamgate_status": record.status,
        "jamgate_source": record.source,
        "jamgate_sort": iso(record.created_at),
        "jamgate_expires": stamp(record.expires_at) if record.expires_at else None,
        "jamgate_embedding_model": record.embedding_model,
        "jamgate_dim": len(record.embedding) if record.embedding else None,
        "jamgate_terms": index_text(record),
    }
    return {k: v for k, v in props.items() if v is not None}


def record_of(props: dict[str, Any]) -> MemoryRecord:
    """The record an edge's properties hold."""
    record = MemoryRecord.model_validate_json(props["jamgate_record"])
    vector = props.get("fact_embedding")
    return record.model_copy(update={
        "embedding": [float(x) for x in vector] if vector else None,
        "embedding_model": props.get("jamgate_embedding_model"),
    })
