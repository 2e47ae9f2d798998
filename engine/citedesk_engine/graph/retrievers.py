"""The graph and community retrievers: from the things a question names to the passages about them.

Both start from the question's nodes (`NodeMatcher`): every phrase of the question keyed as mentions
are (so "the IPCC" finds the node "ipcc", and through its alias "Intergovernmental Panel on Climate
Change"), and the label embeddings nearest each entity or noun phrase of the question. They are
navigation, never evidence of their own: they return units, which the reranker and every gate judge
like any other.

The graph retriever scores a unit by the question's nodes it mentions (each weighted by how rare it is
in the library), then walks the graph: the nodes mentioned in the same sentence as a question's node
are its neighbours, the rarest few become the next hop's frontier, and a unit mentioning frontier
nodes scores a share of the strongest (halved each hop; a tenth for each other one). Rarity lies
between 0 and 1 and a hop's weight is its node's rarity times the weight of the node it came from,
so a walk never outweighs what the question names. A passage naming the bridge between two things the
question names (the film's director, whose birthplace the question asks) comes into the pool even
when it shares no word with the question.

The community retriever returns the units of the communities the question's nodes belong to: those
naming one of the question's nodes first, then those mentioning most of a community's nodes.

The wiki retriever goes from the question to the library wiki's pages (wiki.py: only the pages
written so far, as they are written when opened) and from them to the passages their sentences cite:
a passage scores the cosine similarity of the question and the nearest sentence citing it, plus how
surely the question names the page's entity.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from ..index.library import Library
from ..protocols import Embedder, MentionReader
from .wiki import entity_subject

HUB_SHARE = 0.05  # a node in more than this share of the units is too common to walk through


@dataclass
class NodeMatcher:
    """The graph's nodes a question names, with how surely: 1.0 by its words (or an alias), the cosine
    similarity of labels for a node found by embedding (at least `min_similarity`)."""

    library: Library
    reader: Callable[[], MentionReader]
    embed: Callable[[str], npt.NDArray[np.float32]]
    min_similarity: float
    _cache: dict[str, dict[str, float]] = field(default_factory=dict)

    def match(self, question: str) -> dict[str, float]:
        key = f"{self.library.graph.derived_from()}\x00{question}"
        if key not in self._cache:
            if len(self._cache) > 64:
                self._cache.clear()
            self._cache[key] = self._match(question)
        return self._cache[key]

    def _match(self, question: str) -> dict[str, float]:
        store = self.library.graph
        if not store.has_nodes():
            return {}
        reader = self.reader()
        weights = dict.fromkeys(store.nodes_of_keys([k for k, _ in reader.keys(question)]).values(), 1.0)
        names, matrix = store.label_vectors()
        if names:
            for mention in reader.read([question])[0]:
                similarity = matrix @ self.embed(mention.label)
                for row in np.flatnonzero(similarity >= self.min_similarity):
                    node = names[int(row)]
                    weights[node] = max(weights.get(node, 0.0), float(similarity[row]))
        return weights


@dataclass
class GraphRetriever:
    library: Library
    matcher: NodeMatcher
    hops: int = 2
    frontier: int = 8  # nodes carried to the next hop
    name: str = "graph"

    def search(
        self, query: str, limit: int, versions: frozenset[str] | None = None
    ) -> list[tuple[str, float]]:
        store = self.library.graph
        asked = self.matcher.match(query)
        if not asked:
            return []
        total = max(store.counts()[2], 1)
        rarity = _rarity(store.node_info(list(asked)), total)
        scores: dict[str, float] = defaultdict(float)
        counts: dict[tuple[str, str], int] = defaultdict(int)
        mentions = store.mentions_of(list(asked))
        for unit, _, node in mentions:
            counts[(unit, node)] += 1
        for (unit, node), count in counts.items():
            scores[unit] += asked[node] * rarity.get(node, 0.0) * (1 + 0.1 * min(count - 1, 5))
        seen = set(asked)
        frontier = {node: asked[node] * rarity.get(node, 0.0) for node in asked}
        places = mentions
        share = 1.0
        for _ in range(self.hops):
            share /= 2
            near = _neighbours(store.nodes_in_units(list({u for u, _, _ in places})), places, seen)
            weights = _rarity(_walkable(store.node_info(list(near)), total), total)
            step = {n: max(frontier[f] for f in near[n]) * weights[n] for n in near if n in weights}
            frontier = dict(sorted(step.items(), key=lambda item: (-item[1], item[0]))[: self.frontier])
            if not frontier:
                break
            seen |= set(frontier)
            places = store.mentions_of(list(frontier))
            reached: dict[str, set[str]] = defaultdict(set)
            for unit, _, node in places:
                reached[unit].add(node)
            for unit, nodes in reached.items():
                # The strongest link counts, and the others a tenth: a passage naming one bridge
                # three times (name, full name, surname) is no better linked than one naming it once.
                weights = sorted((frontier[n] for n in nodes), reverse=True)
                scores[unit] += share * (weights[0] + 0.1 * sum(weights[1:]))
        found = sorted(
            ((u, s) for u, s in scores.items() if versions is None or u.split("-")[0] in versions),
            key=lambda item: (-item[1], item[0]),
        )
        return found[:limit]


@dataclass
class CommunityRetriever:
    library: Library
    matcher: NodeMatcher
    communities: int = 2  # of the question's communities, the most weighted ones searched
    name: str = "community"

    def search(
        self, query: str, limit: int, versions: frozenset[str] | None = None
    ) -> list[tuple[str, float]]:
        store = self.library.graph
        asked = self.matcher.match(query)
        if not asked:
            return []
        info = store.node_info(list(asked))
        rarity = _rarity(info, max(store.counts()[2], 1))
        weight: dict[int, float] = defaultdict(float)
        for node, found in info.items():
            if found.community is not None:
                weight[found.community] += asked[node] * rarity[node]
        if not weight:
            return []
        best = max(weight.values())
        naming = {unit for unit, _, _ in store.mentions_of(list(asked))}
        scores: dict[str, float] = {}
        for community, share in sorted(weight.items(), key=lambda c: (-c[1], c[0]))[: self.communities]:
            rows = store.community_units(community, limit * 4 if versions else limit)
            most = max((n for _, n in rows), default=1)
            for unit, nodes in rows:
                if versions is None or unit.split("-")[0] in versions:
                    # Those naming what the question names first, then by how much of the topic they name.
                    score = share / best * (nodes / most + (1.0 if unit in naming else 0.0))
                    scores[unit] = max(scores.get(unit, 0.0), score)
        return sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:limit]


@dataclass
class WikiRetriever:
    library: Library
    matcher: NodeMatcher
    embedder: Callable[[], Embedder]
    embed: Callable[[str], npt.NDArray[np.float32]]
    name: str = "wiki"

    def search(
        self, query: str, limit: int, versions: frozenset[str] | None = None
    ) -> list[tuple[str, float]]:
        store = self.library.graph
        if not store.wiki.count():
            return []
        sentences, matrix = store.wiki.sentence_vectors(self.embedder().name)
        if not sentences:
            return []
        similarity = matrix @ self.embed(query)
        named = {entity_subject(node): weight for node, weight in self.matcher.match(query).items()}
        scores: dict[str, float] = {}
        for row, (subject, units) in enumerate(sentences):
            score = float(similarity[row]) + named.get(subject, 0.0)
            for unit in units:
                if (versions is None or unit.split("-")[0] in versions) and score > scores.get(unit, -1.0):
                    scores[unit] = score
        return sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:limit]


def _rarity(info: dict, total: int) -> dict[str, float]:  # type: ignore[type-arg]
    """A node's inverse document frequency over the units with mentions, divided by that of a node
    mentioned once (so 1 for the rarest, near 0 for one in every unit)."""
    most = math.log(1 + total)
    return {node: math.log(1 + total / max(found.units, 1)) / most for node, found in info.items()}


def _walkable(info: dict, total: int) -> dict:  # type: ignore[type-arg]
    """The nodes a walk may pass through: not hubs (in more than HUB_SHARE of the units, and 20)."""
    return {node: found for node, found in info.items() if found.units <= max(HUB_SHARE * total, 20)}


def _neighbours(
    around: list[tuple[str, int, str]], places: list[tuple[str, int, str]], seen: set[str]
) -> dict[str, set[str]]:
    """{node: the frontier nodes it shares a sentence with} for the nodes not yet seen."""
    at: dict[tuple[str, int], set[str]] = defaultdict(set)
    for unit, sentence, node in places:
        at[(unit, sentence)].add(node)
    near: dict[str, set[str]] = defaultdict(set)
    for unit, sentence, node in around:
        if node not in seen and (unit, sentence) in at:
            near[node] |= at[(unit, sentence)]
    return near


def linked_units(library: Library, anchors: Sequence[str], others: Sequence[str], most: int = 2) -> set[str]:
    """At most `most` of `others` that name an entity one of `anchors` names, those linked by the
    rarest entity first (never one common to a twentieth of the library): the next link of a chain of
    evidence (strategy "deep"). A common link (a president named in many biographies) brings in
    passages about something else, whose figures the model may then misread as the answer."""
    store = library.graph
    if not anchors or not others:
        return set()
    total = max(store.counts()[2], 1)
    named = {node for _, _, node in store.nodes_in_units(list(anchors))}
    rarity = _rarity(_walkable(store.node_info(list(named)), total), total)
    best: dict[str, float] = {}
    for unit, _, node in store.nodes_in_units(list(others)):
        if node in rarity:
            best[unit] = max(best.get(unit, 0.0), rarity[node])
    return set(sorted(best, key=lambda unit: (-best[unit], unit))[:most])
