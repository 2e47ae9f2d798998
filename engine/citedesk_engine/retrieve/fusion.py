"""Reciprocal Rank Fusion, as pinned by the CiteNexus conformance vectors.

A unit at zero-based rank r of a list contributes 1 / (k + r + 1); contributions are summed per unit
id over all lists; the fused order is by descending score, ties by ascending id. A unit listed twice
in one list counts once, at its best rank. Sums are exact fractions, so equal scores really tie
whatever order the lists come in.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

DEFAULT_K = 60


def rrf_fuse(lists: Sequence[Sequence[str]], k: int = DEFAULT_K) -> list[tuple[str, float]]:
    """Fuse ranked lists of unit ids into one: [(unit_id, score)], best first."""
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
