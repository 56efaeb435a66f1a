"""The one meaning of a `WritePlan`, for every store that applies plans in Python.

`apply_plan(plan, lookup)` returns the records a plan writes — each retired record marked
superseded by the plan's insert, the upgraded record with its raised source, then the insert —
after checking what the plan assumes: every retired record is still active in the plan's scope,
the upgraded one still exists there, and the insert's id is new. A store persists the returned
records its own way (a dict, a JSON file, mem0 metadata, graph nodes); the SQL stores express
the same rules in SQL and are held to them by the conformance suite.
"""

from __future__ import annotations

from collections.abc import Callable

from jamgate_core.contracts import WritePlan
from jamgate_core.errors import PreconditionFailed, StoreError
from jamgate_core.models import MemoryRecord

Lookup = Callable[[str], MemoryRecord | None]


def apply_plan(plan: WritePlan, lookup: Lookup) -> list[MemoryRecord]:
    """The records `plan` writes, in order (changed ones first, the insert last).

    `lookup(id)` answers the record as the store holds it now (including earlier plans of the
    same batch). Raises `PreconditionFailed` when a retired record is no longer active in the
    scope or the upgraded record is gone, `StoreError` when the insert's id is taken.
    """
    changed: dict[str, MemoryRecord] = {}

    def current(record_id: str) -> MemoryRecord | None:
        return changed.get(record_id) or lookup(record_id)

    for record_id in plan.retire:
        old = current(record_id)
        if old is None or old.scope != plan.scope or old.status != "active":
            raise PreconditionFailed(
                f"record {record_id} is no longer active in scope {plan.scope!r}")
        changed[record_id] = old.model_copy(update={
            "status": "superseded", "superseded_at": plan.now, "updated_at": plan.now,
            "superseded_by": plan.insert.id if plan.insert else None,
        })
    if plan.upgrade_source is not None:
        record_id, source = plan.upgrade_source
        old = current(record_id)
        if old is None or old.scope != plan.scope:
            raise PreconditionFailed(f"record {record_id} is gone from {plan.scope!r}")
        changed[record_id] = old.model_copy(update={"source": source, "updated_at": plan.now})
    written = list(changed.values())
    if plan.insert is not None:
        if current(plan.insert.id) is not None:
            raise StoreError(f"a memory with id {plan.insert.id} already exists")
        written.append(plan.insert)
    return written
