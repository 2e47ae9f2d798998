"""Right answers written as sentences: how the per-claim gate treats honest sentence answers.

    python training/verifier/sentence_answers.py     # ~18 min on 2 cores; writes val_sentences.jsonl

The app's generator often answers in a sentence, and the per-claim gate judges such a sentence as a
claim. Our validation split (training/data/verifier/val.jsonl) holds HaluEval's hallucinated answers,
which are sentences, but its right answers are short spans (HaluEval, SQuAD-Shifts spans), so it says
nothing about right answers in sentence form. This script writes them: the packaged generator (the
app's, at temperature 0) restates each of 200 seeded right short answers per source (HaluEval and
SQuAD-Shifts rows of the split), with its question, as one sentence. It does not see the evidence, so
it can only say what the question and the answer say. A sentence is kept when it has more than the
gate's short-answer words, holds every content word of the answer, and adds no name that neither the
question nor the answer has (a generator's slip would otherwise be labelled supported). Only
validation rows are read; nothing is trained on them. evaluate.py reports the gate's supported recall
on them (measured 2026-12-01: SQuAD-Shifts 0.91, multi-hop HaluEval 0.19; see the verifier's card).
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "reranker"))
from citedesk_engine import Config, Engine  # noqa: E402
from citedesk_engine.answer.claims import sentences  # noqa: E402
from citedesk_engine.answer.text import content_stems, names, stem, words  # noqa: E402
from citedesk_engine.answer.verify import SHORT_ANSWER_WORDS  # noqa: E402
from citedesk_engine.protocols import Generator  # noqa: E402
from common import SEED, read_jsonl  # noqa: E402
from common import VERIFIER_PREPARED as PREPARED  # noqa: E402

OUT = PREPARED / "val_sentences.jsonl"
SOURCES = ("halueval", "squad_spans")
PER_SOURCE = 200  # seeded draw of each source's right answers (~2 s a sentence on 2 cores)
SYSTEM = (
    "Rewrite the answer to the question as one short, complete sentence. Use only the words of the "
    "question and the answer; add nothing else."
)


def restated(generator: Generator, question: str, answer: str) -> str:
    messages = [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": f"Question: {question}\nAnswer: {answer}"},
    ]
    text = generator.generate(messages, max_tokens=60).strip()
    first = sentences(text)
    return first[0].strip() if first else text


def keep(sentence: str, question: str, answer: str) -> bool:
    if len(words(sentence)) <= SHORT_ANSWER_WORDS:
        return False
    said = set(content_stems(sentence))
    if not set(content_stems(answer)) <= said:
        return False
    known = {stem(w) for w in words(question) + words(answer)}
    return not (names(sentence) - known)


def main() -> None:
    val = read_jsonl(PREPARED / "val.jsonl")
    rows = []
    for source in SOURCES:
        right = [r for r in val if r["source"] == source and r["label"] == 0 and r["question"]]
        rows += random.Random(f"{SEED}:{source}").sample(right, min(PER_SOURCE, len(right)))
    started = time.perf_counter()
    kept = []
    with tempfile.TemporaryDirectory() as tmp, Engine.open(Path(tmp) / "lib", Config()) as engine:
        generator = engine.generator()
        for i, row in enumerate(rows, 1):
            sentence = restated(generator, row["question"], row["claim"])
            if keep(sentence, row["question"], row["claim"]):
                kept.append(
                    {
                        **row,
                        "id": row["id"] + "-s",
                        "source": row["source"] + "_sentence",
                        "claim": sentence,
                        "answer": row["claim"],
                    }
                )
            if i % 50 == 0:
                print(
                    f"{i}/{len(rows)} read, {len(kept)} kept, {time.perf_counter() - started:.0f} s",
                    flush=True,
                )
    OUT.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in kept), encoding="utf-8")
    seconds = time.perf_counter() - started
    print(f"{len(kept)} of {len(rows)} right answers kept as sentences -> {OUT} ({seconds:.0f} s)")


if __name__ == "__main__":
    main()
