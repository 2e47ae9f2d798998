"""Could the reranker catch an answer that is the wrong span of the right passage? Run by hand, after
`citedesk eval ... --details DETAILS.jsonl` on squad-dev:

    .venv/bin/python benchmarks/answer_sentence_probe.py DETAILS.jsonl

For each answered answerable question it finds the first of the top-3 retrieved passages whose
sentence holds the answer's first supported claim, scores (question, sentence) for every sentence of
that passage with the packaged reranker, and asks how well the answer sentence's score (and its margin
over the passage's best other sentence) separates right answers (a gold answer in the answer) from
wrong ones: AUC, and what a refusal cut would cost.

Measured 2026-11-30 on the 600-step reranker's run (321 of 354 answers found in a passage; 228 right,
93 wrong by `citedesk eval`'s answer match; 3.5 min on 2 cores): score AUC 0.615, margin AUC 0.632;
every cut refuses about as many right answers as wrong ones (margin < -0.1: 23 right lost, 23 wrong
caught). Not a usable check; on our own SQuAD-Shifts rows (answer sentence against other sentences) it
had reached AUC 0.80.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
from citedesk_engine import Engine
from citedesk_engine.answer.claims import sentences
from citedesk_engine.evaluate.questions import answer_matches, eval_library_dir, normalize
from citedesk_engine.resources import resources_dir
from sentence_transformers import CrossEncoder

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "eval" / "squad-dev" / "corpus"


def auc(pos: list[float], neg: list[float]) -> float:
    p, n = np.array(pos)[:, None], np.array(neg)[None, :]
    return float((p > n).mean() + 0.5 * (p == n).mean())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("details", help="the --details file of a `citedesk eval` run on squad-dev")
    args = ap.parse_args()
    rows = [json.loads(line) for line in Path(args.details).read_text(encoding="utf-8").splitlines()]
    rows = [r for r in rows if r["answerable"] and r["decision"] != "refused"]
    model = CrossEncoder(str(resources_dir() / "models" / "reranker"), device="cpu", local_files_only=True)
    library = eval_library_dir(CORPUS)
    if not library.is_dir():
        sys.exit(f"No eval library for {CORPUS}: run `citedesk eval ... --corpus {CORPUS}` first.")
    found = []
    with Engine.open(library) as engine:
        for r in rows:
            claims = [c["text"] for c in r["claims"] if c["supported"]]
            answer = normalize(claims[0]) if claims else ""
            right = answer_matches(r["answer"], r["expected"])
            for candidate in engine.retrieve(r["question"], k=3).candidates:
                said = sentences(candidate.unit.passage)
                hit = [i for i, s in enumerate(said) if answer and answer in normalize(s)]
                if hit:
                    break
            else:
                continue
            scores = model.predict([(r["question"], s) for s in said], batch_size=16)
            best = max(scores[i] for i in hit)
            others = [scores[i] for i in range(len(said)) if i not in hit]
            found.append((right, float(best), float(best - max(others)) if others else 1.0))
    print(f"{len(found)} of {len(rows)} answers found in a retrieved passage")
    for name, k, cuts in (("score", 1, (0.1, 0.3, 0.5)), ("margin", 2, (0.0, -0.1, -0.3, -0.5))):
        pos = [f[k] for f in found if f[0]]
        neg = [f[k] for f in found if not f[0]]
        print(f"{name}: right {len(pos)}, wrong {len(neg)}, AUC {auc(pos, neg):.3f}")
        for cut in cuts:
            lost, caught = sum(x < cut for x in pos), sum(x < cut for x in neg)
            print(f"  refuse below {cut:+.1f}: right answers lost {lost}, wrong ones caught {caught}")


if __name__ == "__main__":
    main()
