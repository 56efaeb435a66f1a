"""One nearest-vector read and one keyword search a save, shared by the stages that ask them
(D-366; the search, D-412).

The near-duplicate stage asks a save's three nearest stored vectors, the change stage (its
rules and the learned pair signal) five: one read of five serves them all. The read is held for
the save's `StageContext` only (a new context is a new save, or a new attempt of one), so a
batch's retirements and a retried save are never served a stale read.
"""

from __future__ import annotations

from jamgate_core import MemoryRecord, StageContext

READ = 5  # the change stage's `candidates`
Hits = list[tuple[MemoryRecord, float]]
_last: tuple[StageContext, list[float], int, Hits] | None = None
_searched: tuple[StageContext, str, int, Hits] | None = None


def nearest(ctx: StageContext, vector: list[float], limit: int) -> Hits:
    """`ctx.view.nearest(vector, limit)`, read once a save for `max(limit, READ)`; for an
    exact scan the first `limit` of a larger read are the same records in the same order."""
    global _last
    held = _last
    if held is None or held[0] is not ctx or held[2] < limit or held[1] != vector:
        read = max(limit, READ)
        held = (ctx, vector, read, ctx.view.nearest(vector, limit=read))
        _last = held
    return held[3][:limit]


def search(ctx: StageContext, query: str, limit: int) -> Hits:
    """`ctx.view.search(query, limit)`, read once a save for the same query and limit: the
    near-duplicate stage's keyword look-alikes and the change stage's frames (D-410) ask the
    same five."""
    global _searched
    held = _searched
    if held is None or held[0] is not ctx or held[1] != query or held[2] != limit:
        held = (ctx, query, limit, ctx.view.search(query, limit=limit))
        _searched = held
    return held[3]
