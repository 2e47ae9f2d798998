"""What reading a PDF's pages a batch at a time costs in the worker process of an engine behind a
window (extract/pdf_worker.py), against reading them in one call as before 0.24.0: each batch sends the
file to the worker and opens it again, for progress ("reading page 48 of 261") and a Cancel heard
between batches. Two rounds, after one call that starts the worker and loads its modules.

    .venv/bin/python benchmarks/pdf_batches.py FILE.pdf
"""

from __future__ import annotations

import argparse
import time

import pymupdf
from citedesk_engine.ingest.extract.pdf import PAGE_BATCH
from citedesk_engine.ingest.extract.pdf_worker import PdfLayerWorker


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pdf")
    args = parser.parse_args()
    with open(args.pdf, "rb") as file:
        data = file.read()
    with pymupdf.open(stream=data, filetype="pdf") as document:
        count = document.page_count
    worker = PdfLayerWorker()
    try:
        worker(data, 0, 1)
        for _ in range(2):
            started = time.perf_counter()
            worker(data, 0, count)
            whole = time.perf_counter() - started
            started = time.perf_counter()
            for first in range(0, count, PAGE_BATCH):
                worker(data, first, min(count, first + PAGE_BATCH))
            batched = time.perf_counter() - started
            print(
                f"{count} pages: one call {whole:.1f} s, batches of {PAGE_BATCH} {batched:.1f} s "
                f"(ratio {batched / whole:.3f}, {batched / -(-count // PAGE_BATCH):.2f} s a batch)"
            )
    finally:
        worker.close()


if __name__ == "__main__":
    main()
