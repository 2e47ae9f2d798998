"""Ask-path speed: retrieval latency at scale, one end-to-end ask split by stage, CiteNexus side by side.

Run by hand (not a test):  .venv/bin/python benchmarks/ask.py [--sizes 1000 10000 100000] [--queries 50]
                           [--skip-e2e] [--citenexus]

1. Retrieval p50/p95 over synthetic libraries of N units (sentences from a fixed vocabulary, random
   unit vectors of 384 dimensions; the query "embedding" is a random vector too, so no embedding model
   runs), twice per size: without rerank (vector + lexical retrievers and score fusion: the index
   work alone) and with the default rerank (the packaged MiniLM cross-encoder scoring the fused head
   of 10, as every ask does). The structure retriever is off (synthetic units have no headings).
2. One end-to-end ask on the real models over the shared squad-dev corpus (../shared/eval, the team's
   evaluation data; skipped with a message when it is absent), stage by stage, with one query
   embedding timed alone beside it.
3. --citenexus: the same squad-dev corpus through CiteNexus 0.13.1 (install it in the benchmark
   environment only: pip install citenexus==0.13.1), its retrieve() against ours, as a ratio.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
import uuid
from pathlib import Path

import numpy as np
from citedesk_engine import Engine
from citedesk_engine.config import Config, RetrievalConfig
from citedesk_engine.index.library import NewVersion
from citedesk_engine.types import DocumentRecord, EvidenceUnit

SHARED = Path(__file__).resolve().parents[2] / "shared"
DIMENSION = 384
VOCABULARY = (
    "harbour bridge river treaty budget committee revenue alpha particle neutron proton museum lighthouse "
    "container record annual report parliament election court ruling contract clause payment invoice "
    "supplier delivery schedule engine turbine pressure valve sensor reading protocol network packet "
    "router latency storage backup archive policy audit finding risk control evidence witness statement "
    "hearing appeal judgment damages liability insurance premium claim coverage exclusion deductible"
).split()


class FixedEmbedder:
    """Returns precomputed random unit vectors: retrieval is timed without the model."""

    name = "bench-random-384"
    dimension = DIMENSION

    def __init__(self, seed: int = 7) -> None:
        self._rng = np.random.default_rng(seed)

    def embed(self, texts):  # type: ignore[no-untyped-def]
        vectors = self._rng.standard_normal((len(texts), DIMENSION)).astype(np.float32)
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)

    def embed_queries(self, texts):  # type: ignore[no-untyped-def]
        return self.embed(texts)


def build_library(folder: Path, units: int, per_document: int = 500) -> Engine:
    engine = Engine.open(
        folder, Config(retrieval=RetrievalConfig(signals=("vector", "lexical"))), embedder=FixedEmbedder()
    )
    engine.embedder()  # registers the embedder signature
    rng = random.Random(11)
    embedder = FixedEmbedder(13)
    for start in range(0, units, per_document):
        count = min(per_document, units - start)
        version = uuid.uuid4().hex[:12]
        document = f"/bench/doc{start // per_document:05d}.txt"
        texts = [" ".join(rng.choice(VOCABULARY) for _ in range(60)) + "." for _ in range(count)]
        batch = [
            EvidenceUnit(f"{version}-{i:05d}", document, version, i, t, 0, len(t))
            for i, t in enumerate(texts)
        ]
        record = DocumentRecord(
            document, document, uuid.uuid4().hex, version, 1, 0.0, "text", count, 0, "en", 0, 0.0, "x"
        )
        engine.library.write_version(NewVersion(record, batch, embedder.embed(texts), ()))
    engine.library.vectors.compact()
    return engine


def time_retrieval(engine: Engine, queries: int, *, rerank: bool) -> list[float]:
    rng = random.Random(5)
    samples = []
    for _ in range(queries + 3):
        question = " ".join(rng.choice(VOCABULARY) for _ in range(6)) + "?"
        started = time.perf_counter()
        engine.retrieve(question, k=5, rerank=rerank)
        samples.append((time.perf_counter() - started) * 1000)
    return samples[3:]  # the first calls warm caches (and load the reranker)


def retrieval_scale(sizes: list[int], queries: int) -> list[dict[str, float]]:
    rows = []
    for size in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            started = time.perf_counter()
            engine = build_library(Path(tmp) / "lib", size)
            built = time.perf_counter() - started
            plain = time_retrieval(engine, queries, rerank=False)
            reranked = time_retrieval(engine, queries, rerank=True)
            engine.close()
        row = {
            "units": size,
            "p50_ms": statistics.median(plain),
            "p95_ms": float(np.percentile(plain, 95)),
            "rerank_p50_ms": statistics.median(reranked),
            "rerank_p95_ms": float(np.percentile(reranked, 95)),
            "build_s": built,
        }
        print(
            f"retrieval  {size:>7,} units  without rerank p50 {row['p50_ms']:7.1f} ms"
            f"  p95 {row['p95_ms']:7.1f} ms  |  with rerank (head 10) p50 {row['rerank_p50_ms']:7.1f} ms"
            f"  p95 {row['rerank_p95_ms']:7.1f} ms  (built in {built:.0f} s)"
        )
        rows.append(row)
    return rows


def squad_questions(limit: int) -> list[dict]:
    lines = (SHARED / "eval" / "squad-dev" / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines[:limit]]


def end_to_end(library: Path) -> dict[str, float]:
    with Engine.open(library) as engine:
        engine.ingest([SHARED / "eval" / "squad-dev" / "corpus"])
        engine.embedder().embed(["warm up"])
        engine.llm().model()
        units = sum(d.units for d in engine.documents())
        embed_started = time.perf_counter()
        engine.embedder().embed(["How long is the bridge?"])
        embed_ms = (time.perf_counter() - embed_started) * 1000
        question = squad_questions(1)[0]["question"]
        started = time.perf_counter()
        answer = engine.ask(question)
        total = (time.perf_counter() - started) * 1000
    print(f"end-to-end ask over {units} squad-dev units: {total:.0f} ms, decision {answer.decision.value}")
    print(f"  question: {question}")
    stages: dict[str, float] = {}
    for step in answer.trace:
        stages[step.stage] = stages.get(step.stage, 0.0) + step.ms
        print(
            f"  {step.stage:<20} {step.ms:8.1f} ms   in {step.candidates_in:>4}  out {step.candidates_out:>4}"
        )
    print(f"  (one query embedding alone: {embed_ms:.1f} ms)")
    return {"total_ms": total, "units": units, **stages}


def citenexus_ratio(library: Path, queries: int) -> dict[str, float] | None:
    try:
        import citenexus  # noqa: F401
    except ImportError:
        print("citenexus is not installed: pip install citenexus==0.13.1 (benchmark environment only)")
        return None
    from citenexus_side import citenexus_retrieve_times  # same folder

    questions = [q["question"] for q in squad_questions(queries)]
    theirs = citenexus_retrieve_times(SHARED / "eval" / "squad-dev" / "corpus", questions)
    with Engine.open(library) as engine:
        engine.ingest([SHARED / "eval" / "squad-dev" / "corpus"])
        units = sum(d.units for d in engine.documents())
        engine.retrieve("warm up")
        ours = []
        for question in questions:
            started = time.perf_counter()
            engine.retrieve(question, k=5)
            ours.append((time.perf_counter() - started) * 1000)
    ratio = statistics.median(theirs) / statistics.median(ours)
    print(
        f"retrieve over squad-dev ({units} units here): CiteDesk p50 {statistics.median(ours):.1f} ms, "
        f"CiteNexus p50 {statistics.median(theirs):.1f} ms: {ratio:.1f}x faster"
    )
    return {
        "ours_p50_ms": statistics.median(ours),
        "citenexus_p50_ms": statistics.median(theirs),
        "ratio": ratio,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--skip-e2e", action="store_true")
    parser.add_argument("--citenexus", action="store_true")
    args = parser.parse_args()
    results: dict[str, object] = {"retrieval": retrieval_scale(args.sizes, args.queries)}
    if not (SHARED / "eval" / "squad-dev").is_dir() and (not args.skip_e2e or args.citenexus):
        print(f"no squad-dev corpus at {SHARED / 'eval' / 'squad-dev'}: the end-to-end parts are skipped")
        args.skip_e2e, args.citenexus = True, False
    with tempfile.TemporaryDirectory() as tmp:
        if not args.skip_e2e:
            results["ask"] = end_to_end(Path(tmp) / "squad")
        if args.citenexus:
            results["citenexus"] = citenexus_ratio(Path(tmp) / "squad", args.queries)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
