"""The input form and labels of CiteDesk's claim verifier (training/verifier), shared by training and use.

The verifier is a 3-way cross-encoder: (evidence, hypothesis) -> supported | refuted | not enough info.
A claim judged as the answer to a question reads "<question> Answer: <claim>", so the model sees what
the claim answers (a true fact that does not answer the question is not support).
"""

from __future__ import annotations

from pathlib import Path

from ..config import DEFAULT
from ..errors import ConfigError, ModelError
from .cross_encoder import CrossEncoderScorer
from .registry import ModelRegistry

LABELS = ("supported", "refuted", "not enough info")
MAX_LENGTH = 256  # word pieces of each pair; the evidence is cut, never the claim


def verifier_pair(
    evidence: str, claim: str, question: str = "", *, keep_stop: bool = False
) -> tuple[str, str]:
    """A short answer read with its question loses its closing punctuation: in HaluEval, the
    question-form training data, right answers are bare spans and hallucinations end with a full
    stop, and the shipped model learnt that ("4.2 million containers." 0.01, without the stop 0.99).
    Form must not decide. Training reads the claims as written (`keep_stop`)."""
    claim = " ".join(claim.split())
    if question and not keep_stop:
        claim = claim.rstrip(" .!;:")
    question = " ".join(question.split())
    return " ".join(evidence.split()), f"{question} Answer: {claim}" if question else claim


class CrossEncoderClaimJudge:
    """The packaged claim verifier: the probability that the evidence supports the claim."""

    def __init__(self, folder: Path) -> None:
        self._scorer = CrossEncoderScorer(folder, batch_size=8, max_length=MAX_LENGTH)

    def supported(self, evidence: str, claim: str, question: str = "") -> float:
        row = self._scorer.probabilities([verifier_pair(evidence, claim, question)])[0]
        if len(row) != len(LABELS):
            raise ModelError(
                f"The claim verifier gives {len(row)} labels; expected {len(LABELS)} ({', '.join(LABELS)})."
            )
        return row[0]


def build_claim_judge(registry: ModelRegistry) -> CrossEncoderClaimJudge | None:
    """The claim verifier the settings choose: the packaged one (checked by sha256) or none."""
    kind = registry.config.verifier
    if kind in ("", "none"):
        return None
    if kind != DEFAULT:
        raise ConfigError(f"Unknown verifier {kind!r}: choose default or none in [models].")
    return CrossEncoderClaimJudge(registry.verifier_path())
