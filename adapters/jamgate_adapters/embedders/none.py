"""The `none` embedder: no vectors. Jamgate runs lexical-only, and `jamgate doctor` says so."""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel

from jamgate_core.contracts import EmbedKind


class NoEmbedder:
    """Selecting `none` turns embedding off; the loader returns no embedder at all."""

    class Options(BaseModel):
        pass

    model_id: ClassVar[str] = "none"
    dim: ClassVar[int] = 0

    def __init__(self, options: Options | None = None) -> None:
        self.options = options or self.Options()

    def embed(self, texts: list[str], kind: EmbedKind) -> list[list[float]]:
        """Never called by the core (it treats `none` as no embedder); returns empty vectors."""
        return [[] for _ in texts]
