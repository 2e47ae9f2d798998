"""`citedesk eval`: retrieval, answers, refusals and latency on labelled questions over a corpus.

Input: JSONL lines {id, question, answers[], gold: {document, passage} | null} (null: the answer is not
in the corpus, the right outcome is a refusal), or the CiteNexus CSV (question, optional expected).
A retrieved unit counts as gold when it lies in the gold document and overlaps the gold passage.
"""

from __future__ import annotations

import csv
import json
import math
import re
import statistics
import string
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..api import Engine
from ..config import cache_dir
from ..errors import ConfigError
from ..index.blobs import sha256_hex
from ..types import Answer, Decision, EvidenceUnit

ABLATIONS: dict[str, tuple[str, ...]] = {
    "lexical": ("lexical",),
    "vector": ("vector",),
    "hybrid": ("vector", "lexical", "structure"),
    "hybrid + graph": ("vector", "lexical", "structure", "graph", "community"),
}


@dataclass(frozen=True, slots=True)
class Question:
    id: str
    question: str
    answers: tuple[str, ...]
    gold_document: str | None
    gold_passage: str | None


@dataclass
class RetrievalScores:
    recall_at_1: float = 0.0
    recall_at_5: float = 0.0
    recall_at_10: float = 0.0
    mrr: float = 0.0
    ndcg_at_10: float = 0.0
    n: int = 0

    def as_json(self) -> dict[str, float]:
        return {
            "recall@1": self.recall_at_1,
            "recall@5": self.recall_at_5,
            "recall@10": self.recall_at_10,
            "mrr": self.mrr,
            "ndcg@10": self.ndcg_at_10,
            "n": self.n,
        }


@dataclass
class EvalReport:
    n: int
    retrieval: RetrievalScores
    answers: dict[str, float] = field(default_factory=dict)
    refusals: dict[str, object] = field(default_factory=dict)
    latency_ms: dict[str, dict[str, float]] = field(default_factory=dict)
    compare: dict[str, RetrievalScores] = field(default_factory=dict)

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "n": self.n,
            "retrieval": self.retrieval.as_json(),
            "answers": self.answers,
            "refusals": self.refusals,
            "latency_ms": self.latency_ms,
        }
        if self.compare:
            out["compare"] = {name: scores.as_json() for name, scores in self.compare.items()}
        return out


def read_questions(path: Path) -> list[Question]:
    if path.suffix.lower() == ".csv":
        with path.open(encoding="utf-8", newline="") as handle:
            rows = list(csv.DictReader(handle))
        if rows and "question" not in rows[0]:
            raise ConfigError(f"{path}: a CSV of questions needs a 'question' column")
        return [
            Question(str(i), r["question"], (r["expected"],) if r.get("expected") else (), None, None)
            for i, r in enumerate(rows, start=1)
        ]
    questions = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            gold = row.get("gold")
            questions.append(
                Question(
                    str(row.get("id", number)),
                    row["question"],
                    tuple(row.get("answers", ())),
                    gold["document"] if gold else None,
                    gold["passage"] if gold else None,
                )
            )
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise ConfigError(f"{path}:{number}: not a question line ({exc})") from exc
    return questions


def eval_library_dir(corpus: Path) -> Path:
    """Where `citedesk eval` keeps a corpus's library (not the user's own): one per corpus folder, so
    a re-run skips the unchanged files."""
    return cache_dir() / "eval" / sha256_hex(str(corpus.expanduser().resolve()).encode())[:16]


def normalize(text: str) -> str:
    """SQuAD's answer normalisation: lower case, no punctuation, no articles, single spaces."""
    text = "".join(ch for ch in text.lower() if ch not in set(string.punctuation))
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    return " ".join(text.split())


def answer_matches(answer: str, expected: Sequence[str]) -> bool:
    said = normalize(answer)
    return any(normalize(e) and normalize(e) in said for e in expected)


def rank_of_first_gold(flags: Sequence[bool]) -> int | None:
    return next((i for i, flag in enumerate(flags) if flag), None)


def ndcg_at(flags: Sequence[bool], relevant: int, k: int = 10) -> float:
    """Binary-relevance nDCG@k; `relevant` is how many gold units exist (caps the ideal ranking)."""
    dcg = sum(1.0 / math.log2(i + 2) for i, flag in enumerate(flags[:k]) if flag)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(relevant, k)))
    return dcg / ideal if ideal else 0.0


def score_retrieval(runs: Sequence[tuple[Sequence[bool], int]]) -> RetrievalScores:
    """Each run: gold flags of the ranked units (best first) and the number of gold units there are."""
    scores = RetrievalScores(n=len(runs))
    if not runs:
        return scores
    for flags, relevant in runs:
        first = rank_of_first_gold(flags)
        scores.recall_at_1 += first is not None and first < 1
        scores.recall_at_5 += first is not None and first < 5
        scores.recall_at_10 += first is not None and first < 10
        scores.mrr += 1.0 / (first + 1) if first is not None and first < 10 else 0.0
        scores.ndcg_at_10 += ndcg_at(flags, relevant)
    for name in ("recall_at_1", "recall_at_5", "recall_at_10", "mrr", "ndcg_at_10"):
        setattr(scores, name, getattr(scores, name) / len(runs))
    return scores


def percentiles(samples: Sequence[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50": statistics.median(ordered),
        "p95": ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)],
    }


class GoldIndex:
    """Where each gold passage lies in the library, to tell whether a unit overlaps it."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._by_name = {Path(d.source_path).name: d.document for d in engine.documents()}
        self._spans: dict[tuple[str, str], tuple[str, int, int] | None] = {}

    def span(self, question: Question) -> tuple[str, int, int] | None:
        if question.gold_document is None or question.gold_passage is None:
            return None
        key = (question.gold_document, question.gold_passage)
        if key not in self._spans:
            document = self._by_name.get(Path(question.gold_document).name)
            passage = question.gold_passage.strip()
            start = self._engine.text(document).find(passage) if document else -1
            self._spans[key] = (document, start, start + len(passage)) if document and start >= 0 else None
        return self._spans[key]

    def relevant_units(self, span: tuple[str, int, int]) -> int:
        document, start, end = span
        return len(self._engine.library.manifest.units_in_span(document, start, end))


def overlaps(unit: EvidenceUnit | object, span: tuple[str, int, int]) -> bool:
    document, start, end = span
    return (
        getattr(unit, "document", None) == document
        and getattr(unit, "char_start", 0) < end
        and getattr(unit, "char_end", 0) > start
    )


def evaluate(
    engine: Engine,
    questions: Sequence[Question],
    *,
    k: int,
    answers: bool = True,
    compare: bool = False,
    on_progress: Callable[[str, int, int], None] | None = None,
    on_answer: Callable[[Question, Answer, float], None] | None = None,
) -> EvalReport:
    gold = GoldIndex(engine)
    spans = {q.id: gold.span(q) for q in questions}
    answerable = [q for q in questions if spans[q.id] is not None]

    def retrieval_runs(signals: Sequence[str] | None, label: str, rerank: bool = True) -> RetrievalScores:
        runs = []
        for done, q in enumerate(answerable, start=1):
            span = spans[q.id]
            assert span is not None
            found = engine.retrieve(q.question, k=10, signals=signals, rerank=rerank).candidates
            runs.append(([overlaps(c.unit, span) for c in found], max(1, gold.relevant_units(span))))
            if on_progress:
                on_progress(label, done, len(answerable))
        return score_retrieval(runs)

    report = EvalReport(n=len(questions), retrieval=retrieval_runs(None, "retrieve"))
    if compare:
        for name, signals in ABLATIONS.items():
            report.compare[name] = retrieval_runs(signals, f"compare {name}", rerank=False)
        report.compare[f"hybrid+rerank ({engine.config.models.reranker})"] = report.retrieval
    if not answers:
        return report
    decisions: Counter[str] = Counter()
    by_stage: Counter[str] = Counter()
    correct = cited_right = answered_answerable = quoted = 0
    refused_off = refused_on = 0
    stage_ms: dict[str, list[float]] = {}
    totals: list[float] = []
    for done, q in enumerate(questions, start=1):
        started = time.perf_counter()
        answer = engine.ask(q.question, k=k)
        totals.append((time.perf_counter() - started) * 1000)
        if on_answer:
            on_answer(q, answer, totals[-1])
        for step in answer.trace:
            stage_ms.setdefault(step.stage, []).append(step.ms)
        decisions[answer.decision.value] += 1
        span = spans[q.id]
        if answer.decision is Decision.REFUSED:
            assert answer.refusal is not None
            by_stage[answer.refusal.stage.value] += 1
            if span is None and q.gold_document is None:
                refused_off += 1
            elif span is not None:
                refused_on += 1
        elif span is not None:
            answered_answerable += 1
            quoted += answer.quote
            correct += answer_matches(answer.text, q.answers)
            cited_right += any(overlaps(s, span) for s in answer.sources)
        if on_progress:
            on_progress("ask", done, len(questions))
    off_corpus = sum(1 for q in questions if q.gold_document is None)
    report.answers = {
        "answered": decisions["answered"],
        "partial": decisions["partial"],
        "refused": decisions["refused"],
        "accuracy": correct / len(answerable) if answerable else 0.0,
        "citation_accuracy": cited_right / answered_answerable if answered_answerable else 0.0,
        # answers shown as verified that hold no gold answer (strict match: "21 minutes" for "21-minute"
        # counts), of the answerable questions answered
        "without_gold": (answered_answerable - correct) / answered_answerable if answered_answerable else 0.0,
        "quotes": quoted,  # the model found no answer; a passage's sentence was given
    }
    report.refusals = {
        "recall": refused_off / off_corpus if off_corpus else 0.0,
        "false_refusal_rate": refused_on / len(answerable) if answerable else 0.0,
        "by_stage": dict(by_stage),
    }
    report.latency_ms = {stage: percentiles(values) for stage, values in stage_ms.items()}
    report.latency_ms["total"] = percentiles(totals)
    return report
