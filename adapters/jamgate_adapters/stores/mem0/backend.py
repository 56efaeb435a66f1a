"""The few mem0 operations the store needs, over the open-source `Memory` or the hosted
`MemoryClient`.

Both answer in `Row`s. Filters are a small neutral `Where` (equalities, and "not equal" that
keeps memories lacking the key), translated to each side's filter syntax and re-checked in
Python on every row, so a backend that filters loosely can never leak a wrong row.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Protocol

from jamgate_adapters.stores.mem0.records import Row
from jamgate_adapters.stores.mem0.runtime import VectorHints
from jamgate_core.errors import StoreUnavailable

IDS = ("user_id", "agent_id", "run_id")


@dataclass(frozen=True)
class Where:
    """Rows whose `equal` keys hold those values and whose `unequal` keys do not (a missing
    key counts as unequal)."""

    equal: dict[str, Any] = field(default_factory=dict)
    unequal: dict[str, Any] = field(default_factory=dict)

    def holds(self, payload: dict[str, Any]) -> bool:
        return (all(payload.get(k) == v for k, v in self.equal.items())
                and all(payload.get(k) != v for k, v in self.unequal.items()))

    def oss(self) -> dict[str, Any]:
        """mem0's open-source filter syntax (`NOT` keeps rows without the key)."""
        filters: dict[str, Any] = dict(self.equal)
        if self.unequal:
            filters["NOT"] = [{k: v} for k, v in self.unequal.items()]
        return filters

    def hosted(self) -> dict[str, Any]:
        """The platform's v3 filter syntax: ids at the top, metadata under `metadata`."""
        clauses: list[dict[str, Any]] = []
        for key, value in self.equal.items():
            clauses.append({key: value} if key in IDS else {"metadata": {key: value}})
        if self.unequal:
            clauses.append({"NOT": [{"metadata": {k: v}} for k, v in self.unequal.items()]})
        return {"AND": clauses}


class Backend(Protocol):
    """What the store asks of mem0."""

    dim: int | None

    def add(self, text: str, ids: dict[str, str], meta: dict[str, Any],
            expiration: str | None, vector: list[float] | None) -> str: ...

    def update(self, mem0_id: str, text: str, meta: dict[str, Any],
               vector: list[float] | None) -> None: ...

    def delete(self, mem0_id: str) -> None: ...

    def get(self, mem0_id: str) -> Row | None: ...

    def rows(self, where: Where, limit: int) -> list[Row]: ...

    def similar(self, text: str, vector: list[float] | None, where: Where,
                limit: int) -> list[tuple[Row, float]]: ...

    def close(self) -> None: ...


def _flat(payload: dict[str, Any]) -> dict[str, Any]:
    return dict(payload or {})


class LocalBackend:
    """The open-source `mem0.Memory`: writes through `add(infer=False)`/`update`/`delete` (so
    mem0's history table records them), reads through its vector store."""

    def __init__(self, memory: Any, hints: VectorHints, dim: int | None) -> None:
        self.memory, self.hints, self.dim = memory, hints, dim

    def add(self, text: str, ids: dict[str, str], meta: dict[str, Any],
            expiration: str | None, vector: list[float] | None) -> str:
        with self.hints.given(text, vector):
            result = self.memory.add(text, metadata=meta, infer=False,
                                     expiration_date=expiration, **ids)
        added = [r for r in result.get("results", []) if r.get("event") == "ADD"]
        if len(added) != 1:
            raise StoreUnavailable(f"mem0 did not add the memory (it answered {result!r})")
        return str(added[0]["id"])

    def update(self, mem0_id: str, text: str, meta: dict[str, Any],
               vector: list[float] | None) -> None:
        with self.hints.given(text, vector):
            self.memory.update(mem0_id, metadata=meta)

    def delete(self, mem0_id: str) -> None:
        self.memory.delete(mem0_id)

    def get(self, mem0_id: str) -> Row | None:
        try:
            point = self.memory.vector_store.get(vector_id=mem0_id)
        except (ValueError, TypeError):  # not an id this vector store can hold
            return None
        return self._row(point) if point is not None else None

    @staticmethod
    def _row(point: Any) -> Row:
        payload = _flat(point.payload)
        return Row(str(point.id), str(payload.get("data", "")), payload)

    def rows(self, where: Where, limit: int) -> list[Row]:
        listed = self.memory.vector_store.list(filters=where.oss() or None, top_k=limit)
        if isinstance(listed, tuple | list) and listed and isinstance(listed[0], list | tuple):
            listed = listed[0]
        rows = [self._row(point) for point in listed or []]
        return [row for row in rows if where.holds(row.payload)]

    def similar(self, text: str, vector: list[float] | None, where: Where,
                limit: int) -> list[tuple[Row, float]]:
        if vector is None:
            vector = self.memory.embedding_model.embed(text, "search")
        hits = self.memory.vector_store.search(query=text, vectors=vector, top_k=limit,
                                               filters=where.oss() or None)
        found = [(self._row(hit), float(hit.score)) for hit in hits]
        return [(row, score) for row, score in found if where.holds(row.payload)]

    def close(self) -> None:
        from jamgate_adapters.stores.mem0.runtime import close_memory

        close_memory(self.memory)


class HostedBackend:
    """The hosted platform through mem0's own `MemoryClient` (an API key; text search only)."""

    dim: int | None = None
    PAGE = 100

    def __init__(self, client: Any) -> None:
        self.client = client

    def add(self, text: str, ids: dict[str, str], meta: dict[str, Any],
            expiration: str | None, vector: list[float] | None) -> str:
        extra = {"expiration_date": expiration} if expiration else {}
        result = self.client.add(text, metadata=meta, infer=False, **ids, **extra)
        items = result.get("results", result) if isinstance(result, dict) else result
        found = [r for r in items or [] if isinstance(r, dict) and r.get("id")]
        if len(found) != 1:
            raise StoreUnavailable(
                "the mem0 platform did not return the added memory's id (it answered "
                f"{result!r}); make sure the project does not queue adds asynchronously")
        return str(found[0]["id"])

    def update(self, mem0_id: str, text: str, meta: dict[str, Any],
               vector: list[float] | None) -> None:
        current = self.get(mem0_id)
        merged = {k: v for k, v in (current.payload if current else {}).items()
                  if k not in (*IDS, "data", "created_at", "updated_at", "expiration_date")}
        merged.update(meta)
        self.client.update(mem0_id, metadata=merged)

    def delete(self, mem0_id: str) -> None:
        self.client.delete(mem0_id)

    def get(self, mem0_id: str) -> Row | None:
        try:
            item = self.client.get(mem0_id)
        except Exception as exc:  # the client raises its own MemoryNotFoundError
            if "not found" in str(exc).lower() or type(exc).__name__ == "MemoryNotFoundError":
                return None
            raise
        return self._row(item) if isinstance(item, dict) and item.get("id") else None

    @staticmethod
    def _row(item: dict[str, Any]) -> Row:
        payload = dict(item.get("metadata") or {})
        for key in (*IDS, "created_at", "updated_at", "expiration_date"):
            if item.get(key) is not None:
                payload[key] = item[key]
        text = str(item.get("memory", ""))
        payload["data"] = text
        return Row(str(item["id"]), text, payload)

    def rows(self, where: Where, limit: int) -> list[Row]:
        found: list[Row] = []
        page = 1
        while len(found) < limit:
            answer = self.client.get_all(filters=where.hosted(), page=page, page_size=self.PAGE)
            items = answer.get("results", []) if isinstance(answer, dict) else answer
            found += [row for row in map(self._row, items) if where.holds(row.payload)]
            if not isinstance(answer, dict) or not answer.get("next") or not items:
                break
            page += 1
        return found[:limit]

    def similar(self, text: str, vector: list[float] | None, where: Where,
                limit: int) -> list[tuple[Row, float]]:
        if not text.strip():
            return []
        answer = self.client.search(text, filters=where.hosted(), top_k=limit)
        items = answer.get("results", []) if isinstance(answer, dict) else answer
        hits = [(self._row(item), float(item.get("score") or 0.0)) for item in items]
        return [(row, score) for row, score in hits
                if where.holds(row.payload) and math.isfinite(score)]

    def close(self) -> None:
        close = getattr(getattr(self.client, "client", None), "close", None)
        if callable(close):
            close()

