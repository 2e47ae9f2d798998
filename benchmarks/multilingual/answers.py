"""Whole answers across languages: the 30 declaration questions asked through the real engine (every
gate, the packaged generator), over a library in one language, the question in another or the same.

Run from the repository root, after `python3 benchmarks/multilingual/fetch.py` (libraries are reused
from benchmarks/multilingual/retrieval.py's --libraries folder when given the same one):

    .venv/bin/python benchmarks/multilingual/answers.py --libraries DIR [--embedder multilingual]
        [--pairs de:en de:de en:de en:en] [--details OUT.jsonl]

Each pair is LIBRARY:ASKED. An answer counts as citing the right article when every claim shown
stands on a passage that holds the article's text; as citing another passage otherwise (to be read:
most are wrong, some answer from the preamble or a neighbouring article). Refusals are counted by
stage. The questions carry no answer key in every language, so this is the cross-lingual figure
that can be checked without one: a wrong passage cited is the defect that matters.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter
from pathlib import Path

from citedesk_engine import Config, Engine
from citedesk_engine.config import ModelsConfig, RetrievalConfig
from retrieval import DATA, HERE, article_starts, gold_units


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--libraries", type=Path, required=True)
    parser.add_argument("--embedder", default="multilingual")
    parser.add_argument("--pairs", nargs="+", default=["de:en", "de:de", "en:de", "en:en"])
    parser.add_argument("--no-reformulate", action="store_true")
    parser.add_argument("--details", type=Path)
    args = parser.parse_args()
    questions = [json.loads(line) for line in (HERE / "udhr_questions.jsonl").read_text().splitlines()]
    details = args.details.open("w", encoding="utf-8") if args.details else None
    languages = () if args.no_reformulate else ("auto",)
    print(f"{'library':8} {'asked in':9} right article  other passage  refused (by stage)  s/question")
    for pair in args.pairs:
        library, asked = pair.split(":")
        config = Config(
            models=ModelsConfig(embedder=args.embedder), retrieval=RetrievalConfig(search_languages=languages)
        )
        with Engine.open(args.libraries / f"{library}-{args.embedder}", config) as engine:
            engine.ingest(sorted((DATA / library).iterdir()))
            gold = gold_units(engine, article_starts(DATA / library / "udhr.html"))
            right = other = 0
            refused: Counter[str] = Counter()
            took = []
            for q in questions:
                started = time.perf_counter()
                answer = engine.ask(q[asked])
                took.append(time.perf_counter() - started)
                cited = {u for c in answer.claims if c.supported for u in c.sources}
                if answer.refusal is not None:
                    refused[answer.refusal.stage.value] += 1
                elif cited and cited <= gold[q["article"]]:
                    right += 1
                else:
                    other += 1
                if details:
                    record = {
                        "pair": pair,
                        "article": q["article"],
                        "question": q[asked],
                        "answer": answer.text,
                        "refusal": None if answer.refusal is None else answer.refusal.stage.value,
                        "claims": [(c.text, c.supported, c.method) for c in answer.claims],
                        "right_article": bool(cited) and cited <= gold[q["article"]],
                    }
                    details.write(json.dumps(record, ensure_ascii=False) + "\n")
                    details.flush()
            n = len(questions)
            stages = ", ".join(f"{stage} {count}" for stage, count in refused.most_common()) or "none"
            total = sum(refused.values())
            print(
                f"{library:8} {asked:9} {right:>6}/{n}      {other:>6}/{n}     {total:>3}/{n} "
                f"({stages})  {statistics.median(took):.0f}",
                flush=True,
            )
    if details:
        details.close()


if __name__ == "__main__":
    main()
