"""The conformance suite against the default SqliteStore, including the cross-process test."""

from __future__ import annotations

import pytest

from jamgate_adapters.stores.kit.pending_conformance import ReviewQueueConformance
from jamgate_core.testing import StoreConformance, StoreSpec

pytest_plugins = ["jamgate_core.testing"]


class TestSqliteStoreConformance(StoreConformance, ReviewQueueConformance):
    @pytest.fixture
    def store_spec(self) -> StoreSpec:
        return ("sqlite", {"timeout_seconds": 10})

