"""Is a short answer the passage's answer to the question, or just some span of the passage?

The answer reader (models/reader.py) reads the question and the passage and spreads its belief over
the passage's spans. A short answer agrees with a span when the two name the same thing: of the
content words each adds to the question, they share at least half of each's, and every number the
answer gives is the span's. "21 minutes" agrees with "21-minute" and "ten" with "ten independent
raters"; "Rajendra K. Pachauri" does not agree with "Bert Bolin", nor "1990" with "1994", nor "ten"
with "ten raters, who scored over 9,000 features" (a span that names much else). `agreement` is the
share of the reader's belief on spans the answer agrees with; the gate refuses a short answer below
VerifyConfig.min_reader_agreement (chosen on held-out questions by training/reader/evaluate.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..types import Span
from .text import NUMBER_WORDS, content_stems, numbers

# Number words the stems keep as words ("ten"): compared as their value.
_VALUES = {w: v for w, v in NUMBER_WORDS.items() if w not in ("one", "second")}


def _terms(text: str, question_stems: set[str]) -> tuple[set[str], set[str]]:
    """What `text` names beyond the question: its content stems (number words as values) and numbers."""
    stems = {_VALUES.get(s, s) for s in content_stems(text)} - question_stems
    return stems, numbers(text)


def agrees(answer: str, span: str, question: str) -> bool:
    """Whether `answer` names what the reader's `span` names."""
    question_stems = {_VALUES.get(s, s) for s in content_stems(question)}
    a_stems, a_numbers = _terms(answer, question_stems)
    s_stems, s_numbers = _terms(span, question_stems)
    if not a_stems:
        return False
    if a_numbers and not a_numbers <= s_numbers:
        return False
    # Each holds at least half of the other's words: a long span that holds the answer among other
    # things ("ten independent human raters, who scored over 9,000") names neither of them.
    shared = len(a_stems & s_stems)
    return shared * 2 >= len(a_stems) and shared * 2 >= len(s_stems)


def agreement(answer: str, question: str, spans: Sequence[Span]) -> float:
    """The share of the reader's probability on spans that `answer` agrees with."""
    return sum(s.probability for s in spans if agrees(answer, s.text, question))


def best_other(answer: str, question: str, spans: Sequence[Span]) -> Span | None:
    """The reader's likeliest span that the answer does not agree with (what the trace shows)."""
    return next((s for s in spans if not agrees(answer, s.text, question)), None)
