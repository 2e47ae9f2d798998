"""Fusing the retrievers' ranked lists into one order.

`score_fuse` (the default): each list's scores are min-max normalised to [0, 1] and summed with a
weight per retriever, a unit missing from a list getting 0 from it: the convex combination that
Bruch, Gai and Ingber ("An Analysis of Fusion Functions for Hybrid Retrieval", 2023) found better than
RRF and cheap to tune. `rrf_fuse`: Reciprocal Rank Fusion, as pinned by the CiteNexus conformance
vectors. `blend` is how the reranker's scores join the fused ones.

Both fusions count a unit listed twice in one list once, at its best rank, and order by descending
score, ties by ascending id.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

DEFAULT_K = 60


def rrf_fuse(lists: Sequence[Sequence[str]], k: int = DEFAULT_K) -> list[tuple[str, float]]:
    """Fuse ranked lists of unit ids into one: [(unit_id, score)], best first. A unit at zero-based
    rank r of a list contributes 1 / (k + r + 1). Sums are exact fractions, so equal scores really tie
    whatever order the lists come in."""
    if k < 0:
        raise ValueError("k must not be negative")
    scores: dict[str, Fraction] = {}
    for ranked in lists:
        seen: set[str] = set()
        for rank, unit_id in enumerate(ranked):
            if unit_id in seen:
                continue
            seen.add(unit_id)
            scores[unit_id] = scores.get(unit_id, Fraction(0)) + Fraction(1, k + rank + 1)
    ordered = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
    return [(unit_id, float(score)) for unit_id, score in ordered]


def minmax(values: Sequence[float]) -> list[float]:
    """Scaled to [0, 1], the lowest to 0 and the highest to 1; all equal (or one value) gives 1s."""
    if not values:
        return []
    low, high = min(values), max(values)
    if high == low:
        return [1.0] * len(values)
    return [(v - low) / (high - low) for v in values]


def score_fuse(
    lists: Mapping[str, Sequence[tuple[str, float]]], weights: Mapping[str, float]
) -> list[tuple[str, float]]:
    """Fuse {retriever: [(unit_id, score)] best first} into [(unit_id, fused)], best first: the sum
    over lists of weight x the unit's min-max normalised score in that list."""
    fused: dict[str, float] = {}
    for name, hits in lists.items():
        if name not in weights:
            raise ValueError(f"no fusion weight for the retriever {name!r}")
        best: dict[str, float] = {}
        for unit_id, score in hits:
            best.setdefault(unit_id, score)
        for unit_id, scaled in zip(best, minmax(list(best.values())), strict=True):
            fused[unit_id] = fused.get(unit_id, 0.0) + weights[name] * scaled
    return sorted(fused.items(), key=lambda item: (-item[1], item[0]))


def merge_variants(lists: Sequence[Sequence[tuple[str, float]]]) -> list[tuple[str, float]]:
    """One retriever's lists for the same question in several languages as one list: each min-max
    normalised, a unit scoring its best over them, best first (ties by id). A unit found by the
    question in any one language ranks as if the question as asked had found it so."""
    best: dict[str, float] = {}
    for hits in lists:
        first: dict[str, float] = {}
        for unit_id, score in hits:
            first.setdefault(unit_id, score)
        for unit_id, scaled in zip(first, minmax(list(first.values())), strict=True):
            best[unit_id] = max(best.get(unit_id, 0.0), scaled)
    return sorted(best.items(), key=lambda item: (-item[1], item[0]))


def blend(first: Sequence[float], second: Sequence[float], weight: float) -> list[float]:
    """(1 - weight) x min-max(first) + weight x min-max(second), element by element."""
    if not 0.0 <= weight <= 1.0:
        raise ValueError("weight must lie in [0, 1]")
    return [(1 - weight) * a + weight * b for a, b in zip(minmax(first), minmax(second), strict=True)]
