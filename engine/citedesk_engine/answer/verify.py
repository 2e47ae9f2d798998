"""The per-claim gate: does a passage support a claim?

Three kinds of evidence decide, in this order:
1. deterministic guards veto a claim whose numbers, negation or names differ from the passage;
2. lexical alignment: the share of the claim's content words found in the best-matching window of
   one to three sentences of the passage (stems, so "grew"/"growing" match);
3. a semantic check: cosine similarity of claim and window embeddings (the packaged MiniLM), so
   that an honest paraphrase passes where the words differ.
A claim is supported when no guard vetoes it and it is either fully aligned, or aligned enough and
semantically close. Thresholds live in VerifyConfig with how they were chosen.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..config import VerifyConfig
from ..protocols import Embedder
from .claims import sentences
from .text import content_stems, name_sequence, names, negated, numbers, stem, words

_MORE = re.compile(
    r"\b(?:more than|over|above|at least|greater than|exceed(?:s|ed)?)\s+\$?\s*([\d][\d,]*(?:\.\d+)?)"
)
_LESS = re.compile(r"\b(?:less than|under|below|fewer than|at most)\s+\$?\s*([\d][\d,]*(?:\.\d+)?)")


@dataclass(frozen=True, slots=True)
class Verdict:
    supported: bool
    method: str  # the check that decided, for the trace and `citedesk verify`
    score: float  # alignment (0..1) of the best window
    passage: int  # index of the passage that decided (-1: none)


@dataclass
class ClaimVerifier:
    config: VerifyConfig
    embedder: Callable[[], Embedder] | None = None

    def check(self, claim: str, passages: Sequence[str], question: str = "") -> Verdict:
        """Judge `claim` against each passage; the best supporting one decides."""
        best: Verdict | None = None
        for index, passage in enumerate(passages):
            verdict = self._check_one(claim, passage, question, index)
            if verdict.supported:
                return verdict
            if best is None or verdict.score > best.score:
                best = verdict
        return best or Verdict(False, "no passage", 0.0, -1)

    def _check_one(self, claim: str, passage: str, question: str, index: int) -> Verdict:
        claim_stems = set(content_stems(claim))
        if not claim_stems:
            return Verdict(False, "empty claim", 0.0, index)
        window, coverage = self._best_window(claim_stems, passage, question)
        # A number the question states is the user's, not a claim of the answer ("the late 80's").
        missing_numbers = _unsupported_numbers(claim, passage) - numbers(question)
        if missing_numbers:
            return Verdict(False, f"guard: number {', '.join(sorted(missing_numbers))}", coverage, index)
        missing_names = names(claim) - set(content_stems(passage)) - {stem(w) for w in words(question)}
        if missing_names:
            return Verdict(False, f"guard: name {', '.join(sorted(missing_names))}", coverage, index)
        if negated(claim) != negated(window) and not (question and negated(claim) == negated(question)):
            return Verdict(False, "guard: negation", coverage, index)
        if _roles_swapped(claim, window):
            return Verdict(False, "guard: roles", coverage, index)
        if question:
            # Judged as the answer to the question: what it adds to the question is the answer, and
            # every word of that must stand in the passage (restating the question proves nothing).
            answer_stems = claim_stems - set(content_stems(question))
            if not answer_stems:
                return Verdict(False, "adds nothing to the question", coverage, index)
            passage_stems = set(content_stems(passage))
            novel = sorted(s for s in answer_stems if not _matches(s, passage_stems))
            if novel:
                return Verdict(False, f"answer not in passage: {', '.join(novel[:3])}", coverage, index)
            return Verdict(True, f"answer aligned {coverage:.2f}", coverage, index)
        if coverage >= self.config.full_alignment:
            return Verdict(True, f"aligned {coverage:.2f}", coverage, index)
        if coverage < self.config.min_alignment:
            return Verdict(False, f"not aligned {coverage:.2f}", coverage, index)
        if self.embedder is None:
            return Verdict(False, f"partly aligned {coverage:.2f}, no semantic check", coverage, index)
        similarity = self._similarity(claim, window)
        if similarity >= self.config.min_similarity:
            return Verdict(True, f"aligned {coverage:.2f}, semantic {similarity:.2f}", coverage, index)
        return Verdict(False, f"aligned {coverage:.2f}, semantic {similarity:.2f} too low", coverage, index)

    def _best_window(self, claim_stems: set[str], passage: str, question: str) -> tuple[str, float]:
        parts = sentences(passage) or [passage]
        best_text, best_coverage = passage, -1.0
        for size in (1, 2, 3):
            for start in range(0, max(1, len(parts) - size + 1)):
                text = " ".join(parts[start : start + size])
                stems = set(content_stems(text))
                coverage = sum(1 for s in claim_stems if _matches(s, stems)) / len(claim_stems)
                if coverage > best_coverage + 1e-9:
                    best_text, best_coverage = text, coverage
        return best_text, max(0.0, best_coverage)

    def _similarity(self, claim: str, window: str) -> float:
        assert self.embedder is not None
        vectors = self.embedder().embed([claim, window])
        return float(np.dot(vectors[0], vectors[1]))


def _matches(stem_: str, stems: set[str]) -> bool:
    if stem_ in stems:
        return True
    # Long words sharing a 6-letter prefix are usually one family ("organis"/"organiz").
    return len(stem_) >= 7 and any(len(s) >= 7 and s[:6] == stem_[:6] for s in stems)


def _unsupported_numbers(claim: str, passage: str) -> set[str]:
    """Numbers of the claim absent from the passage, except comparisons the passage bears out."""
    in_passage = numbers(passage)
    missing = numbers(claim) - in_passage
    values = [_value(n) for n in in_passage]
    for pattern, holds in ((_MORE, lambda v, bound: v > bound), (_LESS, lambda v, bound: v < bound)):
        for match in pattern.finditer(claim.lower()):
            bound = _value(match.group(1))
            token = match.group(1).replace(",", "")
            token = token.rstrip("0").rstrip(".") if "." in token else token
            if token in missing and any(
                v is not None and bound is not None and holds(v, bound) for v in values
            ):
                missing.discard(token)
    return missing


def _value(token: str) -> float | None:
    try:
        return float(token.replace(",", ""))
    except ValueError:
        return None


def _roles_swapped(claim: str, window: str) -> bool:
    """Two names in the claim appear in the opposite order around the same verb in the window,
    and neither sentence is passive ("by"): "A defeated B" against "B defeated A"."""
    claim_names = name_sequence(claim)
    claim_words = [stem(w) for w in words(claim)]
    window_words = [stem(w) for w in words(window)]
    named = [n for n in dict.fromkeys(claim_names) if n in window_words and n in claim_words]
    if len(named) < 2 or " by " in f" {claim.lower()} " or " by " in f" {window.lower()} ":
        return False
    first, second = named[0], named[1]
    claim_order = claim_words.index(first) < claim_words.index(second)
    window_order = window_words.index(first) < window_words.index(second)
    if claim_order == window_order:
        return False
    between_claim = set(claim_words[min(claim_words.index(first), claim_words.index(second)) + 1 :][:6])
    lo, hi = sorted((window_words.index(first), window_words.index(second)))
    return bool(between_claim & set(window_words[lo + 1 : hi]))
