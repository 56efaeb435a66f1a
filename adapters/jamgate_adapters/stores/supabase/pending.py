"""The review queue (`ReviewQueue`, D-155) in the `jamgate_pending` table of a Supabase store.

Every instance sharing the database sees one queue; a take is one `DELETE … RETURNING`, so two
reviewers never both settle an item. A database whose schema predates the table answers the
queue's calls with an error naming the fix (re-apply the schema; it is idempotent).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from jamgate_adapters.stores.kit.pending import PendingItem

_PENDING = "jamgate_pending"


def _item(row: dict[str, Any]) -> PendingItem:
    return PendingItem(id=row["id"], scope=row["scope"], created_at=float(row["created_at"]),
                       expires_at=float(row["expires_at"]), data=row["data"])


class SupabasePending:
    """Held candidates in Postgres, through PostgREST."""

    if TYPE_CHECKING:
        def _run(self, call: Any, what: str) -> Any: ...

    def pending_put(self, item: PendingItem) -> None:
        self._run(lambda c: c.table(_PENDING).upsert(asdict(item)).execute(), "pending_put")

    def pending_list(self, now: float, limit: int) -> list[PendingItem]:
        rows = self._run(lambda c: c.table(_PENDING).select("*").gt("expires_at", now)
                         .order("created_at").order("id").limit(limit).execute().data,
                         "pending_list")
        return [_item(row) for row in rows]

    def pending_take(self, item_id: str) -> PendingItem | None:
        rows = self._run(lambda c: c.table(_PENDING).delete().eq("id", item_id).execute().data,
                         "pending_take")
        return _item(rows[0]) if rows else None

    def pending_prune(self, now: float) -> int:
        rows = self._run(lambda c: c.table(_PENDING).delete().lte("expires_at", now)
                         .execute().data, "pending_prune")
        return len(rows)
