"""Counts in short answers: a number the passage gives for something else than what "how many X"
asks about, and a bare number answering "where" or "who" (issue 20's count and answer-type guards,
docs/evaluation.md)."""

from __future__ import annotations

import re

from .claims import sentences
from .text import NUMBER_WORDS, STOPWORDS, answer_items, content_stems, counted, numbers, stem, words

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


# "What does sort_keys do?", "What does the -n option mean?", "Why was the release delayed?": the
# question asks what something does or why, which a value alone does not say.
_ACTION_OR_REASON = re.compile(
    r"^\W*(?:why\b|what\s+(?:does|do|did|will|would|should)\s.+\s(?:do|mean)\W*$)", re.IGNORECASE
)
_LITERALS = frozenset(stem(w) for w in "true false null nil".split())  # a setting's value, as stems


def wrong_answer_type(answer_stems: set[str], question: str) -> str:
    """What the guard says when all a short answer adds to its question is a value that cannot
    answer it: numbers for "where" or "who" (digits only: "R2-D2" or "MBH99" are names); numbers or
    a literal ("True") for what something does or why. "" otherwise."""
    if not answer_stems or not all(s.isdigit() or s in NUMBER_WORDS or s in _LITERALS for s in answer_stems):
        return ""
    numeric = all(s.isdigit() or s in NUMBER_WORDS for s in answer_stems)
    if numeric and _PLACE_OR_PERSON.match(question):
        return "a number does not say where or who"
    if _ACTION_OR_REASON.match(question):
        # "What does sort_keys do?" - "True", from "If sort_keys is true (default: False), the output
        # of dictionaries will be sorted by key": the value it is set to, not what it does.
        return "a value does not say what something does, or why"
    return ""


# "What are the five heuristics ...?", "Which two compounds ...?", "Name the three rivers ...": the
# question asks for that many things (the number written as a word, right after the question word,
# "the" or a copula; not "Which group has two layers ...?", where it counts something else, nor "What
# four time winner ...?").
_ASKS_FOR = re.compile(
    r"^\W*(?:what|which|name|list)\s+(?:(?:are|were|is|was)\s+)?(?:the\s+)?"
    r"(?P<count>two|three|four|five|six|seven|eight|nine|ten)\s+(?!times?\b)[^\W\d_]",
    re.IGNORECASE,
)


_COUNTED = ("none of them", *(f"only {n}" for n in "one two three four five six seven eight nine".split()))


def too_few_items(claim: str, question: str) -> str:
    """What the guard says when a short answer names fewer things than the question asks for ("What
    are the five heuristics VADER uses?" - "grammatical and syntactical conventions", the sentence
    introducing the list): shown as verified, a part reads as the whole. An item that only says a
    word of the question again is none of the things asked for, unless the question offers its own
    list to choose from: "Which three values can the method argument of crq take?" - "Powell,
    Portnoy, crq" (the passage ended at a page break before the third, "PengHuang"). "" otherwise."""
    asked = _ASKS_FOR.search(question)
    if asked is None:
        return ""
    wanted = int(NUMBER_WORDS.get(asked.group("count").lower(), asked.group("count")))
    items = answer_items(claim)
    asked_stems = set() if _OFFERS.search(question) else set(content_stems(question))
    restating = [item for item in items if content_stems(item) and set(content_stems(item)) <= asked_stems]
    named = len(items) - len(restating)
    if named >= wanted:
        return ""
    said = f" ({', '.join(restating)}: the question's own word)" if restating else ""
    # In words, as the question counts: "the answer names 1" read as naming the item "1" (a window
    # session, for "4" answering "What are the four margins ...?").
    return f"the question asks for {asked.group('count').lower()}; the answer names {_COUNTED[named]}{said}"


_OFFERS = re.compile(r"\w,\s+\w|\w\s+or\s+\w", re.IGNORECASE)  # "A, B or C": the question lists options
