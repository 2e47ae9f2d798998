#!/usr/bin/env python3
"""Measure how far apart real embeddings of a passage and of its digit-permuted twin are, for build.py.

    .venv/bin/python benchmarks/million/twins.py [--library DIR] [--pairs 300]

build.py gives each copy of a passage (copies 1, 2, ... differ from copy 0 in their digits only) the
cached vector of its copy-0 twin plus Gaussian noise, instead of embedding it. How much noise is
measured here: `--pairs` passages of copy 3 that hold a digit, drawn from the built library, are
embedded for real with the packaged model and compared with their copy-0 vector; each pair's squared
distance ratio (1 / cos^2 - 1, the noise variance that gives that cosine) is written to
twin_noise.json beside this script, and build.py draws each twin's variance from that list. Measured
once on a library built with a fixed noise; only copy 0 and the real model matter for the result.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sqlite3
import sys
from pathlib import Path

import numpy as np
from build import _DIGIT, DATA, NOISE_FILE  # same folder
from citedesk_engine.config import Config, cache_dir
from citedesk_engine.models.embedder import SentenceTransformerEmbedder
from citedesk_engine.models.registry import ModelRegistry


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--library", type=Path, default=DATA / "library")
    parser.add_argument("--pairs", type=int, default=300)
    args = parser.parse_args()
    library = sqlite3.connect(f"file:{args.library / 'library.sqlite'}?mode=ro", uri=True)
    cache = sqlite3.connect(DATA / "embeddings.sqlite")
    rows = library.execute(
        "SELECT passage FROM units WHERE document LIKE '%.c03.txt' AND context = '' AND rowid % 97 = 0"
    ).fetchall()
    texts = [passage for (passage,) in rows if _DIGIT.search(passage)]
    random.Random(3).shuffle(texts)
    texts = texts[: args.pairs]
    registry = ModelRegistry(Config().models, cache_dir())
    real = SentenceTransformerEmbedder(registry.embedder_path(), name=registry.embedder_name())
    variances, cosines = [], []
    for text, vector in zip(texts, real.embed(texts), strict=True):
        key = hashlib.sha1(_DIGIT.sub("0", text).encode("utf-8")).hexdigest()
        found = cache.execute("SELECT vector FROM twin WHERE key = ?", (key,)).fetchone()
        if found is None:
            continue
        cosine = float(np.clip(np.frombuffer(found[0], dtype=np.float32) @ vector, 1e-6, 1.0))
        cosines.append(cosine)
        variances.append(1.0 / cosine**2 - 1.0)
    if not cosines:
        raise SystemExit("No copy-3 passage with a cached copy-0 vector: build the library first.")
    print(
        f"{len(cosines)} real twins: cosine to copy 0 median {np.median(cosines):.4f}, "
        f"10th percentile {np.percentile(cosines, 10):.4f}, 90th {np.percentile(cosines, 90):.4f}"
    )
    NOISE_FILE.write_text(
        json.dumps({"command": "benchmarks/million/twins.py", "variances": [round(v, 6) for v in variances]})
        + "\n",
        encoding="utf-8",
    )
    print(f"written to {NOISE_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
