"""The measuring verbs of `citedesk`: `verify` (the per-claim gate on labelled claims) and `eval`
(retrieval, answers and refusals on labelled questions). Neither needs an open library."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path

from .answer.verify import ClaimVerifier, Verdict
from .api import Engine
from .config import cache_dir, default_library_dir, load_config
from .evaluate.claims import read_claims, verify_claims
from .evaluate.questions import Question, eval_library_dir, evaluate, read_questions
from .models.claim_model import build_claim_judge
from .models.embedder import SentenceTransformerEmbedder
from .models.reader import build_answer_reader
from .models.registry import ModelRegistry
from .progress_line import ProgressLine
from .serialize import plain
from .types import Answer, FileStatus


def verify_verb(args: argparse.Namespace) -> int:
    folder = Path(args.library).expanduser() if args.library else default_library_dir()
    config = load_config(folder / "config.toml")
    registry = ModelRegistry(config.models, cache_dir())
    embedder = SentenceTransformerEmbedder(registry.embedder_path(), name=registry.embedder_name())
    judge = build_claim_judge(registry)
    reader = build_answer_reader(registry)
    rows = read_claims(Path(args.claims))
    progress = ProgressLine()
    with contextlib.ExitStack() as stack:
        details = (
            stack.enter_context(Path(args.details).open("w", encoding="utf-8")) if args.details else None
        )

        def record(row: dict[str, object], verdict: Verdict) -> None:
            if details is not None:
                line = {
                    "id": row.get("id"),
                    "label": row["label"],
                    "supported": verdict.supported,
                    "right": verdict.supported == (row["label"] == "supported"),
                    "check": verdict.check,
                    "method": verdict.method,
                    "claim": row["claim"],
                    "question": row.get("question"),
                }
                details.write(json.dumps(line, ensure_ascii=False) + "\n")

        report = verify_claims(
            rows,
            ClaimVerifier(config.verify, lambda: embedder, lambda: judge, lambda: reader),
            on_progress=None if args.json else lambda n: progress("claims", n, len(rows)),
            on_verdict=record,
        )
    if args.json:
        payload = plain(report)
        payload.pop("errors")
        print(json.dumps(payload))
        return 0
    progress.end()
    print(f"claims             {report.n}")
    print(f"accuracy           {report.accuracy:.3f}")
    print(f"balanced accuracy  {report.balanced_accuracy:.3f}")
    print(
        f"supported          precision {report.supported.precision:.3f}  recall {report.supported.recall:.3f}"
    )
    print(
        f"unsupported        precision {report.unsupported.precision:.3f}  "
        f"recall {report.unsupported.recall:.3f}"
    )
    for method, count in sorted(report.decided_by.items(), key=lambda kv: -kv[1]):
        print(f"  decided by {method:<24} {count}")
    return 0


def eval_verb(args: argparse.Namespace) -> int:
    corpus = Path(args.corpus).expanduser().resolve()
    library = Path(args.library) if args.library else eval_library_dir(corpus)
    questions = read_questions(Path(args.questions))[: args.limit]

    progress = ProgressLine(enabled=not args.json)

    stack = contextlib.ExitStack()  # closes the details file with the engine
    details = stack.enter_context(Path(args.details).open("w", encoding="utf-8")) if args.details else None  # noqa: SIM115

    def record(question: Question, answer: Answer, ms: float) -> None:
        if details is None:
            return
        refusal = answer.refusal
        line = {
            "id": question.id,
            "question": question.question,
            "expected": question.answers,
            "answerable": question.gold_document is not None,
            "decision": answer.decision.value,
            "stage": refusal.stage.value if refusal else None,
            "reason": refusal.reason if refusal else None,
            "answer": answer.text,
            "generated": refusal.details.get("generated") if refusal else None,
            "quote": answer.quote,
            "searched": answer.searched,
            "claims": [{"text": c.text, "supported": c.supported, "method": c.method} for c in answer.claims],
            "ms": round(ms),
        }
        details.write(json.dumps(line, ensure_ascii=False) + "\n")
        details.flush()

    with stack, Engine.open(library) as engine:
        report = engine.ingest([corpus])
        engine.build_graph()  # the slow path too, as the window builds it while idle
        failed = [f for f in report.files if f.status is FileStatus.FAILED]
        if failed and not args.json:
            print(f"{len(failed)} corpus files failed: {failed[0].path}: {failed[0].reason}", file=sys.stderr)
        result = evaluate(
            engine,
            questions,
            k=args.k or engine.config.retrieval.top_k,
            answers=not args.no_answers,
            compare=args.compare,
            on_progress=progress,
            on_answer=record,
        )
    if args.json:
        print(json.dumps(result.as_json()))
        return 0
    progress.end()
    rows = {"default": result.retrieval, **result.compare}
    print(f"{'retrieval':<28}" + "".join(f"{m:>10}" for m in ("R@1", "R@5", "R@10", "MRR", "nDCG@10")))
    for name, s in rows.items():
        values = (s.recall_at_1, s.recall_at_5, s.recall_at_10, s.mrr, s.ndcg_at_10)
        print(f"{name:<28}" + "".join(f"{v:>10.3f}" for v in values) + f"   ({s.n} answerable)")
    if result.answers:
        a, r = result.answers, result.refusals
        print(
            f"answers      answered {a['answered']}, partial {a['partial']}, refused {a['refused']}; "
            f"accuracy {a['accuracy']:.3f}, citation accuracy {a['citation_accuracy']:.3f}; "
            f"answers without a gold answer {a['without_gold']:.3f} of answered; quotes {a['quotes']}"
        )
        print(
            f"refusals     recall {r['recall']:.3f}, false refusals {r['false_refusal_rate']:.3f}, "
            f"by stage {r['by_stage']}"
        )
        for stage, p in result.latency_ms.items():
            print(f"latency      {stage:<20} p50 {p['p50']:9.1f} ms   p95 {p['p95']:9.1f} ms")
    return 0
