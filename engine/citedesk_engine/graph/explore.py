"""The library's topics and entities as a reader explores them: an entity's page is its related
entities (named in the same sentences) and the passages that mention it, each a real passage that
opens in the evidence viewer."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..answer.question_run import source_ref
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


def most_mentioning(mentions: Sequence[tuple[str, int, str]]) -> list[str]:
    """The units of these mentions (unit, sentence, node), most mentions first, then in order."""
    counts = Counter(unit for unit, _, _ in mentions)
    return sorted(counts, key=lambda unit: (-counts[unit], unit))


def source_refs(library: Library, unit_ids: Sequence[str]) -> tuple[SourceRef, ...]:
    """These units as the evidence viewer shows them (file, page, boxes, the document's title and
    authors), in the order given; a unit no longer in the library is left out."""
    units = library.manifest.units_by_id(unit_ids)
    paths = library.manifest.per_document("source_path")
    known = library.manifest.metadata()
    refs = (source_ref(Candidate(units[u], {}, {}, 0.0), paths) for u in unit_ids if u in units)
    return tuple(dataclasses.replace(r, about=known[r.document]) if r.document in known else r for r in refs)


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
    ordered = most_mentioning(mentions)
    documents = tuple(dict.fromkeys(unit.split("-")[0] for unit in ordered))
    refs = source_refs(library, ordered[:passages])
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
