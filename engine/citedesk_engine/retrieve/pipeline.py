"""Retrieve -> fuse -> rerank -> cut: the ranked candidates for a question, with a trace per stage."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from ..config import RetrievalConfig
from ..errors import ConfigError
from ..index.library import Library
from ..types import Candidate, Retrieval, StageTrace
from .fusion import merge_variants, rrf_fuse, score_fuse
from .rerank import Reranker, rerank
from .retrievers import Retriever

SIGNALS = ("vector", "lexical", "structure", "rows", "graph", "community", "wiki")
GRAPH_SIGNALS = ("graph", "community", "wiki")  # the retrievers that need the slow path


@dataclass
class RetrievalPipeline:
    library: Library
    retrievers: Sequence[Retriever]
    reranker: Reranker
    config: RetrievalConfig
    rerank_head: int

    def run(
        self,
        query: str,
        k: int,
        rerank_query: str | None = None,
        scope: frozenset[str] | None = None,
        variants: Mapping[str, str] | None = None,
    ) -> Retrieval:
        """`query` feeds the retrievers (it may fold in a conversation); the reranker judges the
        candidates against `rerank_query`, the question as asked. With `scope` (document ids), only
        those documents' units are searched. `variants` is the question in other languages ({code:
        text}, retrieve/reformulate.py): each retriever searches with every one of them too, its
        lists merged into one (fusion.merge_variants), and a candidate in one of those languages is
        reranked against the question in its language."""
        trace: list[StageTrace] = []
        lists = self.hits(query, trace, scope)
        if variants:
            more = [self.hits(text, trace, scope, language) for language, text in variants.items()]
            lists = {name: merge_variants([hits, *(m[name] for m in more)]) for name, hits in lists.items()}
        started = time.perf_counter()
        fused = fuse(lists, self.config)
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
        trace.append(_trace("fuse", total, len(fused), started, **_fusion_details(self.config)))
        started = time.perf_counter()
        joins = check_rerank_mode(self.config) == "fuse"
        asked = rerank_query or query
        query_for = None
        if variants:
            languages = self.library.manifest.per_document("language")

            def query_for(candidate: Candidate) -> str:
                return variants.get(languages.get(candidate.unit.document, ""), asked)

        reranked = rerank(
            asked,
            candidates,
            self.reranker,
            self.rerank_head,
            fuse_weight=self.config.rerank_weight if joins else None,
            query_for=query_for,
        )
        trace.append(
            _trace(
                "rerank",
                len(candidates),
                len(reranked),
                started,
                reranker=self.reranker.name,
                head=self.rerank_head,
                mode=self.config.rerank_mode,
                **({"weight": self.config.rerank_weight} if joins else {}),
            )
        )
        return Retrieval(query=query, candidates=tuple(reranked[:k]), trace=tuple(trace))

    def hits(
        self,
        query: str,
        trace: list[StageTrace] | None = None,
        scope: frozenset[str] | None = None,
        language: str = "",
    ) -> dict[str, list[tuple[str, float]]]:
        """Each retriever's pool for `query`: {name: [(unit_id, score)] best first}, traced into `trace`
        (as `retrieve.NAME`, or `retrieve.NAME.LANGUAGE` for the question translated into LANGUAGE).
        With `scope` (document ids), each retriever searches only those documents' committed versions
        (filtered inside the index, so a small document is not crowded out of the pool)."""
        live_by_document = self.library.manifest.live_versions()
        live = set(live_by_document.values())
        versions = None
        if scope is not None:
            versions = frozenset(v for d, v in live_by_document.items() if d in scope)

        def search(retriever: Retriever) -> tuple[list[tuple[str, float]], float]:
            started = time.perf_counter()
            # A unit id starts with its version: rows of versions not committed are never returned.
            found = [
                (u, s)
                for u, s in retriever.search(query, self.config.pool, versions)
                if u.split("-")[0] in live
            ]
            return found, (time.perf_counter() - started) * 1000

        # In a big library (an approximate vector index) the retrievers run at once: their indexes
        # (LanceDB, tantivy, SQLite) and the question's embedding release the interpreter lock, so
        # the slowest one sets the time, not their sum (1.5 million synthetic units, 2 cores: vector
        # 52 ms and lexical 30 ms, 88 in turn, 56 at once). Below that, exact search is a matrix
        # product already on every core, and threads cost more than they save (100,000 units: 12.5
        # against 11.2 ms; `benchmarks/ask.py`).
        if self.library.vectors.approximate and len(self.retrievers) > 1:
            with ThreadPoolExecutor(max_workers=len(self.retrievers)) as pool:
                results = list(pool.map(search, self.retrievers))
        else:
            results = [search(retriever) for retriever in self.retrievers]
        lists: dict[str, list[tuple[str, float]]] = {}
        for retriever, (found, milliseconds) in zip(self.retrievers, results, strict=True):
            lists[retriever.name] = found
            if trace is not None:
                details: dict[str, object] = {"pool": self.config.pool}
                if scope is not None:
                    details["scope"] = len(scope)
                stage = f"retrieve.{retriever.name}" + (f".{language}" if language else "")
                trace.append(StageTrace(stage, 0, len(found), milliseconds, details))
        return lists


RERANK_MODES = ("fuse", "replace")
FUSIONS = ("scores", "rrf")


def fuse(lists: dict[str, list[tuple[str, float]]], config: RetrievalConfig) -> list[tuple[str, float]]:
    """The retrievers' lists as one order, by the configured fusion."""
    if check_fusion(config) == "rrf":
        return rrf_fuse([[u for u, _ in hits] for hits in lists.values()], k=config.rrf_k)
    return score_fuse(lists, fusion_weights(config))


def fusion_weights(config: RetrievalConfig) -> dict[str, float]:
    return {
        "lexical": config.lexical_weight,
        "vector": config.vector_weight,
        "structure": config.structure_weight,
        "rows": config.rows_weight,
        "graph": config.graph_weight,
        "community": config.community_weight,
        "wiki": config.wiki_weight,
    }


def check_fusion(config: RetrievalConfig) -> str:
    if config.fusion not in FUSIONS:
        raise ConfigError(f"Unknown fusion {config.fusion!r} in [retrieval]: choose scores or rrf.")
    return config.fusion


def _fusion_details(config: RetrievalConfig) -> dict[str, object]:
    if config.fusion == "rrf":
        return {"fusion": "rrf", "k": config.rrf_k}
    return {"fusion": "scores", **{f"{name}_weight": w for name, w in fusion_weights(config).items()}}


def check_rerank_mode(config: RetrievalConfig) -> str:
    if config.rerank_mode not in RERANK_MODES:
        raise ConfigError(
            f"Unknown rerank_mode {config.rerank_mode!r} in [retrieval]: choose fuse or replace."
        )
    if not 0.0 <= config.rerank_weight <= 1.0:
        raise ConfigError(f"[retrieval] rerank_weight must lie between 0 and 1, got {config.rerank_weight}.")
    return config.rerank_mode


def check_signals(signals: Sequence[str]) -> tuple[str, ...]:
    unknown = [s for s in signals if s not in SIGNALS]
    if unknown:
        raise ConfigError(f"Unknown retrieval signals {', '.join(unknown)}; known: {', '.join(SIGNALS)}")
    return tuple(signals) or SIGNALS


def _trace(stage: str, into: int, out: int, started: float, **details: object) -> StageTrace:
    return StageTrace(stage, into, out, (time.perf_counter() - started) * 1000, dict(details))
