#!/usr/bin/env python3
"""Approximate against exact vector search on the million-unit library: recall@10, time, memory.

    .venv/bin/python benchmarks/million/ann.py [--library DIR] [--queries 300] [--keep] [--kinds ...]

Queries are in-distribution and real: the first sentence of `--queries` units drawn at random (seed 7)
from the library, embedded with the packaged model. The reference is exact search (VectorStore's
in-memory matrix, as the app searches below `ann_min_units`). First the index the library has (as its
ingests left it) is searched at the default settings; then each index is built over the whole table
(LanceDB IVF-PQ with partitions of 1,024 / 4,096 / 16,384 rows and 8 dimensions a code, then 16
dimensions a code, IVF-SQ (8 bits a dimension), IVF-RQ (RaBitQ, 1 bit a dimension) and IVF-HNSW-SQ;
`--kinds` names a subset), and searched at several nprobes x refine_factor settings;
recall@10 is the share of the exact top 10 found, p50/p95 the search's own time (the question's
embedding is not counted). Peak memory is the process's high-water mark over each phase
(/proc/self/clear_refs). The library is left with the index that the default policy (`AnnPolicy`)
builds, unless --keep leaves the last one built.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from citedesk_engine.config import Config, cache_dir
from citedesk_engine.index.library import Library
from citedesk_engine.index.vectors import VECTOR_INDEX, AnnPolicy, VectorStore
from citedesk_engine.models.embedder import SentenceTransformerEmbedder
from citedesk_engine.models.registry import ModelRegistry

HERE = Path(__file__).resolve().parent
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def peak_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def reset_peak() -> None:
    Path("/proc/self/clear_refs").write_text("5")


def queries_from(library: Library, count: int) -> list[str]:
    documents = sorted(library.manifest.live_versions())
    rng = random.Random(7)
    out = []
    while len(out) < count:
        units = library.units(rng.choice(documents))
        text = rng.choice(units).passage.strip()
        first = _SENTENCE.split(text, maxsplit=1)[0][:300]
        if len(first.split()) >= 5:
            out.append(first)
    return out


def timed(store: VectorStore, queries: np.ndarray, limit: int = 10) -> tuple[list[list[str]], list[float]]:
    found, times = [], []
    store.search(queries[0], limit)  # warm: the index's partitions and centroids read
    for query in queries:
        started = time.perf_counter()
        hits = store.search(query, limit)
        times.append((time.perf_counter() - started) * 1000)
        found.append([uid for uid, _, _ in hits])
    return found, times


def recall(found: list[list[str]], truth: list[list[str]]) -> float:
    return statistics.mean(len(set(f) & set(t)) / len(t) for f, t in zip(found, truth, strict=True))


KINDS = {  # label: (LanceDB index, dimensions a PQ code, rows a partition)
    "IVF_PQ/8 p1024": ("IVF_PQ", 8, 1024),
    "IVF_PQ/8 p4096": ("IVF_PQ", 8, 4096),
    "IVF_PQ/8 p16384": ("IVF_PQ", 8, 16384),
    "IVF_PQ/16 p4096": ("IVF_PQ", 16, 4096),
    "IVF_SQ p4096": ("IVF_SQ", 0, 4096),
    "IVF_RQ p4096": ("IVF_RQ", 0, 4096),
    "HNSW_SQ p4096": ("IVF_HNSW_SQ", 0, 4096),
}
REFINED = ("IVF_PQ", "IVF_RQ")  # kinds whose distances are coarse enough to re-score


def build(store: VectorStore, kind: str, code_dimensions: int, partition_rows: int) -> tuple[float, float]:
    from lancedb.index import HnswSq, IvfPq, IvfRq, IvfSq

    table = store._table  # the benchmark builds other index types than the policy's
    dimension = table.schema.field("vector").type.list_size
    partitions = max(1, store.count() // partition_rows)
    config: object
    if kind == "IVF_HNSW_SQ":
        config = HnswSq(distance_type="cosine", num_partitions=partitions)
    elif kind == "IVF_SQ":
        config = IvfSq(distance_type="cosine", num_partitions=partitions)
    elif kind == "IVF_RQ":
        config = IvfRq(distance_type="cosine", num_partitions=partitions)
    else:
        config = IvfPq(
            distance_type="cosine", num_partitions=partitions, num_sub_vectors=dimension // code_dimensions
        )
    reset_peak()
    started = time.perf_counter()
    table.create_index("vector", config=config, replace=True, name=VECTOR_INDEX)
    return time.perf_counter() - started, peak_mb()


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--library", type=Path, default=HERE.parent / "data" / "million" / "library")
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--keep", action="store_true", help="leave the library's index as it was")
    parser.add_argument("--kinds", nargs="+", choices=list(KINDS), default=list(KINDS), help="indexes built")
    parser.add_argument("--nprobes", nargs="+", type=int, default=[10, 20, 40, 80])
    parser.add_argument("--refine", nargs="+", type=int, default=[5, 10], help="for PQ and RQ indexes")
    args = parser.parse_args()
    config = Config()
    registry = ModelRegistry(config.models, cache_dir())
    embedder = SentenceTransformerEmbedder(registry.embedder_path(), name=registry.embedder_name())
    library = Library(args.library, AnnPolicy(min_units=10**12))  # exact until this script builds
    try:
        count = library.vectors.count()
        texts = queries_from(library, args.queries)
        queries = embedder.embed(texts)
        print(f"{count:,} units, {len(texts)} queries (first sentences of random units)")

        exact_store = VectorStore(args.library / "vectors", AnnPolicy(min_units=10**12))
        exact_store._indexed = False  # the reference: exact search on the matrix, index or not
        reset_peak()
        started = time.perf_counter()
        exact_store._vectors()
        load_s, exact_peak = time.perf_counter() - started, peak_mb()
        truth, exact_ms = timed(exact_store, queries)
        print(
            f"exact (in-memory matrix): load {load_s:.1f} s, peak {exact_peak:,.0f} MB; "
            f"search p50 {statistics.median(exact_ms):.1f} ms, p95 {np.percentile(exact_ms, 95):.1f} ms"
        )
        del exact_store

        store = library.vectors
        store._indexed = any(i.name == VECTOR_INDEX for i in store._table.list_indices())
        if store._indexed:
            store.policy = AnnPolicy()
            found, times = timed(store, queries)
            print(
                f"the library's own index (as its ingests left it), default settings: recall@10 "
                f"{recall(found, truth):.3f}, p50 {statistics.median(times):.1f} ms, "
                f"p95 {np.percentile(times, 95):.1f} ms; {store._table.index_stats(VECTOR_INDEX)}"
            )
        print(
            f"\n{'index':<16} {'build':>8} {'peak MB':>8} {'nprobes':>7} {'refine':>6} "
            f"{'recall@10':>9} {'p50 ms':>7} {'p95 ms':>7}"
        )
        for label in args.kinds:
            kind, code_dimensions, partition_rows = KINDS[label]
            seconds, peak = build(store, kind, code_dimensions, partition_rows)
            store._indexed = True
            store._matrix = None
            for nprobes in args.nprobes:
                for refine in args.refine if kind in REFINED else (1,):
                    store.policy = AnnPolicy(nprobes=nprobes, refine_factor=refine)
                    found, times = timed(store, queries)
                    print(
                        f"{label:<16} {seconds:7.0f}s {peak:8,.0f} {nprobes:>7} {refine:>6} "
                        f"{recall(found, truth):9.3f} {statistics.median(times):7.1f} "
                        f"{np.percentile(times, 95):7.1f}",
                        flush=True,
                    )
        if not args.keep:
            default = AnnPolicy()
            store.policy = default
            store._built = args.library / "vectors" / "ANN_ROWS"
            store.build_index()
            reset_peak()
            found, times = timed(store, queries)
            print(
                f"\nleft with the default policy's index (IVF_RQ, partitions of "
                f"{default.partition_rows} rows, nprobes "
                f"{default.nprobes}, refine {default.refine_factor}): recall@10 {recall(found, truth):.3f}, "
                f"p50 {statistics.median(times):.1f} ms; peak while searching {peak_mb():,.0f} MB"
            )
    finally:
        library.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
