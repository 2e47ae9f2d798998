"""Metric computations of `citedesk eval` on small hand-checked cases, and the eval run on a tiny corpus."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from citedesk_engine import Engine
from citedesk_engine.answer.verify import ClaimVerifier
from citedesk_engine.config import VerifyConfig
from citedesk_engine.evaluate.claims import verify_claims
from citedesk_engine.evaluate.questions import (
    answer_matches,
    eval_library_dir,
    evaluate,
    ndcg_at,
    normalize,
    percentiles,
    read_questions,
    score_retrieval,
)
from citedesk_engine.testing import HashEmbedder


def test_retrieval_metrics_by_hand() -> None:
    runs = [
        ([True, False, False], 1),  # gold first
        ([False, False, True], 1),  # gold third
        ([False] * 10, 1),  # never found
        ([False, True, True], 2),  # two gold units, at 2 and 3
    ]
    scores = score_retrieval(runs)
    assert scores.recall_at_1 == pytest.approx(1 / 4)
    assert scores.recall_at_5 == pytest.approx(3 / 4)
    assert scores.mrr == pytest.approx((1 + 1 / 3 + 0 + 1 / 2) / 4)
    fourth = (1 / math.log2(3) + 1 / math.log2(4)) / (1 + 1 / math.log2(3))
    assert scores.ndcg_at_10 == pytest.approx((1 + 1 / math.log2(4) + 0 + fourth) / 4)
    assert ndcg_at([False] * 3, 0) == 0.0


def test_answer_normalisation() -> None:
    assert normalize("The  Adjacency-Matrices!") == "adjacencymatrices"
    assert answer_matches(
        "Graphs are encoded directly via their adjacency matrices [1].", ["adjacency matrices"]
    )
    assert not answer_matches("Graphs are lists.", ["adjacency matrices", ""])


def test_percentiles() -> None:
    assert percentiles([5.0, 1.0, 3.0, 2.0, 4.0]) == {"p50": 3.0, "p95": 5.0}


def test_read_questions_jsonl_and_csv(tmp_path: Path) -> None:
    jsonl = tmp_path / "q.jsonl"
    jsonl.write_text(
        json.dumps(
            {"id": "a", "question": "Q?", "answers": ["x"], "gold": {"document": "d.txt", "passage": "p"}}
        )
        + "\n"
        + json.dumps({"id": "b", "question": "R?", "answers": [], "gold": None})
        + "\n"
    )
    first, second = read_questions(jsonl)
    assert (first.gold_document, second.gold_document) == ("d.txt", None)
    csv_file = tmp_path / "q.csv"
    csv_file.write_text("question,expected\nWhat?,this\n")
    assert read_questions(csv_file)[0].answers == ("this",)


def test_retrieval_eval_on_a_tiny_corpus(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "birds.txt").write_text("Penguins cannot fly.\n\nOwls hunt at night.", encoding="utf-8")
    (corpus / "money.txt").write_text("Banks lend money at interest.", encoding="utf-8")
    questions = tmp_path / "q.jsonl"
    rows = [
        {
            "id": "1",
            "question": "Can penguins fly?",
            "answers": ["cannot"],
            "gold": {"document": "birds.txt", "passage": "Penguins cannot fly."},
        },
        {
            "id": "2",
            "question": "Who lends money?",
            "answers": ["Banks"],
            "gold": {"document": "money.txt", "passage": "Banks lend money at interest."},
        },
        {"id": "3", "question": "What is the capital of Peru?", "answers": ["Lima"], "gold": None},
    ]
    questions.write_text("\n".join(json.dumps(r) for r in rows))
    with Engine.open(tmp_path / "lib", embedder=HashEmbedder()) as engine:
        engine.ingest([corpus])
        calls = []
        retrieve = engine.retrieve
        engine.retrieve = lambda *a, **kw: (
            calls.append((kw.get("signals"), kw.get("rerank"))) or retrieve(*a, **kw)
        )
        report = evaluate(engine, read_questions(questions), k=3, answers=False, compare=True)
        unranked = retrieve("Who lends money?", k=2, rerank=False)
        assert [t.details["reranker"] for t in unranked.trace if t.stage == "rerank"] == ["none"]
    assert report.retrieval.n == 2 and report.retrieval.recall_at_5 == 1.0
    assert set(report.compare) >= {"lexical", "vector", "hybrid"}
    # The ablations are the retrievers alone: only the default run (and "hybrid+rerank") reranks.
    assert {c for c in calls if c[1]} == {(None, True)}
    assert {c[0] for c in calls if not c[1]} == {
        ("lexical",),
        ("vector",),
        ("vector", "lexical", "structure"),
        ("vector", "lexical", "structure", "graph", "community"),
    }
    assert report.as_json()["retrieval"]["recall@10"] == 1.0


class AcceptingJudge:
    """A claim verifier that says "supported" to whatever reaches it."""

    def supported(self, evidence: str, claim: str, question: str = "") -> float:
        return 0.9


def test_verify_metrics_by_hand() -> None:
    passage = (
        "The Treaty of Lisbon was signed by the member states on 13 December 2007. It entered into force "
        "on 1 December 2009. Germany ratified the treaty after its constitutional court approved it. "
        "Napoleon defeated the Austrian army at Austerlitz in 1805."
    )
    rows = [
        ("a", "Napoleon defeated the Austrian army at Austerlitz.", "supported"),  # passes: right
        ("b", "The Treaty of Lisbon entered into force on 1 December 2010.", "supported"),  # number: wrong
        ("c", "The Treaty of Lisbon was signed on 13 December 2007 by 30 states.", "unsupported"),  # number
        ("d", "Germany ratified the treaty after its court approved it.", "unsupported"),  # passes: wrong
        (
            "e",
            "France ratified the treaty after its constitutional court approved it.",
            "unsupported",
        ),  # name
    ]
    claims = [{"id": i, "claim": c, "evidence": [passage], "label": label} for i, c, label in rows]
    seen: list[tuple[object, bool]] = []
    verifier = ClaimVerifier(VerifyConfig(), lambda: HashEmbedder(), lambda: AcceptingJudge())
    report = verify_claims(claims, verifier, on_verdict=lambda row, v: seen.append((row["id"], v.supported)))
    assert seen == [("a", True), ("b", False), ("c", False), ("d", True), ("e", False)]
    # truth T T F F F, predicted T F F T F
    assert report.n == 5 and report.accuracy == pytest.approx(3 / 5)
    assert (report.supported.precision, report.supported.recall) == (0.5, 0.5)
    assert report.unsupported.precision == pytest.approx(2 / 3)
    assert report.unsupported.recall == pytest.approx(2 / 3)
    assert report.balanced_accuracy == pytest.approx((1 / 2 + 2 / 3) / 2)
    assert report.decided_by == {"verifier": 2, "guard: number": 2, "guard: name": 1}
    assert [e["id"] for e in report.errors] == ["b", "d"]


def test_eval_library_is_one_per_corpus_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`citedesk eval` and the benchmarks find the same library for a corpus however it is written."""
    corpus, other = tmp_path / "corpus", tmp_path / "other"
    corpus.mkdir()
    other.mkdir()
    monkeypatch.chdir(tmp_path)
    assert (
        eval_library_dir(Path("corpus"))
        == eval_library_dir(corpus)
        == eval_library_dir(other / ".." / "corpus")
    )
    assert eval_library_dir(other) != eval_library_dir(corpus)
