"""A PDF page's drawn lines as the extractor reads them, and the joining of a word broken over two
lines: shared by the page's text (pdf.py) and its tables (pdf_tables.py)."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
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
    hyphenated form elsewhere and never the joined one. A compound of names broken at its hyphen
    ("Nelson-" / "Aalen", "Erlangen-" / "Nürnberg") is joined with its hyphen: it was "Nelson- Aalen".
    Returns the word as it goes into the text and whether the next line continues it (no separator
    between them)."""
    if len(word) < 3 or word[-1] not in "-\u00ad" or not word[-2].isalpha():
        return word, False
    if word[-1] == "-" and next_word[:1].isupper():
        return word, True
    if not next_word[:1].islower():
        return word, False
    stem = word[:-1]
    tail = next_word.lower().strip(".,;:()[]")
    joined, hyphenated = (stem + tail).lower(), f"{stem}-{tail}".lower()
    if word[-1] == "-" and vocabulary[hyphenated] and not vocabulary[joined]:
        return word, True
    return stem, True


# Accents that TeX's older fonts set as glyphs of their own, which the text layer keeps apart from
# their letter: "Institut f¨ur Medizininformatik", "Universit¨at Erlangen-N¨urnberg" (coin's vignette),
# so "Nürnberg" was never found. Each joins the letter after it; the cedilla and ogonek the letter
# before it ("c¸"). The ASCII forms (` ^ ~) are left alone: they are code ("`date`") far more often.
_ACCENT_ON_NEXT = {
    "\u00a8": "\u0308",  # diaeresis
    "\u00b4": "\u0301",  # acute
    "\u02cb": "\u0300",  # grave (modifier letter)
    "\u02c6": "\u0302",  # circumflex (modifier letter)
    "\u02dc": "\u0303",  # small tilde
    "\u02c7": "\u030c",  # caron
    "\u02d8": "\u0306",  # breve
    "\u02da": "\u030a",  # ring above
    "\u02dd": "\u030b",  # double acute
}
_ACCENT_ON_PREVIOUS = {"\u00b8": "\u0327", "\u02db": "\u0328"}  # cedilla, ogonek
_CEDILLA_FIRST = "cC"  # a cedilla set before or after its letter ("Fran¸cois", "c¸a") takes a c first
_ACCENTS = frozenset(_ACCENT_ON_NEXT) | frozenset(_ACCENT_ON_PREVIOUS)


def composed(word: str) -> str:
    """The word with each accent set apart from its letter joined to it ("f¨ur" -> "für", "´ecole" ->
    "école", "c¸a" -> "ça"); an accent that makes no letter with its neighbour stays as it is."""
    if not _ACCENTS.intersection(word):
        return word
    out: list[str] = []
    i = 0
    while i < len(word):
        char = word[i]
        after_c = bool(out) and out[-1] in _CEDILLA_FIRST
        if char == "\u00b8" and not after_c and word[i + 1 : i + 2] in tuple(_CEDILLA_FIRST):
            out.append(unicodedata.normalize("NFC", word[i + 1] + "\u0327"))
            i += 2
            continue
        if char in _ACCENT_ON_NEXT and i + 1 < len(word):
            letter = "i" if word[i + 1] == "\u0131" else word[i + 1]  # a dotless i takes the accent
            joined = unicodedata.normalize("NFC", letter + _ACCENT_ON_NEXT[char])
            if len(joined) == 1:
                out.append(joined)
                i += 2
                continue
        if char in _ACCENT_ON_PREVIOUS and out:
            joined = unicodedata.normalize("NFC", out[-1] + _ACCENT_ON_PREVIOUS[char])
            if len(joined) == 1:
                out[-1] = joined
                i += 1
                continue
        out.append(char)
        i += 1
    return "".join(out)


# A superscript mark glued to a word: an affiliation or footnote number or letter ("Torsten Hothorn1,
# Kurt Hornik2" on coin's title page, "1Institut für ...", "Cauchyc" in ordinal's tables), which made
# "Hothorn1" a word no question writes: "Who wrote this paper?" was refused. The mark is left out of
# the text, as a reader skips it (`superscript_marks` says which spans are marks). Only on a word of
# three characters or more: "m2" (m²), "χ2" and "µt0" are mathematics, and stay whole; "clmm21" is
# clmm2 and footnote 1.
_MARK_AFTER = re.compile(r"(?P<base>.*\w{3})(?P<mark>\d{1,3}(?:,\d{1,3})*|[a-z])(?P<tail>[,.;:)]?)")
_MARK_BEFORE = re.compile(r"(?P<mark>\d{1,3}|[a-z])(?P<base>[^\W\d_]{3}.*)")
_SUPERSCRIPT = 1  # MuPDF's span flag


def superscript_marks(lines: Iterable[dict]) -> list[tuple[str, pymupdf.Rect]]:
    """The superscript numbers and letters of a page's text dictionary lines: (text, box). A number
    is one where MuPDF says so, or one set smaller and higher than a span beside it (MuPDF does not
    flag a mark that opens its line: "1Institut für ..."); a letter must be set smaller and higher."""
    found = []
    for line in lines:
        spans = line["spans"]
        for i, span in enumerate(spans):
            text = span["text"].strip()
            letter = re.fullmatch(r"[a-z]", text) is not None
            if not letter and not re.fullmatch(r"\d{1,3}(?:,\d{1,3})*,?", text):
                continue
            beside = [spans[j] for j in (i - 1, i + 1) if 0 <= j < len(spans) and spans[j]["text"].strip()]
            raised = any(
                other["size"] >= 1.25 * span["size"]
                and span["bbox"][3] < other["bbox"][3] - 0.15 * other["size"]
                for other in beside
            )
            flagged = bool(span["flags"] & _SUPERSCRIPT)
            # A letter only where it is set higher: MuPDF flags an index set lower ("temp", "i") too.
            if raised or (flagged and not letter):
                found.append((text, pymupdf.Rect(span["bbox"])))
    return found


def without_marks(word: Word, marks: Sequence[tuple[str, pymupdf.Rect]]) -> Word:
    """The word without a superscript mark glued to its end or start ("Hothorn1," -> "Hothorn,"). Set
    apart as words of their own ("Dirk Eddelbuettel a and James Joseph Balamuta b"), the marks read
    as words: the answer model wrote the Rcpp paper's authors "Eddelbuettel, Dirk Eddelbuettel, ..."."""
    text, x0, y0, x1, y1 = word
    if not marks:
        return word
    for mark, box in marks:
        if not (x0 - 1 <= box.x0 and box.x1 <= x1 + 1 and box.y0 < y1 and box.y1 > y0):
            continue
        after = _MARK_AFTER.fullmatch(text)
        if after and mark.rstrip(",") == after["mark"] and box.x0 > x0 + 1:
            return (after["base"] + after["tail"], x0, y0, x1, y1)
        before = _MARK_BEFORE.fullmatch(text)
        if before and mark.rstrip(",") == before["mark"] and box.x1 < x1 - 1:
            return (before["base"], box.x1, y0, x1, y1)
    return word


# How a sentence ends: a page whose text ends so does not run on into the next.
_ENDS_SENTENCE = '.!?:;)]"”’'


def runs_on(body: list[Line], following: list[Line]) -> bool:
    """Whether a page's text goes on into the next page's in mid-sentence: both are text where they
    meet (no table row), the page's last word ends no sentence, and the next page's first word starts
    in lower case ("... the estimators of Kaplan-Meier, Nelson-Aalen and" / "crq's own"). Written
    apart, neither page's passage held the sentence whole: crq's third estimator was never read."""
    if not body or not following or body[-1].cells or following[0].cells:
        return False
    if not body[-1].words or not following[0].words:
        return False
    last, first = body[-1].words[-1][0], following[0].words[0][0]
    if not any(ch.isalpha() for ch in last) or _ROMAN.fullmatch(first):
        return False  # a page number or a contents line's ("1–8", "16"); a front-matter page's "xiv"
    if len(body[-1].words) < _FULL_LINE:
        # A sentence broken by the page runs to the line's end: a short last line is a figure's
        # label ("x2" under a full-page figure, whose page the next page's sentence was joined to).
        return False
    return last[-1:] not in _ENDS_SENTENCE and first[:1].islower()


_ROMAN = re.compile(r"[ivxlc]+")
_FULL_LINE = 4  # words


def same_row(
    block: int,
    current: int,
    last: tuple[str, float, float, float, float],
    word: tuple[float, float, float],
    height: float,
) -> bool:
    """Whether a word MuPDF puts on a line of its own (at `word`: its left, top and bottom) goes on
    the drawn line before it, ending in `last`: in the same block, at its height, to its right. R's
    printed tables come out a cell a line ("C4", "14", "7", "28" for the row "C4 14 7 28" of vcd's
    piston-rings table), which no reader can line up with its columns (a window session was shown C4's
    North count for its South one). Not in the page's margins (`MARGIN`): a running header's or
    footer's parts set apart ("Eddelbuettel and Balamuta" ... "Rcpp Vignette | January 11, 2022 | 3")
    are told as page furniture by each part repeating."""
    _, _, top, right, bottom = last
    x0, y0, y1 = word
    size = max(bottom - top, 1.0)
    return (
        block == current
        and x0 >= right
        and abs(y0 - top) <= 0.25 * size
        and abs(y1 - bottom) <= 0.25 * size
        and height * MARGIN < top
        and bottom < height * (1 - MARGIN)
    )
