"""Which questions the unknown-term check flags (answer/unknown_terms.py): a question naming a word
the library never writes, nor one spelled like it, is refused at relevance.

    .venv/bin/python benchmarks/unknown_terms.py [--realdocs-library DIR] [--list]

squad-dev (../shared/eval/squad-dev: 400 answerable and 100 off-corpus questions over 12 Wikipedia
articles) is ingested into a temporary library (about a minute) and every question
is checked; with --realdocs-library (a library `benchmarks/realdocs/run.py --library DIR` built),
the real-document set's 85 answerable and 19 off-document questions too. A flagged answerable
question is a false refusal; a flagged off-corpus one, a refusal that needs no generator. Only the
check runs: no retrieval, no model but the word list.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from citedesk_engine import Engine

ROOT = Path(__file__).resolve().parents[1]
SQUAD = ROOT.parent / "shared" / "eval" / "squad-dev"
REALDOCS = ROOT / "benchmarks" / "realdocs" / "questions.jsonl"


def report(name: str, engine: Engine, rows: list[dict], answerable: str, show: bool) -> None:
    """How many rows are flagged, answerable (`answerable`: the field a question its documents cannot
    answer leaves empty) and not; with `show`, each flagged question and its words."""
    flagged = [(row, terms) for row in rows if (terms := engine.unknown_terms(row["question"]))]
    on = [(r, t) for r, t in flagged if r.get(answerable)]
    off = [(r, t) for r, t in flagged if not r.get(answerable)]
    total = sum(1 for r in rows if r.get(answerable))
    print(f"{name}: flagged {len(on)} of {total} answerable (false refusals), ", end="")
    print(f"{len(off)} of {len(rows) - total} off")
    if show:
        for label, group in (("answerable", on), ("off", off)):
            for row, terms in group:
                print(f"  {label:10s} {', '.join(terms):30s} {row['question'][:90]}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--realdocs-library", type=Path, help="a library of the real-document set")
    parser.add_argument("--list", action="store_true", help="print every flagged question and its words")
    args = parser.parse_args()
    if not SQUAD.is_dir():
        print(f"squad-dev not found at {SQUAD} (the team's shared folder beside the repository)")
        return 2
    rows = [json.loads(line) for line in (SQUAD / "questions.jsonl").read_text(encoding="utf-8").splitlines()]
    with tempfile.TemporaryDirectory() as scratch, Engine.open(Path(scratch) / "library") as engine:
        engine.ingest(sorted((SQUAD / "corpus").iterdir()))  # no entity graph: the check reads words
        engine.load_lexicon()
        report("squad-dev", engine, rows, "answers", args.list)
    if args.realdocs_library:
        questions = [json.loads(line) for line in REALDOCS.read_text(encoding="utf-8").splitlines()]
        with Engine.open(args.realdocs_library) as engine:
            report("real-document set", engine, questions, "document", args.list)
    return 0


if __name__ == "__main__":
    sys.exit(main())
