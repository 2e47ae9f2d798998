"""Choose the relevance gate's thresholds on squad-dev: answerable questions must pass, off-corpus
questions (gold null) must be refused. Prints the grid and the best point; run by hand:

    .venv/bin/python benchmarks/calibrate_relevance.py [--limit 500]

For each question the gate sees the retrieved top-5 candidates; a question passes when at least one
is relevant: (coverage >= c and similarity >= s) or similarity >= h. The figures printed are refusal
recall (off-corpus questions refused) and false refusals (answerable questions refused); the chosen
point maximises recall - false refusals with false refusals at most 0.15.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

import numpy as np
from citedesk_engine import Engine
from citedesk_engine.answer.text import content_stems

SHARED = Path(__file__).resolve().parents[2] / "shared"


def features(engine: Engine, question: str) -> list[tuple[float, float]]:
    candidates = engine.retrieve(question, k=5).candidates
    vector = engine.embed_query(question)
    stored = engine.library.vectors.vectors_by_id([c.unit.unit_id for c in candidates])
    wanted = set(content_stems(question))
    out = []
    for c in candidates:
        coverage = len(wanted & set(content_stems(c.unit.index_text))) / len(wanted) if wanted else 0.0
        out.append((coverage, float(np.dot(vector, stored[c.unit.unit_id]))))
    return out


def passes(feats: list[tuple[float, float]], c: float, s: float, h: float) -> bool:
    return any((cov >= c and sim >= s) or sim >= h for cov, sim in feats)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--limit", type=int, default=500)
    args = parser.parse_args()
    lines = (SHARED / "eval" / "squad-dev" / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines[: args.limit]]
    with tempfile.TemporaryDirectory() as tmp, Engine.open(Path(tmp) / "lib") as engine:
        engine.ingest([SHARED / "eval" / "squad-dev" / "corpus"])
        data = [(features(engine, r["question"]), r["gold"] is not None) for r in rows]
    answerable = sum(1 for _, a in data if a)
    off = len(data) - answerable
    best = None
    print("coverage  similarity  high   refusal-recall  false-refusals")
    for c in (0.3, 0.4, 0.5, 0.6, 0.7):
        for s in (0.2, 0.25, 0.3, 0.35, 0.4, 0.45):
            for h in (0.55, 0.6, 0.65, 0.7, 0.8):
                refused_off = sum(1 for f, a in data if not a and not passes(f, c, s, h)) / max(1, off)
                refused_ok = sum(1 for f, a in data if a and not passes(f, c, s, h)) / max(1, answerable)
                print(f"{c:8.2f}  {s:10.2f}  {h:4.2f}   {refused_off:14.3f}  {refused_ok:14.3f}")
                if refused_ok <= 0.15 and (best is None or refused_off - refused_ok > best[0]):
                    best = (refused_off - refused_ok, c, s, h, refused_off, refused_ok)
    if best:
        _, c, s, h, recall, false = best
        print(
            f"best: min_coverage={c} min_similarity={s} high_similarity={h}: "
            f"refusal recall {recall:.3f}, false refusals {false:.3f} "
            f"({answerable} answerable, {off} off-corpus)"
        )


if __name__ == "__main__":
    main()
