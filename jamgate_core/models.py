"""The data Jamgate passes around, and the key functions every store and stage shares.

`text_key`, `canonical_subject` and `canonical_scope` decide what counts as "the same text",
"the same subject" and "the same scope". Stages and adapters import them from here; changing
one of them is a store migration.
"""

from __future__ import annotations

import re
import threading
import unicodedata
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

MemoryType = Literal["identity", "project", "preference", "state"]
Source = Literal["agent-inferred", "user-confirmed", "user-explicit"]
Status = Literal["active", "superseded"]
ListStatus = Literal["active", "superseded", "expired", "all"]
DecisionName = Literal[
    "saved", "superseded", "duplicate", "conflict", "possible_duplicate", "rejected"
]

MEMORY_TYPES: tuple[str, ...] = get_args(MemoryType)
SOURCES: tuple[str, ...] = get_args(Source)
LIST_STATUSES: tuple[str, ...] = get_args(ListStatus)
TRUST: dict[str, int] = {"agent-inferred": 1, "user-confirmed": 2, "user-explicit": 3}
DEFAULT_SCOPE = "default"
STORED_DECISIONS: frozenset[str] = frozenset({"saved", "superseded"})

_WS = re.compile(r"\s+")
_SUBJECT_SEPARATORS = re.compile(r"[\s._]+")
_DASHES = re.compile(r"-{2,}")


_clock_lock = threading.Lock()
_last_now = datetime.min.replace(tzinfo=UTC)


def utcnow() -> datetime:
    """The current time, timezone-aware UTC, in whole milliseconds, strictly increasing
    within the process, so records saved one after another keep their order."""
    global _last_now
    now = datetime.now(UTC)
    now = now.replace(microsecond=now.microsecond // 1000 * 1000)
    with _clock_lock:
        if now <= _last_now:
            now = _last_now + timedelta(milliseconds=1)
        _last_now = now
    return now


def iso(moment: datetime) -> str:
    """A fixed-width, sortable UTC timestamp: `2026-07-21T10:00:00.000Z`."""
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def parse_iso(value: str) -> datetime:
    """Parse an ISO-8601 timestamp; a naive one is taken as UTC."""
    moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def new_id() -> str:
    """A fresh record id: a lowercase UUID v4."""
    return str(uuid.uuid4())


def text_key(text: str) -> str:
    """The identity of a text for exact-duplicate checks.

    Unicode NFC, case-folded, every run of whitespace folded to one space, trimmed.
    """
    return _WS.sub(" ", unicodedata.normalize("NFC", text).casefold()).strip()


def canonical_subject(subject: str | None) -> str | None:
    """A subject as a lowercase-hyphenated key (`Location.City` → `location-city`).

    Runs of whitespace, `.` and `_` become `-`, repeated dashes collapse, edge dashes go.
    `/` is kept. Returns None when nothing is left.
    """
    if subject is None:
        return None
    folded = unicodedata.normalize("NFC", subject).strip().lower()
    folded = _DASHES.sub("-", _SUBJECT_SEPARATORS.sub("-", folded)).strip("-")
    return folded or None


def canonical_scope(scope: str | None) -> str:
    """A scope as stored: NFC, trimmed, lowercased; empty means `default`."""
    if scope is None:
        return DEFAULT_SCOPE
    folded = unicodedata.normalize("NFC", scope).strip().lower()
    return folded or DEFAULT_SCOPE


class ClientInfo(BaseModel):
    """The MCP client that made a save, as it declared itself (never from tool arguments)."""

    model_config = ConfigDict(frozen=True)

    name: str
    version: str | None = None


class MemoryRecord(BaseModel):
    """One stored memory."""

    model_config = ConfigDict(frozen=True)

    id: str
    text: str
    type: MemoryType | None = None
    subject: str | None = None
    scope: str = DEFAULT_SCOPE
    source: Source = "agent-inferred"
    status: Status = "active"
    created_at: datetime
    updated_at: datetime
    expires_at: datetime | None = None
    superseded_by: str | None = None
    superseded_at: datetime | None = None
    client: ClientInfo | None = None
    provenance: str | None = None
    embedding_model: str | None = Field(default=None, exclude=True)
    embedding: list[float] | None = Field(default=None, exclude=True, repr=False)

    @property
    def key(self) -> str:
        """The record's `text_key`."""
        return text_key(self.text)

    def is_expired(self, now: datetime) -> bool:
        """Past its expiry (inclusive), whatever its status."""
        return self.expires_at is not None and self.expires_at <= now

    def is_live(self, now: datetime) -> bool:
        """Active and not expired: what recall returns and what exact duplicates match."""
        return self.status == "active" and not self.is_expired(now)


class MemoryView(BaseModel):
    """A record as agents see it (no vectors)."""

    id: str
    text: str
    type: MemoryType | None = None
    subject: str | None = None
    source: Source
    scope: str
    status: Status
    created_at: str
    expires_at: str | None = None
    client: ClientInfo | None = None

    @classmethod
    def of(cls, record: MemoryRecord) -> MemoryView:
        fields = {name: getattr(record, name) for name in cls.model_fields}
        return cls(**fields | {"created_at": iso(record.created_at), "expires_at":
                               iso(record.expires_at) if record.expires_at else None})


class SaveRequest(BaseModel):
    """Validated arguments of `save_memory` / `check_memory`, from any transport."""

    text: str
    type: MemoryType | None = None
    subject: str | None = None
    source: Source = "agent-inferred"
    scope: str = DEFAULT_SCOPE
    client: ClientInfo | None = None
    provenance: str | None = None
    created_at: datetime | None = None
    id: str | None = None
    # Set only by imports restating a record another store already judged (native and
    # predecessor files). `status="superseded"` is history: it passes the stateless stages but
    # is never judged against the active set, is stored as history and retires nothing.
    # `keep_subject` keeps an absent subject absent (no derivation), as it was recorded.
    status: Status = "active"
    updated_at: datetime | None = None
    expires_at: datetime | None = None
    superseded_by: str | None = None
    superseded_at: datetime | None = None
    keep_subject: bool = False


class Candidate(BaseModel):
    """The record a save would store, as the stages see it. Stages never mutate it:
    they return changes in a `StageResult` and the pipeline applies them."""

    model_config = ConfigDict(frozen=True)

    id: str
    text: str
    raw_length: int
    type: MemoryType | None = None
    subject: str | None = None
    subject_given: bool = False
    source: Source = "agent-inferred"
    scope: str = DEFAULT_SCOPE
    created_at: datetime
    expires_at: datetime | None = None
    client: ClientInfo | None = None
    provenance: str | None = None
    origin: str = "mcp"
    status: Status = "active"
    updated_at: datetime | None = None
    superseded_by: str | None = None
    superseded_at: datetime | None = None
    embedding: list[float] | None = Field(default=None, repr=False)
    embedding_model: str | None = None
    annotations: dict[str, Any] = Field(default_factory=dict)

    @property
    def key(self) -> str:
        return text_key(self.text)

    @property
    def is_history(self) -> bool:
        """An imported record that was already superseded where it came from."""
        return self.status == "superseded"

    def to_record(self, status: Status = "active", superseded_by: str | None = None,
                  now: datetime | None = None) -> MemoryRecord:
        """The record to store for this candidate. A recorded `updated_at` (an import) is
        kept when the record is stored with the status it was recorded with."""
        stamp = now or self.created_at
        updated = self.created_at if status == "active" else stamp
        if self.updated_at is not None and status == self.status:
            updated = self.updated_at
        return MemoryRecord(
            id=self.id,
            text=self.text,
            type=self.type,
            subject=self.subject,
            scope=self.scope,
            source=self.source,
            status=status,
            created_at=self.created_at,
            updated_at=updated,
            expires_at=self.expires_at,
            superseded_by=superseded_by,
            superseded_at=stamp if status == "superseded" else None,
            client=self.client,
            provenance=self.provenance,
            embedding=self.embedding,
            embedding_model=self.embedding_model,
        )


class Related(BaseModel):
    """A look-alike of the saved text."""

    id: str
    text: str
    subject: str | None = None
    similarity: float


class StageResult(BaseModel):
    """What one stage decided about a candidate.

    - `decision` set: terminal; the pipeline stops and answers with it.
    - otherwise the stage passes, optionally with `updates` to candidate fields, ids to
      `retire` if the candidate is stored, `notices` and `related` hints.
    `redact` marks the text as unfit to log (a credential, an over-long text).
    `upgrade_source` (with a terminal `duplicate`) raises the existing record's trust.
    """

    decision: DecisionName | None = None
    reason_code: str | None = None
    message: str | None = None
    existing_id: str | None = None
    updates: dict[str, Any] = Field(default_factory=dict)
    retire: list[str] = Field(default_factory=list)
    store_as_history_of: str | None = None
    upgrade_source: Source | None = None
    notices: list[str] = Field(default_factory=list)
    related: list[Related] = Field(default_factory=list)
    redact: bool = False

    @classmethod
    def passed(cls, **kwargs: Any) -> StageResult:
        return cls(**kwargs)

    @classmethod
    def reject(cls, reason_code: str, message: str, *, redact: bool = False) -> StageResult:
        return cls(decision="rejected", reason_code=reason_code, message=message, redact=redact)


class Verdict(BaseModel):
    """The answer to every save: the structured output of `save_memory` and `check_memory`."""

    decision: DecisionName
    reason_code: str
    message: str
    id: str | None = None
    superseded_ids: list[str] = Field(default_factory=list)
    related: list[Related] = Field(default_factory=list)
    notices: list[str] = Field(default_factory=list)
    memory: MemoryView | None = None

    @property
    def stored(self) -> bool:
        return self.decision in STORED_DECISIONS


class ScoredMemory(BaseModel):
    """One recall hit."""

    id: str
    text: str
    type: MemoryType | None = None
    subject: str | None = None
    source: Source
    scope: str
    created_at: str
    score: float

    @classmethod
    def of(cls, record: MemoryRecord, score: float) -> ScoredMemory:
        fields = {name: getattr(record, name) for name in cls.model_fields if name != "score"}
        return cls(**fields | {"created_at": iso(record.created_at), "score": round(score, 6)})


class RecallResult(BaseModel):
    memories: list[ScoredMemory]


class ListResult(BaseModel):
    memories: list[MemoryView]
    next_cursor: str | None = None


class ForgetResult(BaseModel):
    forgotten: str


class Page(BaseModel):
    """One page of a store listing."""

    records: list[MemoryRecord]
    next_cursor: str | None = None
