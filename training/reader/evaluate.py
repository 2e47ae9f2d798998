"""Measure the answer reader and choose the gate's threshold on it, on held-out questions.

    python training/reader/evaluate.py [--model resources/models/reader] [--rows 800]

For each question of the validation split (SQuAD-Shifts wiki/amazon/reddit articles never trained on)
and of the test split (SQuAD-Shifts nyt, a domain never trained or tuned on):
  - the reader alone: exact match and word F1 of its best span against the annotators' answers;
  - the gate's question: is a short answer the passage's answer? The right one is the question's
    first annotated answer; the wrong one, the answer of another question on the same passage that
    names something else (the generator's commonest wrong answer: another span of the right passage).
    `agreement` (answer/answer_span.py) is computed for both; the threshold of
    VerifyConfig.min_reader_agreement is the grid point with the best balanced accuracy on val.
Writes training/reader/results.json, and the pairs as claim files for `citedesk verify`
(training/data/reader/claims_{val,test}.jsonl), so the whole gate can be measured on them.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "reranker"))
from citedesk_engine.answer.answer_span import agreement, agrees  # noqa: E402
from citedesk_engine.models.reader import best_spans  # noqa: E402
from common import DATA, REPO, SEED, read_jsonl, write_jsonl  # noqa: E402

PREPARED = DATA / "reader"
RESULTS = Path(__file__).resolve().parent / "results.json"
GRID = [0.001, 0.002, 0.005] + [round(x, 3) for x in np.arange(0.01, 0.51, 0.01)]


def _norm(text: str) -> list[str]:
    text = re.sub(r"\b(a|an|the)\b", " ", re.sub(r"[^\w\s]", " ", text.lower()))
    return text.split()


def f1(pred: str, gold: str) -> float:
    p, g = _norm(pred), _norm(gold)
    common = sum((Counter(p) & Counter(g)).values())
    if not common:
        return 0.0
    precision, recall = common / len(p), common / len(g)
    return 2 * precision * recall / (precision + recall)


def pairs(rows: list[dict], limit: int) -> list[dict]:
    """Questions with a wrong answer from another question of the same passage."""
    by_context: dict[str, list[dict]] = {}
    for r in rows:
        by_context.setdefault(r["context"], []).append(r)
    rng = random.Random(SEED)
    out = []
    for r in rows:
        golds = [a["text"] for a in r["answers"]]
        others = [
            o["answers"][0]["text"]
            for o in by_context[r["context"]]
            if o is not r
            and not any(
                agrees(o["answers"][0]["text"], g, r["question"])
                or agrees(g, o["answers"][0]["text"], r["question"])
                for g in golds
            )
        ]
        if others:
            out.append(r | {"wrong": rng.choice(others)})
    rng.shuffle(out)
    return out[:limit]


def measure(model, tokenizer, rows: list[dict]) -> dict:
    right, wrong, em, fs = [], [], [], []
    started = time.time()
    for r in rows:
        spans = best_spans(model, tokenizer, r["question"], r["context"])
        golds = [a["text"] for a in r["answers"]]
        top = spans[0].text if spans else ""
        em.append(max(float(_norm(top) == _norm(g)) for g in golds))
        fs.append(max(f1(top, g) for g in golds))
        right.append(agreement(golds[0], r["question"], spans))
        wrong.append(agreement(r["wrong"], r["question"], spans))
    return {
        "n": len(rows),
        "exact_match": round(float(np.mean(em)), 4),
        "f1": round(float(np.mean(fs)), 4),
        "ms_per_question": round(1000 * (time.time() - started) / max(1, len(rows)), 1),
        "right": right,
        "wrong": wrong,
    }


def at(threshold: float, m: dict) -> dict:
    accepted = float(np.mean([a >= threshold for a in m["right"]]))
    refused = float(np.mean([a < threshold for a in m["wrong"]]))
    return {
        "threshold": threshold,
        "right_accepted": round(accepted, 4),
        "wrong_refused": round(refused, 4),
        "balanced_accuracy": round((accepted + refused) / 2, 4),
    }


def as_claims(rows: list[dict]) -> list[dict]:
    claims = []
    for r in rows:
        for claim, label in ((r["answers"][0]["text"], "supported"), (r["wrong"], "unsupported")):
            claims.append(
                {
                    "id": f"{r['id']}-{label}",
                    "question": r["question"],
                    "claim": claim,
                    "evidence": [r["context"]],
                    "label": label,
                }
            )
    return claims


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default=str(REPO / "resources" / "models" / "reader"))
    ap.add_argument("--rows", type=int, default=800)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    from transformers import AutoModelForQuestionAnswering, AutoTokenizer

    torch.set_num_threads(args.threads)
    tokenizer = AutoTokenizer.from_pretrained(args.model)
    model = AutoModelForQuestionAnswering.from_pretrained(args.model, dtype=torch.float32).eval()
    results = {
        "model": str(Path(args.model).resolve().relative_to(REPO))
        if Path(args.model).resolve().is_relative_to(REPO)
        else args.model
    }
    measured = {}
    for split in ("val", "test"):
        rows = pairs(read_jsonl(PREPARED / f"{split}.jsonl"), args.rows)
        write_jsonl(PREPARED / f"claims_{split}.jsonl", as_claims(rows))
        measured[split] = measure(model, tokenizer, rows)
        print(split, {k: v for k, v in measured[split].items() if k not in ("right", "wrong")}, flush=True)
    chosen = max(GRID, key=lambda t: (at(t, measured["val"])["balanced_accuracy"], -t))
    for split, m in measured.items():
        results[split] = {k: v for k, v in m.items() if k not in ("right", "wrong")} | {
            "at_chosen": at(chosen, m)
        }
    results["chosen_threshold"] = chosen
    results["grid_val"] = [at(t, measured["val"]) for t in GRID[:4] + GRID[4::5]]
    RESULTS.write_text(json.dumps(results, indent=1) + "\n")
    print(json.dumps({k: v for k, v in results.items() if k != "grid_val"}, indent=1))


if __name__ == "__main__":
    main()
