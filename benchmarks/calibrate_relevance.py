"""Choose the relevance gate's thresholds on squad-dev: answerable questions must pass, off-corpus
questions (gold null) must be refused. Prints the grid and the best point; run by hand:

    .venv/bin/python benchmarks/calibrate_relevance.py [--limit 500] [--reranker default|none]

For each question the gate sees the retrieved top-5 candidates; a question passes when at least one
is relevant: (coverage >= c and similarity >= s) or similarity >= h, or, with the packaged reranker,
its rerank score (a probability) >= r (r = off: not used). The figures printed are refusal recall
(off-corpus questions refused) and false refusals (answerable questions refused); the chosen point
maximises recall - false refusals with false refusals at most 0.15.
"""

from __future__ import annotations

import argparse
import itertools
import json
import tempfile
from pathlib import Path

import numpy as np
from citedesk_engine import Config, Engine
from citedesk_engine.answer.text import content_stems
from citedesk_engine.config import ModelsConfig

SHARED = Path(__file__).resolve().parents[2] / "shared"
OFF = 2.0  # a rerank threshold no probability reaches


def features(engine: Engine, question: str) -> list[tuple[float, float, float]]:
    candidates = engine.retrieve(question, k=5).candidates
    vector = engine.embed_query(question)
    stored = engine.library.vectors.vectors_by_id([c.unit.unit_id for c in candidates])
    wanted = set(content_stems(question))
    out = []
    for c in candidates:
        coverage = len(wanted & set(content_stems(c.unit.index_text))) / len(wanted) if wanted else 0.0
        rerank = c.rerank if c.rerank is not None and engine.config.models.reranker == "default" else -1.0
        out.append((coverage, float(np.dot(vector, stored[c.unit.unit_id])), rerank))
    return out


def passes(feats: list[tuple[float, float, float]], c: float, s: float, h: float, r: float) -> bool:
    return any((cov >= c and sim >= s) or sim >= h or rr >= r for cov, sim, rr in feats)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--limit", type=int, default=500)
    parser.add_argument("--reranker", default="default")
    args = parser.parse_args()
    lines = (SHARED / "eval" / "squad-dev" / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines[: args.limit]]
    config = Config(models=ModelsConfig(reranker=args.reranker))
    with tempfile.TemporaryDirectory() as tmp, Engine.open(Path(tmp) / "lib", config) as engine:
        engine.ingest([SHARED / "eval" / "squad-dev" / "corpus"])
        data = [(features(engine, r["question"]), r["gold"] is not None) for r in rows]
    answerable = sum(1 for _, a in data if a)
    off = len(data) - answerable
    best = None
    rerank_grid = (OFF, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95) if args.reranker == "default" else (OFF,)
    print("coverage  similarity  high  rerank   refusal-recall  false-refusals")
    for c, s, h, r in itertools.product(
        (0.3, 0.4, 0.5, 0.6, 0.7), (0.2, 0.25, 0.3, 0.35, 0.4, 0.45), (0.55, 0.6, 0.65, 0.7, 0.8), rerank_grid
    ):
        refused_off = sum(1 for f, a in data if not a and not passes(f, c, s, h, r)) / max(1, off)
        refused_ok = sum(1 for f, a in data if a and not passes(f, c, s, h, r)) / max(1, answerable)
        shown = "off" if r == OFF else f"{r:.2f}"
        print(f"{c:8.2f}  {s:10.2f}  {h:4.2f}  {shown:>6}   {refused_off:14.3f}  {refused_ok:14.3f}")
        if refused_ok <= 0.15 and (best is None or refused_off - refused_ok > best[0] + 1e-9):
            best = (refused_off - refused_ok, c, s, h, r, refused_off, refused_ok)
    if best:
        _, c, s, h, r, recall, false = best
        print(
            f"best: min_coverage={c} min_similarity={s} high_similarity={h} "
            f"min_rerank={'off' if r == OFF else r}: refusal recall {recall:.3f}, false refusals {false:.3f} "
            f"({answerable} answerable, {off} off-corpus)"
        )


if __name__ == "__main__":
    main()
