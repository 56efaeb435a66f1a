"""The review queue: candidates held for the person to settle (D-155), kept apart from memories.

A pending item is not a memory: it lives in its own table (sqlite), sidecar file (file, mem0)
or dict (memory), so recall, listing, export, the uniqueness invariants and compaction never
see it. `data` is opaque JSON owned by the review plugin (the candidate, its verdict, the
memory it touches); the store keeps it until it is taken or its `expires_at` passes.

- `ReviewQueue`: the contract, checked with `isinstance` (a store without it answers
  conflicts as before, and `jamgate review` says the store holds no queue).
- `MemoryPending`, `SidecarPending`, `SqlitePending`: the mixins of the bundled stores.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar, runtime_checkable

from jamgate_adapters.stores.kit.authstate import change_sidecar, lock_timeout
from jamgate_core.errors import StoreCorrupt

T = TypeVar("T")
SIDECAR_VERSION = 1
_FIELDS = ("id", "scope", "created_at", "expires_at", "data")


@dataclasses.dataclass(frozen=True)
class PendingItem:
    """One held candidate. Times are epoch seconds; `data` is the review plugin's JSON."""

    id: str
    scope: str
    created_at: float
    expires_at: float
    data: str = "{}"


@runtime_checkable
class ReviewQueue(Protocol):
    """Where a store keeps the review queue. Each method is atomic (across processes for a
    `cross_process` store)."""

    def pending_put(self, item: PendingItem) -> None:
        """Hold `item` (replacing one with its id)."""

    def pending_list(self, now: float, limit: int) -> list[PendingItem]:
        """Up to `limit` items not expired at `now`, in every scope, oldest first."""

    def pending_take(self, item_id: str) -> PendingItem | None:
        """Remove the item and return it; None when it is gone (someone took it first)."""

    def pending_prune(self, now: float) -> int:
        """Drop items expired at `now`; how many went."""


def _live(items: list[PendingItem], now: float, limit: int) -> list[PendingItem]:
    alive = [item for item in items if item.expires_at > now]
    return sorted(alive, key=lambda item: (item.created_at, item.id))[:limit]


class TablesPending:
    """The contract over a dict of items; a subclass says how the dict is read and changed."""

    def _pending_change(self, change: Callable[[dict[str, PendingItem]], T]) -> T:
        raise NotImplementedError

    def _pending_look(self, look: Callable[[dict[str, PendingItem]], T]) -> T:
        return self._pending_change(look)

    def pending_put(self, item: PendingItem) -> None:
        self._pending_change(lambda items: items.__setitem__(item.id, item))

    def pending_list(self, now: float, limit: int) -> list[PendingItem]:
        return self._pending_look(lambda items: _live(list(items.values()), now, limit))

    def pending_take(self, item_id: str) -> PendingItem | None:
        return self._pending_change(lambda items: items.pop(item_id, None))

    def pending_prune(self, now: float) -> int:
        def prune(items: dict[str, PendingItem]) -> int:
            gone = [key for key, item in items.items() if item.expires_at <= now]
            for key in gone:
                del items[key]
            return len(gone)
        return self._pending_change(prune)


_CREATE = threading.Lock()


class MemoryPending(TablesPending):
    """The queue in an in-process dict (gone with the process, like the memory store)."""

    def _pending_change(self, change: Callable[[dict[str, PendingItem]], T]) -> T:
        with _CREATE:
            held = self.__dict__.setdefault("_pending_state", (threading.Lock(), {}))
        lock, items = held
        with lock:
            return change(items)


def pending_path(store: Path) -> Path:
    """`memory.json` → `memory.pending.json`, in the same folder."""
    return store.with_name(f"{store.stem}.pending.json")


class SidecarPending(TablesPending):
    """The queue in a JSON file beside the store (mode 0600, atomic replace, locked)."""

    path: Path

    def _read_pending(self) -> dict[str, PendingItem]:
        target = pending_path(self.path)
        try:
            data = target.read_bytes()
        except FileNotFoundError:
            return {}
        if not data.strip():
            return {}
        try:
            body = json.loads(data)
            if body.get("version") != SIDECAR_VERSION:
                raise ValueError(f"unknown version {body.get('version')!r}")
            items = [PendingItem(**{k: row[k] for k in _FIELDS}) for row in body["items"]]
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise StoreCorrupt(
                f"the review queue file {target} cannot be read ({exc}). Your memories are not "
                "affected. Move it aside (the held candidates are then gone) and restart."
            ) from exc
        return {item.id: item for item in items}

    def _pending_look(self, look: Callable[[dict[str, PendingItem]], T]) -> T:
        return look(self._read_pending())

    def _pending_change(self, change: Callable[[dict[str, PendingItem]], T]) -> T:
        def changed() -> tuple[T, bytes]:
            items = self._read_pending()
            result = change(items)
            body = {"version": SIDECAR_VERSION,
                    "items": [dataclasses.asdict(item) for item in items.values()]}
            return result, (json.dumps(body, ensure_ascii=False) + "\n").encode("utf-8")
        return change_sidecar(pending_path(self.path), lock_timeout(self), "the review queue",
                              changed)


_COLUMNS = ", ".join(_FIELDS)


class SqlitePending:
    """The queue in the `pending` table (schema v5)."""

    if TYPE_CHECKING:
        def _db(self) -> contextlib.AbstractContextManager[sqlite3.Connection]: ...

        def _transaction(self) -> contextlib.AbstractContextManager[sqlite3.Connection]: ...

    def pending_put(self, item: PendingItem) -> None:
        with self._transaction() as conn:
            conn.execute(f"INSERT OR REPLACE INTO pending ({_COLUMNS}) VALUES (?, ?, ?, ?, ?)",
                         tuple(getattr(item, name) for name in _FIELDS))

    def pending_list(self, now: float, limit: int) -> list[PendingItem]:
        with self._db() as conn:
            rows = conn.execute(f"SELECT {_COLUMNS} FROM pending WHERE expires_at > ? "
                                "ORDER BY created_at, id LIMIT ?", (now, limit)).fetchall()
        return [PendingItem(*row) for row in rows]

    def pending_take(self, item_id: str) -> PendingItem | None:
        with self._transaction() as conn:
            row = conn.execute(f"SELECT {_COLUMNS} FROM pending WHERE id = ?",
                               (item_id,)).fetchone()
            conn.execute("DELETE FROM pending WHERE id = ?", (item_id,))
        return None if row is None else PendingItem(*row)

    def pending_prune(self, now: float) -> int:
        with self._transaction() as conn:
            return conn.execute("DELETE FROM pending WHERE expires_at <= ?", (now,)).rowcount
