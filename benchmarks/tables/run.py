"""Questions about one row of a table, under three ways of showing a table passage to the answer model.

Run from the repository root, after `python3 benchmarks/realdocs/fetch.py` (for debian.csv and
readxl-datasets.xlsx); vega's stocks.csv (560 rows: symbol, date, price) is taken from the
`vega_datasets==0.9.0` wheel on PyPI the first time:

    .venv/bin/python benchmarks/tables/run.py [--layout best-alone|best-first|table-order] [--library DIR]

`questions.jsonl`: the real-document set's 11 questions on its release table and workbook (q056 ...
q067, the workbook's list question left out), and 10 written for stocks.csv and the release table
before the first run (t01 ... t10). The tables are asked in one library with the logging HOWTO beside
them. Each question is asked on its own; right: the answer holds the accepted answer (every one of them
for q064 ... q066), as in realdocs/run.py.

Layouts (prompts.focus_table): `best-alone`, CiteDesk's: a question about one row that one row of a
passage shares more words with than any other gets that row alone; `best-first`: the rows sharing most
words first; `table-order`: the rows sharing most words kept, in table order (before 0.17.0).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "realdocs"))

import citedesk_engine.answer.prompts as prompts  # noqa: E402
from citedesk_engine import Engine  # noqa: E402
from run import accepted  # noqa: E402  (benchmarks/realdocs/run.py)

REALDOCS = HERE.parent / "data" / "realdocs"
DATA = HERE.parent / "data" / "tables"
STOCKS_SHA256 = "f9953ac6693e587476b4ebf2f0b00d9bb95371ca8c39da4cc6155077b3e417cd"


def stocks() -> Path:
    """vega_datasets' stocks.csv, from its wheel on PyPI, checked by sha256."""
    target = DATA / "stocks.csv"
    if not target.exists():
        DATA.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory() as scratch:
            subprocess.run(
                [sys.executable, "-m", "pip", "download", "--no-deps", "-d", scratch, "vega_datasets==0.9.0"],
                check=True,
            )
            wheel = next(Path(scratch).glob("vega_datasets-0.9.0-*.whl"))
            with zipfile.ZipFile(wheel) as archive:
                target.write_bytes(archive.read("vega_datasets/_data/stocks.csv"))
    if hashlib.sha256(target.read_bytes()).hexdigest() != STOCKS_SHA256:
        raise SystemExit(f"{target} is not vega_datasets 0.9.0's stocks.csv (sha256 differs)")
    return target


def table_order(rows: list[list[tuple[str, str]]], question: str, max_chars: int) -> str:
    written = prompts.written_rows(rows)
    kept = prompts.rows_kept(written, prompts.shared_words(written, question), max_chars)
    return " / ".join(written[i] for i in sorted(kept))


def best_first(rows: list[list[tuple[str, str]]], question: str, max_chars: int) -> str:
    written = prompts.written_rows(rows)
    return " / ".join(
        written[i] for i in prompts.rows_kept(written, prompts.shared_words(written, question), max_chars)
    )


LAYOUTS = {"best-alone": prompts.focus_table, "best-first": best_first, "table-order": table_order}


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--layout", choices=sorted(LAYOUTS), default="best-alone")
    parser.add_argument("--library", type=Path, help="keep the library here (a re-run skips unchanged files)")
    args = parser.parse_args()
    prompts.focus_table = LAYOUTS[args.layout]
    documents = [
        stocks(),
        REALDOCS / "debian.csv",
        REALDOCS / "readxl-datasets.xlsx",
        REALDOCS / "python-3.11-logging-howto.html",
    ]
    missing = [d.name for d in documents if not d.exists()]
    if missing:
        raise SystemExit(f"missing {', '.join(missing)}: run python3 benchmarks/realdocs/fetch.py first")
    rows = [json.loads(line) for line in (HERE / "questions.jsonl").read_text().splitlines()]
    tally: dict[str, int] = {}
    with (
        tempfile.TemporaryDirectory() as scratch,
        Engine.open(args.library or Path(scratch) / "library") as engine,
    ):
        engine.ingest(documents)
        engine.load_generator()
        for row in rows:
            answer = engine.ask(row["question"])
            if answer.refusal is not None:
                outcome = f"refused: {answer.refusal.stage.value}"
            elif accepted(answer.text, row["answers"], row["every"]):
                outcome = "right"
            else:
                outcome = "wrong but shown"
            tally[outcome.split(":")[0]] = tally.get(outcome.split(":")[0], 0) + 1
            shown = " ".join(answer.text.split())[:70]
            print(f"{row['id']:5s} {outcome:26s} {row['question'][:60]:60s} {shown}", flush=True)
    print(f"{args.layout}: " + ", ".join(f"{k} {v}" for k, v in sorted(tally.items())) + f" of {len(rows)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
