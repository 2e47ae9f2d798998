"""Community detection on the entity graph: networkx Louvain (what graph/derive.py uses) against Leiden.

Reads a library's graph tables read-only, builds the weighted co-mention graph exactly as
graph/derive.py `nodes_and_communities` does (merged nodes, +1 per sentence per pair, isolated nodes
kept, same insertion order), then runs each method with seeds 7, 8, 9 and prints, per graph and method:
clustering time, clusters of >= 3 nodes (MIN_COMMUNITY), the share of nodes in them, modularity of the
full partition (networkx, weight="weight") and stability across seeds (mean pairwise ARI and AMI of the
full partitions). It also checks that Louvain seed 7 reproduces the communities stored in graph_keys.

Needs networkx, leidenalg, igraph and scikit-learn (for AMI/ARI), e.g. in a separate venv:

    python3 -m venv /tmp/leiden-venv
    /tmp/leiden-venv/bin/pip install networkx leidenalg igraph scikit-learn
    /tmp/leiden-venv/bin/python benchmarks/graph_communities.py \
        benchmarks/data/multihop-lib/library.sqlite /tmp/deb-lib/library.sqlite
"""

from __future__ import annotations

import argparse
import itertools
import sqlite3
import statistics
import time
from collections import Counter, defaultdict
from importlib.metadata import version

import igraph as ig
import leidenalg
import networkx as nx
from sklearn.metrics import adjusted_mutual_info_score, adjusted_rand_score

MIN_COMMUNITY = 3
SEEDS = (7, 8, 9)


def build_graph(path: str) -> tuple[nx.Graph, dict[str, int | None]]:
    """The co-mention graph as derive.nodes_and_communities builds it, and the stored community per node."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        stored: dict[str, int | None] = {}
        merged: dict[str, str] = {}
        for key, node, community in db.execute("SELECT key, node, community FROM graph_keys"):
            merged[key] = node
            stored[node] = community
        mentions = db.execute(
            "SELECT unit_id, sentence, node FROM graph_mentions ORDER BY unit_id"
        ).fetchall()
    finally:
        db.close()
    # The same graph as graph/derive.py `co_mention_graph`, written again here because this script runs
    # in its own environment (leidenalg, igraph, scikit-learn), where the engine cannot be imported.
    units_of: dict[str, set[str]] = defaultdict(set)
    weights: Counter[tuple[str, str]] = Counter()
    current_unit, sentences = None, defaultdict(set)

    def close_unit() -> None:
        for nodes in sentences.values():
            ordered = sorted(nodes)
            for i, a in enumerate(ordered):
                for b in ordered[i + 1 :]:
                    weights[(a, b)] += 1

    for unit_id, sentence, key in mentions:
        if unit_id != current_unit:
            close_unit()
            current_unit, sentences = unit_id, defaultdict(set)
        node = merged.get(key, key)
        units_of[node].add(unit_id)
        sentences[sentence].add(node)
    close_unit()
    graph = nx.Graph()
    graph.add_nodes_from(units_of)
    graph.add_weighted_edges_from((a, b, w) for (a, b), w in weights.items())
    return graph, stored


def louvain(graph: nx.Graph, seed: int) -> tuple[list[set[str]], float]:
    t = time.perf_counter()
    clusters = nx.community.louvain_communities(graph, weight="weight", seed=seed)
    return [set(c) for c in clusters], time.perf_counter() - t


def to_igraph(graph: nx.Graph) -> tuple[ig.Graph, list[str]]:
    names = list(graph.nodes)
    index = {n: i for i, n in enumerate(names)}
    edges = [(index[a], index[b]) for a, b in graph.edges]
    g = ig.Graph(n=len(names), edges=edges, directed=False)
    g.es["weight"] = [w for _, _, w in graph.edges(data="weight")]
    return g, names


def leiden(graph: nx.Graph, seed: int, n_iterations: int = 2) -> tuple[list[set[str]], float]:
    """Timed including the networkx -> igraph conversion (CiteDesk builds its graph in networkx)."""
    t = time.perf_counter()
    g, names = to_igraph(graph)
    part = leidenalg.find_partition(
        g, leidenalg.ModularityVertexPartition, weights="weight", seed=seed, n_iterations=n_iterations
    )
    clusters = [{names[i] for i in members} for members in part]
    return clusters, time.perf_counter() - t


def labels(graph: nx.Graph, clusters: list[set[str]]) -> list[int]:
    of = {n: i for i, c in enumerate(clusters) for n in c}
    return [of[n] for n in graph.nodes]


def summarise(graph: nx.Graph, runs: list[tuple[list[set[str]], float]]) -> dict[str, float]:
    n = graph.number_of_nodes()
    big = [[c for c in clusters if len(c) >= MIN_COMMUNITY] for clusters, _ in runs]
    mods = [nx.community.modularity(graph, clusters, weight="weight") for clusters, _ in runs]
    labs = [labels(graph, clusters) for clusters, _ in runs]
    pairs = list(itertools.combinations(range(len(runs)), 2))
    return {
        "time": statistics.median(t for _, t in runs),
        "clusters": statistics.mean(len(b) for b in big),
        "coverage": statistics.mean(sum(map(len, b)) / n for b in big),
        "modularity": statistics.mean(mods),
        "ari": statistics.mean(adjusted_rand_score(labs[i], labs[j]) for i, j in pairs),
        "ami": statistics.mean(adjusted_mutual_info_score(labs[i], labs[j]) for i, j in pairs),
        "labels7": labs[0],
        "runs": [(len(b), round(m, 4), round(t, 3)) for b, m, (_, t) in zip(big, mods, runs, strict=True)],
    }


def stored_matches(graph: nx.Graph, stored: dict[str, int | None], clusters: list[set[str]]) -> bool:
    """Louvain seed 7's >= 3 clusters are exactly the node sets stored under each community number."""
    mine = {frozenset(c) for c in clusters if len(c) >= MIN_COMMUNITY}
    theirs: dict[int, set[str]] = defaultdict(set)
    for node in graph.nodes:
        if stored.get(node) is not None:
            theirs[stored[node]].add(node)
    return mine == {frozenset(c) for c in theirs.values()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("libraries", nargs="+", help="library.sqlite files")
    args = parser.parse_args()
    print("networkx", version("networkx"), "| leidenalg", version("leidenalg"), "| igraph", version("igraph"))
    columns = ("time s", "clust>=3", "cover", "modul", "ARI", "AMI")
    header = f"{'graph':<14}{'method':<12}" + "".join(f"{c:>{max(7, len(c) + 2)}}" for c in columns)
    for path in args.libraries:
        graph, stored = build_graph(path)
        name = path.rstrip("/").split("/")[-2]
        isolated = sum(1 for _ in nx.isolates(graph))
        print(
            f"\n{name}: {graph.number_of_nodes()} nodes ({isolated} isolated), "
            f"{graph.number_of_edges()} edges"
        )
        methods = {
            "louvain": lambda s, g=graph: louvain(g, s),
            "leiden": lambda s, g=graph: leiden(g, s),
            "leiden-conv": lambda s, g=graph: leiden(g, s, n_iterations=-1),
        }
        results = {}
        for method, run in methods.items():
            runs = [run(seed) for seed in SEEDS]
            if method == "louvain":
                print(
                    "  louvain seed 7 reproduces stored communities:",
                    stored_matches(graph, stored, runs[0][0]),
                )
            results[method] = summarise(graph, runs)
        print(header)
        for method, r in results.items():
            print(
                f"{name:<14}{method:<12}{r['time']:>8.3f}{r['clusters']:>10.1f}{r['coverage']:>7.1%}"
                f"{r['modularity']:>8.4f}{r['ari']:>7.3f}{r['ami']:>7.3f}"
                f"   per seed (clusters, Q, s): {r['runs']}"
            )
        agree = adjusted_rand_score(results["louvain"]["labels7"], results["leiden"]["labels7"])
        print(f"  louvain vs leiden (seed 7) ARI: {agree:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
