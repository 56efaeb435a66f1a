"""Shared pieces of the mem0 tests: mem0 is imported offline, telemetry off, its home in a
temporary folder; a small deterministic embedder stands in for the model where the test is
about the store, not about meaning."""

from __future__ import annotations

import os
import tempfile

import pytest

pytest.register_assert_rewrite("jamgate_core.testing")

os.environ["MEM0_TELEMETRY"] = "False"
os.environ.setdefault("MEM0_DIR", tempfile.mkdtemp(prefix="jamgate-mem0-tests-"))
os.environ.pop("OPENAI_API_KEY", None)
INSTALL = "pip install 'jamgate[mem0]'"


@pytest.fixture(scope="session", autouse=True)
def _mem0_installed() -> None:
    try:
        import mem0  # noqa: F401
    except ImportError as exc:
        pytest.fail(f"the mem0 tests need mem0ai ({exc}). Install it with: {INSTALL}",
                    pytrace=False)
