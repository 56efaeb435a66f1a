"""Holding the gate's uncertain candidates for review (D-155, D-156).

`QueueHolder` observes every real save (`jamgate_decision`): a `conflict` or a
`possible_duplicate` (the candidate was not stored) and an unsure keep of the classifier (its
notice starts "Unsure:"; the memory was stored) become a pending item in the store's review
queue, for `review_hold_days`. A refused candidate is never held (nothing the gate refuses
outright, never a credential: `redact` saves are skipped), nor imports and the review's own
writes. The agent's verdict gets a notice saying the candidate waits for review.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from jamgate_core.hookspecs import hookimpl
from jamgate_core.models import Candidate, iso, new_id

if TYPE_CHECKING:
    from jamgate_adapters.stores.kit.pending import PendingItem, ReviewQueue
    from jamgate_core.contracts import Application
    from jamgate_core.models import Verdict

HOLDER_NAME = "review-queue-holder"
UNSURE = "Unsure:"
HELD_DECISIONS = ("conflict", "possible_duplicate")
SKIPPED_ORIGINS = ("import", "review")
LIST_LIMIT = 500


def held_kind(verdict: Verdict, redact: bool, origin: str) -> str | None:
    """What the review queue holds this verdict as, or None."""
    if redact or origin in SKIPPED_ORIGINS:
        return None
    if verdict.decision in HELD_DECISIONS:
        return verdict.decision
    if verdict.stored and any(n.startswith(UNSURE) for n in verdict.notices):
        return "unsure"
    return None


@dataclass(frozen=True)
class Held:
    """A pending item, read: what was held, why, and which memory it touches."""

    item: PendingItem
    kind: str
    reason_code: str
    message: str
    touches: str | None
    candidate: dict[str, Any]

    @property
    def text(self) -> str:
        return str(self.candidate.get("text", ""))

    @property
    def expires(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(self.item.expires_at))


def candidate_fields(candidate: Candidate) -> dict[str, Any]:
    """The candidate as the queue keeps it (what a later save needs; no vector)."""
    return {"id": candidate.id, "text": candidate.text, "type": candidate.type,
            "subject": candidate.subject, "source": candidate.source, "scope": candidate.scope,
            "created_at": iso(candidate.created_at),
            "expires_at": iso(candidate.expires_at) if candidate.expires_at else None,
            "client": candidate.client.model_dump() if candidate.client else None,
            "provenance": candidate.provenance, "origin": candidate.origin}


def make_item(verdict: Verdict, candidate: Candidate, kind: str, hold_days: float,
              now: float) -> PendingItem:
    from jamgate_adapters.stores.kit.pending import PendingItem  # on first use (D-230)

    touches = verdict.id
    data = {"kind": kind, "reason_code": verdict.reason_code, "message": verdict.message,
            "touches": touches, "candidate": candidate_fields(candidate)}
    return PendingItem(id=new_id(), scope=candidate.scope, created_at=now,
                       expires_at=now + hold_days * 86400.0,
                       data=json.dumps(data, ensure_ascii=False))


def read(item: PendingItem) -> Held:
    data = json.loads(item.data)
    return Held(item=item, kind=str(data.get("kind", "conflict")),
                reason_code=str(data.get("reason_code", "")),
                message=str(data.get("message", "")), touches=data.get("touches"),
                candidate=dict(data.get("candidate") or {}))


def queue_of(store: Any) -> ReviewQueue | None:
    """The store's review queue (through the timeout wrapper), or None."""
    from jamgate_adapters.stores.kit.pending import ReviewQueue  # on first use (D-230)
    from jamgate_core.timeouts import TimedStore

    inner = store._store if isinstance(store, TimedStore) else store
    return store if isinstance(inner, ReviewQueue) else None


def pending(app: Application, limit: int = LIST_LIMIT, prune: bool = False) -> list[Held]:
    """The live pending items, oldest first; with `prune`, expired ones are dropped first
    (a write: the page only reads, the holder and `jamgate review --list` prune)."""
    queue = queue_of(app.store)
    if queue is None:
        return []
    now = time.time()
    if prune:
        queue.pending_prune(now)
    return [read(item) for item in queue.pending_list(now, limit)]


class QueueHolder:
    """The `jamgate_decision` observer that holds uncertain candidates."""

    def __init__(self, queue: ReviewQueue, hold_days: float) -> None:
        self.queue, self.hold_days = queue, hold_days

    @hookimpl
    def jamgate_decision(self, verdict: Verdict, candidate: Candidate, redact: bool,
                         origin: str) -> None:
        kind = held_kind(verdict, redact, origin)
        if kind is None:
            return
        now = time.time()
        self.queue.pending_prune(now)
        item = make_item(verdict, candidate, kind, self.hold_days, now)
        self.queue.pending_put(item)
        days = f"{self.hold_days:g}"
        what = ("it was saved, and the user may keep or discard it" if kind == "unsure" else
                "nothing is saved until the user settles it")
        verdict.notices.append(
            f"Waiting for review: {what} on the review page (`jamgate review`) within {days} "
            f"days; no need to save it again. Review item: {item.id}")


@hookimpl
def jamgate_startup(app: Application) -> None:
    if app.pm.get_plugin(HOLDER_NAME) is not None:
        app.pm.unregister(name=HOLDER_NAME)
    queue = queue_of(app.store)
    if queue is not None:
        app.pm.register(QueueHolder(queue, app.settings.review_hold_days), name=HOLDER_NAME)


@hookimpl
def jamgate_shutdown(app: Application) -> None:
    if app.pm.get_plugin(HOLDER_NAME) is not None:
        app.pm.unregister(name=HOLDER_NAME)
