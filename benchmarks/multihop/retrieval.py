"""Multi-hop retrieval: are both supporting documents of a question among the passages retrieved?

The set (benchmarks/multihop/fetch.py) is 200 HotpotQA questions whose two supporting paragraphs are
separate documents among 4x as many distractors. A library of them is built once (with its entity
graph) in benchmarks/data/multihop-lib. For each configuration it prints, per half of the set (the
first half chose the graph's fusion weights, the second half checks them), the share of questions
with both supporting documents in the top k ("both@k") and with at least one ("any@k").

    .venv/bin/python benchmarks/multihop/retrieval.py                  # the shipped configuration
    .venv/bin/python benchmarks/multihop/retrieval.py --grid           # graph/community weight sweep
    .venv/bin/python benchmarks/multihop/retrieval.py --rerank         # with the packaged reranker

Caveat: the reranker was trained on rows of the same HaluEval file, so --rerank may be flattered.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

from citedesk_engine import Engine
from citedesk_engine.config import Config

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "data" / "multihop"
LIBRARY = HERE.parent / "data" / "multihop-lib"
BASE = ("vector", "lexical", "structure")
GRAPH = (*BASE, "graph", "community")


def open_library() -> Engine:
    engine = Engine.open(LIBRARY, Config())
    docs = sorted((DATA / "docs").glob("*.txt"))
    if len(engine.documents()) != len(docs):
        report = engine.ingest(docs)
        print(f"ingested {report.units} passages of {len(docs)} documents", file=sys.stderr)
    status = engine.build_graph()
    print(f"graph: {status.nodes} entities, {status.communities} topics", file=sys.stderr)
    return engine


def measure(engine: Engine, questions: list[dict], signals: tuple[str, ...], k: int, rerank: bool) -> dict:
    both = anyone = 0
    for q in questions:
        found = engine.retrieve(q["question"], k=k, signals=signals, rerank=rerank).candidates
        names = {Path(c.unit.document).name for c in found}
        hits = sum(name in names for name in q["supporting"])
        both += hits == len(q["supporting"])
        anyone += hits > 0
    return {"both": both / len(questions), "any": anyone / len(questions)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, nargs="+", default=[5, 10])
    parser.add_argument("--rerank", action="store_true")
    parser.add_argument("--grid", action="store_true", help="sweep graph and community weights")
    args = parser.parse_args()
    questions = [json.loads(line) for line in (DATA / "questions.jsonl").read_text().splitlines()]
    halves = {"first half": questions[: len(questions) // 2], "second half": questions[len(questions) // 2 :]}
    with open_library() as engine:
        shipped = engine.config.retrieval
        settings = [("without graph", BASE, shipped), ("with graph", GRAPH, shipped)]
        if args.grid:
            settings = [("without graph", BASE, shipped)] + [
                (
                    f"graph {g} community {c}",
                    GRAPH,
                    dataclasses.replace(shipped, graph_weight=g, community_weight=c),
                )
                for g in (0.1, 0.2, 0.3, 0.4, 0.6)
                for c in (0.0, 0.1)
            ]
        for name, signals, retrieval in settings:
            engine.config = dataclasses.replace(engine.config, retrieval=retrieval)
            cells = []
            for half, rows in halves.items():
                if args.grid and half != "first half":
                    continue
                for k in args.k:
                    figures = measure(engine, rows, signals, k, args.rerank)
                    cells.append(f"{half} both@{k} {figures['both']:.3f} any@{k} {figures['any']:.3f}")
            print(f"{name:<28} " + " | ".join(cells), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
