"""The conformance suite against FileStore (the JSON file), including the cross-process test."""

from __future__ import annotations

import pytest

from jamgate_adapters.stores.kit.pending_conformance import ReviewQueueConformance
from jamgate_core.testing import StoreConformance, StoreSpec

pytest_plugins = ["jamgate_core.testing"]


class TestFileStoreConformance(StoreConformance, ReviewQueueConformance):
    @pytest.fixture
    def store_spec(self) -> StoreSpec:
        return ("file", {"lock_timeout_seconds": 10})


class TestFileStoreElsewhere(StoreConformance):
    """A relative `path` option resolves against the home, in a directory created on open."""

    @pytest.fixture
    def store_spec(self) -> StoreSpec:
        return ("file", {"path": "nested/dir/other.json"})
