"""Does the library wiki's retriever help multi-hop retrieval, once pages exist? (the wiki weight)

Pages are written when a reader opens them, so this writes, for each question of a sample, the page
of the entity the question names most surely (the graph's node matcher; the rarest on a tie), as if
the reader had opened it, then measures both@5 (both supporting documents among the first five
passages) with the graph's retrievers and the wiki retriever at several weights. The first questions
of the set's first half choose the weight, as many of its second half check it. It works on a copy
of the multi-hop library (benchmarks/multihop/retrieval.py builds it), leaving that one as it was.

    .venv/bin/python benchmarks/multihop/wiki.py --questions 30      # about 15 minutes on 2 cores
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

from citedesk_engine import Engine
from citedesk_engine.config import Config
from citedesk_engine.errors import DocumentNotFound
from citedesk_engine.graph.wiki import entity_subject

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "data" / "multihop"
LIBRARY = HERE.parent / "data" / "multihop-lib"
GRAPH = ("vector", "lexical", "structure", "graph", "community")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=30, help="per half")
    parser.add_argument("--k", type=int, default=5)
    args = parser.parse_args()
    if not (LIBRARY / "library.sqlite").exists():
        sys.exit("Build the multi-hop library first: .venv/bin/python benchmarks/multihop/retrieval.py")
    questions = [json.loads(line) for line in (DATA / "questions.jsonl").read_text().splitlines()]
    half = len(questions) // 2
    samples = {
        "first half": questions[: args.questions],
        "second half": questions[half : half + args.questions],
    }
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "lib"
        shutil.copytree(LIBRARY, copy, ignore=shutil.ignore_patterns("lock"))
        with Engine.open(copy, Config()) as engine:
            engine.load_generator()
            started, pages, sentences = time.perf_counter(), 0, 0
            for q in [q for rows in samples.values() for q in rows]:
                named = engine._matcher.match(q["question"])
                if not named:
                    continue
                info = engine.library.graph.node_info(list(named))
                node = max(named, key=lambda n: (named[n], -info[n].units if n in info else 0, n))
                try:
                    page = engine.wiki(entity_subject(node))
                except DocumentNotFound:
                    continue
                pages, sentences = pages + 1, sentences + len(page.claims)
            print(
                f"{pages} pages written in {time.perf_counter() - started:.0f} s, {sentences} sentences kept",
                flush=True,
            )
            shipped = engine.config.retrieval
            for weight in (0.0, 0.1, 0.2, 0.3):
                retrieval = dataclasses.replace(shipped, wiki_weight=weight)
                engine.config = dataclasses.replace(engine.config, retrieval=retrieval)
                cells = []
                for name, rows in samples.items():
                    both = 0
                    for q in rows:
                        found = engine.retrieve(q["question"], k=args.k, signals=(*GRAPH, "wiki")).candidates
                        names = {Path(c.unit.document).name for c in found}
                        both += all(s in names for s in q["supporting"])
                    cells.append(f"{name} both@{args.k} {both / len(rows):.3f}")
                print(f"wiki {weight:<4} " + " | ".join(cells), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
