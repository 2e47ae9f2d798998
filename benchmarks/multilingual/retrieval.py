"""Cross-lingual and monolingual retrieval on aligned real text: Recall@k of the right article of the
Universal Declaration of Human Rights, asked in English, German and French, over a library in one
language (the declaration plus two chapters of Debian's reference manual in that language).

Run from the repository root, after `python3 benchmarks/multilingual/fetch.py`:

    .venv/bin/python benchmarks/multilingual/retrieval.py [--embedders default multilingual]
        [--libraries DIR] [--k 5] [--reformulate]

The 30 questions (`udhr_questions.jsonl`, one per article, each in the three languages) were written
by hand from the articles' meaning before any run, mostly not in the articles' words. A question
counts as found when one of the top k candidates (the whole retrieval: every retriever, fusion,
reranker) holds the start of its article. Printed per library language, question language and
embedder, with the vector retriever alone beside it.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import tempfile
import time
from pathlib import Path

from citedesk_engine import Config, Engine
from citedesk_engine.config import ModelsConfig, RetrievalConfig
from lxml import html

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "data" / "multilingual"
LANGUAGES = ("en", "de", "fr")


def article_starts(declaration: Path) -> dict[int, str]:
    """Each article's first 60 characters of text (whitespace folded), by number."""
    tree = html.fromstring(declaration.read_text(encoding="utf-8"))
    starts = {}
    for article in tree.iter("article"):
        text = " ".join(p.text_content() for p in article.iter("p"))
        starts[int(article.get("data-number"))] = _fold(text)[:60]
    return starts


def _fold(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def build(folder: Path, language: str, embedder: str, reformulate: bool) -> Engine:
    retrieval = RetrievalConfig(search_languages=("auto",) if reformulate else ())
    engine = Engine.open(folder, Config(models=ModelsConfig(embedder=embedder), retrieval=retrieval))
    started = time.perf_counter()
    report = engine.ingest(sorted((DATA / language).iterdir()))
    units = sum(len(engine.units(d.document)) for d in engine.documents())
    took = time.perf_counter() - started
    if report.units and took > 1:
        print(f"  library {language} / {embedder}: {units} units, ingested in {took:.0f} s")
    return engine


def gold_units(engine: Engine, starts: dict[int, str]) -> dict[int, set[str]]:
    units = [u for d in engine.documents() for u in engine.units(d.document)]
    return {n: {u.unit_id for u in units if start in _fold(u.passage)} for n, start in starts.items()}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--embedders", nargs="+", default=["default", "multilingual"])
    parser.add_argument("--libraries", type=Path, help="keep the libraries here (a second run reuses them)")
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument(
        "--reformulate", action="store_true", help='[retrieval] search_languages = ["auto"] (else [])'
    )
    args = parser.parse_args()
    questions = [json.loads(line) for line in (HERE / "udhr_questions.jsonl").read_text().splitlines()]
    root = args.libraries or Path(tempfile.mkdtemp(prefix="citedesk-multilingual-"))
    print(f"{'library':8} {'asked in':9} {'embedder':13} recall@{args.k}  vector alone  ms/question")
    for language in LANGUAGES:
        starts = article_starts(DATA / language / "udhr.html")
        for embedder in args.embedders:
            with build(root / f"{language}-{embedder}", language, embedder, args.reformulate) as engine:
                gold = gold_units(engine, starts)
                missing = [n for n, ids in gold.items() if not ids]
                if missing:
                    raise SystemExit(f"articles {missing} of {language} are in no unit: fix article_starts")
                engine.retrieve("warm up", args.k)
                for asked in LANGUAGES:
                    found = vector = 0
                    took = []
                    for q in questions:
                        wanted = gold[q["article"]]
                        started = time.perf_counter()
                        ranked = engine.retrieve(q[asked], args.k)
                        took.append((time.perf_counter() - started) * 1000)
                        found += any(c.unit.unit_id in wanted for c in ranked.candidates)
                        alone = engine.retrieve(q[asked], args.k, signals=("vector",), rerank=False)
                        vector += any(c.unit.unit_id in wanted for c in alone.candidates)
                    n = len(questions)
                    print(
                        f"{language:8} {asked:9} {embedder:13} {found / n:9.3f}  {vector / n:12.3f}"
                        f"  {statistics.median(took):11.0f}",
                        flush=True,
                    )


if __name__ == "__main__":
    main()
