"""Multi-hop answers: the standard flow against strategy "deep", on the same questions and library.

For each question (by default the first 50 of the set's second half, which chose nothing) it asks
both ways and prints: answered right (the gold answer's words in the answer, case and punctuation
aside; yes/no by the answer's first word), answered wrong, refused (every question is answerable, so
a refusal is a false one), both supporting documents among the passages the model read ("evidence
recall"), and the median seconds per question. `--details FILE` writes a JSON line per ask.

    .venv/bin/python benchmarks/multihop/answers.py [--first 100 --count 50] [--details F]

Caveat: the packaged reranker and claim verifier were trained on rows of the same HaluEval file.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from pathlib import Path

from citedesk_engine.types import Decision
from retrieval import DATA, open_library


def normal(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def right(answer: str, gold: list[str]) -> bool:
    said = normal(answer)
    for expected in gold:
        wanted = normal(expected)
        if wanted in ("yes", "no"):
            if said.split()[:1] == [wanted]:
                return True
        elif wanted and wanted in said:
            return True
    return False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=100, help="index of the first question asked")
    parser.add_argument("--count", type=int, default=50)
    parser.add_argument("--details", type=Path)
    args = parser.parse_args()
    questions = [json.loads(line) for line in (DATA / "questions.jsonl").read_text().splitlines()]
    chosen = questions[args.first : args.first + args.count]
    details = args.details.open("w", encoding="utf-8") if args.details else None
    totals = {
        s: {"right": 0, "wrong": 0, "refused": 0, "evidence": 0, "seconds": []} for s in ("standard", "deep")
    }
    with open_library() as engine:
        documents = {d.document: Path(d.source_path).name for d in engine.documents()}
        for number, q in enumerate(chosen, start=1):
            for strategy in ("standard", "deep"):
                started = time.perf_counter()
                answer = engine.ask(q["question"], strategy=strategy)
                seconds = time.perf_counter() - started
                generate = next((t for t in answer.trace if t.stage == "generate"), None)
                read = generate.details.get("read", []) if generate is not None else []
                read_names = {
                    documents.get(engine.library.manifest.units_by_id([u])[u].document, "") for u in read
                }
                both = all(name in read_names for name in q["supporting"])
                row = totals[strategy]
                row["seconds"].append(seconds)
                row["evidence"] += both
                if answer.decision is Decision.ANSWERED:
                    row["right" if right(answer.text, q["answers"]) else "wrong"] += 1
                else:
                    row["refused"] += 1
                if details is not None:
                    stage = answer.refusal.stage.value if answer.refusal else None
                    deep = next((t.details for t in answer.trace if t.stage == "deep"), None)
                    line = {
                        "id": q["id"],
                        "strategy": strategy,
                        "question": q["question"],
                        "gold": q["answers"],
                        "decision": answer.decision.value,
                        "stage": stage,
                        "answer": answer.text,
                        "evidence_both": both,
                        "deep": deep,
                        "seconds": round(seconds, 1),
                    }
                    details.write(json.dumps(line, ensure_ascii=False) + "\n")
                    details.flush()
            print(f"{number}/{len(chosen)}", file=sys.stderr, flush=True)
    for strategy, row in totals.items():
        n = len(chosen)
        print(
            f"{strategy:<9} right {row['right']}/{n} ({row['right'] / n:.2f}), wrong {row['wrong']}, "
            f"refused {row['refused']} ({row['refused'] / n:.2f}), "
            f"evidence recall {row['evidence'] / n:.2f}, median {statistics.median(row['seconds']):.1f} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
