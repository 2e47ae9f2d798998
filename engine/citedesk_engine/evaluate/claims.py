"""Measuring the pipeline on labelled data: the per-claim gate (`citedesk verify`)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..answer.verify import ClaimVerifier, Verdict
from ..errors import ConfigError


@dataclass(frozen=True, slots=True)
class LabelScores:
    precision: float
    recall: float


@dataclass(frozen=True, slots=True)
class VerifyReport:
    n: int
    accuracy: float
    balanced_accuracy: float
    supported: LabelScores
    unsupported: LabelScores
    decided_by: dict[str, int] = field(default_factory=dict)
    errors: list[dict[str, object]] = field(default_factory=list)


def read_claims(path: Path) -> list[dict[str, object]]:
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"{path}:{number}: not JSON ({exc})") from exc
        if not isinstance(row, dict) or row.get("label") not in ("supported", "unsupported"):
            raise ConfigError(f"{path}:{number}: needs claim, evidence[] and label supported|unsupported")
        rows.append(row)
    return rows


def verify_claims(
    rows: Iterable[dict[str, object]],
    verifier: ClaimVerifier,
    on_progress: Callable[[int], None] | None = None,
    on_verdict: Callable[[dict[str, object], Verdict], None] | None = None,
) -> VerifyReport:
    """Run the same per-claim gate the ask pipeline uses over labelled claims; `on_verdict` sees each
    row with the gate's verdict on it."""
    truth: list[bool] = []
    predicted: list[bool] = []
    decided: Counter[str] = Counter()
    errors: list[dict[str, object]] = []
    for done, row in enumerate(rows, start=1):
        evidence = [str(e) for e in row.get("evidence", [])]  # type: ignore[union-attr]
        verdict = verifier.check(str(row["claim"]), evidence, str(row.get("question", "")))
        label = row["label"] == "supported"
        truth.append(label)
        predicted.append(verdict.supported)
        decided[verdict.check] += 1
        if on_verdict:
            on_verdict(row, verdict)
        if label != verdict.supported:
            errors.append({"id": row.get("id"), "label": row["label"], "method": verdict.method})
        if on_progress:
            on_progress(done)
    return _report(truth, predicted, decided, errors)


def _report(
    truth: list[bool], predicted: list[bool], decided: Counter[str], errors: list[dict[str, object]]
) -> VerifyReport:
    def scores(label: bool) -> LabelScores:
        tp = sum(1 for t, p in zip(truth, predicted, strict=True) if t == label and p == label)
        predicted_n = sum(1 for p in predicted if p == label)
        actual_n = sum(1 for t in truth if t == label)
        return LabelScores(tp / predicted_n if predicted_n else 0.0, tp / actual_n if actual_n else 0.0)

    supported, unsupported = scores(True), scores(False)
    n = len(truth)
    accuracy = sum(1 for t, p in zip(truth, predicted, strict=True) if t == p) / n if n else 0.0
    return VerifyReport(
        n=n,
        accuracy=accuracy,
        balanced_accuracy=(supported.recall + unsupported.recall) / 2,
        supported=supported,
        unsupported=unsupported,
        decided_by=dict(decided),
        errors=errors,
    )
