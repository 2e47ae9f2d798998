"""Retrievers, fusion into candidates, and the reranker contract (fake embedder; models elsewhere)."""

from __future__ import annotations

import json
import math
import threading
from dataclasses import replace
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import factories
import pytest
from citedesk_engine import Engine
from citedesk_engine.config import Config, ModelsConfig, RetrievalConfig
from citedesk_engine.errors import ConfigError, DocumentNotFound, RerankerError
from citedesk_engine.retrieve.rerank import HttpReranker, IdentityReranker, IndexedEmbeddingReranker, rerank
from citedesk_engine.testing import HashEmbedder
from citedesk_engine.types import Candidate, EvidenceUnit, Passage
from hypothesis import given, settings
from hypothesis import strategies as st


def unit(uid: str, text: str = "text") -> EvidenceUnit:
    return EvidenceUnit(uid, "doc", uid.split("-")[0], 0, text, 0, len(text))


def candidates(n: int) -> list[Candidate]:
    return [
        Candidate(unit(f"v-{i:03}", f"passage {i}"), {"lexical": i}, {"lexical": 1.0}, 1 / (61 + i))
        for i in range(n)
    ]


class Scripted:
    name = "scripted"

    def __init__(self, result) -> None:  # type: ignore[no-untyped-def]
        self.result = result

    def score(self, query, passages):  # type: ignore[no-untyped-def]
        if isinstance(self.result, Exception):
            raise self.result
        return self.result(passages) if callable(self.result) else self.result


@pytest.fixture
def library_engine(tmp_path: Path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "birds.md").write_text(
        "# Birds\n\nPenguins cannot fly but swim very well.\n\n## Owls\n\nOwls hunt at night.\n",
        encoding="utf-8",
    )
    (docs / "money.txt").write_text(
        "The central bank raised interest rates to fight inflation.", encoding="utf-8"
    )
    factories.xlsx(docs / "budget.xlsx")
    engine = Engine.open(tmp_path / "lib", embedder=HashEmbedder())
    engine.ingest([docs])
    yield engine
    engine.close()


def test_retrieve_reports_every_retriever_and_fused_score(library_engine: Engine) -> None:
    result = library_engine.retrieve("Do penguins fly?", k=3)
    top = result.candidates[0]
    assert "Penguins" in top.unit.passage
    assert top.ranks["lexical"] == 0 and top.ranks["vector"] == 0
    # First in both lists: each normalised score is 1, so the fused score is the sum of the weights.
    config = RetrievalConfig()
    assert "structure" not in top.ranks
    assert top.fused == pytest.approx(config.lexical_weight + config.vector_weight)
    assert [t.stage for t in result.trace] == [
        "retrieve.vector",
        "retrieve.lexical",
        "retrieve.structure",
        "retrieve.rows",
        "retrieve.graph",  # no entity graph built: they find nothing, and say so
        "retrieve.community",
        "retrieve.wiki",
        "fuse",
        "rerank",
    ]
    assert len(result.candidates) <= 3


def test_structure_returns_the_section_body(library_engine: Engine) -> None:
    result = library_engine.retrieve("owls", k=5, signals=["structure"])
    assert [c.unit.passage for c in result.candidates] == ["## Owls\n\nOwls hunt at night."]
    sheet = library_engine.retrieve("budget sheet", k=5, signals=["structure"]).candidates
    assert sheet and all(c.unit.section == "Budget" for c in sheet)


def test_signals_choose_the_retrievers(library_engine: Engine) -> None:
    result = library_engine.retrieve("interest rates", k=5, signals=["lexical"])
    assert {name for c in result.candidates for name in c.ranks} == {"lexical"}
    with pytest.raises(ConfigError, match="Unknown retrieval signals encyclopedia"):
        library_engine.retrieve("x", signals=["encyclopedia"])


def test_empty_library_and_wordless_questions(tmp_path: Path) -> None:
    with Engine.open(tmp_path / "lib", embedder=HashEmbedder()) as engine:
        assert engine.retrieve("anything").candidates == ()
    # punctuation and query syntax never reach tantivy's parser
    with Engine.open(tmp_path / "lib2", embedder=HashEmbedder()) as engine:
        (tmp_path / "a.txt").write_text("AND OR NOT field:value (x)")
        engine.ingest([tmp_path / "a.txt"])
        assert engine.retrieve('"(( ?? ** :: AND', signals=["lexical"]).candidates
        assert engine.retrieve("?!", signals=["lexical"]).candidates == ()


def test_stale_rows_are_never_returned(library_engine: Engine, tmp_path: Path) -> None:
    path = tmp_path / "docs" / "money.txt"
    path.write_text("The harbour froze in winter.", encoding="utf-8")
    library_engine.ingest([path])
    found = library_engine.retrieve("interest rates inflation", k=10)
    assert all("inflation" not in c.unit.passage for c in found.candidates)


def test_a_scoped_search_finds_only_the_documents_asked_about(library_engine: Engine, tmp_path: Path) -> None:
    """Each retriever filters inside its index: a pool of one unit per document would still fill."""
    docs = tmp_path / "docs"
    everywhere = library_engine.retrieve("penguins interest rates owls", k=10)
    assert len({c.unit.document for c in everywhere.candidates}) > 1  # unscoped, more than one document
    for signals in (["vector"], ["lexical"], ["structure"], None):
        scoped = library_engine.retrieve(
            "penguins interest rates owls", k=10, signals=signals, documents=[docs / "money.txt"]
        )
        paths = {d.document: d.source_path for d in library_engine.documents()}
        assert all(paths[c.unit.document].endswith("money.txt") for c in scoped.candidates), signals
    lexical = library_engine.retrieve("penguins", k=5, signals=["lexical"], documents=[docs / "money.txt"])
    assert lexical.candidates == ()  # the word is only in birds.md: nothing, not birds.md's passage
    scoped = library_engine.retrieve("interest rates", k=5, documents=[docs / "money.txt"])
    assert scoped.candidates and scoped.trace[0].details["scope"] == 1
    # a folder scopes to the documents of the library under it; a file not in the library is named
    assert len(library_engine.scope([docs])) == 3
    assert library_engine.scope([docs / "money.txt", docs / "money.txt"]) == library_engine.scope(
        [docs / "money.txt"]
    )
    with pytest.raises(DocumentNotFound, match="nothere.txt is not in the library"):
        library_engine.retrieve("x", documents=[docs / "nothere.txt"])
    (tmp_path / "empty").mkdir()
    with pytest.raises(DocumentNotFound, match="No document of the library is in the folder"):
        library_engine.scope([tmp_path / "empty"])


def test_reranker_reorders_and_can_drop() -> None:
    pool = candidates(5)
    reverse = Scripted(lambda passages: [float(i) for i in range(len(passages))])
    out = rerank("q", pool, reverse, head=3)
    assert [c.unit.unit_id for c in out] == ["v-002", "v-001", "v-000", "v-003", "v-004"]
    assert [c.rerank for c in out[:3]] == [2.0, 1.0, 0.0] and out[3].rerank is None
    dropped = rerank("q", pool, reverse, head=3, min_score=1.0)
    assert [c.unit.unit_id for c in dropped] == ["v-002", "v-001", "v-003", "v-004"]
    assert [c.unit.unit_id for c in rerank("q", pool, IdentityReranker(), head=5)] == [
        c.unit.unit_id for c in pool
    ]


def test_fused_reranking_blends_the_rerank_scores_into_the_fusion() -> None:
    """fuse_weight w: the head is ordered by (1 - w) x fused + w x rerank, each min-max normalised over
    the head; fused gaps larger than what the reranker can add survive, small ones yield to it."""
    pool = [replace(c, fused=f) for c, f in zip(candidates(3), (0.90, 0.85, 0.20), strict=True)]
    reverse = Scripted(lambda passages: [float(i) for i in range(len(passages))])  # prefers the last
    out = rerank("q", pool, reverse, head=3, fuse_weight=0.3)
    # fused normalised: 1, 0.65 / 0.7 = 0.9286, 0; rerank normalised: 0, 0.5, 1
    # v-000: 0.7; v-001: 0.65 + 0.15 = 0.8; v-002: 0 + 0.3 = 0.3
    assert [c.unit.unit_id for c in out] == ["v-001", "v-000", "v-002"]
    assert [c.rerank for c in out] == [1.0, 0.0, 2.0]
    assert [c.fused for c in out] == [0.85, 0.90, 0.20]  # the fusion's own score is kept as it was
    assert [c.unit.unit_id for c in rerank("q", pool, reverse, head=3, fuse_weight=0.0)] == [
        "v-000",
        "v-001",
        "v-002",
    ]
    replaced = rerank("q", pool, reverse, head=3)
    assert [c.unit.unit_id for c in replaced] == ["v-002", "v-001", "v-000"]


@pytest.mark.parametrize(
    ("result", "message"),
    [
        (RuntimeError("boom"), "failed: RuntimeError: boom"),
        ([1.0, 2.0], "returned 2 scores for 3 passages"),
        ([1.0, math.nan, 2.0], "not a finite number"),
        ([1.0, math.inf, 2.0], "not a finite number"),
        ([1.0, "high", 2.0], "not a finite number"),
        ([1.0, True, 2.0], "not a finite number"),
        ("123", "not a list of scores"),
        (None, "not a list of scores"),
    ],
)
def test_broken_rerankers_raise_never_fall_back(result, message: str) -> None:
    with pytest.raises(RerankerError, match=message):
        rerank("q", candidates(3), Scripted(result), head=3)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.floats(allow_nan=False, allow_infinity=False, width=32), min_size=0, max_size=12),
    st.integers(0, 15),
)
def test_no_candidate_outside_the_fused_head_can_come_out(scores: list[float], head: int) -> None:
    pool = candidates(len(scores))
    out = rerank("q", pool, Scripted(lambda passages: scores[: len(passages)]), head=head)
    assert {c.unit.unit_id for c in out} <= {c.unit.unit_id for c in pool}
    assert len(out) == len(pool) and len({c.unit.unit_id for c in out}) == len(out)
    assert out[head:] == pool[head:]  # beyond the head, the fused order stands


def test_indexed_embedding_reranker_uses_stored_vectors(library_engine: Engine) -> None:
    found = library_engine.retrieve("penguins swim", k=4).candidates
    reranker = IndexedEmbeddingReranker(library_engine.library, library_engine.embedder)
    passages = [Passage("missing-00001", "not in the index")] + [
        Passage(c.unit.unit_id, c.unit.passage) for c in found
    ]
    scores = reranker.score("penguins swim", passages)
    assert scores[0] < -1.0 and all(-1.0 <= s <= 1.0 for s in scores[1:])
    stored = library_engine.library.vectors.vectors_by_id([found[0].unit.unit_id])[found[0].unit.unit_id]
    query = library_engine.embedder().embed(["penguins swim"])[0]
    assert scores[1] == pytest.approx(float(stored @ query))


class _RerankHandler(BaseHTTPRequestHandler):
    requests: list[dict] = []

    def do_POST(self) -> None:  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        _RerankHandler.requests.append({"path": self.path, **body})
        if body["query"] == "broken":
            payload = {"results": [{"index": 0, "relevance_score": 1.0}]}
        else:  # score by length, returned out of order as real servers do
            ranked = sorted(range(len(body["documents"])), key=lambda i: -len(body["documents"][i]))
            payload = {
                "results": [{"index": i, "relevance_score": float(len(body["documents"][i]))} for i in ranked]
            }
        data = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args) -> None:  # noqa: ANN002
        pass


def test_http_reranker_against_a_loopback_server() -> None:
    server = HTTPServer(("127.0.0.1", 0), _RerankHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_port}/v1"
        reranker = HttpReranker(url, "bge-reranker-v2-m3", timeout=5)
        passages = [Passage("a", "short"), Passage("b", "a much longer passage"), Passage("c", "medium one")]
        assert reranker.score("q", passages) == [5.0, 21.0, 10.0]
        assert _RerankHandler.requests[-1] == {
            "path": "/v1/rerank",
            "model": "bge-reranker-v2-m3",
            "query": "q",
            "documents": ["short", "a much longer passage", "medium one"],
        }
        with pytest.raises(RerankerError, match="did not score every passage"):
            reranker.score("broken", passages)
    finally:
        server.shutdown()
    with pytest.raises(RerankerError, match="failed"):
        HttpReranker(url, "m", timeout=2).score("q", passages)  # the server is gone


def test_reranker_configuration_errors(tmp_path: Path) -> None:
    with (
        Engine.open(
            tmp_path / "lib", Config(models=ModelsConfig(reranker="bogus")), embedder=HashEmbedder()
        ) as engine,
        pytest.raises(ConfigError, match="Unknown reranker 'bogus'"),
    ):
        engine.retrieve("q")
    with pytest.raises(ConfigError, match="needs reranker_url"):  # refused when the settings are read
        ModelsConfig(reranker="http")
    config = Config(models=ModelsConfig(reranker="cross-encoder", reranker_path=str(tmp_path)))
    with (
        Engine.open(tmp_path / "lib", config, embedder=HashEmbedder()) as engine,
        pytest.raises(Exception, match="not a sentence-transformers model folder"),
    ):
        engine.retrieve("q")


def test_rrf_fusion_remains_an_option(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "birds.md").write_text("# Birds\n\nPenguins cannot fly but swim very well.\n", encoding="utf-8")
    config = Config(retrieval=RetrievalConfig(fusion="rrf"), models=ModelsConfig(reranker="none"))
    with Engine.open(tmp_path / "lib", config, embedder=HashEmbedder()) as engine:
        engine.ingest([docs])
        result = engine.retrieve("Do penguins fly?", k=3)
        top = result.candidates[0]
        assert top.fused == pytest.approx(sum(1 / (61 + r) for r in top.ranks.values()))
        assert next(t for t in result.trace if t.stage == "fuse").details == {"fusion": "rrf", "k": 60}
    for retrieval, message in [
        (RetrievalConfig(fusion="borda"), "Unknown fusion 'borda'"),
        (RetrievalConfig(rerank_weight=1.5), "rerank_weight must lie between 0 and 1"),
    ]:
        with (
            Engine.open(tmp_path / "lib", Config(retrieval=retrieval), embedder=HashEmbedder()) as engine,
            pytest.raises(ConfigError, match=message),
        ):
            engine.retrieve("penguins")


def test_top_k_default_and_override(library_engine: Engine, tmp_path: Path) -> None:
    assert len(library_engine.retrieve("the").candidates) <= RetrievalConfig().top_k
    assert len(library_engine.retrieve("the", k=2).candidates) <= 2


class Rendezvous:
    """A retriever that waits for the other one: it finds its unit only if both run at once."""

    def __init__(self, name: str, meeting: threading.Barrier) -> None:
        self.name = name
        self.meeting = meeting
        self.threads: list[int] = []

    def search(self, query, limit, versions=None):  # type: ignore[no-untyped-def]
        self.threads.append(threading.get_ident())
        try:
            self.meeting.wait()
        except threading.BrokenBarrierError:
            return []
        return [("v1-00000", 1.0)]


@pytest.mark.parametrize("approximate", [True, False])
def test_retrievers_run_at_once_in_a_big_library_and_in_turn_below(
    library_engine: Engine, approximate: bool, monkeypatch
) -> None:
    """Past the ANN threshold the slowest retriever sets the time, not their sum; below it exact
    search already uses every core and threads would only cost."""
    from citedesk_engine.index.vectors import VectorStore
    from citedesk_engine.retrieve.pipeline import RetrievalPipeline

    monkeypatch.setattr(VectorStore, "approximate", property(lambda self: approximate))
    monkeypatch.setattr(type(library_engine.library.manifest), "live_versions", lambda self: {"d": "v1"})
    meeting = threading.Barrier(2, timeout=0.5 if not approximate else 10)
    retrievers = [Rendezvous("vector", meeting), Rendezvous("lexical", meeting)]
    pipeline = RetrievalPipeline(
        library_engine.library, retrievers, IdentityReranker(), RetrievalConfig(), rerank_head=10
    )
    trace: list = []
    lists = pipeline.hits("anything", trace)
    assert [t.stage for t in trace] == ["retrieve.vector", "retrieve.lexical"]
    if approximate:  # both met: they ran at once, off the caller's thread
        assert lists == {"vector": [("v1-00000", 1.0)], "lexical": [("v1-00000", 1.0)]}
        assert threading.get_ident() not in retrievers[0].threads + retrievers[1].threads
    else:  # the first waited alone until the barrier broke: they ran in turn, on this thread
        assert lists == {"vector": [], "lexical": []}
        assert retrievers[0].threads == retrievers[1].threads == [threading.get_ident()]
