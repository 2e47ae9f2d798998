"""Evaluate the shipped claim verifier and choose the gate's thresholds on our own validation split.

    python training/verifier/evaluate.py            # writes training/verifier/results.json

1. The model alone on our validation split (never shared eval): balanced accuracy of "supported" at
   probability 0.5, and 3-way accuracy, per source.
2. The per-claim gate of the app (citedesk_engine.answer.verify, the same code `citedesk verify` runs)
   with this model, on the same split, over a grid of its three thresholds; the chosen ones maximise
   mean balanced accuracy there (VitaminC, HaluEval and the synthetic compressions for the two claim
   thresholds, as answers that are sentences are judged as claims; HaluEval and the conflicts for the
   short-answer one). They are what config.VerifyConfig holds. The gate's figures on right answers
   restated as sentences (sentence_answers.py) are reported with them.
3. For the record only (nothing is chosen on it): the gate on shared/eval/claims with the chosen values.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "reranker"))
from common import SHARED_EVAL, TRAINING, read_jsonl  # noqa: E402
from common import VERIFIER_OUT_MODEL as OUT_MODEL  # noqa: E402
from common import VERIFIER_PREPARED as PREPARED  # noqa: E402

from citedesk_engine.answer.verify import ClaimVerifier  # noqa: E402
from citedesk_engine.config import VerifyConfig  # noqa: E402
from citedesk_engine.evaluate.claims import verify_claims  # noqa: E402
from citedesk_engine.models.claim_model import CrossEncoderClaimJudge  # noqa: E402

GRID_SUPPORT = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8)
GRID_ALIGNED = (0.05, 0.1, 0.2, 0.3, 0.4, 0.5)
GRID_ANSWER = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7)
SENTENCES = PREPARED / "val_sentences.jsonl"  # training/verifier/sentence_answers.py


class MemoJudge:
    """The shipped judge, each (evidence, claim, question) scored once across the grid."""

    def __init__(self, judge: CrossEncoderClaimJudge) -> None:
        self.judge = judge
        self.memo: dict[tuple[str, str, str], float] = {}
        self.seconds = 0.0

    def supported(self, evidence: str, claim: str, question: str = "") -> float:
        key = (evidence, claim, question)
        if key not in self.memo:
            started = time.perf_counter()
            self.memo[key] = self.judge.supported(evidence, claim, question)
            self.seconds += time.perf_counter() - started
        return self.memo[key]


def as_claims(rows: list[dict]) -> list[dict]:
    return [
        {"id": r["id"], "claim": r["claim"], "evidence": [r["evidence"]], "question": r["question"], "label": "supported" if r["label"] == 0 else "unsupported"}
        for r in rows
    ]


def gate(rows: list[dict], judge: MemoJudge, config: VerifyConfig) -> dict:
    report = verify_claims(rows, ClaimVerifier(config, None, lambda: judge))
    if all(r["label"] == "supported" for r in rows):  # the restated answers: only recall means anything
        return {"n": report.n, "supported_recall": round(report.supported.recall, 4), "decided_by": report.decided_by}
    return {"n": report.n, "balanced_accuracy": round(report.balanced_accuracy, 4), "supported_recall": round(report.supported.recall, 4), "unsupported_recall": round(report.unsupported.recall, 4), "decided_by": report.decided_by}


def main() -> None:
    judge = MemoJudge(CrossEncoderClaimJudge(OUT_MODEL))
    val = read_jsonl(PREPARED / "val.jsonl")
    by_source = {s: [r for r in val if r["source"] == s] for s in sorted({r["source"] for r in val})}
    results: dict = {"model_alone": {}, "gate_val": {}, "shared_eval": {}}
    for source, rows in by_source.items():
        probs = [judge.supported(*_pair(r)) for r in rows]
        pos = [p for p, r in zip(probs, rows, strict=True) if r["label"] == 0]
        neg = [p for p, r in zip(probs, rows, strict=True) if r["label"] != 0]
        rec_s = sum(p >= 0.5 for p in pos) / max(len(pos), 1)
        rec_u = sum(p < 0.5 for p in neg) / max(len(neg), 1)
        results["model_alone"][source] = {"n": len(rows), "balanced_accuracy": round((rec_s + rec_u) / 2, 4), "supported_recall": round(rec_s, 4), "unsupported_recall": round(rec_u, 4)}
        print(f"model alone  {source:10s} {json.dumps(results['model_alone'][source])}", flush=True)

    results["ms_per_judgement"] = round(1000 * judge.seconds / max(len(judge.memo), 1), 1)
    print(f"{len(judge.memo)} judgements, {results['ms_per_judgement']} ms each (one pair at a time, as the gate asks)")
    claims = {s: as_claims(rows) for s, rows in by_source.items()}
    base = VerifyConfig()
    # The claim thresholds judge every sentence, the answers' too (HaluEval's hallucinations are
    # sentences): chosen on VitaminC, HaluEval and the compressions together; then the short-answer one.
    claim_sources = tuple(s for s in ("vitaminc", "halueval", "compress") if s in claims)

    def mean_ba(config: VerifyConfig, sources: tuple[str, ...]) -> float:
        return sum(gate(claims[s], judge, config)["balanced_accuracy"] for s in sources) / len(sources)

    best_claim = max(
        itertools.product(GRID_SUPPORT, GRID_ALIGNED),
        key=lambda t: (mean_ba(dataclasses.replace(base, min_support=t[0], min_support_aligned=t[1]), claim_sources), -abs(t[0] - 0.5)),
    )
    claim_config = dataclasses.replace(base, min_support=best_claim[0], min_support_aligned=best_claim[1])
    best_answer = max(
        GRID_ANSWER,
        key=lambda a: (mean_ba(dataclasses.replace(claim_config, min_support_answer=a), ("halueval", "conflicts")), -abs(a - 0.5)),
    )
    chosen = dataclasses.replace(base, min_support=best_claim[0], min_support_aligned=best_claim[1], min_support_answer=best_answer)
    results["chosen"] = {"min_support": chosen.min_support, "min_support_aligned": chosen.min_support_aligned, "min_support_answer": chosen.min_support_answer}
    if SENTENCES.is_file():
        # Reported, not chosen on: right answers restated as sentences (sentence_answers.py), judged
        # with their question as the app judges its answers. A threshold of their own for partly
        # aligned sentence answers was tried against HaluEval's hallucinated sentences and lost.
        restated = read_jsonl(SENTENCES)
        for source in ("halueval_sentence", "squad_spans_sentence"):
            claims[source] = as_claims([r for r in restated if r["source"] == source])
    print("chosen thresholds", json.dumps(results["chosen"]), flush=True)
    for source, rows in claims.items():
        results["gate_val"][source] = gate(rows, judge, chosen)
        print(f"gate (val)   {source:10s} {json.dumps(results['gate_val'][source])}", flush=True)
    for path in sorted((SHARED_EVAL / "claims").glob("*.jsonl")):
        results["shared_eval"][path.stem] = gate(read_jsonl(path), judge, chosen)
        print(f"shared eval  {path.stem:14s} {json.dumps(results['shared_eval'][path.stem])}", flush=True)
    (TRAINING / "verifier" / "results.json").write_text(json.dumps(results, indent=1) + "\n")


def _pair(row: dict) -> tuple[str, str, str]:
    return row["evidence"], row["claim"], row["question"]


if __name__ == "__main__":
    main()
