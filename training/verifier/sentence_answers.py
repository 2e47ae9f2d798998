"""Right answers written as sentences: how the per-claim gate treats honest sentence answers.

    python training/verifier/sentence_answers.py     # ~18 min on 2 cores; writes val_sentences.jsonl
    python training/verifier/sentence_answers.py --split train --per-source 600 --shard 0/2 &
    python training/verifier/sentence_answers.py --split train --per-source 600 --shard 1/2   # ~35 min

The app's generator often answers in a sentence, and the per-claim gate judges such a sentence as a
claim. Our validation split (training/data/verifier/val.jsonl) holds HaluEval's hallucinated answers,
which are sentences, but its right answers are short spans (HaluEval, SQuAD-Shifts spans), so it says
nothing about right answers in sentence form. This script writes them: the packaged generator (the
app's, at temperature 0) restates each of 200 seeded right short answers per source (HaluEval and
SQuAD-Shifts rows of the split), with its question, as one sentence. It does not see the evidence, so
it can only say what the question and the answer say. A sentence is kept when it has more than the
gate's short-answer words, holds every content word of the answer, and adds no name that neither the
question nor the answer has (a generator's slip would otherwise be labelled supported). From the
validation split (the default) nothing is trained: evaluate.py reports the gate's supported recall on
them (measured 2026-12-01: SQuAD-Shifts 0.91, multi-hop HaluEval 0.19; see the verifier's card). With
--split train the same is done for training rows (train_sentences[.i].jsonl, one file a shard, read
by train.py's "sentences" and "balanced" mixes with the wrong answers below), so that in the
verifier's question-form data a right answer is not always short and a wrong one not always a
sentence. Tried 2026-12-01, not shipped: see the verifier's card.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "reranker"))
from citedesk_engine import Config, Engine  # noqa: E402
from citedesk_engine.answer.claims import sentences  # noqa: E402
from citedesk_engine.answer.text import STOPWORDS, content_stems, names, stem, words  # noqa: E402
from citedesk_engine.answer.verify import SHORT_ANSWER_WORDS  # noqa: E402
from citedesk_engine.protocols import Generator  # noqa: E402
from common import SEED, read_jsonl  # noqa: E402
from common import VERIFIER_PREPARED as PREPARED  # noqa: E402

SOURCES = ("halueval", "squad_spans")
PER_SOURCE = 200  # seeded draw of each source's right answers (~2.7 s a sentence on 2 cores)
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


# A name as a passage writes it ("Adam Shankman", "University of Oxford"), or a number.
_NAME = re.compile(
    r"\b[A-Z][\w'’.&-]*(?:\s+(?:(?:of|the|for|and|de|la|von|van|der)\s+)*[A-Z][\w'’.&-]*)*|\b\d[\d,.]*\b"
)


def wrong_answers(restated_rows: list[dict], split_rows: list[dict]) -> list[dict]:
    """Negatives of the same form as the restated right answers, for training: each sentence with its
    answer swapped for a wrong one (SQuAD-Shifts: the other question's span prepare.py paired with it;
    HaluEval: another name or number of the passage, the slip a multi-hop question invites), and for
    HaluEval the wrong name alone too, since there its only short answers are right ones."""
    paired = {r["id"]: r["claim"] for r in split_rows if r["label"] == 1}
    out = []
    for row in restated_rows:
        answer, sentence = row["answer"], row["claim"]
        at = sentence.lower().find(answer.lower())
        if at < 0:
            continue
        if row["source"].startswith("squad_spans"):
            wrong = paired.get(row["id"].removesuffix("-s").removesuffix("-r") + "-w")
        else:
            wrong = _other_name(row)
        if not wrong:
            continue
        swapped = sentence[:at] + wrong + sentence[at + len(answer) :]
        base = {**row, "label": 1, "answer": wrong}
        out.append({**base, "id": row["id"] + "-w", "claim": swapped})
        if not row["source"].startswith("squad_spans"):
            out.append({**base, "id": row["id"] + "-ws", "claim": wrong})
    return out


def _other_name(row: dict) -> str | None:
    """A name (or, for a numeric answer, a number) of the evidence that shares no word with the
    answer or the question; seeded by the row's id."""
    numeric = bool(re.fullmatch(r"[\d,.]+", row["answer"].strip()))
    taken = set(words(row["answer"])) | set(words(row["question"]))
    found = sorted(
        {
            m.group(0).strip(" .,")
            for m in _NAME.finditer(row["evidence"])
            if m.group(0)[0].isdigit() == numeric
            and not set(words(m.group(0))) & taken
            and set(words(m.group(0))) - STOPWORDS
            and len(m.group(0)) >= 4
        }
    )
    if not found:
        return None
    return found[int(hashlib.sha256(row["id"].encode()).hexdigest(), 16) % len(found)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--split", choices=("val", "train"), default="val")
    ap.add_argument("--per-source", type=int, default=PER_SOURCE)
    ap.add_argument("--shard", default="0/1", help="i/n: restate every n-th drawn row from the i-th")
    args = ap.parse_args()
    shard, shards = (int(x) for x in args.shard.split("/"))
    out = PREPARED / (f"{args.split}_sentences" + (f".{shard}" if shards > 1 else "") + ".jsonl")
    split = read_jsonl(PREPARED / f"{args.split}.jsonl")
    rows = []
    for source in SOURCES:
        right = [r for r in split if r["source"] == source and r["label"] == 0 and r["question"]]
        rows += random.Random(f"{SEED}:{source}").sample(right, min(args.per_source, len(right)))
    rows = rows[shard::shards]
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
    out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in kept), encoding="utf-8")
    seconds = time.perf_counter() - started
    print(f"{len(kept)} of {len(rows)} right answers kept as sentences -> {out} ({seconds:.0f} s)")


if __name__ == "__main__":
    main()
