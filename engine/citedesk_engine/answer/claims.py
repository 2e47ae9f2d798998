"""Split a generated answer into claims, each with the passage numbers it cites ([1], [2][3], [1, 2])."""

from __future__ import annotations

import re
from dataclasses import dataclass

_ABBREVIATIONS = frozenset(
    [
        "mr",
        "mrs",
        "ms",
        "dr",
        "prof",
        "sr",
        "jr",
        "st",
        "mt",
        "ft",
        "vs",
        "etc",
        "e.g",
        "i.e",
        "cf",
        "al",
        "fig",
        "figs",
        "no",
        "nos",
        "vol",
        "vols",
        "pp",
        "p",
        "ed",
        "eds",
        "inc",
        "ltd",
        "co",
        "corp",
        "dept",
        "est",
        "approx",
        "ca",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "mon",
        "tue",
        "wed",
        "thu",
        "fri",
        "sat",
        "sun",
        "u.s",
        "u.k",
        "u.n",
        "e.u",
        "a.m",
        "p.m",
        "ph.d",
        "b.a",
        "m.a",
        "b.sc",
        "m.sc",
        "gen",
        "col",
        "lt",
        "sgt",
        "capt",
        "gov",
        "sen",
        "rep",
        "rev",
    ]
)
CITATION = re.compile(r"\[(\d+(?:\s*[,;]\s*\d+)*)\]")
_TRAILINGCITATIONS = re.compile(r"^(?:\s*\[\d+(?:\s*[,;]\s*\d+)*\])+")
_TERMINATOR = re.compile(r"[.!?]+|[\u3002\uff01\uff1f\u061f\u06d4\u0964]")
_CLOSING = re.compile(r"[\"'”’)]*(?:[.!?]+[\"'”’)]*)?")
_WIDE = "\u3002\uff01\uff1f\u061f\u06d4\u0964"  # CJK, Arabic and Devanagari ends need no space after


@dataclass(frozen=True, slots=True)
class RawClaim:
    text: str  # without citation markers
    citations: tuple[int, ...]  # 1-based passage numbers, in order of first mention
    start: int = 0  # where its sentence starts and ends in the answer as written
    end: int = 0


def split_claims(answer: str, passages: int | None = None) -> list[RawClaim]:
    """The answer's sentences, each with the passages it cites. With `passages` (how many the model
    read), a bracket listing three numbers or more, one beyond them, is the answer's own text, not a
    citation: the model answered "What does sorted([5, 2, 3, 1, 4]) return?" with "[1, 2, 3, 4, 5]",
    the page's printed output, and three passages read left no sentence at all (a window session)."""
    claims = []
    lead = len(answer) - len(answer.lstrip())
    stripped = answer.strip()

    def citation(found: re.Match[str]) -> bool:
        # A list of three numbers or more, some beyond the passages read; a lone "[4]" of three
        # passages is a miscounted citation still (and the claim is checked against every passage).
        numbers = [int(n) for n in re.split(r"\s*[,;]\s*", found.group(1))]
        return passages is None or len(numbers) < 3 or all(1 <= n <= passages for n in numbers)

    for a, b in sentence_spans(stripped):
        sentence = stripped[a:b]
        cited: list[int] = []
        for found in CITATION.finditer(sentence):
            if not citation(found):
                continue
            for number in re.split(r"\s*[,;]\s*", found.group(1)):
                if int(number) not in cited:
                    cited.append(int(number))
        text = " ".join(
            CITATION.sub(lambda found: "" if citation(found) else found.group(0), sentence).split()
        )
        text = re.sub(r"\s+([.,;:!?\u3002])", r"\1", text)
        # A symbol alone is a claim too ("#", the character that starts an R comment).
        if any(ch.isalnum() for ch in text) or 0 < len(text.strip(".,;:!? ")) <= 4:
            claims.append(RawClaim(text, tuple(cited), lead + a, lead + b))
    return claims


def sentences(text: str) -> list[str]:
    """Sentences of any text, with the same rules as claims (abbreviations, decimals, initials)."""
    return _sentences(text.strip())


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Where each sentence of `text` starts and ends, surrounding blanks left out: offsets into
    `text` itself, for callers that must point back at it (answer/asides.py)."""
    spans = []
    start = 0
    for match in _TERMINATOR.finditer(text):
        end = match.end()
        if match.start() < start or not _is_boundary(text, match.start(), end):
            continue  # (before `start`: a mark taken into the sentence before, as in "?”.)")
        # The quotes and brackets that close the sentence, and a mark after them, are its own:
        # "(Also see “What is a Virtual Package?”.)" ends after ".)", so the next does not open
        # with it (a window session's quote began with "”.)").
        end += _CLOSING.match(text, end).end() - end  # type: ignore[union-attr]
        trailing = _TRAILINGCITATIONS.match(text[end:])
        if trailing:
            end += trailing.end()
        spans.append(_trimmed(text, start, end))
        start = end
    spans.append(_trimmed(text, start, len(text)))
    return [(a, b) for a, b in spans if b > a]


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _sentences(text: str) -> list[str]:
    return [text[a:b] for a, b in sentence_spans(text)]


def _is_boundary(text: str, at: int, end: int) -> bool:
    mark = text[at:end]
    if mark[-1] in _WIDE:
        return True
    rest = text[end:]
    if rest and not (rest[0].isspace() or rest[0] in "[\"'”’)"):
        return False  # "3.5", "e.g.x", "example.com"
    # Blanks of any kind: a PDF line often breaks right after a sentence's period (").\nWe ...").
    following = rest.lstrip(" \t\r\n\"'”’)")
    if mark != ".":
        # "Ian (!), but Ian prefers ee'-en.": a mark in brackets, or one the sentence goes on after
        # (a comma, a lower-case word), ends nothing (a window session's quote stopped at "Ian (!").
        return not (following and (following[0] in ",;:" or following[0].islower()))
    before = re.search(r"([\w.]+)$", text[:at])
    word = before.group(1).lower() if before else ""
    if word in _ABBREVIATIONS:
        return False
    if len(word) == 1 and word.isalpha() and text[at - 1].isupper():
        return False  # an initial: "J. R. R. Tolkien"
    if following.startswith("[") and not _TRAILINGCITATIONS.match(rest):
        return True
    if following.startswith("(") and following[1:2].isupper():
        return True  # ". (Dictionaries seem to ...)": a sentence in brackets after this one
    return not following or following[0].isupper() or following[0].isdigit() or following[0] == "["
