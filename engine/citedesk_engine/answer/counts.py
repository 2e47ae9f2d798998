"""Counts in short answers: a number the passage gives for something else than what "how many X"
asks about, and a bare number answering "where" or "who" (issue 20's count and answer-type guards,
docs/evaluation.md)."""

from __future__ import annotations

import re

from .claims import sentences
from .text import NUMBER_WORDS, STOPWORDS, counted, numbers, stem, words

# "How many independent human raters ...": the words naming what is counted, up to the question's verb
# when an auxiliary starts it ("How many raters were recruited?").
_HOW_MANY = re.compile(r"\bhow\s+(?:many|much)\s+(.+)", re.IGNORECASE)
_AUXILIARY = frozenset(
    "did do does are were was is have has had will would can could should might must shall".split()
)


def counted_elsewhere(claim: str, passage: str, question: str) -> str:
    """A count answering "how many X" that the passage gives for something else: in the passage's
    sentences another number stands right before X's words, and this one does not ("How many
    independent human raters rated each feature?" - "90,000+", from "ten independent human raters (for a
    total of 90,000+ ratings)"). Numbers tied for X's words are left to the verifier. "" when none."""
    asked_for = _HOW_MANY.search(question)
    said = numbers(claim)
    if asked_for is None or not said:
        return ""
    named: list[str] = []  # the question's words for what is counted
    for word in words(asked_for.group(1)):
        if word in _AUXILIARY or len(named) == 3:
            break
        if word not in STOPWORDS:
            named.append(word)
    asked = [stem(word) for word in named]
    if not asked:
        return ""
    overlap: dict[str, int] = {}
    for sentence in sentences(passage) or [passage]:
        for value, after in counted(sentence):
            overlap[value] = max(overlap.get(value, 0), len(set(asked) & after))
    best = max(overlap.values(), default=0)
    if best < min(2, len(asked)):
        return ""
    leading = sorted(v for v, n in overlap.items() if n == best)
    if said & set(leading):
        return ""
    return f"the passage gives {' or '.join(leading)} for {' '.join(named)}"


_PLACE_OR_PERSON = re.compile(r"^\W*(?:where|who|whom)\b", re.IGNORECASE)


def count_for_place_or_person(answer_stems: set[str], question: str) -> bool:
    """The question asks where or who, and all the short answer adds to it is numbers (digits only:
    "R2-D2" or "MBH99" are names)."""
    return (
        bool(_PLACE_OR_PERSON.match(question))
        and bool(answer_stems)
        and all(s.isdigit() or s in NUMBER_WORDS for s in answer_stems)
    )
