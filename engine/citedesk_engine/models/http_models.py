"""Generator and embedder slots served by an OpenAI-compatible server (llama.cpp's server, Ollama, LM
Studio, vLLM): the same prompts and gates as the packaged models, only the model runs elsewhere."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from ..errors import Cancelled, EmbedderError, GeneratorError
from .endpoint import Endpoint, post_json, stream_events

_NOT_VECTORS = (
    "The server at {where} sent embeddings that are not one list of numbers per text (a llama.cpp "
    "server started without pooling sends one vector per token: start it with --pooling mean, or "
    "serve an embedding model)."
)


class HttpGenerator:
    """Chat completion at temperature 0 through POST /v1/chat/completions, streamed (server-sent
    events). Cancel closes the stream; every failure is a GeneratorError naming the URL, never a
    fallback to another model."""

    def __init__(self, endpoint: Endpoint) -> None:
        self.endpoint = endpoint

    def generate(
        self,
        messages: Sequence[dict[str, str]],
        *,
        max_tokens: int,
        on_token: Callable[[str], None] | None = None,
        cancel: threading.Event | None = None,
    ) -> str:
        body: dict[str, object] = {
            "model": self.endpoint.model,
            "messages": list(messages),
            "temperature": 0.0,
            "top_p": 1.0,
            "seed": 0,
            "max_tokens": max_tokens,
            "stream": True,
        }
        pieces: list[str] = []
        where = self.endpoint.url
        for event in stream_events(self.endpoint, "chat/completions", body, GeneratorError, cancel):
            choices = event.get("choices")
            if not isinstance(choices, list):
                raise GeneratorError(f"The server at {where} sent a stream event without choices[].")
            if not choices:
                continue  # a usage-only chunk
            delta = choices[0].get("delta") if isinstance(choices[0], dict) else None
            if not isinstance(delta, dict):
                raise GeneratorError(f"The server at {where} sent a choice without a delta.")
            piece = delta.get("content") or ""
            if not isinstance(piece, str):
                raise GeneratorError(f"The server at {where} sent content that is not text.")
            if piece:
                pieces.append(piece)
                if on_token is not None:
                    on_token(piece)
        if cancel is not None and cancel.is_set():
            raise Cancelled("generation cancelled")
        return "".join(pieces)


class HttpEmbedder:
    """Passage vectors through POST /v1/embeddings. Its name, "http:<model>", is what the library
    records: vectors of two models never mix. The dimension is learnt from the first answer."""

    def __init__(self, endpoint: Endpoint, batch_size: int = 32) -> None:
        self.endpoint = endpoint
        self._batch = max(1, batch_size)
        self._dimension = 0
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return embedder_name(self.endpoint.model)

    @property
    def dimension(self) -> int:
        if not self._dimension:
            self.embed(["dimension probe"])
        return self._dimension

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        step = self._batch
        rows = [self._embed_batch(list(texts[i : i + step])) for i in range(0, len(texts), step)]
        if not rows:
            return np.zeros((0, self._dimension), dtype=np.float32)
        return np.concatenate(rows)

    def embed_queries(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        # The OpenAI API has no query/passage distinction: a server's model is used symmetrically.
        return self.embed(texts)

    def _embed_batch(self, texts: list[str]) -> npt.NDArray[np.float32]:
        where = self.endpoint.url + "/v1/embeddings"
        payload = post_json(
            self.endpoint, "embeddings", {"model": self.endpoint.model, "input": texts}, EmbedderError
        )
        data = payload.get("data")
        if not isinstance(data, list) or len(data) != len(texts):
            raise EmbedderError(f"The server at {where} did not send one embedding per text.")
        ordered = sorted(data, key=lambda row: row.get("index", 0) if isinstance(row, dict) else 0)
        try:
            matrix = np.asarray([row["embedding"] for row in ordered], dtype=np.float32)
        except (KeyError, TypeError, ValueError) as exc:
            raise EmbedderError(_NOT_VECTORS.format(where=where)) from exc
        if matrix.ndim != 2 or matrix.shape[1] == 0 or not np.all(np.isfinite(matrix)):
            raise EmbedderError(_NOT_VECTORS.format(where=where))
        with self._lock:
            if self._dimension and matrix.shape[1] != self._dimension:
                raise EmbedderError(
                    f"The server at {where} changed its vectors' dimension from {self._dimension} to "
                    f"{matrix.shape[1]}: another model answers under the name {self.endpoint.model!r}."
                )
            self._dimension = matrix.shape[1]
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        return (matrix / np.maximum(norms, 1e-12)).astype(np.float32)


def embedder_name(model: str) -> str:
    """What a library records for vectors from a server's model."""
    return f"http:{model}"
