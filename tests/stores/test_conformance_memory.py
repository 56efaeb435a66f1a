"""The conformance suite against the in-process MemoryStore."""

from __future__ import annotations

import pytest

from jamgate_core.testing import StoreConformance, StoreSpec

pytest_plugins = ["jamgate_core.testing"]


class TestMemoryStoreConformance(StoreConformance):
    @pytest.fixture
    def store_spec(self) -> StoreSpec:
        return ("memory", {})
