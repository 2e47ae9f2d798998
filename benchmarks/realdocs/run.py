"""The real-document set through the real engine: right, wrong but shown as verified, refused (by stage).

Run from the repository root, after `python3 benchmarks/realdocs/fetch.py`:

    .venv/bin/python benchmarks/realdocs/run.py [--details OUT.jsonl] [--library DIR] [--only ID ...]

Every question is asked on its own (no conversation), with the default models and configuration,
over one library holding all eight documents (built in a temporary folder, or in --library, where a
second run skips the unchanged files). An answerable question counts as
  * right: answered, and the answer holds one of the accepted answers (all of them for list
    questions), as whole words after SQuAD's normalisation;
  * wrong but shown: answered (a verified answer is on screen) without an accepted answer;
  * refused, by the refusing stage.
An off-document question is right when refused and wrong but shown when answered. Beside that:
whether an answer cites the gold document and page, how many answers shown were marked unsure (the
answer model unsure of a verified short answer: Claim.caution), right and wrong, and every conflict
line printed under an answer (each to be read by hand: a conflict must be two statements that cannot
both be true).

The automatic match is strict ("21 minutes" is not "21-minute"); --details writes one JSON line per
question with the answer, its citations and the refusal, to check the "wrong" ones by reading them.
The questions were written before CiteDesk ever ran on these documents (README.md); never choose a
threshold on them alone.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

from citedesk_engine import Engine
from citedesk_engine.answer.text import stem
from citedesk_engine.evaluate.questions import normalize
from citedesk_engine.types import Answer

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "data" / "realdocs"


def _words(text: str) -> str:
    """Lower-case word stems, punctuation as spaces ("/usr/bin/dash" holds "dash", "outperformed"
    holds "outperform"), articles dropped: SQuAD's normalisation, made word-exact."""
    spaced = "".join(ch if ch.isalnum() or ch.isspace() else " " for ch in text.lower())
    return " ".join(stem(w) for w in normalize(spaced).split())


def accepted(answer: str, expected: list[str], every: bool) -> bool:
    """The answer holds the accepted answers as whole words ("no" is not found in "not"); an
    accepted answer of symbols only ("%") is looked for as written."""
    said = f" {_words(answer)} "
    found = [
        (f" {_words(e)} " in said) if _words(e) else (e.strip() in answer) for e in expected if e.strip()
    ]
    return bool(found) and (all(found) if every else any(found))


# A question whose notes ask for every answer: "All five expected.", "Both values expected."
_EVERY = re.compile(r"\b(?:all|both)\b[^.]*\bexpected\b", re.IGNORECASE)


def outcome(row: dict, answer: Answer) -> str:
    if row["document"] is None:
        return "right" if answer.refusal is not None else "wrong but shown"
    if answer.refusal is not None:
        return f"refused: {answer.refusal.stage.value}"
    every = row["kind"] == "list" or bool(_EVERY.search(row.get("notes") or ""))
    return "right" if accepted(answer.text, row["answers"], every) else "wrong but shown"


def cites(row: dict, answer: Answer) -> tuple[bool, bool]:
    """Whether a cited source is the gold document, and the gold page (PDF) or passage (others)."""
    document = page = False
    gold = " ".join((row.get("passage") or "").split())[:60]
    for source in answer.sources:
        if Path(source.path).name != row["document"]:
            continue
        document = True
        if row.get("page") is not None:
            page = page or source.page == row["page"]
        else:
            page = page or gold[:40] in " ".join(source.passage.split())
    return document, page


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--details", type=Path, help="one JSON line per question")
    parser.add_argument("--library", type=Path, help="keep the library here (a re-run skips unchanged files)")
    parser.add_argument("--limit", type=int, default=0, help="only the first N questions")
    parser.add_argument("--only", nargs="*", default=[], help="only these question ids")
    parser.add_argument(
        "--available",
        action="store_true",
        help="run on the documents fetch.py could get, and only their questions (figures then cover fewer "
        "questions than the tables of docs/evaluation.md)",
    )
    args = parser.parse_args()
    sources = json.loads((HERE / "sources.json").read_text(encoding="utf-8"))
    missing = [s["name"] for s in sources if not (DATA / s["name"]).is_file()]
    if missing and not args.available:
        print(f"missing in {DATA}: {', '.join(missing)}; run: python3 benchmarks/realdocs/fetch.py")
        return 2
    sources = [s for s in sources if s["name"] not in missing]
    rows = [json.loads(line) for line in (HERE / "questions.jsonl").read_text(encoding="utf-8").splitlines()]
    if missing:
        print(f"left out, with their questions: {', '.join(missing)}")
        rows = [r for r in rows if r.get("document") not in missing]
    if args.only:
        rows = [r for r in rows if r["id"] in args.only]
    if args.limit:
        rows = rows[: args.limit]
    with tempfile.TemporaryDirectory() as scratch:
        library = args.library or Path(scratch) / "library"
        with Engine.open(library) as engine:
            started = time.perf_counter()
            report = engine.ingest([DATA / s["name"] for s in sources])
            for file in report.files:
                name = Path(file.path).name
                print(f"ingest  {name:48s} {file.status.value:9s} {file.units:5d} units  {file.reason}")
            print(f"ingest  {time.perf_counter() - started:.0f} s")
            engine.load_generator()
            results = [ask(engine, row) for row in rows]
    if args.details:
        with args.details.open("w", encoding="utf-8") as handle:
            for result in results:
                handle.write(json.dumps(result, ensure_ascii=False) + "\n")
    summarise(results)
    return 0


def ask(engine: Engine, row: dict) -> dict:
    started = time.perf_counter()
    answer = engine.ask(row["question"])
    seconds = time.perf_counter() - started
    result = {
        "id": row["id"],
        "document": row["document"],
        "kind": row["kind"],
        "question": row["question"],
        "expected": row["answers"],
        "outcome": outcome(row, answer),
        "answer": answer.text,
        "quote": answer.quote,
        "refusal": None
        if answer.refusal is None
        else {"stage": answer.refusal.stage.value, "reason": answer.refusal.reason},
        "generated": (answer.refusal.details.get("generated") if answer.refusal else None),
        "cited": [
            {"document": Path(s.path).name, "page": s.page, "passage": " ".join(s.passage.split())[:300]}
            for s in answer.sources
        ],
        "claims": [
            {"text": c.text, "supported": c.supported, "method": c.method, "caution": c.caution}
            for c in answer.claims
        ],
        # Shown marked "unsure" (Claim.caution): verified, the answer model unsure of it.
        "unsure": any(c.supported and c.caution for c in answer.claims),
        "conflicts": [f"{c.kind}: {c.detail}" for c in answer.conflicts],
        "seconds": round(seconds, 2),
    }
    if row["document"] is not None and answer.refusal is None:
        result["cites_document"], result["cites_page"] = cites(row, answer)
    mark = {"right": "+", "wrong but shown": "X"}.get(result["outcome"], "-")
    shown = answer.text if answer.refusal is None else f"[{answer.refusal.stage.value}]"
    shown = " ".join(shown.split())[:90]
    print(f"{mark} {row['id']} {row['question'][:70]:70s} -> {shown}", flush=True)
    return result


def summarise(results: list[dict]) -> None:
    answerable = [r for r in results if r["document"] is not None]
    off = [r for r in results if r["document"] is None]
    print()
    if answerable:
        outcomes = Counter(r["outcome"] for r in answerable)
        n = len(answerable)
        refused = sum(v for k, v in outcomes.items() if k.startswith("refused"))
        answered = [r for r in answerable if r["refusal"] is None]
        print(
            f"answerable {n}: right {outcomes['right']} ({outcomes['right'] / n:.2f}), wrong but shown "
            f"{outcomes['wrong but shown']} ({outcomes['wrong but shown'] / n:.2f}), refused {refused} "
            f"({refused / n:.2f}: "
            + ", ".join(
                f"{k.split(': ')[1]} {v}" for k, v in sorted(outcomes.items()) if k.startswith("refused")
            )
            + ")"
        )
        if answered:
            documents = sum(r["cites_document"] for r in answered)
            pages = sum(r["cites_page"] for r in answered)
            quotes = sum(r["quote"] for r in answered)
            print(
                f"  of {len(answered)} answered: cite the gold document {documents}, the gold page/passage "
                f"{pages}; quotes {quotes}"
            )
        for document, counts in sorted(_outcomes_by(answerable, "document").items()):
            total = sum(counts.values())
            print(
                f"  {document:48s} {counts['right']:2d}/{total:2d} right, "
                f"{counts['wrong but shown']} wrong, {counts['refused']} refused"
            )
        by_kind = _outcomes_by(answerable, "kind")
        print(
            "  by kind: "
            + ", ".join(f"{k} {c['right']}/{sum(c.values())}" for k, c in sorted(by_kind.items()))
        )
    if off:
        refused = sum(1 for r in off if r["refusal"] is not None)
        print(f"off-document {len(off)}: refused {refused} ({refused / len(off):.2f})")
    shown = [r for r in results if r["refusal"] is None]
    unsure = Counter(r["outcome"] for r in shown if r.get("unsure"))
    sure = Counter(r["outcome"] for r in shown if not r.get("unsure"))
    print(
        f"shown marked unsure: right {unsure['right']}, wrong {unsure['wrong but shown']}; "
        f"shown unmarked: right {sure['right']}, wrong {sure['wrong but shown']}"
    )
    conflicts = [(r["id"], c) for r in results for c in r["conflicts"]]
    print(f"conflict lines under answers: {len(conflicts)} (read each: is it a real contradiction?)")
    for qid, line in conflicts:
        print(f"  {qid}: {line[:220]}")
    seconds = [r["seconds"] for r in results]
    if seconds:
        print(f"ask median {statistics.median(seconds):.1f} s, max {max(seconds):.1f} s")


def _outcomes_by(results: list[dict], field: str) -> dict[str, Counter[str]]:
    """Outcomes ("right", "wrong but shown", "refused") counted per value of a question's field."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for r in results:
        counts[r[field]][r["outcome"].split(":")[0]] += 1
    return counts


if __name__ == "__main__":
    sys.exit(main())
