"""Stores that cannot bound their own waits get a deadline on every call."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from jamgate_adapters.stores.memory import MemoryStore
from jamgate_core.errors import StoreUnavailable
from jamgate_core.timeouts import TimedStore, with_deadline


class SlowRemoteStore(MemoryStore):
    """A memory store that behaves like a remote one: no `local`, and it can hang."""

    def __init__(self) -> None:
        super().__init__(MemoryStore.Options(), Path("."))
        self.capabilities = frozenset({"keyword_search"})
        self.release = threading.Event()

    def location(self) -> str:
        return "remote://slow"

    def by_subject(self, scope: str, subject: str) -> list:  # type: ignore[type-arg]
        self.release.wait(10)
        return super().by_subject(scope, subject)


def test_local_stores_are_used_as_they_are() -> None:
    store = MemoryStore(MemoryStore.Options(), Path("."))
    assert with_deadline(store, 1.0) is store


def test_a_hanging_remote_call_fails_at_the_deadline() -> None:
    slow = SlowRemoteStore()
    timed = with_deadline(slow, 0.2)
    assert isinstance(timed, TimedStore)
    assert timed.by_text_key("default", "x") == []
    started = time.perf_counter()
    with pytest.raises(StoreUnavailable, match=r"remote://slow.*by_subject.*0.2 s"):
        timed.by_subject("default", "location")
    assert time.perf_counter() - started < 2
    slow.release.set()
    assert timed.by_subject("default", "location") == []
    assert timed.capabilities == slow.capabilities
    timed.close()
