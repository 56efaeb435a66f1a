"""The file store's OAuth sidecar: a corrupt one is refused and left as it is (the predecessor
answered HTTP 500 for a corrupt oauth.json, reference §14.1 #9)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from jamgate_adapters.stores._authstate import sidecar_path
from jamgate_adapters.stores.file import FileStore
from jamgate_core.errors import StoreCorrupt
from jamgate_core.testing import NOW, insert, make_record


def test_a_corrupt_sidecar_is_refused_untouched_and_memories_still_work(tmp_path: Path) -> None:
    store = FileStore(FileStore.Options(), tmp_path)
    store.open()
    record = make_record("Jam keeps a sourdough starter called Bob")
    insert(store, record)
    sidecar = sidecar_path(store.path)
    sidecar.write_bytes(b'{"version": 1, "clients": ')
    digest = hashlib.sha256(sidecar.read_bytes()).hexdigest()
    with pytest.raises(StoreCorrupt, match=r"OAuth state file .* Move it aside"):
        store.oauth_client("some-client")
    with pytest.raises(StoreCorrupt):
        store.oauth_save_client("some-client", "{}", 0.0)
    assert hashlib.sha256(sidecar.read_bytes()).hexdigest() == digest
    hits = store.search("default", "sourdough", limit=5, type=None, now=NOW)
    assert [r.id for r, _ in hits] == [record.id]
    store.close()
