"""The store conformance suite through supabase-py, against real Postgres + PostgREST."""

from __future__ import annotations

from typing import Any

import pytest
from supabase_stack import Stack

from jamgate_adapters.stores.kit.pending_conformance import ReviewQueueConformance
from jamgate_core.testing import StoreConformance, StoreSpec

pytest_plugins = ["jamgate_core.testing"]
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


class TestSupabaseStoreConformance(StoreConformance, ReviewQueueConformance):
    @pytest.fixture
    def store_spec(self, clean_stack: Stack) -> StoreSpec:
        options: dict[str, Any] = {"url": clean_stack.url, "key": clean_stack.service_key}
        return ("supabase", options)
