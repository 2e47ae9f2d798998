"""Reranking the fused head against the original question. A reranker can only reorder or drop.

The seam: `score(query, passages) -> list[float]`, one finite number per passage, in order, higher
is more relevant. Anything else (an exception, a wrong count, NaN, inf, a non-number) raises
RerankerError: a broken reranker must never silently fall back to another order.
"""

from __future__ import annotations

import json
import math
import numbers
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

import numpy as np

from ..config import DEFAULT, HTTP, Config
from ..errors import ConfigError, RerankerError
from ..index.library import Library
from ..models.cross_encoder import TORCH, CrossEncoderScorer
from ..models.llm import GgufYesNoReranker, LocalLLM
from ..models.registry import ModelRegistry
from ..protocols import Embedder
from ..types import Candidate, Passage
from .fusion import blend


class Reranker(Protocol):
    name: str

    def score(self, query: str, passages: Sequence[Passage]) -> list[float]: ...


def rerank(
    query: str,
    candidates: Sequence[Candidate],
    reranker: Reranker,
    head: int,
    min_score: float | None = None,
    fuse_weight: float | None = None,
    query_for: Callable[[Candidate], str] | None = None,
) -> list[Candidate]:
    """Reorder the first `head` candidates by the reranker's scores (drop those under `min_score`);
    the rest keep their fused order after them. Nothing that was not in `candidates` comes out.

    With `fuse_weight`, the reranker's scores join the fusion instead of replacing it: the head is
    ordered by `blend(fused, rerank, fuse_weight)`, both min-max normalised over the head.

    With `query_for`, each candidate is judged against the question it gives (the question translated
    into the candidate's language), in one call per distinct question."""
    top, rest = list(candidates[:head]), list(candidates[head:])
    if not top:
        return rest
    asked = [query_for(c) if query_for is not None else query for c in top]
    checked = [0.0] * len(top)
    for text in dict.fromkeys(asked):
        rows = [i for i, a in enumerate(asked) if a == text]
        passages = [Passage(top[i].unit.unit_id, top[i].unit.index_text) for i in rows]
        try:
            scores = reranker.score(text, passages)
        except RerankerError:
            raise
        except Exception as exc:
            raise RerankerError(f"The reranker {reranker.name} failed: {type(exc).__name__}: {exc}") from exc
        for i, score in zip(rows, _check(scores, len(rows), reranker.name), strict=True):
            checked[i] = score
    ranked = sorted(zip(checked, range(len(top)), top, strict=True), key=lambda t: (-t[0], t[1]))
    if fuse_weight is not None:
        blended = blend([c.fused for c in top], checked, fuse_weight)
        ranked = sorted(ranked, key=lambda t: (-blended[t[1]], t[1]))
    kept = [replace(c, rerank=s) for s, _, c in ranked if min_score is None or s >= min_score]
    return kept + rest


def _check(scores: object, expected: int, name: str) -> list[float]:
    if isinstance(scores, np.ndarray):
        scores = scores.tolist()
    if not isinstance(scores, Sequence) or isinstance(scores, str | bytes):
        raise RerankerError(f"The reranker {name} returned {type(scores).__name__}, not a list of scores.")
    if len(scores) != expected:
        raise RerankerError(f"The reranker {name} returned {len(scores)} scores for {expected} passages.")
    out = []
    for value in scores:
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(float(value)):
            raise RerankerError(
                f"The reranker {name} returned a score that is not a finite number: {value!r}"
            )
        out.append(float(value))
    return out


class IdentityReranker:
    """Keeps the fusion order (the default until a trained reranker ships)."""

    name = "none"

    def score(self, query: str, passages: Sequence[Passage]) -> list[float]:
        return [float(len(passages) - i) for i in range(len(passages))]


@dataclass
class IndexedEmbeddingReranker:
    """Cosine of the question to each unit's vector as stored in the index: nothing is re-embedded.
    Units missing from the index keep their order at the end."""

    library: Library
    embedder: Callable[[], Embedder]
    name: str = "embedding"

    def score(self, query: str, passages: Sequence[Passage]) -> list[float]:
        query_vector = self.embedder().embed_queries([query])[0]
        stored = self.library.vectors.vectors_by_id([p.unit_id for p in passages])
        # Cosine lies in [-1, 1]; the missing go below it, in their given order.
        return [
            float(np.dot(stored[p.unit_id], query_vector)) if p.unit_id in stored else -2.0 - i * 1e-6
            for i, p in enumerate(passages)
        ]


class CrossEncoderReranker:
    """A cross-encoder reads the question and each passage together: the packaged one (trained for
    this, see resources/models/reranker) or a sentence-transformers folder of the user's."""

    name = "cross-encoder"

    def __init__(
        self, folder: str, batch_size: int = 16, runtime: str = TORCH, cache_dir: Path | None = None
    ) -> None:
        self._scorer = CrossEncoderScorer(
            Path(folder), batch_size=batch_size, runtime=runtime, cache_dir=cache_dir
        )

    @property
    def scorer(self) -> CrossEncoderScorer:
        return self._scorer

    def score(self, query: str, passages: Sequence[Passage]) -> list[float]:
        return self._scorer.score([(query, p.text) for p in passages])


@dataclass
class HttpReranker:
    """A local reranking server: POST {model, query, documents} to {base_url}/rerank, read results[]
    of {index, relevance_score} (the Cohere / Jina shape)."""

    base_url: str
    model: str
    timeout: float = 30.0
    name: str = "http"

    def score(self, query: str, passages: Sequence[Passage]) -> list[float]:
        body = json.dumps({"model": self.model, "query": query, "documents": [p.text for p in passages]})
        request = urllib.request.Request(
            self.base_url.rstrip("/") + "/rerank",
            data=body.encode("utf-8"),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                payload = json.loads(response.read().decode("utf-8"))
        except (urllib.error.URLError, TimeoutError, OSError, ValueError) as exc:
            raise RerankerError(f"The reranking server at {self.base_url} failed: {exc}") from exc
        results = payload.get("results") if isinstance(payload, dict) else None
        if not isinstance(results, list):
            raise RerankerError(f"The reranking server at {self.base_url} sent no results[] list.")
        scores: list[object] = [None] * len(passages)
        for item in results:
            index = item.get("index") if isinstance(item, dict) else None
            if not isinstance(index, int) or not 0 <= index < len(passages) or scores[index] is not None:
                raise RerankerError(f"The reranking server sent a bad or repeated index: {item!r}")
            scores[index] = item.get("relevance_score")
        if any(s is None for s in scores):
            raise RerankerError("The reranking server did not score every passage.")
        return scores  # type: ignore[return-value]


def build_reranker(
    config: Config,
    registry: ModelRegistry,
    library: Library,
    embedder: Callable[[], Embedder],
    llm: Callable[[], LocalLLM],
) -> Reranker:
    """The reranker `[models] reranker` names."""
    models = config.models
    kind = models.reranker
    if kind in ("", "none"):
        return IdentityReranker()
    if kind == "embedding":
        return IndexedEmbeddingReranker(library, embedder)
    if kind in (DEFAULT, "cross-encoder"):
        # The ONNX export was measured on the packaged reranker only; a user's folder runs as it is.
        runtime = models.reranker_runtime if kind == DEFAULT else "torch"
        return CrossEncoderReranker(
            str(registry.reranker_path()),
            batch_size=config.retrieval.rerank_batch,
            runtime=runtime,
            cache_dir=registry.cache_dir,
        )
    if kind == "gguf":
        return GgufYesNoReranker(llm())
    if kind == HTTP:
        return HttpReranker(models.reranker_url, models.reranker_model)
    raise ConfigError(
        f"Unknown reranker {kind!r}: choose default, none, embedding, cross-encoder, gguf or http "
        "in [models]."
    )
