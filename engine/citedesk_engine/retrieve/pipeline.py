"""Retrieve -> fuse -> rerank -> cut: the ranked candidates for a question, with a trace per stage."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from ..config import RetrievalConfig
from ..errors import ConfigError
from ..index.library import Library
from ..types import Candidate, Retrieval, StageTrace
from .fusion import rrf_fuse
from .rerank import Reranker, rerank
from .retrievers import Retriever

SIGNALS = ("vector", "lexical", "structure")


@dataclass
class RetrievalPipeline:
    library: Library
    retrievers: Sequence[Retriever]
    reranker: Reranker
    config: RetrievalConfig
    rerank_head: int

    def run(self, query: str, k: int, rerank_query: str | None = None) -> Retrieval:
        """`query` feeds the retrievers (it may fold in a conversation); the reranker judges the
        candidates against `rerank_query`, the question as asked."""
        trace: list[StageTrace] = []
        live = set(self.library.manifest.live_versions().values())
        lists: dict[str, list[tuple[str, float]]] = {}
        for retriever in self.retrievers:
            started = time.perf_counter()
            # A unit id starts with its version: rows of versions not committed are never returned.
            hits = [(u, s) for u, s in retriever.search(query, self.config.pool) if u.split("-")[0] in live]
            lists[retriever.name] = hits
            trace.append(_trace(f"retrieve.{retriever.name}", 0, len(hits), started, pool=self.config.pool))
        started = time.perf_counter()
        fused = rrf_fuse([[u for u, _ in hits] for hits in lists.values()], k=self.config.rrf_k)
        head = fused[: max(k, self.rerank_head)]
        units = self.library.manifest.units_by_id([u for u, _ in head])
        # Each retriever's rank (first occurrence, zero-based) and score per unit, looked up once.
        placed: dict[str, dict[str, tuple[int, float]]] = {}
        for name, hits in lists.items():
            for rank, (uid, score) in enumerate(hits):
                placed.setdefault(uid, {}).setdefault(name, (rank, score))
        candidates = [
            Candidate(
                unit=units[uid],
                ranks={name: rank for name, (rank, _) in placed[uid].items()},
                scores={name: value for name, (_, value) in placed[uid].items()},
                fused=score,
            )
            for uid, score in head
            if uid in units
        ]
        total = sum(len(h) for h in lists.values())
        trace.append(_trace("fuse", total, len(fused), started, k=self.config.rrf_k))
        started = time.perf_counter()
        fuse_k = self.config.rrf_k if check_rerank_mode(self.config.rerank_mode) == "fuse" else None
        reranked = rerank(rerank_query or query, candidates, self.reranker, self.rerank_head, fuse_k=fuse_k)
        trace.append(
            _trace(
                "rerank",
                len(candidates),
                len(reranked),
                started,
                reranker=self.reranker.name,
                head=self.rerank_head,
                mode=self.config.rerank_mode,
            )
        )
        return Retrieval(query=query, candidates=tuple(reranked[:k]), trace=tuple(trace))


RERANK_MODES = ("fuse", "replace")


def check_rerank_mode(mode: str) -> str:
    if mode not in RERANK_MODES:
        raise ConfigError(f"Unknown rerank_mode {mode!r} in [retrieval]: choose fuse or replace.")
    return mode


def check_signals(signals: Sequence[str]) -> tuple[str, ...]:
    unknown = [s for s in signals if s not in SIGNALS]
    if unknown:
        raise ConfigError(f"Unknown retrieval signals {', '.join(unknown)}; known: {', '.join(SIGNALS)}")
    return tuple(signals) or SIGNALS


def _trace(stage: str, into: int, out: int, started: float, **details: object) -> StageTrace:
    return StageTrace(stage, into, out, (time.perf_counter() - started) * 1000, dict(details))
