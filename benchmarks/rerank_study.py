"""How the packaged reranker should join retrieval: on answerable squad-dev questions, rerank the
fused head and compare orders (fusion alone, the reranker's order replacing it, the reranker's order
added to the fusion as one more list) for several head sizes. Run by hand:

    .venv/bin/python benchmarks/rerank_study.py [--limit 150] [--head 20]

Each question is retrieved once with the reranker scoring the whole `--head`; smaller heads are
simulated from the same scores. Prints Recall@1, Recall@5 and MRR (a unit is gold when it overlaps
the gold passage) and the seconds per question.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from citedesk_engine import Config, Engine
from citedesk_engine.config import ModelsConfig, RetrievalConfig
from citedesk_engine.evaluate.questions import GoldIndex, overlaps, read_questions

SHARED = Path(__file__).resolve().parents[2] / "shared"
Row = list[tuple[float, float, bool]]  # per candidate: fused score, rerank score, gold


def metrics(orders: list[list[bool]]) -> str:
    firsts = [next((i for i, gold in enumerate(order) if gold), None) for order in orders]
    n = len(orders)
    r1 = sum(1 for f in firsts if f == 0) / n
    r5 = sum(1 for f in firsts if f is not None and f < 5) / n
    mrr = sum(1 / (f + 1) for f in firsts if f is not None) / n
    return f"R@1 {r1:.3f}  R@5 {r5:.3f}  MRR {mrr:.3f}"


def replaced(row: Row, head: int) -> list[bool]:
    by_fused = sorted(row, key=lambda c: -c[0])
    return [gold for _, _, gold in sorted(by_fused[:head], key=lambda c: -c[1]) + by_fused[head:]]


def fused_with_rerank(row: Row, head: int, k: int, weight: float) -> list[bool]:
    by_fused = sorted(row, key=lambda c: -c[0])
    top = by_fused[:head]
    order = sorted(range(len(top)), key=lambda i: -top[i][1])
    bonus = {i: weight / (k + rank + 1) for rank, i in enumerate(order)}
    ranked = sorted(range(len(top)), key=lambda i: (-(top[i][0] + bonus[i]), i))
    return [top[i][2] for i in ranked] + [gold for _, _, gold in by_fused[head:]]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--limit", type=int, default=150)
    parser.add_argument("--head", type=int, default=20)
    args = parser.parse_args()
    corpus = SHARED / "eval" / "squad-dev" / "corpus"
    questions = [
        q for q in read_questions(SHARED / "eval" / "squad-dev" / "questions.jsonl") if q.gold_document
    ][: args.limit]
    config = Config(
        models=ModelsConfig(reranker="default"),
        retrieval=RetrievalConfig(rerank_head=args.head, rerank_mode="replace"),
    )
    rows: list[Row] = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp, Engine.open(Path(tmp) / "lib", config) as engine:
        engine.ingest([corpus])
        gold = GoldIndex(engine)
        ingested = time.perf_counter()
        for q in questions:
            span = gold.span(q)
            assert span is not None
            found = engine.retrieve(q.question, k=args.head).candidates
            rows.append(
                [(c.fused, c.rerank if c.rerank is not None else 0.0, overlaps(c.unit, span)) for c in found]
            )
    seconds = (time.perf_counter() - ingested) / max(1, len(questions))
    k = config.retrieval.rrf_k
    print(f"{len(rows)} answerable questions, head {args.head}, {seconds:.2f} s a question")
    alone = [[g for _, _, g in sorted(r, key=lambda c: -c[0])] for r in rows]
    print(f"fusion alone                    {metrics(alone)}")
    for head in sorted({5, 10, args.head}):
        if head > args.head:
            continue
        print(f"replace, head {head:<3}               {metrics([replaced(r, head) for r in rows])}")
        for weight in (0.5, 1.0, 2.0):
            orders = [fused_with_rerank(r, head, k, weight) for r in rows]
            print(f"fuse (weight {weight}), head {head:<3}      {metrics(orders)}")
    print(f"elapsed {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
