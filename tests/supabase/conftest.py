"""Session-scoped Supabase stack (Postgres + pgvector, PostgREST, nginx) for these tests."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from supabase_stack import MissingPiece, Stack, start_stack

pytest.register_assert_rewrite("jamgate_core.testing")


@pytest.fixture(scope="session")
def supabase_stack() -> Iterator[Stack]:
    """One stack for the session; a missing binary fails with its install command."""
    root = Path(tempfile.mkdtemp(prefix="jamgate-supabase-"))
    root.chmod(0o755)
    try:
        stack = start_stack(root / "stack")
    except MissingPiece as exc:
        shutil.rmtree(root, ignore_errors=True)
        pytest.fail(str(exc), pytrace=False)
    try:
        yield stack
    finally:
        stack.stop()
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def clean_stack(supabase_stack: Stack) -> Stack:
    """The stack with every Jamgate table emptied."""
    supabase_stack.reset()
    return supabase_stack
