"""The store conformance suite against GraphitiStore on a real FalkorDB, offline."""

from __future__ import annotations

from typing import Any

import pytest

from jamgate_adapters.stores.kit.pending_conformance import ReviewQueueConformance
from jamgate_core.testing import StoreConformance, StoreSpec

pytest_plugins = ["jamgate_core.testing"]


class TestGraphitiStoreConformance(StoreConformance, ReviewQueueConformance):
    @pytest.fixture
    def store_spec(self, falkor: Any, group_prefix: str) -> StoreSpec:
        return ("graphiti", falkor.options(group_prefix=group_prefix))
