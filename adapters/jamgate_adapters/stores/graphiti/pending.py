"""The review queue (`ReviewQueue`, D-155) of the graphiti store: one Redis hash on FalkorDB.

The hash `<group_prefix>:pending` (`:` never occurs in a group id, like the schema key) maps an
item's id to its JSON, beside the graphs and never inside one, so no graph query sees it. A
take is `HGET` + `HDEL` in one `MULTI`, so two reviewers never both settle an item. Neo4j has no
Redis beside it: there the queue's calls answer `StoreUnavailable`.
"""

from __future__ import annotations

import dataclasses
import json
from typing import TYPE_CHECKING, Any

from jamgate_adapters.stores.kit.pending import PendingItem
from jamgate_core.errors import StoreUnavailable

if TYPE_CHECKING:
    from jamgate_adapters.stores.graphiti.graph import Graph


def _item(raw: bytes | str) -> PendingItem:
    return PendingItem(**json.loads(raw))


class GraphitiPending:
    """Held candidates in a Redis hash next to the graphs."""

    if TYPE_CHECKING:
        options: Any

        @property
        def graph(self) -> Graph: ...

        def _run(self, coro: Any) -> Any: ...

    def _pending_redis(self) -> tuple[Any, str]:
        redis = self.graph.redis
        if redis is None or self.graph.backend != "falkordb":
            raise StoreUnavailable("the graphiti store keeps the review queue on FalkorDB only; "
                                   "on Neo4j nothing is held for review")
        return redis, f"{self.options.group_prefix}:pending"

    def pending_put(self, item: PendingItem) -> None:
        redis, key = self._pending_redis()
        self._run(redis.hset(key, item.id, json.dumps(dataclasses.asdict(item))))

    def _pending_all(self) -> list[PendingItem]:
        redis, key = self._pending_redis()
        return [_item(raw) for raw in self._run(redis.hgetall(key)).values()]

    def pending_list(self, now: float, limit: int) -> list[PendingItem]:
        alive = [item for item in self._pending_all() if item.expires_at > now]
        return sorted(alive, key=lambda item: (item.created_at, item.id))[:limit]

    def pending_take(self, item_id: str) -> PendingItem | None:
        redis, key = self._pending_redis()

        async def take() -> Any:
            async with redis.pipeline(transaction=True) as pipe:
                pipe.hget(key, item_id)
                pipe.hdel(key, item_id)
                return await pipe.execute()
        raw, removed = self._run(take())
        return _item(raw) if removed and raw is not None else None

    def pending_prune(self, now: float) -> int:
        redis, key = self._pending_redis()
        gone = [item.id for item in self._pending_all() if item.expires_at <= now]
        return int(self._run(redis.hdel(key, *gone))) if gone else 0
