"""Which page breaks of a PDF the extractor reads as a sentence going on (one segment over the break,
pdf_lines.runs_on), each printed with the words on both sides of it, to read one by one; then the
count per file.

    .venv/bin/python benchmarks/pdf_page_breaks.py FILE.pdf [FILE.pdf ...]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from citedesk_engine.ingest.extract.pdf import extract_pdf


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pdfs", nargs="+", type=Path)
    args = parser.parse_args()
    for path in args.pdfs:
        document = extract_pdf(path.read_bytes())
        joined = 0
        for segment in document.segments:
            if segment.kind != "text":
                continue
            words = [w for w in document.words if segment.start <= w.start < segment.end]
            for before, after in zip(words, words[1:], strict=False):
                if before.page != after.page:
                    joined += 1
                    left = " ".join(document.text[before.start - 60 : before.end].split())
                    right = " ".join(document.text[after.start : after.start + 40].split())
                    print(f"  page {before.page} -> {after.page}: ...{left} | {right}...")
        print(f"{path.name}: {joined} page breaks read as a sentence going on, {document.pages} pages")


if __name__ == "__main__":
    main()
