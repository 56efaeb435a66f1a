"""A deadline on every call to a store that cannot bound its own waits.

Local stores (declaring `local`) bound their waits themselves (SQLite's busy timeout, the file
store's lock deadline) and are used as they are. Any other store is wrapped: each call runs in
a worker thread and, past the deadline, the caller gets `StoreUnavailable` at once. A call that
timed out may still complete in the background; a write that did is found by the next read.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from jamgate_core.contracts import LOCAL, Store
from jamgate_core.errors import StoreUnavailable

# Everything else callable (data calls, including ones added to the contract later) is timed.
_UNTIMED = frozenset({"open", "close", "location", "bind_embedder"})


class TimedStore:
    """Proxies a store, giving every data call a deadline of `seconds`."""

    def __init__(self, store: Store, seconds: float, workers: int = 8) -> None:
        self._store, self._seconds = store, seconds
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="jamgate-store")

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._store, name)
        if name in _UNTIMED or name.startswith("_") or not callable(attribute):
            return attribute
        return functools.partial(self._call, name, attribute)

    def _call(self, name: str, method: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        future = self._pool.submit(method, *args, **kwargs)
        try:
            return future.result(timeout=self._seconds)
        except FutureTimeout:
            raise StoreUnavailable(
                f"the store ({self._store.location()}) did not answer {name} within "
                f"{self._seconds:g} s. Nothing is known to have changed; check that it is "
                "reachable and try again (store_timeout_seconds sets the limit)."
            ) from None

    def close(self) -> None:
        self._store.close()
        self._pool.shutdown(wait=False, cancel_futures=True)


def with_deadline(store: Store, seconds: float) -> Store:
    """`store` itself when it bounds its own waits, else a `TimedStore` around it."""
    if LOCAL in store.capabilities:
        return store
    timed: Store = TimedStore(store, seconds)
    return timed
