"""The review queue's part of the store conformance suite (D-155).

A mixin for a `jamgate_core.testing.StoreConformance` subclass whose store is a
`ReviewQueue`: it reuses that class's `store`, `make_store` and `store_home` fixtures.

```python
class TestMyStore(StoreConformance, ReviewQueueConformance): ...
```
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jamgate_adapters.stores.kit.pending import PendingItem, ReviewQueue
from jamgate_core.contracts import DURABLE, Preconditions, WritePlan
from jamgate_core.models import MemoryRecord, new_id, utcnow

START = 1_900_000_000.0  # epoch seconds, 2030


def pending(text: str, *, at: float = 0.0, scope: str = "default", ttl: float = 3600.0,
            item_id: str | None = None) -> PendingItem:
    """A held candidate created `at` seconds after START, expiring `ttl` seconds later."""
    return PendingItem(id=item_id or new_id(), scope=scope, created_at=START + at,
                       expires_at=START + at + ttl,
                       data=json.dumps({"text": text, "decision": "conflict"}))


class ReviewQueueConformance:
    """What every store holding a review queue must do."""

    def test_pending_round_trip_in_order(self, store: Any) -> None:
        assert isinstance(store, ReviewQueue)
        later = pending("Jam lives in Oslo", at=2)
        first = pending("Jam lives in Lisbon — «née»", at=1, scope="work")
        store.pending_put(later)
        store.pending_put(first)
        assert store.pending_list(START, 10) == [first, later]
        assert store.pending_list(START, 1) == [first]

    def test_pending_take_is_single_use(self, store: Any) -> None:
        item = pending("Jam prefers tea")
        store.pending_put(item)
        assert store.pending_take(item.id) == item
        assert store.pending_take(item.id) is None
        assert store.pending_list(START, 10) == []
        store.pending_put(item)  # undo puts it back
        assert store.pending_list(START, 10) == [item]

    def test_pending_expiry(self, store: Any) -> None:
        short = pending("Jam is at the dentist", ttl=10)
        long = pending("Jam is vegetarian", at=1, ttl=1000)
        store.pending_put(short)
        store.pending_put(long)
        assert store.pending_list(START + 20, 10) == [long]
        assert store.pending_prune(START + 20) == 1
        assert store.pending_prune(START + 20) == 0
        assert store.pending_take(short.id) is None

    def test_pending_is_never_a_memory(self, store: Any) -> None:
        now = utcnow()
        record = MemoryRecord(id=new_id(), text="Jam likes jazz", created_at=now, updated_at=now)
        store.write(WritePlan(scope="default", now=now, insert=record),
                    Preconditions(scope="default"))
        store.pending_put(pending("Jam likes jazz a lot", scope="held-only"))
        assert [r.id for r, _ in store.search("default", "jazz", limit=10, type=None, now=now)
                ] == [record.id]
        listed = store.list("default", status="all", type=None, limit=10, cursor=None, now=now)
        assert [r.id for r in listed.records] == [record.id]
        assert "held-only" not in store.scopes()
        assert store.integrity_check() == []

    def test_pending_survives_reopen(self, store: Any, make_store: Any,
                                     store_home: Path) -> None:
        if DURABLE not in store.capabilities:
            return
        item = pending("Jam moved to Bergen")
        store.pending_put(item)
        store.close()
        again = make_store(store_home)
        again.open()
        try:
            assert again.pending_list(START, 10) == [item]
        finally:
            again.close()
