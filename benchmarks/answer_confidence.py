#!/usr/bin/env python3
"""The answer model's own certainty, alone and with the answer reader, as a sign of a wrong short
answer that the gate lets through.

Most wrong answers shown as verified are another span of the right passage (docs/evaluation.md): every
word stands in the passage, so no check of the words can refuse them. The local model says, token by
token, how sure it was of what it wrote (`LocalGenerator.last_tokens`), and the answer reader
(answer_span.py) says where the passage answers the question. This measures how well each, and the
reader asked only about answers the model hesitated over ([verify] reader_below_certainty), tell
right short answers from wrong ones, on questions the code has never been tuned on:

    python3 training/reader/prepare.py          # SQuAD-Shifts rows (PyPI's bigbench sdist), once
    .venv/bin/python benchmarks/answer_confidence.py ask --split val --out A.jsonl
    .venv/bin/python benchmarks/answer_confidence.py table A.jsonl [B.jsonl ...]

`ask` writes the articles of the questions chosen (all their paragraphs, one text file an article)
into a fresh library, asks each question on its own through `Engine.ask` with the default models but
the reader off (so that no answer is refused by it), and writes one JSON line per question: the answer,
the refusing stage, and the answer's tokens with their probabilities. `table` reads the short answers
shown (five words or fewer), right when they share at least half of a gold answer's words (SQuAD's
token F1 >= 0.5: "2 hours later" for "Two hours later" is right), asks the packaged reader about each
against the question's own paragraph, and prints how well certainty and reader separate right from
wrong (AUROC) and what the reader refuses when asked only below each certainty. val (SQuAD-Shifts
wiki, amazon, reddit) is for choosing; test (nyt) is held out.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from citedesk_engine import Engine
from citedesk_engine.answer.answer_span import agreement
from citedesk_engine.answer.certainty import word_probabilities
from citedesk_engine.answer.text import SHORT_ANSWER_WORDS
from citedesk_engine.config import Config, cache_dir
from citedesk_engine.evaluate.questions import normalize
from citedesk_engine.models.reader import build_answer_reader
from citedesk_engine.models.registry import ModelRegistry
from citedesk_engine.types import GeneratedToken

ROOT = Path(__file__).resolve().parents[1]
ROWS = ROOT / "training" / "data" / "reader"
PER_ARTICLE = 3  # questions asked of one article, so that many articles are seen


def choose(split: str, questions: int, seed: int) -> tuple[list[dict], dict[str, list[str]]]:
    """`questions` rows spread over articles, and every paragraph of those articles."""
    rows = [json.loads(line) for line in (ROWS / f"{split}.jsonl").read_text(encoding="utf-8").splitlines()]
    by_group: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        by_group[f"{row['source']}:{row['group']}"].append(row)
    groups = sorted(by_group)
    rng = random.Random(seed)
    rng.shuffle(groups)
    chosen: list[dict] = []
    articles: dict[str, list[str]] = {}
    for group in groups:
        if len(chosen) >= questions:
            break
        members = by_group[group]
        articles[group] = list(dict.fromkeys(row["context"].strip() for row in members))
        chosen += rng.sample(members, min(PER_ARTICLE, len(members), questions - len(chosen)))
    return chosen, articles


def ask(args: argparse.Namespace) -> int:
    chosen, articles = choose(args.split, args.questions, args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "articles"
        folder.mkdir()
        for n, (group, paragraphs) in enumerate(sorted(articles.items())):
            name = re.sub(r"[^\w-]+", "_", group)[:60]
            (folder / f"{n:03d}-{name}.txt").write_text("\n\n".join(paragraphs) + "\n", encoding="utf-8")
        # The reader off, so that every answer the other checks pass is seen with its certainty.
        defaults = Config()
        config = replace(defaults, models=replace(defaults.models, reader="none"))
        library = Path(tmp) / "library"
        with Engine.open(library, config=config) as engine, open(args.out, "w", encoding="utf-8") as out:
            engine.ingest([folder])
            print(f"{len(articles)} articles, {len(chosen)} questions", file=sys.stderr)
            for n, row in enumerate(chosen, 1):
                answer = engine.ask(row["question"])
                stage = next((t for t in answer.trace if t.stage == "generate"), None)
                tokens = stage.details.get("tokens", []) if stage else []
                shown = " ".join(c.text for c in answer.claims if c.supported)
                result = {
                    "id": row["id"],
                    "question": row["question"],
                    "gold": [a["text"] for a in row["answers"]],
                    "text": answer.text,
                    "shown": shown,
                    "refused": answer.refusal.stage.value if answer.refusal else "",
                    "split": args.split,
                    "tokens": tokens,
                    "methods": [c.method for c in answer.claims],
                }
                out.write(json.dumps(result) + "\n")
                out.flush()
                print(f"{n}/{len(chosen)} {result['refused'] or 'answered'}: {shown[:60]!r}", file=sys.stderr)
    return 0


def content_probabilities(tokens: Sequence[Sequence[object]]) -> list[float]:
    return word_probabilities([GeneratedToken(str(text), float(p)) for text, p in tokens])  # type: ignore[arg-type]


def auroc(right: list[float], wrong: list[float]) -> float:
    """The chance that a right answer scores above a wrong one (ties count half)."""
    if not right or not wrong:
        return float("nan")
    wins = sum((r > w) + 0.5 * (r == w) for r in right for w in wrong)
    return wins / (len(right) * len(wrong))


def f1(said: str, gold: str) -> float:
    """SQuAD's token F1 of an answer against one gold answer."""
    a, b = normalize(said).split(), normalize(gold).split()
    common = sum((Counter(a) & Counter(b)).values())
    return 0.0 if not common else 2 * common / (len(a) + len(b))


def table(args: argparse.Namespace) -> int:
    rows = [json.loads(line) for path in args.files for line in Path(path).read_text().splitlines()]
    paragraphs = {}
    for split in {r.get("split", "val") for r in rows}:
        for line in (ROWS / f"{split}.jsonl").read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            paragraphs[row["id"]] = row["context"]
    config = Config()
    reader = build_answer_reader(ModelRegistry(replace(config.models, reader="packaged"), cache_dir()))
    assert reader is not None
    scored = []  # (certainty, reader agreement, right)
    for r in rows:
        if r["refused"] or not r["shown"] or len(r["shown"].split()) > SHORT_ANSWER_WORDS:
            continue
        words = content_probabilities(r["tokens"])
        if not words:
            continue
        share = agreement(r["shown"], r["question"], reader.spans(r["question"], paragraphs[r["id"]]))
        right = max(f1(r["shown"], g) for g in r["gold"]) >= 0.5
        scored.append((min(words), share, right))
    right = [x for x in scored if x[2]]
    wrong = [x for x in scored if not x[2]]
    print(f"{len(rows)} questions, {len(scored)} short answers shown: {len(right)} right, {len(wrong)} wrong")
    print(
        f"AUROC: certainty (least sure word) {auroc([x[0] for x in right], [x[0] for x in wrong]):.3f}, "
        f"reader agreement {auroc([x[1] for x in right], [x[1] for x in wrong]):.3f}"
    )
    limit = config.verify.min_reader_agreement
    print(f"refused by certainty alone, and by the reader (agreement < {limit}) asked below a certainty:")
    for below in args.below:
        alone = [sum(x[0] < below for x in group) for group in (right, wrong)]
        read = [sum(x[0] < below and x[1] < limit for x in group) for group in (right, wrong)]
        print(
            f"  below {below:4.2f}: alone right {alone[0]:3}/{len(right)} wrong {alone[1]:3}/{len(wrong)};"
            f" reader right {read[0]:3}/{len(right)} wrong {read[1]:3}/{len(wrong)}"
        )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    a = sub.add_parser("ask")
    a.add_argument("--split", default="val", choices=("train", "val", "test"))
    a.add_argument("--questions", type=int, default=240)
    a.add_argument("--seed", type=int, default=13)
    a.add_argument("--out", required=True)
    t = sub.add_parser("table")
    t.add_argument("files", nargs="+")
    t.add_argument("--below", type=float, nargs="*", default=[0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.01])
    args = parser.parse_args()
    return ask(args) if args.command == "ask" else table(args)


if __name__ == "__main__":
    sys.exit(main())
