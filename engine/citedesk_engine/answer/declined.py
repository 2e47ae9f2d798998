"""What an answer is when the generator declines ("NOT IN PASSAGES") over passages judged to answer:
the passage's own sentence that holds the question's words, quoted."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..config import AnswerConfig
from ..types import Candidate
from .asides import asserted
from .claims import sentences
from .gates import Relevance
from .prompts import NOT_FOUND
from .text import content_stems

# An answer that only points at passages: "Passage 1", "See passage 2.", "[1]", "Passages 1 and 3 [1]".
# The 1.5B writes one at times when it finds no answer (Python's venv tutorial, "How do I create a
# virtual environment?"): it says nothing, and the gate refused it as a number the passage lacks.
# A symbol alone is an answer ("#" for the character that starts an R comment), not a pointer.
_POINTER = re.compile(
    r"^[\s.,;:!?'\"“”‘’()\-–—]*(?:(?:see|in|from)\s+)?(?:(?:the\s+)?passages?\s*\d+(?:\s*(?:,|and|&)\s*\d+)*)?"
    r"[\s.:;,]*(?:\[\d+\][\s.,;]*)*$",
    re.IGNORECASE,
)


def declines(text: str) -> bool:
    """Whether the generator's answer says it found nothing: "NOT IN PASSAGES", nothing at all, or only
    a pointer to passages."""
    return NOT_FOUND.lower() in text.lower() or _POINTER.match(text.strip()) is not None


def declined_quote(
    question: str,
    judged: Sequence[Relevance],
    context: Sequence[Candidate],
    config: AnswerConfig,
    calibrated_rerank: bool,
) -> tuple[str, Candidate] | None:
    """When the generator declines: a sentence that holds every content word of the question, in a
    passage judged to answer it, and that passage ("Can visitors bring pets into the reading room?"
    - "Visitors may not bring pets into the reading room."). Judged to answer means the packaged
    reranker's probability passes `min_rerank`, the relevance gate's own calibrated "likely to
    answer" (benchmarks/calibrate_relevance.py); no new threshold. Every word, not most: a sentence
    about the question's subject that lacks what is asked ("Who built the bridge?" - "The bridge
    is 17.2 kilometres long.") is no answer, and the reranker scores such passages high."""
    if not calibrated_rerank or config.min_rerank <= 0:
        return None
    wanted = set(content_stems(question))
    if not wanted:
        return None
    read = {c.unit.unit_id for c in context}
    for relevance in judged:  # in the order retrieval ranked them
        candidate = relevance.candidate
        if (
            candidate.unit.unit_id not in read
            or relevance.rerank is None
            or relevance.rerank < config.min_rerank
        ):
            continue
        for line in asserted(candidate.unit.passage).split("\n"):
            for sentence in sentences(line):
                # Verbatim: a sentence rejoined across a left-out aside is not the passage's.
                if wanted <= set(content_stems(sentence)) and sentence in candidate.unit.passage:
                    return sentence, candidate
    return None
