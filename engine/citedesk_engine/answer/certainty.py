"""How sure the answer model was of what it wrote: the probability it gave each token it chose.

A wrong short answer that every check of words lets through is most often another span of the right
passage ("Rajendra K. Pachauri" for the IPCC's first chair, Bert Bolin): its words stand in the passage,
and the verifier cannot tell one span from another. The model that wrote it often hesitated there.
Figures: benchmarks/answer_confidence.py (docs/evaluation.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..protocols import Generator, ReportsTokens
from ..types import GeneratedToken
from .claims import CITATION
from .text import SHORT_ANSWER_WORDS, answer_length


def generated_tokens(generator: Generator) -> list[GeneratedToken]:
    """The tokens of the generator's last text with their probabilities, where it can say (the local
    model can, a server need not): empty otherwise."""
    return list(generator.last_tokens()) if isinstance(generator, ReportsTokens) else []


def word_probabilities(
    tokens: Sequence[GeneratedToken], start: int = 0, end: int | None = None
) -> list[float]:
    """The probabilities of the tokens that carry words, in the characters `start`..`end` of the text the
    tokens make: not a citation marker ("[1]"), not bare spaces or punctuation."""
    text = "".join(t.text for t in tokens)
    end = len(text) if end is None else end
    markers = [m.span() for m in CITATION.finditer(text)]
    found, at = [], 0
    for token in tokens:
        first, at = at, at + len(token.text)
        if at <= start or first >= end:
            continue
        lead = len(token.text) - len(token.text.lstrip())  # " [" starts with its space
        in_marker = any(lo <= first + lead and at <= hi for lo, hi in markers)
        if not in_marker and any(ch.isalnum() for ch in token.text):
            found.append(token.probability)
    return found


def answer_certainty(claim: str, tokens: Sequence[GeneratedToken], start: int, end: int) -> float | None:
    """How sure the model was of a short answer: the probability of its least sure word (the
    characters `start`..`end` of the text it wrote). None for a sentence (a long text always holds a
    hesitant word; the other checks judge it) or when the generator could not say."""
    if answer_length(claim) > SHORT_ANSWER_WORDS:
        return None
    found = word_probabilities(tokens, start, end)
    return min(found) if found else None
