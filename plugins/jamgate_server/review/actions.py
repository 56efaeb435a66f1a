"""What the person decides on the review page, written through the app and the gate log.

Every action writes with the store's own `write` (a `WritePlan` with the preconditions it
read) or the app's `forget`, and reports a verdict to the `jamgate_decision` observers with
origin `review` (so the gate log records it and the queue never holds it again). A text the
person typed (a merge) is first judged by the gate (`check`): whatever the gate refuses is
refused here too. Each action leaves an `Undo`; `Reviewer.undo` reverts the last one (D-157).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from jamgate_adapters.stores.kit.pending import PendingItem
from jamgate_core.contracts import Preconditions, WritePlan
from jamgate_core.errors import InvalidArgument, NotFound
from jamgate_core.models import (
    Candidate,
    ClientInfo,
    MemoryRecord,
    MemoryView,
    SaveRequest,
    Source,
    Verdict,
    new_id,
    parse_iso,
    utcnow,
)
from jamgate_server.review.queue import Held, queue_of, read

if TYPE_CHECKING:
    from jamgate_core.app import App

ORIGIN = "review"
CONFIRMED: Source = "user-confirmed"
EXTEND_DAYS = 90.0


@dataclass
class Undo:
    """How to revert one action: delete what it wrote, restore what it changed, put back the
    pending item it settled."""

    label: str
    delete: list[tuple[str, str]] = field(default_factory=list)
    restore: list[MemoryRecord] = field(default_factory=list)
    put_back: PendingItem | None = None


def _candidate(record: MemoryRecord) -> Candidate:
    return Candidate(id=record.id, text=record.text, raw_length=len(record.text),
                     type=record.type, subject=record.subject, source=record.source,
                     scope=record.scope, created_at=record.created_at,
                     expires_at=record.expires_at, client=record.client,
                     provenance=record.provenance, origin=ORIGIN)


class Reviewer:
    """The actions of the review page over one app; remembers the last action for undo."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.last: Undo | None = None
        self._lock = threading.Lock()

    # ---- helpers --------------------------------------------------------------------------

    def _log(self, decision: str, reason: str, record: MemoryRecord, message: str,
             superseded: tuple[str, ...] = ()) -> None:
        verdict = Verdict(decision=decision, reason_code=reason,  # type: ignore[arg-type]
                          message=message, id=record.id, superseded_ids=list(superseded),
                          memory=MemoryView.of(record))
        self.app.hooks.decision(verdict, _candidate(record), False, ORIGIN)

    def _take(self, item_id: str) -> Held:
        queue = queue_of(self.app.store)
        found = queue.pending_take(item_id) if queue is not None else None
        if found is None:
            raise NotFound("this review item is gone (settled elsewhere, or it expired).")
        return read(found)

    def _record(self, held: Held, text: str | None = None,
                subject: str | None = None) -> MemoryRecord:
        fields: dict[str, Any] = held.candidate
        now = utcnow()
        body = (text or str(fields["text"])).strip()
        client = fields.get("client")
        vector, model = None, None
        if self.app.embedder is not None:
            vector = self.app.embedder.embed([body], "passage")[0]
            model = self.app.embedder.model_id
        expires = fields.get("expires_at")
        return MemoryRecord(
            id=new_id(), text=body, type=fields.get("type"), subject=subject,
            scope=held.item.scope, source=CONFIRMED, created_at=now, updated_at=now,
            expires_at=parse_iso(expires) if expires else None,
            client=ClientInfo(**client) if client else None,
            provenance=fields.get("provenance"), embedding=vector, embedding_model=model)

    def _touched(self, held: Held) -> MemoryRecord:
        other = self.app.store.get(held.item.scope, held.touches) if held.touches else None
        if other is None or other.status != "active":
            raise NotFound("the other memory is no longer active: keep this one as new, or "
                           "discard it.")
        return other

    def _insert(self, record: MemoryRecord, retire: tuple[str, ...] = ()) -> None:
        store, scope = self.app.store, record.scope
        if any(r.is_live(utcnow()) for r in store.by_text_key(scope, record.key)
               if r.id not in retire):
            raise InvalidArgument(f'"{record.text}" is already stored as an active memory.')
        by_subject = {}
        if record.subject:
            by_subject[record.subject] = frozenset(r.id for r in
                                                   store.by_subject(scope, record.subject))
        keys = {record.key: frozenset(r.id for r in store.by_text_key(scope, record.key))}
        store.write(WritePlan(scope=scope, now=record.created_at, insert=record, retire=retire),
                    Preconditions(scope=scope, by_key=keys, by_subject=by_subject))

    def _settle(self, item_id: str, act: Any) -> Undo:
        """Take the item, run `act(held) -> Undo`; on failure put the item back."""
        with self._lock:
            held = self._take(item_id)
            queue = queue_of(self.app.store)
            try:
                undo: Undo = act(held)
            except BaseException:
                if queue is not None:
                    queue.pending_put(held.item)
                raise
            undo.put_back = held.item
            self.last = undo
            return undo

    # ---- the queue ------------------------------------------------------------------------

    def keep_new(self, item_id: str) -> Undo:
        """Store the candidate as a memory of its own; the other stays as it is."""
        def act(held: Held) -> Undo:
            subject = held.candidate.get("subject")
            if held.kind == "unsure":
                return Undo("keep")  # it was stored: settling it keeps it
            if subject and self.app.store.by_subject(held.item.scope, subject):
                subject = None  # one active memory per subject: the new one goes without
            record = self._record(held, subject=subject)
            self._insert(record)
            self._log("saved", "review.keep_new", record, f'Kept as new: "{record.text}"')
            return Undo("keep as new", delete=[(record.scope, record.id)])
        return self._settle(item_id, act)

    def keep_retire(self, item_id: str, text: str | None = None) -> Undo:
        """Store the candidate (or a merged `text`) and retire the memory it touches."""
        def act(held: Held) -> Undo:
            other = self._touched(held)
            if text is not None:
                self._judge(text, held)
            record = self._record(held, text=text,
                                  subject=held.candidate.get("subject") or other.subject)
            self._insert(record, retire=(other.id,))
            reason = "review.merge" if text is not None else "review.keep_retire"
            self._log("superseded", reason, record,
                      f'Kept "{record.text}", retired "{other.text}"', (other.id,))
            return Undo("merge" if text is not None else "keep and retire the other",
                        delete=[(record.scope, record.id), (other.scope, other.id)],
                        restore=[other])
        return self._settle(item_id, act)

    def merge(self, item_id: str, text: str) -> Undo:
        if not text.strip():
            raise InvalidArgument("the merged text is empty.")
        return self.keep_retire(item_id, text)

    def _judge(self, text: str, held: Held) -> None:
        verdict = self.app.check(SaveRequest(text=text, type=held.candidate.get("type"),
                                             source="user-explicit", scope=held.item.scope),
                                 origin=ORIGIN)
        if verdict.decision == "rejected":
            raise InvalidArgument(f"the gate refuses the merged text: {verdict.message}")

    def discard(self, item_id: str) -> Undo:
        """Drop the candidate (an unsure one, which was stored, is forgotten)."""
        def act(held: Held) -> Undo:
            if held.kind == "unsure" and held.touches:
                stored = self.app.store.get(held.item.scope, held.touches)
                if stored is not None:
                    self.app.forget(stored.id, scope=stored.scope, origin=ORIGIN)
                    return Undo("discard", restore=[stored])
            now = utcnow()
            dropped = MemoryRecord(id=held.touches or new_id(), text=held.text,
                                   scope=held.item.scope, created_at=now, updated_at=now)
            self._log("rejected", "review.discard", dropped, f'Discarded: "{held.text}"')
            return Undo("discard")
        return self._settle(item_id, act)

    # ---- memories -------------------------------------------------------------------------

    def _memory(self, scope: str, record_id: str) -> MemoryRecord:
        found = self.app.store.get(scope, record_id)
        if found is None:
            raise NotFound(f"no memory {record_id} in scope {scope!r}.")
        return found

    def confirm(self, scope: str, record_id: str) -> Undo:
        """Raise an agent's inference to user-confirmed."""
        with self._lock:
            record = self._memory(scope, record_id)
            if record.source != "agent-inferred":
                raise InvalidArgument("this memory is already confirmed by the user.")
            now = utcnow()
            self.app.store.write(WritePlan(scope=scope, now=now,
                                           upgrade_source=(record.id, CONFIRMED)),
                                 Preconditions(scope=scope))
            self._log("saved", "review.confirm", record.model_copy(update={"source": CONFIRMED}),
                      f'Confirmed: "{record.text}"')
            self.last = Undo("confirm", delete=[(scope, record.id)], restore=[record])
            return self.last

    def extend(self, scope: str, record_id: str, days: float = EXTEND_DAYS) -> Undo:
        """Give a memory near its expiry `days` more from now (rewritten with the same id)."""
        with self._lock:
            record = self._memory(scope, record_id)
            if record.expires_at is None:
                raise InvalidArgument("this memory never expires.")
            now = utcnow()
            longer = record.model_copy(update={"expires_at": now + timedelta(days=days),
                                               "updated_at": now})
            self.app.store.delete(scope, record.id)
            self.app.store.write(WritePlan(scope=scope, now=now, insert=longer),
                                 Preconditions(scope=scope))
            self._log("saved", "review.extend", longer, f'Extended: "{record.text}"')
            self.last = Undo("extend", delete=[(scope, record.id)], restore=[record])
            return self.last

    def forget(self, scope: str, record_id: str) -> Undo:
        with self._lock:
            record = self._memory(scope, record_id)
            self.app.forget(record.id, scope=scope, origin=ORIGIN)
            self.last = Undo("forget", restore=[record])
            return self.last

    # ---- undo -----------------------------------------------------------------------------

    def undo(self) -> str:
        """Revert the last action; its label. Raises NotFound when there is none."""
        with self._lock:
            undo, self.last = self.last, None
            if undo is None:
                raise NotFound("there is nothing to undo.")
            store = self.app.store
            for scope, record_id in undo.delete:
                store.delete(scope, record_id)
            for record in undo.restore:
                store.write(WritePlan(scope=record.scope, now=utcnow(), insert=record),
                            Preconditions(scope=record.scope))
            queue = queue_of(store)
            if undo.put_back is not None and queue is not None:
                queue.pending_put(undo.put_back)
            subject = undo.restore[0] if undo.restore else None
            if subject is None and undo.put_back is not None:
                held = read(undo.put_back)
                now = utcnow()
                subject = MemoryRecord(id=held.touches or new_id(), text=held.text,
                                       scope=held.item.scope, created_at=now, updated_at=now)
            if subject is not None:
                self._log("saved", "review.undo", subject, f"Undone: {undo.label}")
            return undo.label
