"""A PDF page's drawn lines as the extractor reads them, and the joining of a word broken over two
lines: shared by the page's text (pdf.py) and its tables (pdf_tables.py)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import pymupdf

# Running headers and footers, and the rules of a running header, stand in the top or bottom tenth of
# a page.
MARGIN = 0.1
# Ligatures are spelt out ("ﬁxed" -> "fixed"): a search for "fixed" must find the word, and the
# stored text must read as written. Text outside the page's mediabox stays out (TEXTFLAGS_WORDS).
WORD_FLAGS = pymupdf.TEXTFLAGS_WORDS & ~pymupdf.TEXT_PRESERVE_LIGATURES

Word = tuple[str, float, float, float, float]  # text, x0, y0, x1, y1


@dataclass(frozen=True, slots=True)
class Line:
    """One drawn line of a page: its words with their boxes, in reading order. Or one row of a
    table: its cells' words, `cells` saying where each cell starts in `words` (a block below 0 is
    the page's table -block - 1)."""

    block: int
    words: tuple[Word, ...]
    confidence: float = -1.0  # the recogniser's, for a line read by OCR
    cells: tuple[int, ...] = ()  # a table row's cells, as the index in `words` each starts at

    @property
    def text(self) -> str:
        return " ".join(w[0] for w in self.words)

    @property
    def top(self) -> float:
        return min(w[2] for w in self.words)

    @property
    def bottom(self) -> float:
        return max(w[4] for w in self.words)


def dehyphenated(word: str, next_word: str, vocabulary: Counter[str]) -> tuple[str, bool]:
    """A word broken over two lines ("automatic-" / "ally") is joined with the next line's first
    word, without its hyphen; the hyphen stays ("long-" / "term") when the document writes the
    hyphenated form elsewhere and never the joined one. Returns the word as it goes into the text
    and whether the next line continues it (no separator between them)."""
    if len(word) < 3 or word[-1] not in "-\u00ad" or not word[-2].isalpha() or not next_word[:1].islower():
        return word, False
    stem = word[:-1]
    tail = next_word.lower().strip(".,;:()[]")
    joined, hyphenated = (stem + tail).lower(), f"{stem}-{tail}".lower()
    if word[-1] == "-" and vocabulary[hyphenated] and not vocabulary[joined]:
        return word, True
    return stem, True
