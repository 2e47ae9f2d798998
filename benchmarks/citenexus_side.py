"""The CiteNexus side of `ask.py --citenexus`: the same corpus through CiteNexus 0.13.1's retrieve().

CiteNexus is a benchmark-only dependency, never a project one. It lives in its own environment:

    .venv/bin/python -m venv --system-site-packages benchmarks/.venv-citenexus
    # --system-site-packages exposes the base interpreter, not .venv: point it at the project too
    echo "import site; site.addsitedir('$PWD/.venv/lib/python3.11/site-packages')" \
        > benchmarks/.venv-citenexus/lib/python3.11/site-packages/zz_citedesk_project_venv.pth
    benchmarks/.venv-citenexus/bin/pip install citenexus==0.13.1   # no torch among its requirements
    benchmarks/.venv-citenexus/bin/python benchmarks/ask.py --sizes 1000 --skip-e2e --citenexus

Both sides embed the query with the same all-MiniLM-L6-v2 (our SentenceTransformerEmbedder, adapted to
CiteNexus's batch `embed_many` contract), so the ratio compares the retrieval work around one model.
CiteNexus chunks with our chunk sizes (IngestConfig: 200 tokens, 30 overlap) rather than its own
450/60, so the two libraries hold comparable numbers of units.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from citedesk_engine.config import IngestConfig, ModelsConfig, cache_dir
from citedesk_engine.models.embedder import SentenceTransformerEmbedder
from citedesk_engine.models.registry import ModelRegistry
from citenexus import CiteNexus
from citenexus.lang import HeuristicDetector


class MiniLMForCiteNexus:
    """CiteNexus's `EmbeddingProvider` (embed_many -> list of float lists) over our MiniLM embedder.

    CiteNexus's vector validation accepts Python floats only, so numpy rows go through tolist()."""

    def __init__(self) -> None:
        folder = ModelRegistry(ModelsConfig(), cache_dir()).embedder_path()
        self._inner = SentenceTransformerEmbedder(folder, name="all-MiniLM-L6-v2")

    def embed_many(self, texts: Sequence[str]) -> list[list[float]]:
        return self._inner.embed(list(texts)).tolist()  # type: ignore[no-any-return]


def citenexus_retrieve_times(corpus_dir: Path, questions: list[str]) -> list[float]:
    """Ingest every .txt of `corpus_dir` into a fresh CiteNexus library (document id = file name),
    then time retrieve(q, k=5) per question in milliseconds, after one warm-up call."""
    files = sorted(corpus_dir.glob("*.txt"))
    chunking = IngestConfig()
    with tempfile.TemporaryDirectory(prefix="citenexus-") as tmp:
        rag = CiteNexus(
            Path(tmp),
            signals=["embedding", "text"],  # vector + lexical (BM25), fused by RRF; no reranker
            embedder=MiniLMForCiteNexus(),
            detector=HeuristicDetector(),  # its network-free detector (the default one downloads lid.176)
            chunk_max_tokens=chunking.chunk_tokens,
            chunk_overlap=chunking.overlap_tokens,
        )
        started = time.perf_counter()
        units = 0
        for path in files:
            result = rag.ingest(path, document_id=path.name)
            units += result.n_units
        ingest_s = time.perf_counter() - started
        print(f"CiteNexus made {units} units from {len(files)} files (ingest {ingest_s:.0f} s)")
        rag.retrieve("warm up", k=5)
        samples = []
        for question in questions:
            started = time.perf_counter()
            rag.retrieve(question, k=5)
            samples.append((time.perf_counter() - started) * 1000)
    return samples
