"""PDF with PyMuPDF: text in the file's reading order per page, with the box of every word kept."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

import pymupdf

from ...errors import ExtractionError
from .base import ExtractedDocument, Segment, StructureNode, WordBox, hidden_text_warning

# Ligatures are spelt out ("ﬁxed" -> "fixed"): a search for "fixed" must find the word, and the
# stored text must read as written. Text outside the page's mediabox stays out (TEXTFLAGS_WORDS).
_WORD_FLAGS = pymupdf.TEXTFLAGS_WORDS & ~pymupdf.TEXT_PRESERVE_LIGATURES
pymupdf.TOOLS.mupdf_display_errors(False)  # damaged files are reported per file, not on stderr


def extract_pdf(data: bytes) -> ExtractedDocument:
    if not data.strip():
        raise ExtractionError("the file is empty: there is no text to index")
    try:
        document = pymupdf.open(stream=data, filetype="pdf")
    except Exception as exc:  # PyMuPDF raises FileDataError, RuntimeError, ValueError on damage
        raise ExtractionError(f"not a readable PDF (the file is damaged or not a PDF): {exc}") from exc
    with document:
        if document.needs_pass:
            raise ExtractionError(
                "the PDF is password-protected: open it, save a copy without a password, and add that"
            )
        damaged = (
            "the PDF is damaged or incomplete (a download cut short?): no text could be read from it; "
            "add a complete copy"
        )
        if document.page_count == 0:
            raise ExtractionError(damaged if document.is_repaired else "the PDF has no pages")
        try:
            return _extract(document)
        except ExtractionError:
            if document.is_repaired:  # MuPDF had to rebuild the file: its pages are what is left
                raise ExtractionError(damaged) from None
            raise
        except Exception as exc:
            raise ExtractionError(f"the PDF is damaged and cannot be read: {exc}") from exc


@dataclass(frozen=True, slots=True)
class _Line:
    """One drawn line of a page: its words with their boxes, in reading order."""

    block: int
    words: tuple[tuple[str, float, float, float, float], ...]  # text, x0, y0, x1, y1

    @property
    def text(self) -> str:
        return " ".join(w[0] for w in self.words)

    @property
    def top(self) -> float:
        return min(w[2] for w in self.words)

    @property
    def bottom(self) -> float:
        return max(w[4] for w in self.words)


def _extract(document: pymupdf.Document) -> ExtractedDocument:
    pages: list[tuple[list[_Line], float]] = []
    warnings: list[str] = []
    for page in document:
        lines, hidden = _lines(page)
        pages.append((lines, page.rect.height))
        if hidden:
            warnings.append(_hidden_warning(page.number + 1, hidden))
    furniture = _running_lines(pages)
    vocabulary = _vocabulary(pages)
    parts: list[str] = []
    length = 0
    segments: list[Segment] = []
    words: list[WordBox] = []
    page_starts: list[int] = []
    for index, (lines, height) in enumerate(pages):
        number = index + 1
        if length:
            parts.append("\n\n")
            length += 2
        page_start = length
        page_starts.append(page_start)
        body = [line for line in lines if not _is_furniture(line, height, furniture)]
        previous_block: int | None = None
        joined = False  # the previous line ended in a broken word that this line's first word ends
        for i, line in enumerate(body):
            if previous_block is not None and not joined:
                sep = "\n" if line.block == previous_block else "\n\n"
                parts.append(sep)
                length += len(sep)
            following = body[i + 1] if i + 1 < len(body) else None
            joined = False
            for position, (word, x0, y0, x1, y1) in enumerate(line.words):
                if position:
                    parts.append(" ")
                    length += 1
                if (
                    position == len(line.words) - 1
                    and following is not None
                    and following.block == line.block
                ):
                    word, joined = _dehyphenated(word, following.words[0][0], vocabulary)
                # A broken word is two WordBoxes, one per line: its highlight follows the drawing.
                words.append(WordBox(length, length + len(word), number, x0, y0, x1, y1))
                parts.append(word)
                length += len(word)
            previous_block = line.block
        if length > page_start:
            segments.append(Segment(page_start, length, page=number))
        elif length:  # an empty page adds no separator
            parts.pop()
            length -= 2
            page_starts[-1] = length
    text = "".join(parts)
    if not text.strip():
        raise ExtractionError(
            "the PDF has no extractable text (a scanned document?): run OCR on it, "
            "for example with ocrmypdf, and add the result"
        )
    return ExtractedDocument(
        text=text,
        kind="pdf",
        segments=tuple(segments),
        structure=_outline(document, page_starts, len(text)),
        words=tuple(words),
        pages=document.page_count,
        warnings=tuple(warnings),
    )


def _lines(page: pymupdf.Page) -> tuple[list[_Line], dict[str, list[str]]]:
    """The page's drawn lines, and the words left out because no reader sees them, by why."""
    textpage = page.get_textpage(flags=_WORD_FLAGS)
    hidden = _hidden_spans(page, textpage)
    left_out: dict[str, list[str]] = {}
    lines: list[_Line] = []
    current: list[tuple[str, float, float, float, float]] = []
    key: tuple[int, int] | None = None
    for x0, y0, x1, y1, word, block, line, _ in page.get_text("words", textpage=textpage):
        why = _why_hidden(word, x0, y0, x1, y1, hidden)
        if why:
            left_out.setdefault(why, []).append(word)
            continue
        if key is not None and (block, line) != key:
            lines.append(_Line(key[0], tuple(current)))
            current = []
        current.append((word, x0, y0, x1, y1))
        key = (block, line)
    if current and key is not None:
        lines.append(_Line(key[0], tuple(current)))
    return lines, left_out


# Text no reader of the page sees is left out of the document: it could tell a model what to answer
# (issue 20's hidden instructions) and no one could see it in the viewer. Hidden is: drawn invisible
# (render mode 3, or fully transparent) where no picture lies under it (a scan's OCR layer is
# invisible text over its page image, and is the page's text); smaller than a point; or white where
# nothing darker is drawn beneath. Text outside the page's mediabox never comes out (TEXTFLAGS_WORDS).
_TINY = 1.0  # points: a footnote mark is 4-6
_NEAR_WHITE = 0xF0  # each of red, green and blue at least this
_DRAWN = 16 | 32  # MuPDF's char flags: filled, stroked


@dataclass(frozen=True, slots=True)
class _Hidden:
    why: str
    text: str
    box: tuple[float, float, float, float]


def _hidden_spans(page: pymupdf.Page, textpage: pymupdf.TextPage) -> list[_Hidden]:
    spans = [
        span
        for block in textpage.extractDICT()["blocks"]
        for line in block.get("lines", ())
        for span in line["spans"]
        if span["text"].strip()
    ]
    pictures: list[pymupdf.Rect] | None = None
    fills: list[pymupdf.Rect] | None = None
    found = []
    for span in spans:
        invisible = span.get("alpha", 255) == 0 or not span.get("char_flags", _DRAWN) & _DRAWN
        white = all((span["color"] >> shift) & 0xFF >= _NEAR_WHITE for shift in (16, 8, 0))
        if not (invisible or white or span["size"] < _TINY):
            continue  # nearly every span: drawn, readable, in colour
        box = pymupdf.Rect(span["bbox"])
        why = ""
        if invisible:
            if pictures is None:
                pictures = [pymupdf.Rect(i["bbox"]) for i in page.get_image_info()]
            why = "" if _under(box, pictures) else "invisible"
        elif span["size"] < _TINY:
            why = "too small to read"
        else:
            if pictures is None:
                pictures = [pymupdf.Rect(i["bbox"]) for i in page.get_image_info()]
            if fills is None:
                fills = [
                    pymupdf.Rect(d["rect"])
                    for d in page.get_drawings()
                    if d.get("fill") and min(d["fill"]) < _NEAR_WHITE / 255
                ]
            why = "" if _under(box, pictures) or _under(box, fills) else "white on white"
        if why:
            found.append(_Hidden(why, span["text"], tuple(box)))
    return found


def _under(box: pymupdf.Rect, areas: list[pymupdf.Rect]) -> bool:
    middle = pymupdf.Point((box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2)
    return any(middle in area for area in areas)


def _why_hidden(word: str, x0: float, y0: float, x1: float, y1: float, hidden: list[_Hidden]) -> str:
    if not hidden:
        return ""
    x, y = (x0 + x1) / 2, (y0 + y1) / 2
    for span in hidden:
        a, b, c, d = span.box
        if a - 1 <= x <= c + 1 and b - 1 <= y <= d + 1 and word in span.text:
            return span.why
    return ""


def _hidden_warning(page: int, left_out: dict[str, list[str]]) -> str:
    return hidden_text_warning(
        [" ".join(w) for w in left_out.values()], where=f"page {page}: ", kinds=", ".join(sorted(left_out))
    )


# Running headers and footers start in the top tenth of the page or end in the bottom tenth (the
# header of the Journal of Statistical Software runs from 76 to 87 pt of 842) and repeat, digits
# aside ("De Marchis et al. ... Page 2 of 9", a bare page number), on at least this share of the
# pages (odd and even pages may carry two different ones, each on half).
_MARGIN = 0.1
_REPEATS = 0.4
_MIN_PAGES = 3


def _shape(text: str) -> str:
    return re.sub(r"\d+", "#", " ".join(text.lower().split()))


def _in_margin(line: _Line, height: float) -> bool:
    return line.top <= height * _MARGIN or line.bottom >= height * (1 - _MARGIN)


def _running_lines(pages: list[tuple[list[_Line], float]]) -> frozenset[str]:
    """The shapes of the lines that repeat in the page margins: page furniture, not content."""
    if len(pages) < _MIN_PAGES:
        return frozenset()
    seen: Counter[str] = Counter()
    for lines, height in pages:
        seen.update({_shape(line.text) for line in lines if _in_margin(line, height)})
    needed = max(_MIN_PAGES, _REPEATS * len(pages))
    return frozenset(shape for shape, count in seen.items() if count >= needed)


def _is_furniture(line: _Line, height: float, furniture: frozenset[str]) -> bool:
    return bool(furniture) and _in_margin(line, height) and _shape(line.text) in furniture


def _vocabulary(pages: list[tuple[list[_Line], float]]) -> Counter[str]:
    """Every word of the document, lower-cased, to tell "automatic-/ally" from "long-/term"."""
    return Counter(w[0].lower().strip(".,;:()[]") for lines, _ in pages for line in lines for w in line.words)


def _dehyphenated(word: str, next_word: str, vocabulary: Counter[str]) -> tuple[str, bool]:
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


def _outline(document: pymupdf.Document, page_starts: list[int], end: int) -> tuple[StructureNode, ...]:
    """The PDF's bookmarks as headings; each governs the text from its page to the next bookmark."""
    toc = [(lvl, title.strip(), page) for lvl, title, page, *_ in document.get_toc(simple=True)]
    toc = [(lvl, title, page) for lvl, title, page in toc if title and 1 <= page <= len(page_starts)]
    nodes = []
    for i, (level, title, page) in enumerate(toc):
        start = page_starts[page - 1]
        following = [p for lvl, _, p in toc[i + 1 :] if lvl <= level]
        stop = page_starts[following[0] - 1] if following and following[0] > page else end
        if following and following[0] == page:
            stop = min(end, _page_end(page_starts, page, end))
        nodes.append(StructureNode("heading", title, level, start, max(stop, start), page))
    return tuple(nodes)


def _page_end(page_starts: list[int], page: int, end: int) -> int:
    return page_starts[page] - 2 if page < len(page_starts) else end
