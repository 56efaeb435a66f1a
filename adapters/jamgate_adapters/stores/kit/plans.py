"""Applying a batch of `WritePlan`s for the stores that persist records themselves (memory,
file, mem0, graphiti): `jamgate_core.writes.apply_plan` is the one meaning of a plan; these
helpers only run it over a batch and check what it assumes of the insert's scope."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from jamgate_core.contracts import WritePlan
from jamgate_core.errors import InvalidArgument
from jamgate_core.models import MemoryRecord
from jamgate_core.writes import apply_plan

# (scope, id) → the record as the store holds it, or None.
ScopedLookup = Callable[[str, str], MemoryRecord | None]


def apply_plans(plans: Sequence[WritePlan], lookup: ScopedLookup) -> dict[str, MemoryRecord]:
    """The records a batch writes, by id, in the order first written (a record a later plan
    changes again keeps its place, with its last value).

    Each plan is applied with `apply_plan`, seeing the records the earlier plans of the batch
    wrote; `lookup(scope, id)` answers the rest from the store (the plan's scope is passed, so
    a store that finds records within a scope may; the scope is checked either way). Raises
    what `apply_plan` raises; nothing is persisted here.
    """
    written: dict[str, MemoryRecord] = {}
    for plan in plans:
        def current(record_id: str, scope: str = plan.scope) -> MemoryRecord | None:
            return written.get(record_id) or lookup(scope, record_id)

        for record in apply_plan(plan, current):
            written[record.id] = record
    return written


def check_insert_scopes(plans: Sequence[WritePlan]) -> None:
    """InvalidArgument when a plan inserts a record of another scope than its own (stores that
    keep a scope as a place — a mem0 id, a graph — cannot write it there)."""
    for plan in plans:
        record = plan.insert
        if record is not None and record.scope != plan.scope:
            raise InvalidArgument(f"record {record.id} is in scope {record.scope!r}, "
                                  f"the plan in {plan.scope!r}")
