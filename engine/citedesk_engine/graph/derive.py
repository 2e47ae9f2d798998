"""From mentions to nodes: aliases merged, communities found, each labelled by its commonest entities.

Aliases (a key that names the same thing as another becomes that node):
- an acronym ("IPCC") and the one multi-word name whose initials it spells ("Intergovernmental Panel on
  Climate Change"), when exactly one such name is in the library;
- a person's surname alone ("Bolin") and the one full name of the same document ending with it
  ("Bert Bolin"), when it is the only one in the library; a middle initial ("Peter F. Paul") and the
  one name it abbreviates ("Peter Franklin Paul").
Communities: Louvain modularity clusters (networkx, seeded, so the same library gives the same
clusters) of the graph whose edges are two nodes mentioned in the same sentence, weighted by how many
sentences do. The choice of Louvain over Leiden is measured in docs/evaluation.md ("Entity graph").
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from itertools import combinations

import networkx as nx

from .store import Community, Node

_SMALL_WORDS = frozenset(
    {"of", "on", "for", "and", "the", "in", "to", "a", "an", "&", "de", "du", "des", "la"}
)
MIN_COMMUNITY = 3  # nodes; smaller clusters are left without a community


def aliases(
    keys: list[tuple[str, str, str, int]], key_documents: Iterable[tuple[str, str, str]]
) -> dict[str, str]:
    """{key: the key of the node it is merged into} for every key (itself when not an alias).

    `keys` are (key, label, kind, units); `key_documents` (version, key, kind) once each."""
    labels = {key: label for key, label, _, _ in keys}
    merged = {key: key for key in labels}
    by_initials: dict[str, set[str]] = defaultdict(set)
    for key, label, _, _ in keys:
        words = label.split()
        capitalised = [w for w in words if w[:1].isupper()]
        if len(words) >= 2 and len(capitalised) >= 2:  # a name, not a phrase of common words
            initials = "".join(w[0] for w in words if w.lower() not in _SMALL_WORDS and w[:1].isalpha())
            if len(initials) >= 2:
                by_initials[initials.lower()].add(key)
    for key, label, _, _ in keys:
        if 2 <= len(label) <= 8 and label.isupper() and label.isalpha():
            names = by_initials.get(key, set()) - {key}
            if len(names) == 1:
                merged[key] = next(iter(names))
    full_names: dict[str, set[str]] = defaultdict(set)  # surname -> full names, library-wide
    persons_by_version: dict[str, set[str]] = defaultdict(set)
    for version, key, kind in key_documents:
        if kind == "PERSON":
            persons_by_version[version].add(key)
    # "Peter F. Paul" is "Peter Franklin Paul" when the library names one such person only.
    every_person = {key for persons in persons_by_version.values() for key in persons}
    for key in every_person:
        parts = key.split()
        if len(parts) == 3 and len(parts[1].rstrip(".")) == 1:
            fuller = [
                other
                for other in every_person
                if (o := other.split())
                and len(o) == 3
                and o[0] == parts[0]
                and o[2] == parts[2]
                and len(o[1]) > 2
                and o[1][0] == parts[1][0]
            ]
            if len(fuller) == 1:
                merged[key] = fuller[0]
    for persons in persons_by_version.values():
        # "James Francis Cameron" is "James Cameron" where the document also writes it so.
        for key in persons:
            parts = key.split()
            short = f"{parts[0]} {parts[-1]}"
            if len(parts) >= 3 and short in persons:
                merged[key] = short
        for key in persons:
            parts = key.split()
            if len(parts) >= 2:
                full_names[parts[-1]].add(merged[key])
    for persons in persons_by_version.values():
        for key in persons:
            if " " not in key and len(full_names.get(key, ())) == 1:
                name = next(iter(full_names[key]))
                if name in persons:
                    merged[key] = name
    return merged


def nodes_and_communities(
    keys: list[tuple[str, str, str, int]],
    merged: dict[str, str],
    mentions: Iterable[tuple[str, int, str]],
    seed: int = 7,
) -> tuple[list[Node], list[Community]]:
    """Nodes (labelled by their commonest key's label, counted in units) and their communities, from
    (unit_id, sentence, key) rows."""
    info = {key: (label, kind, units) for key, label, kind, units in keys}
    graph, units_of = co_mention_graph(merged, mentions)
    clusters = (
        nx.community.louvain_communities(graph, weight="weight", seed=seed) if graph.number_of_edges() else []
    )
    clusters = sorted((c for c in clusters if len(c) >= MIN_COMMUNITY), key=lambda c: (-len(c), min(c)))
    community_of: dict[str, int] = {}
    communities: list[Community] = []
    for number, members in enumerate(clusters, start=1):
        top = sorted(members, key=lambda n: (info[n][1] == "NP", -len(units_of[n]), n))[:3]
        units = set().union(*(units_of[n] for n in members))
        communities.append(Community(number, ", ".join(info[n][0] for n in top), len(members), len(units)))
        community_of.update(dict.fromkeys(members, number))
    nodes = [
        Node(node, info[node][0], info[node][1], len(units), community_of.get(node))
        for node, units in units_of.items()
    ]
    return nodes, communities


def co_mention_graph(
    merged: dict[str, str], mentions: Iterable[tuple[str, int, str]]
) -> tuple[nx.Graph, dict[str, set[str]]]:
    """The graph whose edges are two nodes named in one sentence, weighted by how many sentences do,
    and the units naming each node, from (unit_id, sentence, key) rows. Built in a fixed order: with a
    seed, the same library gives the same topics."""
    units_of: dict[str, set[str]] = defaultdict(set)
    sentences: dict[tuple[str, int], set[str]] = defaultdict(set)
    for unit_id, sentence, key in mentions:
        node = merged.get(key, key)
        units_of[node].add(unit_id)
        sentences[(unit_id, sentence)].add(node)
    weights = Counter(pair for nodes in sentences.values() for pair in combinations(sorted(nodes), 2))
    graph = nx.Graph()
    graph.add_nodes_from(sorted(units_of))
    graph.add_weighted_edges_from((a, b, w) for (a, b), w in sorted(weights.items()))
    return graph, units_of
