"""Where in a cited passage a claim stands: the rows or sentences the evidence viewer marks strongly.

A unit is a few hundred words; the claim usually rests on one sentence of it, or one row of a table.
The viewer highlights the whole unit lightly and these spans strongly, so a reader sees at once what
the answer was taken from (a table unit used to light up whole, the right value's row and the wrong
one's alike). The spans are found the way the gate reads the passage: for a table, the rows holding
every word the answer adds to the question (table_rows.py; the first or last of them when the
question asks by position); otherwise the one to three consecutive sentences (a paragraph break
before a capital, or a list item, ends one too) holding most of the claim's words (for a short
answer, of the words it adds to the question), as few as hold them, the question's own words breaking
ties, then the fewest other words.
None are given when no sentence holds any of them: the viewer then marks the unit alone rather than a
wrong sentence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..index.table_keys import positions
from ..types import Claim, EvidenceUnit, SourceRef
from .claims import sentence_spans
from .table_rows import answer_rows, rows_most_about
from .text import REFERENCE_TERM, answer_items, terms

_MOST_SENTENCES = 3
_MOST_ITEMS = 10  # parts a list answer's window may take (its items and the line opening them)
_ITEM_WORDS = 3  # words of an item of a list answer ("ylevel", "Robert Koch Institute"); more: a sentence
# A paragraph break before a capital or a figure: a new sentence even without a mark before it. A
# command line or a table's rows printed as a block of their own run into the next sentence otherwise
# ("run the command\n\nsystemctl get-default\n\nDuring boot-up, ..." was quoted whole).
# A list item opens one too: a Markdown list's items ("* Support HTTPS proxies. (#2845)\n* Change the
# type ...") were quoted four at a time.
# A reference's entry opens one as well: its term alone on a line (`REFERENCE_TERM`:
# "executemany(sql, parameters, /)", "csv.QUOTE_ALL"), and it goes with the description under it.
_PARAGRAPH = re.compile(
    rf"\n\s*\n\s*(?=[A-Z0-9])|\n[ \t]*(?=(?:[*+\-•]|\d{{1,3}}[.)])[ \t]+\S)|\n\s*\n\s*(?={REFERENCE_TERM}\n)"
)
_TERM_LINE = re.compile(REFERENCE_TERM)


def unit_spans(claim: str, unit: EvidenceUnit, question: str = "") -> tuple[tuple[int, int], ...]:
    """Where `claim` stands in `unit`, as character offsets into its document's text. Read with the
    unit's context, as the gate reads it: a block of a table's rows is a table under its header."""
    text = unit.index_text
    shift = len(text) - len(unit.passage)  # index_text ends with the passage
    return tuple(
        (unit.char_start + start - shift, unit.char_start + end - shift)
        for start, end in supporting_spans(claim, text, question)
        if start >= shift
    )


def supporting_spans(claim: str, passage: str, question: str = "") -> tuple[tuple[int, int], ...]:
    """Offsets into `passage` of the rows or sentences that carry `claim`, in passage order."""
    rows = answer_rows(claim, passage, question)
    if rows == [] and terms(claim) <= terms(question):
        # An answer that names one of the question's options ("Who was younger when they died, David
        # Bowie or Prince?" - "Prince") adds no word to it: its row is the one holding the option (a
        # window session marked the whole table).
        rows = answer_rows(claim, passage)
    if rows is not None:
        # "the first flower in the iris sheet": of the rows holding "1.4, 0.2", the first
        placed = positions(question)
        if len(rows) > 1 and len(placed) == 1:
            rows = rows[:1] if "first" in placed else rows[-1:]
        elif len(rows) > 1:
            rows = rows_most_about(rows, passage, question)  # the row the question names
        return tuple(rows)
    asked = terms(question)
    added = terms(claim) - asked
    wanted = added or terms(claim)
    # An answer whose stems are all the question's, or that has none ("None", a setting's value), is
    # looked for as written: "Connection" and the question's "sqlite3.connect" share a stem, and
    # "Raises an auditing event sqlite3.connect ..." was marked for "What does sqlite3.connect
    # return?" - "Connection", not the line "Connection" under "Return type:" (nor "... with argument
    # connection_handle", whose word is not the answer).
    verbatim = None if added else _as_written(claim)
    if not wanted and verbatim is None:
        return ()
    parts = _paragraphed(passage, sentence_spans(passage))
    stems = [terms(passage[a:b]) for a, b in parts]
    best: tuple[tuple[int, int, int, int, int], tuple[int, int]] | None = None
    # A list answer's items may stand an item a line, under a line that opens the list: "yval, dev,
    # wt, ylevel, digits" was marked on a sentence naming three of them ("The print function is called
    # only with yval, ylevels, and digits."), not on the five items the answer came from (a window
    # session on rpart's vignette).
    items = [item.split() for item in answer_items(claim)]
    listed = len(items) if all(len(item) <= _ITEM_WORDS for item in items) else 0
    for size in range(1, max(_MOST_SENTENCES, min(listed + 1, _MOST_ITEMS)) + 1):
        for first in range(0, len(parts) - size + 1):
            held = set().union(*stems[first : first + size])
            window = passage[parts[first][0] : parts[first + size - 1][1]]
            as_written = int(verbatim is not None and bool(verbatim.search(window)))
            # Most of the claim's words, then the claim as written, then the fewest sentences, then
            # most of the question's, then the fewest other words: the sentence most about the
            # claim, as the gate reads it.
            score = (len(wanted & held), as_written, -size, len(asked & held), -len(held))
            if (score[0] or score[1]) and (best is None or score > best[0]):
                best = (score, (first, first + size))
    if best is None:
        return ()
    first, last = best[1]
    if last == first + 1 < len(parts) and _TERM_LINE.fullmatch(passage[parts[first][0] : parts[first][1]]):
        last += 1  # a term alone says nothing: the first sentence of its description with it
    return ((parts[first][0], parts[last - 1][1]),)


def _as_written(claim: str) -> re.Pattern[str] | None:
    """The claim as a pattern for its exact wording: its words, in its case, as a whole word."""
    phrase = claim.strip().strip("`\"'").rstrip(".").removesuffix("()")
    return re.compile(rf"(?<![\w.]){re.escape(phrase)}(?!\w)") if phrase else None


def _paragraphed(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """`spans` cut again where a paragraph ends without a sentence mark. Not asides.py's paragraphs:
    those end at every line that does not run on and split a line into cells at a bare comma, for an
    instruction must not reach the next table row; a quote keeps "1,200" and the line introducing a
    command ("run the command\n\nsystemctl get-default") whole."""
    parts = []
    for start, end in spans:
        for brk in _PARAGRAPH.finditer(text, start):  # what follows a break may lie past `end` ("1.")
            if brk.start() >= end:
                break
            stop = brk.start()
            while stop > start and text[stop - 1].isspace():
                stop -= 1
            parts.append((start, stop))
            start = brk.end()
        parts.append((start, end))
    return [(a, b) for a, b in parts if b > a]


def spans_in_source(source: SourceRef, claims: Iterable[Claim]) -> tuple[tuple[int, int], ...]:
    """Where the verified claims stand in a cited passage (their `evidence` of its unit, within it),
    as document offsets in order: what the viewer marks strongly and an export quotes."""
    return tuple(
        sorted(
            {
                (start, end)
                for claim in claims
                if claim.supported
                for unit_id, start, end in claim.evidence
                if unit_id == source.unit_id and source.char_start <= start < end <= source.char_end
            }
        )
    )
