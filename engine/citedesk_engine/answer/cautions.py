"""Why a verified claim still wants the reader's eye (Claim.caution): it is shown, not refused, with a
line that says what to check in its passage."""

from __future__ import annotations

import re

from .text import SHORT_ANSWER_WORDS, answer_items, answer_length

# A verified short answer written with little certainty ([verify] caution_below_certainty): such
# answers are wrong about three times as often as the others (config.py).
UNSURE = "The answer model was unsure of this answer: read it in its passage before relying on it."
# A question asking two things answered with one short answer: the other part is unanswered, and the
# one answer reads as the whole ("When was the guide published, and which version does it describe?"
# - "2011–2013", on our real-document set).
ONE_PART = "The question asks two things and this answers one: read the passage for the other."

_TWO_QUESTIONS = re.compile(
    r"(?:,\s*|\s)and\s+(?:what|which|when|who|whom|whose|where|how|why)\b", re.IGNORECASE
)


def caution_for(claim: str, question: str, certainty: float | None, below: float) -> str:
    """The caution a verified claim is shown with, "" for none. `question` is "" for a claim not read
    as an answer; `certainty` the answer model's for a short answer (None when not known)."""
    said = []
    if certainty is not None and certainty < below:
        said.append(UNSURE)
    if question and answers_one_part(claim, question):
        said.append(ONE_PART)
    return " ".join(said)


def answers_one_part(claim: str, question: str) -> bool:
    """A question joining two questions ("..., and which ...?") answered by one short answer of one
    item."""
    return (
        bool(_TWO_QUESTIONS.search(question))
        and answer_length(claim) <= SHORT_ANSWER_WORDS
        and len(answer_items(claim)) == 1
    )
