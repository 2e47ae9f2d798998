#!/usr/bin/env python3
"""Build a library of about a million evidence units from real text, through CiteDesk's own ingest path.

    .venv/bin/python benchmarks/million/fetch.py            # the base documents, once
    .venv/bin/python benchmarks/million/build.py [--copies 10] [--library DIR]

The corpus is benchmarks/data/million/base/ (about 930 documents of real manuals, 13.8 million words,
about 100 units each) written `--copies` times into benchmarks/data/million/corpus/: copy 0 is the text
as it is, each other copy has its digits mapped by a permutation of its own (same length, so the same
units, with other numbers: "version 3.11" becomes "version 8.44"). Every file is then added with
`Engine.ingest`, as the app adds a folder: read, extract, language, chunk, blobs, embed, vectors, lexical
index, manifest commit per document.

Embedding is the one shortcut, and it is this: a unit is embedded for real (all-MiniLM-L6-v2, the
packaged model) the first time its text is seen with its digits masked, and that vector is cached in
benchmarks/data/million/embeddings.sqlite. A unit of another copy gets the cached vector of its copy-0
twin plus Gaussian noise seeded by its own text, normalised: near-duplicates, as real libraries hold
(versions of one paper), not exact ties. The noise's variance is drawn from twin_noise.json, the
distances twins.py measured between real embeddings of copy-0 and copy-3 passages (cosine median
0.991, 10th percentile 0.945); without that file, a fixed 0.33 (cosine 0.95, further apart than
real twins). Without the shortcut the 1.4 million twin units would take about 12 hours of both cores.
`--revector` gives every unit of a built library its vector again through `Engine.reembed` (after the
noise model changed): the re-embedding of the whole library, measured.

The build is resumable: killed at any point and started again, the files already committed are
"unchanged" (sha256 check) and not embedded again; the run prints how many passages it asked the
embedder for, which shows it. Progress goes to stdout with the process's peak memory.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import resource
import sqlite3
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
from citedesk_engine import Engine
from citedesk_engine.config import Config, IngestConfig, cache_dir
from citedesk_engine.events import Event, FileFinished, Progress
from citedesk_engine.models.embedder import SentenceTransformerEmbedder
from citedesk_engine.models.registry import ModelRegistry
from citedesk_engine.protocols import Embedder
from citedesk_engine.types import FileStatus

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "data" / "million"
NOISE = 0.33  # without twin_noise.json
NOISE_FILE = HERE / "twin_noise.json"
_DIGIT = re.compile(r"\d")


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class CachedTwinEmbedder:
    """The real embedder for texts not seen before (digits masked); near-twin vectors for the rest."""

    def __init__(self, real: Embedder, cache: Path) -> None:
        self._real = real
        measured = json.loads(NOISE_FILE.read_text(encoding="utf-8")) if NOISE_FILE.exists() else None
        self._variances = measured["variances"] if measured else [NOISE**2]
        self._db = sqlite3.connect(cache)
        self._db.execute("CREATE TABLE IF NOT EXISTS twin (key TEXT PRIMARY KEY, text TEXT, vector BLOB)")
        self.asked = 0  # passages asked for in this run
        self.embedded = 0  # of which embedded by the real model

    @property
    def name(self) -> str:
        return self._real.name  # the library is the packaged embedder's: real questions search it

    @property
    def dimension(self) -> int:
        return self._real.dimension

    def embed_queries(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return self._real.embed_queries(texts)

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        self.asked += len(texts)
        keys = [hashlib.sha1(_DIGIT.sub("0", t).encode("utf-8")).hexdigest() for t in texts]
        known: dict[str, tuple[str, npt.NDArray[np.float32]]] = {}
        for start in range(0, len(keys), 500):
            chunk = keys[start : start + 500]
            rows = self._db.execute(
                f"SELECT key, text, vector FROM twin WHERE key IN ({','.join('?' * len(chunk))})", chunk
            )
            known.update((k, (h, np.frombuffer(v, dtype=np.float32))) for k, h, v in rows)
        missing = sorted({i for i, k in enumerate(keys) if k not in known}, key=lambda i: keys[i])
        firsts = list({keys[i]: i for i in reversed(missing)}.values())
        if firsts:
            vectors = self._real.embed([texts[i] for i in firsts])
            self.embedded += len(firsts)
            rows = [
                (keys[i], _sha(texts[i]), v.astype(np.float32).tobytes())
                for i, v in zip(firsts, vectors, strict=True)
            ]
            self._db.executemany("INSERT OR IGNORE INTO twin VALUES (?, ?, ?)", rows)
            self._db.commit()
            known.update((keys[i], (_sha(texts[i]), v)) for i, v in zip(firsts, vectors, strict=True))
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        for row, (text, key) in enumerate(zip(texts, keys, strict=True)):
            original, vector = known[key]
            digest = _sha(text)
            if digest == original:
                out[row] = vector
                continue
            seed = int(digest[:16], 16)
            scale = np.sqrt(self._variances[seed % len(self._variances)])
            noise = np.random.default_rng(seed).standard_normal(self.dimension)
            twin = vector + scale * noise / np.sqrt(self.dimension)
            out[row] = twin / np.linalg.norm(twin)
        return out


def _sha(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def write_corpus(base: Path, corpus: Path, copies: int, limit: int | None = None) -> list[Path]:
    """Copy c of every base document, digits permuted by copy c's own permutation; one folder a copy."""
    folders = []
    sources = sorted(base.glob("*/*.txt"))[:limit]
    for copy in range(copies):
        digits = list("0123456789")
        if copy:
            random.Random(copy).shuffle(digits)
        table = str.maketrans("0123456789", "".join(digits))
        folder = corpus / f"copy{copy:02d}"
        for source in sources:
            target = folder / source.parent.name / f"{source.stem}.c{copy:02d}.txt"
            if not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                text = source.read_text(encoding="utf-8").translate(table)
                partial = target.with_suffix(".part")
                partial.write_text(text, encoding="utf-8")
                partial.replace(target)
        folders.append(folder)
    return folders


def revector(engine: Engine, embedder: CachedTwinEmbedder, started: float) -> int:
    """The whole library embedded again through the app's own re-embedding (resumable), timed."""
    marks = {"next": 0}

    def on_event(event: Event) -> None:
        if isinstance(event, Progress) and event.stage == "embed" and event.done >= marks["next"]:
            marks["next"] = event.done + 100_000
            print(
                f"{time.perf_counter() - started:7.0f} s  {event.done:>9,} of {event.total:,} passages"
                f"  peak RSS {peak_rss_mb():,.0f} MB",
                flush=True,
            )

    units = engine.reembed(on_event=on_event)
    print(
        f"re-embedded {units:,} passages in {time.perf_counter() - started:,.0f} s "
        f"(embedded for real {embedder.embedded:,}); peak RSS {peak_rss_mb():,.0f} MB"
    )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--copies", type=int, default=10)
    parser.add_argument("--library", type=Path, default=DATA / "library")
    parser.add_argument("--every", type=int, default=250, help="print a line every N files")
    parser.add_argument("--threads", type=int, default=0, help="embedding threads (0: every core)")
    parser.add_argument("--limit", type=int, help="the first N base documents only (a small trial)")
    parser.add_argument("--corpus", type=Path, default=DATA / "corpus")
    parser.add_argument("--revector", action="store_true", help="every unit's vector again (Engine.reembed)")
    args = parser.parse_args()
    base = DATA / "base"
    if not any(base.glob("*/*.txt")):
        raise SystemExit("No base documents: run benchmarks/million/fetch.py first.")
    folders = write_corpus(base, args.corpus, args.copies, args.limit)
    config = Config(ingest=IngestConfig(ocr="off"))
    started = time.perf_counter()
    registry = ModelRegistry(config.models, cache_dir())
    real = SentenceTransformerEmbedder(
        registry.embedder_path(), name=registry.embedder_name(), batch_size=32, threads=args.threads
    )
    embedder = CachedTwinEmbedder(real, DATA / "embeddings.sqlite")
    with Engine.open(args.library, config, embedder=embedder) as engine:
        if args.revector:
            return revector(engine, embedder, started)
        counts = {status: 0 for status in FileStatus}
        units = 0

        def on_event(event: Event) -> None:
            nonlocal units
            if not isinstance(event, FileFinished):
                return
            counts[event.result.status] += 1
            units += event.result.units or 0
            done = sum(counts.values())
            if done % args.every == 0:
                elapsed = time.perf_counter() - started
                print(
                    f"{elapsed:7.0f} s  files {done:>6,}  new {counts[FileStatus.INGESTED]:>6,}"
                    f"  unchanged {counts[FileStatus.UNCHANGED]:>6,}  failed {counts[FileStatus.FAILED]}"
                    f"  units {units:>9,}  passages asked {embedder.asked:>9,}"
                    f" (embedded {embedder.embedded:,})"
                    f"  peak RSS {peak_rss_mb():,.0f} MB",
                    flush=True,
                )

        totals = None
        for folder in folders:
            report = engine.ingest([folder], on_event=on_event)
            totals = report.times if totals is None else totals.add(report.times)
        documents = engine.documents()
    elapsed = time.perf_counter() - started
    print(f"\n{len(documents):,} documents, {sum(d.units for d in documents):,} units in {args.library}")
    print(
        f"this run: {elapsed:,.0f} s, {counts[FileStatus.INGESTED]:,} files added, "
        f"{counts[FileStatus.UNCHANGED]:,} unchanged, {counts[FileStatus.FAILED]:,} failed; "
        f"passages asked of the embedder {embedder.asked:,}, embedded for real {embedder.embedded:,}; "
        f"peak RSS {peak_rss_mb():,.0f} MB"
    )
    if totals is not None:
        print("seconds by stage: " + ", ".join(f"{k} {v:,.0f}" for k, v in totals.as_dict().items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
