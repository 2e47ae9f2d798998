"""What reading PDF tables costs and finds: per PDF, its pages, the pages with rules drawn across them
(the only ones searched for tables), the tables kept (with the first few headers) and the seconds to
read its text layers with and without the table search, in this process.

    .venv/bin/python benchmarks/pdf_tables.py FILE.pdf [FILE.pdf ...] [--headers 5]

For 0.23.0 it was run on the real-document set's PDFs (`python3 benchmarks/realdocs/fetch.py`) and
lme4's lmer.pdf (Debian's r-cran-lme4): see docs/evaluation.md, "Tables in PDFs".
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pymupdf
from citedesk_engine._pymupdf_without_layout import load_layout
from citedesk_engine.ingest.extract import pdf, pdf_tables


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("files", type=Path, nargs="+")
    parser.add_argument("--headers", type=int, default=5, help="how many table headers to print per file")
    args = parser.parse_args()
    load_layout()  # once, as the worker process does at its first ruled page: not counted per file
    print(f"{'file':45} {'pages':>5} {'ruled':>5} {'tables':>6} {'s plain':>8} {'s tables':>8} {'ratio':>6}")
    for path in args.files:
        with pymupdf.open(path) as document:
            ruled = sum(pdf_tables._ruled(page, pdf_tables._rules(page)) for page in document)
            started = time.perf_counter()
            with_tables = pdf.text_layers(document)
            tables_seconds = time.perf_counter() - started
            search = pdf.with_tables
            pdf.with_tables = lambda page, lines: lines  # the text layers as before 0.23.0
            try:
                started = time.perf_counter()
                pdf.text_layers(document)
                plain_seconds = time.perf_counter() - started
            finally:
                pdf.with_tables = search
        headers = [
            line.text
            for lines, _ in with_tables.pages
            for i, line in enumerate(lines)
            if line.cells and (i == 0 or lines[i - 1].block != line.block)
        ]
        ratio = tables_seconds / plain_seconds if plain_seconds else float("nan")
        print(
            f"{path.name[:45]:45} {len(with_tables.pages):5d} {ruled:5d} {len(headers):6d} "
            f"{plain_seconds:8.2f} {tables_seconds:8.2f} {ratio:6.1f}"
        )
        for header in headers[: args.headers]:
            print(f"    {header[:100]}")


if __name__ == "__main__":
    main()
