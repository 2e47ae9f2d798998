"""OCR accuracy and speed on rendered pages of real born-digital PDFs, against each page's own text layer.

Each sampled page is rendered at 150, 200 and 300 dpi, given mild noise (Gaussian, sigma 8 grey levels)
and a skew of 1 to 2 degrees (either way), and put back into a PDF as a picture: a scan of the page at
that resolution. That PDF goes through CiteDesk's own extractor with OCR (reading order, dehyphenation
and all), rendered at its ocr_dpi as any scan is (300: a coarser scan is scaled up; --render-dpi changes
it), and its text is compared, page by page, with what the same extractor reads from the original's text
layer. Both texts are NFKC-normalised, with typographic quotes and dashes made plain, dot leaders left
out, and their whitespace collapsed; the character error rate is the edit distance over the reference's
length, the word error rate the same over words (both count a passage read in another order than the
text layer's as errors), and "missed" the share of the reference's words the OCR text lacks in any
order.

    .venv/bin/python benchmarks/ocr_accuracy.py                 # 30 pages, 150/200/300 dpi
    .venv/bin/python benchmarks/ocr_accuracy.py --pages 6 --dpi 200 --details out.jsonl
    .venv/bin/python benchmarks/ocr_accuracy.py --rescore out.jsonl     # figures again, no OCR

The PDFs are benchmarks/data/realdocs (benchmarks/realdocs/fetch.py): Debian's reference manual and
three two-column research articles from PyPI sdists. Prints CER, WER, seconds a page and peak memory
per dpi and per document; --details writes each page's figures and both texts.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import time
import unicodedata
from collections import Counter
from pathlib import Path

import numpy as np
import psutil
import pymupdf
from citedesk_engine.config import IngestConfig
from citedesk_engine.ingest.extract import extract
from citedesk_engine.ingest.ocr import OcrJob
from citedesk_engine.models.recogniser import RapidRecogniser

DATA = Path(__file__).resolve().parent / "data" / "realdocs"
# document: how many of the --pages it gives (Debian's manual half, the articles the rest)
DOCUMENTS = {
    "debian-reference.en.pdf": 0.5,
    "hutto2014-vader-icwsm.pdf": 1 / 6,
    "eddelbuettel2018-rcpp-introduction.pdf": 1 / 6,
    "salmon2016-surveillance-monitoring-counts.pdf": 1 / 6,
}
_PLAIN = str.maketrans(
    {"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'", "–": "-", "—": "-", "−": "-", "…": "..."}
)


_LEADERS = re.compile(r"(?:\.\s*){3,}")  # a table of contents' dot leaders: no words, many characters


def normalised(text: str) -> str:
    text = _LEADERS.sub(" ", unicodedata.normalize("NFKC", text).translate(_PLAIN))
    return " ".join(text.split())


def distance(a: list[int] | str, b: list[int] | str) -> int:
    """Levenshtein distance, one numpy row at a time (insertions by a running minimum)."""
    x = np.array([ord(c) for c in a] if isinstance(a, str) else a, dtype=np.int64)
    y = np.array([ord(c) for c in b] if isinstance(b, str) else b, dtype=np.int64)
    if len(x) == 0 or len(y) == 0:
        return max(len(x), len(y))
    steps = np.arange(len(y) + 1)
    row = steps.copy()
    for i, symbol in enumerate(x, start=1):
        new = np.empty_like(row)
        new[0] = i
        new[1:] = np.minimum(row[1:] + 1, row[:-1] + (y != symbol))
        row = np.minimum.accumulate(new - steps) + steps
    return int(row[-1])


def word_ids(*texts: str) -> list[list[int]]:
    vocabulary: dict[str, int] = {}
    return [[vocabulary.setdefault(w, len(vocabulary)) for w in t.split()] for t in texts]


def sampled_pages(path: Path, count: int, rng: random.Random) -> list[int]:
    """Pages with at least 80 words of text, spread over the document."""
    with pymupdf.open(path) as document:
        full = [p.number for p in document if len(p.get_text("words")) >= 80]
    if len(full) <= count:
        return full
    return sorted(rng.sample(full, count))


def scanned(original: pymupdf.Document, dpi: int, rng: random.Random, clean: bool = False) -> bytes:
    """The document's pages as noisy, slightly skewed pictures in a PDF of the same page sizes (as
    rendered, with `clean`)."""
    import cv2

    out = pymupdf.open()
    for page in original:
        pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False)
        image = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.stride)[:, : pix.width]
        angle = 0.0 if clean else rng.choice((-1, 1)) * rng.uniform(1.0, 2.0)
        matrix = cv2.getRotationMatrix2D((pix.width / 2, pix.height / 2), angle, 1.0)
        image = cv2.warpAffine(
            image, matrix, (pix.width, pix.height), borderValue=255, flags=cv2.INTER_LINEAR
        )
        noise = np.random.default_rng(rng.randrange(1 << 30)).normal(0, 0 if clean else 8, image.shape)
        image = np.clip(image.astype(np.float32) + noise, 0, 255).astype(np.uint8)
        ok, png = cv2.imencode(".png", image)
        assert ok
        target = out.new_page(width=page.rect.width, height=page.rect.height)
        target.insert_image(target.rect, stream=png.tobytes())
    return out.tobytes()


def page_texts(doc) -> dict[int, str]:  # noqa: ANN001
    return {s.page: normalised(doc.text[s.start : s.end]) for s in doc.segments if s.page}


def main() -> None:
    config_dpi = IngestConfig().ocr_dpi
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pages", type=int, default=30)
    parser.add_argument("--dpi", type=int, nargs="+", default=[150, 200, 300], help="of the scans")
    parser.add_argument(
        "--render-dpi", type=int, default=config_dpi, help="what CiteDesk renders a page at for OCR (ocr_dpi)"
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--threads", type=int, default=0, help="OCR threads; 0: every core")
    parser.add_argument("--details", type=Path)
    parser.add_argument("--clean", action="store_true", help="no noise and no skew: the rendered page")
    parser.add_argument("--rescore", type=Path, help="recompute the figures of a --details file")
    args = parser.parse_args()
    if args.rescore:
        rescore(args.rescore)
        return
    rng = random.Random(args.seed)
    recogniser = RapidRecogniser(threads=args.threads or (psutil.cpu_count() or 1))
    process = psutil.Process()
    config = IngestConfig()
    subsets: dict[str, tuple[bytes, list[int]]] = {}
    for name, share in DOCUMENTS.items():
        path = DATA / name
        if not path.exists():
            raise SystemExit(f"{path} is missing: run benchmarks/realdocs/fetch.py first")
        numbers = sampled_pages(path, max(1, round(args.pages * share)), rng)
        with pymupdf.open(path) as document:
            document.select(numbers)
            subsets[name] = (document.tobytes(), [n + 1 for n in numbers])
    rows = []
    details = args.details.open("w", encoding="utf-8") if args.details else None
    for dpi in args.dpi:
        for name, (data, numbers) in subsets.items():
            reference = page_texts(extract(data, ".pdf", config))
            with pymupdf.open(stream=data, filetype="pdf") as original:
                scan = scanned(original, dpi, rng, args.clean)
            started = time.perf_counter()
            read = page_texts(extract(scan, ".pdf", config, OcrJob(recogniser, dpi=args.render_dpi)))
            seconds = time.perf_counter() - started
            for page, truth in reference.items():
                got = read.get(page, "")
                row = scored(dpi, name, numbers[page - 1], truth, got, seconds / len(reference))
                rows.append(row)
                if details:
                    details.write(
                        json.dumps(row | {"reference": truth, "ocr": got}, ensure_ascii=False) + "\n"
                    )
            print(
                f"{dpi} dpi {name}: {len(reference)} pages, CER {_rate(rows, dpi, name, 'char')}, "
                f"WER {_rate(rows, dpi, name, 'word')}, words missed in any order "
                f"{_missed([r for r in rows if r['dpi'] == dpi and r['document'] == name])}, "
                f"{seconds / len(reference):.1f} s a page",
                flush=True,
            )
    summary(rows, args.dpi)
    print(f"resident memory at the end: {process.memory_info().rss / 1e6:,.0f} MB (one page at a time)")


def scored(dpi: int, name: str, page: int, truth: str, got: str, seconds: float) -> dict:
    chars = distance(got, truth)
    ids_got, ids_truth = word_ids(got, truth)
    # Reading order aside: the reference's words the OCR text lacks, as a multiset.
    missed = sum((Counter(ids_truth) - Counter(ids_got)).values())
    return {
        "dpi": dpi,
        "document": name,
        "page": page,
        "chars": len(truth),
        "char_errors": chars,
        "words": len(ids_truth),
        "word_errors": distance(ids_got, ids_truth),
        "missed_words": missed,
        "seconds": seconds,
    }


def rescore(path: Path) -> None:
    """The figures again from a --details file, normalised as now (the OCR is not run again)."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        truth, got = normalised(r["reference"]), normalised(r["ocr"])
        rows.append(scored(r["dpi"], r["document"], r["page"], truth, got, r["seconds"]))
    dpis = sorted({r["dpi"] for r in rows})
    for dpi in dpis:
        for name in DOCUMENTS:
            mine = [r for r in rows if r["dpi"] == dpi and r["document"] == name]
            if mine:
                print(
                    f"{dpi} dpi {name}: {len(mine)} pages, CER {_rate(rows, dpi, name, 'char')}, "
                    f"WER {_rate(rows, dpi, name, 'word')}, missed {_missed(mine)}"
                )
    summary(rows, dpis)


def summary(rows: list[dict], dpis: list[int]) -> None:
    print()
    print(f"{'dpi':>4} {'pages':>5} {'CER':>7} {'WER':>7} {'missed':>7} {'s/page':>7} {'pages/s':>7}")
    for dpi in dpis:
        mine = [r for r in rows if r["dpi"] == dpi]
        spent = sum(r["seconds"] for r in mine) / len(mine)
        print(
            f"{dpi:>4} {len(mine):>5} {_rate(rows, dpi, None, 'char'):>7} "
            f"{_rate(rows, dpi, None, 'word'):>7} {_missed(mine):>7} {spent:>7.1f} {1 / spent:>7.2f}"
        )


def _missed(rows: list[dict]) -> str:
    return f"{sum(r['missed_words'] for r in rows) / max(1, sum(r['words'] for r in rows)):.2%}"


def _rate(rows: list[dict], dpi: int, name: str | None, unit: str) -> str:
    mine = [r for r in rows if r["dpi"] == dpi and (name is None or r["document"] == name)]
    errors = sum(r[f"{unit}_errors"] for r in mine)
    total = sum(r[f"{unit}s"] for r in mine)
    return f"{errors / max(1, total):.2%}"


if __name__ == "__main__":
    main()
