"""Which pages of a folder of scans CiteDesk reads, and how: every PDF and picture in it goes through the
extractor with OCR; per file, its pages, the pages read by OCR, the characters of text, the seconds
and either the first words or the reason it was refused.

    .venv/bin/python benchmarks/ocr_scans.py FOLDER [--dpi 300] [--json out.jsonl]

For issue 24 it was run on the test resources of the ocrmypdf sdist (`pip download --no-binary
:all: --no-deps ocrmypdf==17.13.0`, then its tests/resources): see docs/evaluation.md, OCR.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import psutil
from citedesk_engine.config import IngestConfig
from citedesk_engine.errors import ExtractionError
from citedesk_engine.ingest.extract import extract, is_paged
from citedesk_engine.ingest.ocr import OcrJob
from citedesk_engine.models.recogniser import RapidRecogniser


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("folder", type=Path)
    parser.add_argument("--dpi", type=int, default=IngestConfig().ocr_dpi)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    recogniser = RapidRecogniser(threads=psutil.cpu_count() or 1)
    config = IngestConfig()
    out = args.json.open("w", encoding="utf-8") if args.json else None
    files = sorted(p for p in args.folder.iterdir() if p.is_file() and is_paged(p.suffix))
    totals = {"files": 0, "read": 0, "pages": 0, "ocr_pages": 0, "seconds": 0.0}
    for path in files:
        started = time.perf_counter()
        row: dict[str, object] = {"file": path.name}
        try:
            doc = extract(path.read_bytes(), path.suffix, config, OcrJob(recogniser, dpi=args.dpi))
            row |= {
                "pages": doc.pages,
                "ocr_pages": list(doc.ocr_pages),
                "chars": len(doc.text),
                "start": " ".join(doc.text.split())[:70],
                "warnings": list(doc.warnings),
            }
            totals["read"] += 1
            totals["pages"] += doc.pages
            totals["ocr_pages"] += len(doc.ocr_pages)
        except ExtractionError as exc:
            row["refused"] = str(exc)
        row["seconds"] = round(time.perf_counter() - started, 1)
        totals["files"] += 1
        totals["seconds"] += float(row["seconds"])  # type: ignore[arg-type]
        if out:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
        if "refused" in row:
            print(f"{path.name}: refused ({row['seconds']} s): {row['refused']}", flush=True)
        else:
            ocr = row["ocr_pages"]
            print(
                f"{path.name}: {row['pages']} pages, OCR on {len(ocr)} {ocr if ocr else ''}, "  # type: ignore[arg-type]
                f"{row['chars']:,} chars, {row['seconds']} s: {row['start']!r}",
                flush=True,
            )
    print(
        f"\n{totals['read']} of {totals['files']} files read; {totals['ocr_pages']} of "
        f"{totals['pages']} pages by OCR; {totals['seconds']:.0f} s in all"
    )


if __name__ == "__main__":
    main()
