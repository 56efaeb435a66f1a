"""The uniqueness invariants of active records: one per (scope, text key) and one per
(scope, subject). The SQL stores enforce them with partial unique indexes; the others check
them with `check_invariants` before they persist a write."""

from __future__ import annotations

from collections.abc import Iterable

from jamgate_core.errors import PreconditionFailed
from jamgate_core.models import MemoryRecord

BROKEN = "the write would leave two active records with one text key or subject"


def invariant_problems(records: Iterable[MemoryRecord]) -> list[str]:
    """Active records sharing a (scope, text key) or a (scope, subject)."""
    keys: dict[tuple[str, str], list[str]] = {}
    subjects: dict[tuple[str, str], list[str]] = {}
    for record in records:
        if record.status != "active":
            continue
        keys.setdefault((record.scope, record.key), []).append(record.id)
        if record.subject is not None:
            subjects.setdefault((record.scope, record.subject), []).append(record.id)
    problems = [
        f"scope {scope!r}: {len(ids)} active records share one text key ({', '.join(sorted(ids))})"
        for (scope, _), ids in keys.items() if len(ids) > 1
    ]
    problems += [
        f"scope {scope!r}: {len(ids)} active records share subject {subject!r} "
        f"({', '.join(sorted(ids))})"
        for (scope, subject), ids in subjects.items() if len(ids) > 1
    ]
    return problems


def check_invariants(written: Iterable[MemoryRecord], stored: Iterable[MemoryRecord]) -> None:
    """Raise PreconditionFailed when persisting `written` would break an invariant.

    `stored` are the records as the store holds them that could clash: at least the active
    ones sharing a scope and a text key or subject with an active record of `written` (a
    written record replaces its stored version, by id).
    """
    affected = {record.id: record for record in stored}
    affected.update((record.id, record) for record in written)
    if invariant_problems(affected.values()):
        raise PreconditionFailed(BROKEN)
