"""The store conformance suite against Mem0Store on a real `mem0.Memory` with a local on-disk
Qdrant folder, offline (no LLM, no network, telemetry off)."""

from __future__ import annotations

from pathlib import Path

import pytest
from mem0_helpers import HashEmbedder

from jamgate_adapters.stores.kit.pending_conformance import ReviewQueueConformance
from jamgate_core.contracts import Store
from jamgate_core.testing import StoreConformance, StoreFactory, build_store

pytest_plugins = ["jamgate_core.testing"]
pytestmark = pytest.mark.slow


class TestMem0StoreConformance(StoreConformance, ReviewQueueConformance):
    @pytest.fixture
    def make_store(self) -> StoreFactory:
        def make(home: Path) -> Store:
            store = build_store(("mem0", {"user_id": "jam", "search_threshold": 0.3}), home)
            store.bind_embedder(HashEmbedder())  # type: ignore[attr-defined]
            return store
        return make
