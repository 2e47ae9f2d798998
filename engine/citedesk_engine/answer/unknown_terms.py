"""Names the library never writes: a question about "structlog" asked of a library that never writes
that word, nor one spelled like it, cannot be answered from it, however close its passages come in
meaning. Python's logging HOW TO answered "How do I configure structlog?" with "dictConfig()", cited
and shown as verified (the real-document set, q097): the relevance gate weighs words and meaning, and
a logging page is close to a question about a logging library.

A word of the question is looked up when it is no English word (`EnglishLexicon`: WordNet's base
forms and their inflections) and at least four letters long: names of things, programs, people and
code ("WireGuard", "getHandlerByName"). It is unknown when no passage writes it or a word one or two
edits from it (`LexicalIndex.writes_like`: the typos of real questions, "Ghandi", "purhcased",
"protestors", find their word) and no document's file name or title holds it.

Measured on the real-document set and squad-dev before it was built (docs/evaluation.md): without the
spelling tolerance 12 of squad-dev's 400 answerable questions were flagged, nearly all typos.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from .text import STOPWORDS

MIN_LETTERS = 4
# The most words looked up for one question (each a fuzzy search of the index): a pasted page of code
# as a question is not searched word by word.
MAX_LOOKUPS = 20
_NAME = re.compile(r"[A-Z][\w’'-]*(?:\s+(?:[A-Z]\.\s+)*[A-Z][\w’'-]*)+")
_WORD = re.compile(r"(?<![\w.-])[A-Za-z][A-Za-z_]*[A-Za-z](?![\w-])")


def unknown_terms(
    question: str,
    is_english: Callable[[str], bool],
    written: Callable[[str], bool],
    names: Iterable[str] = (),
) -> list[str]:
    """The question's words, as written, that are no English word and that neither the library's
    text (`written`) nor a document's name or title (`names`) holds."""
    named = " ".join(names).lower()
    looked_up = [
        word
        for word in dict.fromkeys(_WORD.findall(question))
        if len(word) >= MIN_LETTERS
        and word.lower() not in STOPWORDS
        and word.lower() not in named
        and not _english(word.lower(), is_english)
    ]
    return [
        word
        for word in looked_up[:MAX_LOOKUPS]
        if not written(word) and not any(written(other) for other in _rest_of_name(word, question))
    ]


def _rest_of_name(word: str, question: str) -> list[str]:
    """The other words of the capitalised name `word` stands in ("Thurgood Marshall" -> "Marshall"):
    a document that writes a person's surname only speaks of them."""
    for run in _NAME.finditer(question):
        parts = run.group(0).split()
        if word in parts:
            return [p for p in parts if p != word and len(p) >= 3 and p.lower() not in STOPWORDS]
    return []


def _english(word: str, is_english: Callable[[str], bool]) -> bool:
    """An English word, one edit from one ("guage"), or two run together ("feedsentirely")."""
    if is_english(word):
        return True
    if any(variant in STOPWORDS for variant in _one_edit(word)):
        return True  # "whch"
    if any(is_english(variant) for variant in _one_edit(word)):
        return True
    return any(
        is_english(word[:cut]) and is_english(word[cut:]) for cut in range(MIN_LETTERS - 1, len(word) - 2)
    )


def _one_edit(word: str) -> set[str]:
    """The words one edit from `word` that a typo makes: a letter dropped, two swapped, one changed
    or added, the first letter kept (its first two may be swapped, "hwere"). A typo rarely touches a
    word's first letter, and a name often is an English word with a letter before it: "rsync" is not
    "sync" mistyped (the ninth window session's off-document question was let on as English)."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    splits = [(word[:i], word[i:]) for i in range(1, len(word) + 1)]
    return (
        {a + b[1:] for a, b in splits if b}
        | {a + b[1] + b[0] + b[2:] for a, b in [("", word), *splits] if len(b) > 1}
        | {a + c + b[1:] for a, b in splits if b for c in letters}
        | {a + c + b for a, b in splits for c in letters}
    )


def unknown_reason(terms: list[str]) -> str:
    quoted = " or ".join(f"“{t}”" for t in terms[:3]) + (
        f" (and {len(terms) - 3} more)" if len(terms) > 3 else ""
    )
    return (
        f"Your documents never write {quoted}, nor a word spelled like it, so they cannot answer a "
        "question about it. Check the spelling, or add a document that covers it."
    )
