"""Prepare the answer reader's data: SQuAD-Shifts questions with the character span of each answer.

    python training/reader/prepare.py        # writes training/data/reader/{train,val,test}.jsonl

Sources (the bigbench 1.0.0 sdist from PyPI, fetched by training/reranker/prepare.py or here):
  train / val: SQuAD-Shifts new_wiki, amazon_reviews, reddit (split by article, reddit by comment;
               val never shares a group with train)
  test:        SQuAD-Shifts nyt, never trained or tuned on (a domain the reader has not seen)
Every question, title and passage is checked against /work/shared/eval (the exclusion list, every
text of every row, 13-word shingles of long texts); drops are counted in stats.json.

Row: {id, source, group, question, context, answers: [{text, start}]}.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "reranker"))
from common import DATA, RAW, SEED, SQUAD_SHIFTS, Guard, as_question, fetch_bigbench, write_jsonl  # noqa: E402

OUT = DATA / "reader"
HELD_OUT = {"ss_nyt": "nyt_v1.0.json"}
VAL_PERCENT = 6  # of groups


def fetch() -> None:
    wanted = {f"squad_shifts/{n}": RAW / "squad_shifts" / n for n in SQUAD_SHIFTS.values()}
    wanted |= {f"squad_shifts/{n}": RAW / "squad_shifts_heldout" / n for n in HELD_OUT.values()}
    missing = {m: p for m, p in wanted.items() if not p.exists()}
    if missing:
        fetch_bigbench(missing)


def is_val(group: str) -> bool:
    return int(hashlib.sha256(f"{SEED}:reader:{group}".encode()).hexdigest(), 16) % 100 < VAL_PERCENT


def load(name: str, path: Path, guard: Guard) -> list[dict]:
    rows = []
    for art in json.loads(path.read_text(encoding="utf-8"))["data"]:
        title = art["title"]
        if not guard.title_ok(title, name):
            continue
        for pi, para in enumerate(art["paragraphs"]):
            context = para["context"]
            if not guard.passage_ok(context.strip(), name):
                continue
            group = f"{title}#{pi}" if name == "ss_reddit" else title
            for qa in para["qas"]:
                if not guard.text_ok(qa["question"], "question", name):
                    continue
                answers, seen = [], set()
                for a in qa["answers"]:
                    text, start = a["text"], a["answer_start"]
                    if (
                        not text.strip()
                        or context[start : start + len(text)] != text
                        or (start, text) in seen
                    ):
                        guard.drops[f"{name}:answer:span_mismatch_or_duplicate"] += 1
                        continue
                    seen.add((start, text))
                    answers.append({"text": text, "start": start})
                if answers:
                    rows.append(
                        {
                            "id": qa["id"],
                            "source": name,
                            "group": group,
                            "question": as_question(qa["question"].strip()),
                            "context": context,
                            "answers": answers,
                        }
                    )
    return rows


def main() -> None:
    fetch()
    guard = Guard()
    train, val, test = [], [], []
    for name, file in SQUAD_SHIFTS.items():
        for row in load(name, RAW / "squad_shifts" / file, guard):
            (val if is_val(row["group"]) else train).append(row)
    for name, file in HELD_OUT.items():
        test += load(name, RAW / "squad_shifts_heldout" / file, guard)
    stats = {
        "rows": {
            "train": Counter(r["source"] for r in train),
            "val": Counter(r["source"] for r in val),
            "test": Counter(r["source"] for r in test),
        },
        "drops": dict(guard.drops),
    }
    for split, rows in (("train", train), ("val", val), ("test", test)):
        write_jsonl(OUT / f"{split}.jsonl", rows)
    (OUT / "stats.json").write_text(json.dumps(stats, indent=1, default=dict))
    print(json.dumps(stats, indent=1, default=dict))


if __name__ == "__main__":
    main()
