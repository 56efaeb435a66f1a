"""Paging and filtering as every store's `list`, `resolve_id` and write checks do them.

- `encode_cursor` / `decode_cursor`: the opaque keyset cursor of `Store.list`.
- `check_list_args(limit, status)`, `listed(record, status, type, now)`: a `list` call's
  arguments and status filter (`LIST_STATUSES`).
- `newest_first(records)`, `page_of(rows, limit)`: the listing order and one page of it.
- `resolve_prefix(ids, needle)`: `Store.resolve_id` over a scope's ids.
- `check_preconditions(...)`: what a decision read is still what the store holds.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime

from jamgate_core.contracts import Preconditions
from jamgate_core.errors import InvalidArgument, PreconditionFailed
from jamgate_core.models import MemoryRecord, Page, iso, parse_iso

_CURSOR_PREFIX = "c1:"
LIST_STATUSES = ("active", "superseded", "expired", "all")
# `resolve_id` matches a prefix only from this many characters on.
PREFIX_CHARS = 8


# --- cursors ---------------------------------------------------------------------------------

def encode_cursor(created_at: datetime, record_id: str) -> str:
    """An opaque cursor naming the last row of a page: its (created_at, id)."""
    raw = f"{_CURSOR_PREFIX}{iso(created_at)}|{record_id}".encode()
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_cursor(cursor: str) -> tuple[str, str]:
    """The (iso created_at, id) a cursor names; InvalidArgument when it is not one of ours."""
    problem = InvalidArgument(
        f"cursor {cursor[:40]!r} is not one this store issued; pass next_cursor from the "
        "previous page unchanged, or omit it to start from the newest"
    )
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        raw = base64.urlsafe_b64decode(padded.encode("ascii")).decode("utf-8")
    except (UnicodeError, ValueError, binascii.Error) as exc:
        raise problem from exc
    if not raw.startswith(_CURSOR_PREFIX) or "|" not in raw:
        raise problem
    stamp, _, record_id = raw[len(_CURSOR_PREFIX):].partition("|")
    try:
        canonical = iso(parse_iso(stamp))
    except ValueError as exc:
        raise problem from exc
    if canonical != stamp or not record_id:
        raise problem
    return stamp, record_id


# --- filters, orderings, pages ---------------------------------------------------------------

def check_list_args(limit: int, status: str) -> None:
    """Refuse what no store can page: a limit under 1 or an unknown status."""
    if limit < 1:
        raise InvalidArgument(f"limit must be at least 1, got {limit}")
    if status not in LIST_STATUSES:
        raise _unknown_status(status)


def _unknown_status(status: str) -> InvalidArgument:
    return InvalidArgument(f"unknown status {status!r}; use one of {', '.join(LIST_STATUSES)}")


def check_preconditions(preconditions: Preconditions,
                        by_text_key: Callable[[str, str], Iterable[MemoryRecord]],
                        by_subject: Callable[[str, str], Iterable[MemoryRecord]]) -> None:
    """Raise PreconditionFailed unless each text key and subject read during judgement still
    has exactly the active records it had (looked up with the store's own readers)."""
    scope = preconditions.scope
    for key, ids in preconditions.by_key.items():
        if frozenset(r.id for r in by_text_key(scope, key)) != ids:
            raise PreconditionFailed(f"the records with text key {key!r} changed")
    for subject, ids in preconditions.by_subject.items():
        if frozenset(r.id for r in by_subject(scope, subject)) != ids:
            raise PreconditionFailed(f"the records about {subject!r} changed")


def listed(record: MemoryRecord, status: str, type: str | None, now: datetime) -> bool:
    """Whether `record` belongs to a `list` page for `status` (active|superseded|expired|all)."""
    if type is not None and record.type != type:
        return False
    if status == "all":
        return True
    if status == "superseded":
        return record.status == "superseded"
    if status == "expired":
        return record.status == "active" and record.is_expired(now)
    if status == "active":
        return record.is_live(now)
    raise _unknown_status(status)


def newest_first(records: Iterable[MemoryRecord]) -> list[MemoryRecord]:
    """Records by created_at descending, ties by id descending."""
    return sorted(records, key=lambda r: (iso(r.created_at), r.id), reverse=True)


def page_of(rows: Sequence[MemoryRecord], limit: int) -> Page:
    """The first `limit` of `rows` (one more than a page was read to know if more follow),
    with the cursor of the next page when there is one."""
    page = list(rows[:limit])
    more = len(rows) > limit
    return Page(records=page,
                next_cursor=encode_cursor(page[-1].created_at, page[-1].id) if more else None)


def resolve_prefix(ids: Iterable[str], needle: str) -> list[str]:
    """`Store.resolve_id` over a scope's ids: the needle itself when it is an id, else the ids
    it starts (sorted) when it has at least PREFIX_CHARS characters."""
    known = set(ids)
    if needle in known:
        return [needle]
    if len(needle) < PREFIX_CHARS:
        return []
    return sorted(i for i in known if i.startswith(needle))
