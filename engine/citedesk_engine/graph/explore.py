"""The library's topics and entities as a reader explores them: an entity's page is its related
entities (named in the same sentences) and the passages that mention it, each a real passage that
opens in the evidence viewer."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..answer.flow import source_ref
from ..index.library import Library
from ..types import Candidate, SourceRef
from .store import Community, Node


@dataclass(frozen=True, slots=True)
class EntityPage:
    node: Node
    topic: Community | None
    related: tuple[tuple[Node, int], ...]  # named in the same sentence, how many times; most first
    passages: tuple[SourceRef, ...]  # mentioning it, most mentions first, then in reading order
    documents: tuple[str, ...]  # the documents of those passages (what "Ask about this" searches)


def entity_page(library: Library, node: str, passages: int = 20, related: int = 15) -> EntityPage | None:
    """The page of `node` (a node key, as `Node.node`), or None when the graph has no such node."""
    store = library.graph
    found = store.node_info([node]).get(node)
    if found is None:
        return None
    mentions = store.mentions_of([node])
    places = {(unit, sentence) for unit, sentence, _ in mentions}
    near: Counter[str] = Counter()
    for unit, sentence, other in store.nodes_in_units(list({u for u, _ in places})):
        if other != node and (unit, sentence) in places:
            near[other] += 1
    info = store.node_info(list(near))
    neighbours = sorted(
        ((info[n], count) for n, count in near.items() if n in info), key=lambda x: (-x[1], x[0].node)
    )[:related]
    counts = Counter(unit for unit, _, _ in mentions)
    ordered = sorted(counts, key=lambda unit: (-counts[unit], unit))
    documents = tuple(dict.fromkeys(unit.split("-")[0] for unit in ordered))
    units = library.manifest.units_by_id(ordered[:passages])
    paths = library.manifest.per_document("source_path")
    refs = tuple(
        source_ref(Candidate(units[u], {}, {}, 0.0), paths) for u in ordered[:passages] if u in units
    )
    topics = {c.community: c for c in store.communities()}
    live = library.manifest.live_versions()
    by_version = {version: document for document, version in live.items()}
    return EntityPage(
        node=found,
        topic=topics.get(found.community) if found.community is not None else None,
        related=tuple(neighbours),
        passages=refs,
        documents=tuple(by_version[v] for v in documents if v in by_version),
    )
