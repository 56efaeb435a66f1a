"""Faults, as an agent meets them through the real server: a read-only store, a full disk, a
corrupt file, an embedder that raises, a store that hangs. Each gives a clear error (or the
fail-open decision configured), and nothing already stored is damaged."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from reliability_kit import (
    LOCAL_STORES,
    SERVE,
    all_records,
    digest_tree,
    install_plugins,
    opened,
    server_env,
    spawn_server,
    store_path,
)

from jamgate_core.models import SaveRequest


def fill(home: Path, store: str, count: int, *, text: str = "Jam keeps fact {n} on file") -> None:
    with opened(home, store) as app:
        for n in range(count):
            assert app.save(SaveRequest(text=text.format(n=n))).stored


def snapshot(home: Path, store: str) -> list[tuple[str, str, str]]:
    """What the store holds, comparable before and after a fault."""
    with opened(home, store) as app:
        assert app.store.integrity_check() == []
        return sorted((r.id, r.text, r.status) for r in all_records(app))


def error_text(result: dict[str, Any]) -> str:
    """The message of a failed call: a tool error, or a save the gate refused because a
    stage could not read the store (fail closed). Never an internal error."""
    text: str = result["content"][0]["text"]
    verdict = result.get("structuredContent") or {}
    refused = str(verdict.get("reason_code", "")).startswith("stage_error.")
    assert result.get("isError") or refused, result
    assert "internal error" not in text, text
    return text


# ---- read-only ------------------------------------------------------------------------------

def _chattr(flag: str, *paths: Path) -> bool:
    chattr = shutil.which("chattr")
    return chattr is not None and all(
        subprocess.run([chattr, flag, str(p)], capture_output=True).returncode == 0
        for p in paths)


class Freezer:
    """Makes paths immutable even for root (chattr +i), and undoes it."""

    def __init__(self) -> None:
        self.frozen: list[Path] = []

    def __call__(self, *paths: Path) -> None:
        if os.geteuid() != 0:
            for path in paths:
                path.chmod(0o555 if path.is_dir() else 0o444)
        elif not _chattr("+i", *paths):
            pytest.skip("chattr +i is not available here")
        self.frozen.extend(paths)

    def thaw(self) -> None:
        for path in reversed(self.frozen):
            if os.geteuid() == 0:
                _chattr("-i", path)
            path.chmod(0o755 if path.is_dir() else 0o644)
        self.frozen.clear()


@pytest.fixture
def freeze() -> Iterator[Freezer]:
    freezer = Freezer()
    yield freezer
    freezer.thaw()


@pytest.mark.parametrize("store", sorted(LOCAL_STORES))
@pytest.mark.parametrize("what", ["directory", "file"])
def test_a_read_only_store(store: str, what: str, tmp_path: Path, freeze: Freezer) -> None:
    home = tmp_path / "home"
    fill(home, store, 3)
    before, digests = snapshot(home, store), digest_tree(home)
    path = store_path(home, store)
    freeze(*([home, *home.iterdir()] if what == "directory" else [path]))
    process = subprocess.Popen(SERVE, env=server_env(home, store=LOCAL_STORES[store]),
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    from jamgate_commands.bench_speed import ServerGone, StdioSession

    session = StdioSession(process)
    try:
        session.initialize("read-only")
        # It serves: a save is a tool error naming the store and the remedy; reads work.
        message = error_text(session.call("save_memory", {"text": "Jam moved to Lisbon"}))
        assert str(path) in message or str(home) in message, message
        recalled = session.call("recall_memory", {"query": "fact"})
        assert len(recalled["structuredContent"]["memories"]) == 3
    except ServerGone:
        # Or it refuses to start, saying why on stderr.
        assert process.wait(timeout=30) != 0
        assert process.stderr is not None
        stderr = process.stderr.read().decode()
        assert str(path) in stderr and ("writable" in stderr or "read-only" in stderr), stderr
    finally:
        session.close()
        assert process.stderr is not None
        process.stderr.close()
    assert digest_tree(home) == digests
    freeze.thaw()
    assert snapshot(home, store) == before


# ---- a full disk ----------------------------------------------------------------------------

@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MiB tmpfs mounted for the test (root only); skipped where mounting is not allowed.
    The file store's RLIMIT_FSIZE case lives in tests/stores/test_file_store.py."""
    mount = tmp_path / "small-disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m,mode=0755", "tmpfs",
                           str(mount)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def fill_disk(folder: Path) -> Path:
    """Take every free byte of the file system under `folder`, leaving the store no room."""
    ballast = folder / "ballast"
    fd = os.open(ballast, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while True:
            os.write(fd, b"\0" * 4096)
    except OSError:
        pass
    finally:
        os.close(fd)
    return ballast


@pytest.mark.parametrize("store", sorted(LOCAL_STORES))
def test_a_full_disk(store: str, small_disk: Path) -> None:
    home = small_disk / "home"
    session = spawn_server(server_env(home, store=LOCAL_STORES[store], gate_log="off"))
    try:
        saved = []
        for n in range(20):
            result = session.call("save_memory", {"text": f"Jam keeps fact {n} before the fill"})
            saved.append(result["structuredContent"]["id"])
        ballast = fill_disk(small_disk)
        failures = []
        for n in range(20):  # an SQLite page cache may absorb a few writes: keep writing
            text = f"Jam keeps fact {n} on a full disk " + "padding words " * 80
            result = session.call("save_memory", {"text": text})
            if result.get("isError"):
                failures.append(error_text(result))
        assert failures, "no save failed on a full disk"
        assert all("full" in m or "space" in m for m in failures), failures
        assert all("Nothing was" in m or "intact" in m for m in failures), failures
        ballast.unlink()
        # Room again: the server carries on, and everything acknowledged is there.
        result = session.call("save_memory", {"text": "Jam keeps one more fact afterwards"})
        assert not result.get("isError"), result
        saved.append(result["structuredContent"]["id"])
    finally:
        session.close()
    with opened(home, store) as app:
        assert app.store.integrity_check() == []
        stored = {r.id for r in all_records(app)}
    assert set(saved) <= stored


# ---- corrupt files --------------------------------------------------------------------------

def _damage_sqlite(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = bytearray(path.read_bytes())
    middle = len(data) // 2 // 4096 * 4096
    data[middle:middle + 4096] = os.urandom(4096)
    path.write_bytes(bytes(data))


def _damage_json(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])  # a torn write by some other tool


@pytest.mark.slow
@pytest.mark.parametrize("store", sorted(LOCAL_STORES))
def test_a_damaged_store_is_refused_byte_identical(store: str, tmp_path: Path) -> None:
    home = tmp_path / "home"
    fill(home, store, 300, text="Jam keeps a longer fact number {n} about travel and trains")
    path = store_path(home, store)
    (_damage_sqlite if store == "sqlite" else _damage_json)(path)
    digests = digest_tree(home)
    done = subprocess.run(SERVE, env=server_env(home, store=LOCAL_STORES[store]), input=b"",
                          capture_output=True, timeout=60)
    stderr = done.stderr.decode()
    assert done.returncode != 0
    assert str(path) in stderr and ("backup" in stderr or "move it aside" in stderr), stderr
    assert digest_tree(home) == digests


def test_a_json_file_damaged_while_serving_is_never_overwritten(tmp_path: Path) -> None:
    home = tmp_path / "home"
    path = store_path(home, "file")
    session = spawn_server(server_env(home, store=LOCAL_STORES["file"]))
    try:
        for n in range(5):
            session.call("save_memory", {"text": f"Jam keeps fact {n} in a JSON file"})
        _damage_json(path)
        damaged = path.read_bytes()
        message = error_text(session.call("save_memory", {"text": "Jam moved to Porto"}))
        assert str(path) in message and ("backup" in message or "aside" in message), message
        message = error_text(session.call("recall_memory", {"query": "fact"}))
        assert str(path) in message
        assert path.read_bytes() == damaged
    finally:
        session.close()


# ---- an embedder that raises, a stage that needs it ---------------------------------------

FAULTY_PLUGINS = '''
from typing import ClassVar
from pydantic import BaseModel
from jamgate_core.models import StageResult


class FaultyEmbedder:
    """A tiny deterministic embedder that raises on any text containing 'explode'."""

    model_id = "faulty-test-1"
    dim = 4

    class Options(BaseModel):
        pass

    def __init__(self, options=None):
        pass

    def embed(self, texts, kind):
        if any("explode" in t for t in texts):
            raise RuntimeError("the model ran out of memory")
        return [[float(len(t) % 7), 1.0, float(t.count(" ")), 0.5] for t in texts]


class EmbedProbe:
    """A stage that embeds the candidate, as a near-duplicate stage does."""

    name: ClassVar[str] = "embed-probe"
    requires: ClassVar[frozenset] = frozenset()

    class Options(BaseModel):
        pass

    def __init__(self, options=None):
        pass

    def evaluate(self, candidate, ctx):
        ctx.embed(candidate.text)
        return StageResult.passed()


class SlowStore:
    """The memory store behaving like a remote one: no `local`, and writes of texts
    containing 'hang' never return in time."""

    def __new__(cls, options=None, home=None):
        import threading
        from jamgate_adapters.stores.memory import MemoryStore

        class _Slow(MemoryStore):
            def location(self):
                return "remote://slow-test-store"

            def write(self, plan, preconditions):
                if plan.insert is not None and "hang" in plan.insert.text:
                    threading.Event().wait(5)
                return super().write(plan, preconditions)

        store = _Slow(MemoryStore.Options(), home)
        store.capabilities = frozenset({"keyword_search"})
        return store

    class Options(BaseModel):
        pass
'''


@pytest.fixture
def plugin_site(tmp_path: Path) -> Path:
    module = f"jamgate_reliability_plugins_{uuid.uuid4().hex[:8]}"
    return install_plugins(tmp_path / "site", module, FAULTY_PLUGINS, {
        "jamgate.embedders": {"faulty": f"{module}:FaultyEmbedder"},
        "jamgate.stages": {"embed-probe": f"{module}:EmbedProbe"},
        "jamgate.stores": {"slow-test": f"{module}:SlowStore"},
    })


# The probe is the only stage that embeds, so the outcome is its policy's alone.
PROBE_STAGES = '["validation", "prefilter", "credentials", "embed-probe", "dedup", "supersede"]'


def plugin_env(home: Path, site: Path, **settings: str) -> dict[str, str]:
    env = server_env(home, **settings)
    env["PYTHONPATH"] = os.pathsep.join([str(site), *filter(None, [env.get("PYTHONPATH")])])
    return env


def test_a_stage_whose_embedder_raises_fails_closed_by_default(plugin_site: Path,
                                                               tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = plugin_env(home, plugin_site, embedder="faulty", stages=PROBE_STAGES)
    session = spawn_server(env)
    try:
        kept = session.call("save_memory", {"text": "Jam collects vinyl records"})
        assert kept["structuredContent"]["decision"] == "saved"
        before = session.call("list_memories", {})["structuredContent"]
        result = session.call("save_memory", {"text": "Jam wants to explode the myth"})
        verdict = result["structuredContent"]
        assert (verdict["decision"], verdict["reason_code"]) == ("rejected",
                                                                "stage_error.embed-probe")
        assert "RuntimeError" in verdict["message"] and "nothing was stored" in verdict["message"]
        assert session.call("list_memories", {})["structuredContent"] == before
    finally:
        session.close()


def test_an_embedder_failure_fails_open_when_configured(plugin_site: Path,
                                                        tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = plugin_env(home, plugin_site, embedder="faulty", stages=PROBE_STAGES,
                     stage_errors='{"embed-probe": "fail_open"}')
    session = spawn_server(env)
    try:
        result = session.call("save_memory", {"text": "Jam wants to explode the myth"})
        assert not result.get("isError"), result["content"][0]["text"]
        verdict = result["structuredContent"]
        assert verdict["decision"] == "saved"
        assert any("embed-probe stage failed" in n for n in verdict["notices"])
    finally:
        session.close()


def test_a_recall_whose_embedder_raises_says_so(plugin_site: Path, tmp_path: Path) -> None:
    session = spawn_server(plugin_env(tmp_path / "home", plugin_site, embedder="faulty"))
    try:
        session.call("save_memory", {"text": "Jam collects vinyl records"})
        result = session.call("recall_memory", {"query": "explode vinyl"})
        if result.get("isError"):
            assert "embedder" in error_text(result)
        else:
            assert result["structuredContent"]["memories"], "lexical recall still answers"
    finally:
        session.close()


# ---- a store that hangs ---------------------------------------------------------------------

@pytest.mark.slow
def test_a_store_that_hangs_times_out_with_a_clear_error(plugin_site: Path,
                                                         tmp_path: Path) -> None:
    env = plugin_env(tmp_path / "home", plugin_site, store="slow-test",
                     store_timeout_seconds="0.5")
    session = spawn_server(env)
    try:
        kept = session.call("save_memory", {"text": "Jam collects vinyl records"})
        assert kept["structuredContent"]["decision"] == "saved"
        message = error_text(session.call("save_memory",
                                          {"text": "Jam likes to hang paintings"}))
        assert "remote://slow-test-store" in message and "0.5 s" in message, message
        assert "try again" in message
        # The server is not stuck behind the hung call, and what was stored is intact.
        listed = session.call("list_memories", {})["structuredContent"]["memories"]
        assert kept["structuredContent"]["id"] in [m["id"] for m in listed]
        assert not session.call("recall_memory", {"query": "vinyl"}).get("isError")
    finally:
        session.close()
    assert session.process.returncode == 0


def test_the_plugins_load_in_process_too(plugin_site: Path, monkeypatch: pytest.MonkeyPatch,
                                         tmp_path: Path) -> None:
    """The same test distribution, found on sys.path by the in-process loader."""
    monkeypatch.syspath_prepend(str(plugin_site))
    with opened(tmp_path / "home", "memory", embedder="faulty") as app:
        assert app.embedder is not None and app.embedder.model_id == "faulty-test-1"
        verdict = app.save(SaveRequest(text="Jam collects vinyl records"))
        stored = app.store.get("default", verdict.id or "")
        assert stored is not None and stored.embedding_model == "faulty-test-1"
    assert json.dumps(sys.path).count(str(plugin_site)) == 1
