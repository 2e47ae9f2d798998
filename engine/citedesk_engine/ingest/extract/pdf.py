"""PDF with PyMuPDF: text in the file's reading order per page, with the box of every word kept.

A page whose text layer is missing or unreadable is read by OCR (ingest/ocr.py) when an OcrJob is
given: rendered, recognised, its lines put in reading order, its words kept with their boxes like a
born-digital page's. Pictures (PNG, JPEG, TIFF ...) are read the same way, one page per frame.
"""

from __future__ import annotations

import itertools
import logging
import re
import time
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np
import pymupdf

from ..._pymupdf_without_layout import load_layout
from ...errors import Cancelled, ExtractionError
from ...types import DocumentMeta
from ..ocr import OcrJob, reading_order, text_layer_problem
from .base import ExtractedDocument, Segment, StructureNode, WordBox, file_meta, hidden_text_warning

# Ligatures are spelt out ("ﬁxed" -> "fixed"): a search for "fixed" must find the word, and the
# stored text must read as written. Text outside the page's mediabox stays out (TEXTFLAGS_WORDS).
_WORD_FLAGS = pymupdf.TEXTFLAGS_WORDS & ~pymupdf.TEXT_PRESERVE_LIGATURES
log = logging.getLogger(__name__)
pymupdf.TOOLS.mupdf_display_errors(False)  # damaged files are reported per file, not on stderr
pymupdf.no_recommend_layout()  # its advice, printed on stdout: the analyser is loaded when needed


def extract_pdf(
    data: bytes, ocr: OcrJob | None = None, read_layers: Callable[[bytes], TextLayers] | None = None
) -> ExtractedDocument:
    """The text of a PDF. `read_layers` reads the pages' text layers elsewhere (a worker process,
    pdf_worker.py: MuPDF holds Python's lock in every call, up to 20 ms a page); in this process
    without it. OCR and the rest run here."""
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
            return extract_pages(document, ocr, layers=read_layers(data) if read_layers else None)
        except (ExtractionError, Cancelled):
            if document.is_repaired:  # MuPDF had to rebuild the file: its pages are what is left
                raise ExtractionError(damaged) from None
            raise
        except Exception as exc:
            raise ExtractionError(f"the PDF is damaged and cannot be read: {exc}") from exc


_Word = tuple[str, float, float, float, float]  # text, x0, y0, x1, y1


@dataclass(frozen=True, slots=True)
class _Line:
    """One drawn line of a page: its words with their boxes, in reading order. Or one row of a
    table: its cells' words, `cells` saying where each cell starts in `words` (a block below 0 is
    the page's table -block - 1)."""

    block: int
    words: tuple[_Word, ...]
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


@dataclass(frozen=True, slots=True)
class TextLayers:
    """What a document's text layers hold, page by page: its drawn lines and height, the warnings
    about hidden text, and the pages whose text layer cannot stand for them (index: why)."""

    pages: list[tuple[list[_Line], float]]
    warnings: list[str]
    unreadable: dict[int, str]


def text_layers(document: pymupdf.Document, kind: str = "pdf") -> TextLayers:
    layers = TextLayers([], [], {})
    for page in document:
        lines, hidden = _lines(page)
        layers.pages.append((lines, page.rect.height))
        if hidden:
            layers.warnings.append(_hidden_warning(page.number + 1, hidden))
        problem = _problem(page, lines) if kind == "pdf" else "it is a picture"
        if problem:
            layers.unreadable[page.number] = problem
    return layers


def read_text_layers(data: bytes) -> TextLayers:
    """The text layers of a PDF given as bytes (what a worker process is asked for)."""
    with pymupdf.open(stream=data, filetype="pdf") as document:
        return text_layers(document)


def extract_pages(
    document: pymupdf.Document, ocr: OcrJob | None, kind: str = "pdf", layers: TextLayers | None = None
) -> ExtractedDocument:
    """The text of a PDF (or of a picture opened as pages: `kind` "image") with its word boxes; pages
    without a usable text layer are read by `ocr` when given. `layers`: read already."""
    layers = layers or text_layers(document, kind)
    pages, warnings, unreadable = list(layers.pages), list(layers.warnings), layers.unreadable
    if unreadable and ocr is not None:
        warnings += _read_by_ocr(document, unreadable, pages, ocr)
    elif unreadable and kind == "pdf" and any(lines for lines, _ in pages):
        numbers = [i + 1 for i in unreadable if not pages[i][0]]
        if numbers:
            warnings.append(
                f"{_pages_named(numbers)} no text layer and OCR is off: what they show is not "
                "searchable (turn OCR on in Settings and re-index the document)"
            )
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
        text_start = page_start  # where the page's text outside its tables resumes
        header = ""  # the first row of the table being written
        for i, line in enumerate(body):
            before = length  # where the text before this line ends
            if previous_block is not None and not joined:
                sep = "\n" if line.block == previous_block else "\n\n"
                parts.append(sep)
                length += len(sep)
            following = body[i + 1] if i + 1 < len(body) else None
            joined = False
            if line.cells:  # a row of a table: a segment of its own, its first row the header
                if line.block != previous_block:
                    if before > text_start:
                        segments.append(Segment(text_start, before, page=number))
                    table_start = length
                    # Cells that write "|" themselves (lme4's formulas, "(1 | g)") would split where
                    # they do not end: that table's cells are split by tabs, as a spreadsheet's.
                    rows = [other for other in body if other.block == line.block]
                    split = "\t" if any("|" in w[0] for other in rows for w in other.words) else " | "
                row, row_words = _row(line, vocabulary, split)
                words.extend(
                    replace(w, start=w.start + length, end=w.end + length, page=number) for w in row_words
                )
                parts.append(row)
                length += len(row)
                header = row if line.block != previous_block else header
                if following is None or following.block != line.block:
                    segments.append(Segment(table_start, length, page=number, kind="table", header=header))
                    text_start = length
                previous_block = line.block
                continue
            if previous_block is not None and previous_block < 0:
                text_start = length  # after a table, past the separator
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
                words.append(WordBox(length, length + len(word), number, x0, y0, x1, y1, line.confidence))
                parts.append(word)
                length += len(word)
            previous_block = line.block
        if length > text_start:
            segments.append(Segment(text_start, length, page=number))
        if length == page_start and length:  # an empty page adds no separator
            parts.pop()
            length -= 2
            page_starts[-1] = length
    text = "".join(parts)
    if not text.strip():
        if kind != "pdf":
            raise ExtractionError(
                "no text was recognised in the picture" if ocr is not None else _OCR_OFF_PICTURE
            )
        if not unreadable:
            raise ExtractionError("the PDF's pages are blank: there is no text to index")
        if ocr is not None:
            raise ExtractionError("the PDF has no text layer, and OCR recognised no text on its pages")
        raise ExtractionError(
            "the PDF has no extractable text (a scanned document?) and OCR is off: turn OCR on in "
            "Settings and add it again"
        )
    return ExtractedDocument(
        text=text,
        kind=kind,
        segments=tuple(segments),
        structure=_outline(document, text, page_starts),
        words=tuple(words),
        pages=document.page_count,
        warnings=tuple(warnings),
        ocr_pages=tuple(ocr.read_pages) if ocr is not None else (),
        # The PDF's own title and author; not its dates, which say when the file was made (a
        # vignette built in 2022 of an article of 2018), not when the work appeared.
        meta=_pdf_meta(document) if kind == "pdf" else DocumentMeta(),
    )


def _pdf_meta(document: pymupdf.Document) -> DocumentMeta:
    """The PDF's own title and author, the title taken from the first page's largest type when the
    metadata has none (or a file name); not its dates, which say when the file was made (a vignette
    built in 2022 of an article of 2018), not when the work appeared."""
    properties = document.metadata or {}
    meta = file_meta(properties.get("title"), properties.get("author"))
    if meta.title or not document.page_count:
        return meta
    title = _display_title(document[0])
    return file_meta(title, meta.authors) if title else meta


def _display_title(page: pymupdf.Page) -> str:
    """The words set in the page's largest type, in its top half, when that type stands out (at least
    1.3 times the body's) and makes a title's length: "Extending R with C++: A Brief Introduction to
    Rcpp". "" otherwise."""
    spans = [
        (span["size"], span["text"].strip(), span["bbox"][1])
        for block in page.get_text("dict").get("blocks", [])
        for line in block.get("lines", [])
        for span in line.get("spans", [])
        if span["text"].strip()
    ]
    if not spans:
        return ""
    sizes = sorted(size for size, text, _ in spans for _ in text)
    body, largest = sizes[len(sizes) // 2], sizes[-1]
    if largest < 1.3 * body:
        return ""
    words = [text for size, text, top in spans if size >= 0.95 * largest and top < page.rect.height / 2]
    title = " ".join(" ".join(words).split())
    return title if 2 <= len(title.split()) <= 30 and legible(title) else ""


def legible(text: str) -> bool:
    """Whether `text` reads as words: at most a quarter of its characters symbols. A font without a
    usable character map gives letters as dingbats, and lme4's PLSvGLS.pdf (read by OCR) was titled
    "P❡♥❛❧✐③❡❞❧❡❛st sq✉❛r❡s ..." in the evidence pane and an export (a window session)."""
    shown = [ch for ch in text if not ch.isspace()]
    symbols = sum(1 for ch in shown if unicodedata.category(ch)[0] == "S" or unicodedata.category(ch) == "Co")
    return bool(shown) and symbols <= len(shown) / 4


_OCR_OFF_PICTURE = "a picture has text only if OCR reads it, and OCR is off: turn it on in Settings"


def _problem(page: pymupdf.Page, lines: list[_Line]) -> str:
    words = [w[0] for line in lines for w in line.words]
    if len(words) >= 200:
        return ""  # a full page of words: a text layer, whatever else is on the page
    area = abs(page.rect) or 1.0
    pictures = sum(abs(pymupdf.Rect(i["bbox"]) & page.rect) for i in page.get_image_info())
    # Glyphs drawn without characters count as drawn (a Type 3 font without a character map, as
    # in old TeX papers: "\x19\x12" where the page shows "ua"; ocrmypdf's test resources); the page
    # was called blank and refused.
    drawn = not words and (bool(page.get_drawings()) or _draws_glyphs(page))
    return text_layer_problem(words, min(1.0, pictures / area), drawn)


def _draws_glyphs(page: pymupdf.Page) -> bool:
    """Whether the page draws any visible glyph (filled or stroked, not transparent), readable or not."""
    return any(span["type"] in (0, 1, 2) and span.get("opacity", 1.0) > 0 for span in page.get_texttrace())


def _read_by_ocr(
    document: pymupdf.Document,
    unreadable: dict[int, str],
    pages: list[tuple[list[_Line], float]],
    ocr: OcrJob,
) -> list[str]:
    """Replace the lines of the unreadable pages by what OCR reads on them, page by page; returns the
    warnings the reader should see (pages left unread because the file ran out of time)."""
    started = time.monotonic()
    todo = sorted(unreadable)
    for done, index in enumerate(todo):
        if ocr.cancelled():
            raise Cancelled("cancelled during OCR")
        if done and time.monotonic() - started > ocr.max_seconds:  # the first page is always read
            left = [i + 1 for i in todo[done:]]
            minutes = ocr.max_seconds / 60
            return [
                f"{_pages_named(left)} not been read by OCR: the file took longer than the {minutes:g} "
                "minutes one file may take ([ingest] ocr_max_minutes in config.toml)"
            ]
        ocr.on_page(done, len(todo))
        page = document[index]
        picture, zoom = _picture(page, ocr)
        recognised = [line.scaled(1 / zoom) for line in ocr.recogniser.read(picture)]
        del picture
        lines = [
            _Line(block, tuple((w.text, w.x0, w.y0, w.x1, w.y1) for w in line.words), line.confidence)
            for block, rows in enumerate(reading_order(recognised))
            for line in rows
        ]
        pages[index] = (lines, page.rect.height)
        ocr.read_pages.append(index + 1)
    ocr.on_page(len(todo), len(todo))
    return []


def _picture(page: pymupdf.Page, ocr: OcrJob) -> tuple[np.ndarray, float]:
    """The page rendered for OCR, RGB, and its pixels per point: at the job's dpi, or finer where the
    page is mostly one picture scanned finer (its own resolution), the longer side at most max_side.

    Rendered in bands of about 400 rows: MuPDF holds Python's lock while it renders (173 ms for a
    300-dpi page), which froze the window's thread for as long; a band takes about 20 ms.
    """
    zoom = ocr.dpi / 72
    area = abs(page.rect) or 1.0
    for info in page.get_image_info():
        box = pymupdf.Rect(info["bbox"])
        if abs(box & page.rect) >= 0.5 * area and box.width > 0:
            zoom = max(zoom, info["width"] / box.width)
    zoom = min(zoom, ocr.max_side / max(page.rect.width, page.rect.height, 1.0))
    matrix = pymupdf.Matrix(zoom, zoom)
    whole = (page.rect * matrix).irect
    picture = np.full((whole.height, whole.width, 3), 255, dtype=np.uint8)
    drawing = page.get_displaylist()
    step = _BAND_ROWS / zoom
    top = page.rect.y0
    while top < page.rect.y1:
        clip = pymupdf.Rect(page.rect.x0, top, page.rect.x1, min(page.rect.y1, top + step))
        band = drawing.get_pixmap(matrix=matrix, clip=clip, colorspace=pymupdf.csRGB, alpha=False)
        rows = np.frombuffer(band.samples, dtype=np.uint8).reshape(band.height, band.stride)
        y, x = band.y - whole.y0, band.x - whole.x0
        height = min(band.height, whole.height - y)
        width = min(band.width, whole.width - x)
        if height > 0 and width > 0:
            picture[y : y + height, x : x + width] = rows[:height, : width * 3].reshape(height, width, 3)
        top += step
    return picture, zoom


_BAND_ROWS = 400


def _pages_named(numbers: list[int]) -> str:
    if len(numbers) == 1:
        return f"page {numbers[0]} has"
    shown = ", ".join(str(n) for n in numbers[:10])
    if len(numbers) > 10:
        shown += f" and {len(numbers) - 10} more"
    return f"pages {shown} have"


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
    try:
        return _with_tables(page, lines), left_out
    except Exception:  # reading a table never costs a document its text: the page stays as drawn
        log.warning("page %d: its tables could not be read; kept as text", page.number + 1, exc_info=True)
        return lines, left_out


# Tables. Set as text, a table's cells come one per line (or a column at a time), so a row's cells
# never stood together: lme4's "Table 1" put each R function lines away from what it does, and a
# wrong function was shown as verified (a window session). A table found on the page is written row
# by row, cells split by " | " as every other kind's tables, and is a segment of its own with its
# first row as the header, so the row checks of the gate apply to it. Only pages with at least two
# horizontal rules between their margins are searched (`_tables` says what the search costs). The
# finder's cell boxes are used, not its text: each word goes to the cell its middle lies in, and
# keeps its box. A table is kept as text when it does not look like one: fewer than two rows or
# columns, part of a table (`_table_rows`), framed code (`_is_code`) or a table of contents
# (`_is_contents`).
_RULE_MIN_WIDTH = 0.2  # of the page's width
_BESIDE = 10.0  # points: closer than a column gutter


def _with_tables(page: pymupdf.Page, lines: list[_Line]) -> list[_Line]:
    """The page's lines with the words of each table found on it replaced by the table's rows,
    where its first word stood."""
    rules = _rules(page) if len(lines) >= 3 else []
    if not _ruled(page, rules):
        return lines
    tables, partial = _tables(page, lines, rules, layout=False)
    if not tables and (partial or not _has_vertical_rules(rules)) and load_layout():
        # A table ruled only across (LaTeX's booktabs) has no grid for the finder: the layout
        # analyser finds it. A page that draws rules down too (a grid, a framed block of code)
        # showed its tables to the grid search already, unless that found part of one.
        tables, _ = _tables(page, lines, rules, layout=True)
    if not tables:
        return lines
    placed = {spot: k for k, rows in enumerate(tables) for row in rows for cell in row for spot in cell}
    result: list[_Line] = []
    written: set[int] = set()
    for number, line in enumerate(lines):
        for position in range(len(line.words)):
            k = placed.get((number, position))
            if k is not None and k not in written:
                written.add(k)
                result.extend(_table_lines(k, tables[k], lines))
        kept = tuple(word for position, word in enumerate(line.words) if (number, position) not in placed)
        if kept:
            result.append(_Line(line.block, kept, line.confidence))
    return result


def _tables(
    page: pymupdf.Page, lines: list[_Line], rules: list[pymupdf.Rect], layout: bool
) -> tuple[list[list[list[_Cell]]], bool]:
    """The rows of the tables found on the page that look like tables, and whether the finder found
    part of a table (`_is_partial`). Without `layout` only tables ruled as a grid are found (50 ms a
    page: Debian's manual sets nearly every table so); with it, PyMuPDF's layout analyser finds
    tables ruled only across (LaTeX's booktabs), at about 0.3 s a page."""
    try:
        found = page.find_tables(use_layout=layout).tables
    except Exception:  # the finder's failure costs the page its tables, never its text
        return [], False
    monospaced = _monospaced_spans(page) if found else []
    kept = []
    partial = False
    for table in found:
        if _is_partial(pymupdf.Rect(table.bbox), lines):
            partial = True
            continue
        rows = _table_rows(table, lines, rules)
        if rows and not _is_code(pymupdf.Rect(table.bbox), monospaced) and not _is_contents(rows, lines):
            kept.append(rows)
    return kept, partial


def _is_partial(box: pymupdf.Rect, lines: list[_Line]) -> bool:
    """Whether words stand just beside a table found, level with its rows: the finder found part of a
    table (the ruled middle columns of some of Debian's package tables, their names and descriptions
    left out)."""
    area = box + (-1, -1, 1, 1)
    beside = area + (-_BESIDE, 2, _BESIDE, -2)
    return any(
        beside.intersects(pymupdf.Rect(w[1:]))
        and not area.contains(pymupdf.Point((w[1] + w[3]) / 2, (w[2] + w[4]) / 2))
        for line in lines
        for w in line.words
    )


def _rules(page: pymupdf.Page) -> list[pymupdf.Rect]:
    """The rules the page draws: horizontal ones at least 10 points long, vertical ones at least 5."""
    return [
        box
        for box in (d["rect"] for d in page.get_drawings())
        if (box.height <= 2 and box.width >= 10) or (box.width <= 2 and box.height >= 5)
    ]


def _has_vertical_rules(rules: list[pymupdf.Rect]) -> bool:
    return sum(1 for box in rules if box.width <= 2 and box.height >= 5) >= 2


def _ruled(page: pymupdf.Page, rules: list[pymupdf.Rect]) -> bool:
    """Whether the page draws at least two wide horizontal rules between its margins (a table's top
    and bottom; a running header's rule does not count)."""
    wide = page.rect.width * _RULE_MIN_WIDTH
    top, bottom = page.rect.height * _MARGIN, page.rect.height * (1 - _MARGIN)
    return sum(1 for box in rules if box.height <= 2 and box.width >= wide and top < box.y0 < bottom) >= 2


def _monospaced_spans(page: pymupdf.Page) -> list[tuple[pymupdf.Rect, int, bool]]:
    """Each span of text on the page: its box, its length, whether its font is monospaced."""
    return [
        (pymupdf.Rect(span["bbox"]), len(span["text"].strip()), _is_monospaced(span))
        for block in page.get_text("dict", flags=_WORD_FLAGS)["blocks"]
        for line in block.get("lines", ())
        for span in line["spans"]
        if span["text"].strip()
    ]


def _is_monospaced(span: dict) -> bool:
    font = span["font"].lower()
    return (
        bool(span["flags"] & 8) or "mono" in font or "courier" in font or font.startswith(("cmtt", "sfmono"))
    )


def _is_code(box: pymupdf.Rect, spans: list[tuple[pymupdf.Rect, int, bool]]) -> bool:
    """Whether a table found on a page is a block of code in a frame (a shell session, a
    configuration file): nearly all its characters monospaced. A table of package names beside their
    descriptions is not."""
    inside = [
        (length, mono) for rect, length, mono in spans if box.contains(rect.tl + (rect.br - rect.tl) / 2)
    ]
    total = sum(length for length, _ in inside)
    return total > 0 and sum(length for length, mono in inside if mono) >= _CODE_SHARE * total


_CODE_SHARE = 0.9
_LEADER_DOTS = re.compile(r"(?:\.\s?){4,}")


def _is_contents(rows: list[list[_Cell]], lines: list[_Line]) -> bool:
    """Whether a table found on a page is a table of contents (or a list of tables): half its rows or
    more hold a dot leader. Passages of contents are left out of the index (ingest/units.py), which
    sees them only as text."""
    texts = [" ".join(_word(lines, spot) for cell in row for spot in cell) for row in rows]
    return sum(1 for text in texts if _LEADER_DOTS.search(text)) >= len(rows) / 2


_Cell = list[tuple[int, int]]  # its words, as (line, position) in the page's lines


def _table_rows(table: object, lines: list[_Line], rules: Sequence[pymupdf.Rect] = ()) -> list[list[_Cell]]:
    """The rows of a table PyMuPDF found, as the page's words in its cells; [] when it does not look
    like a table. The finder's rows are bands between rules (drawn, or where it saw a gap); a band
    holding several rows (a table ruled only above and below its groups of rows: pscl's list of
    methods, lme4's symbols) is read line by line (`_band_rows`), and a line going on with the cell
    above it is joined to its row (`_goes_on`), across a band's edge too where no rule is drawn."""
    boxes = [[pymupdf.Rect(cell) if cell else None for cell in row.cells] for row in table.rows]  # type: ignore[attr-defined]
    if len(boxes) < 2 or max(len(row) for row in boxes) < 2:
        return []
    columns = max(len(row) for row in boxes)
    bands: list[list[tuple[int, int, int]]] = [[] for _ in boxes]  # (line, position, column) per band
    area = pymupdf.Rect(table.bbox) + (-1, -1, 1, 1)  # type: ignore[attr-defined]
    if _is_partial(pymupdf.Rect(table.bbox), lines):  # type: ignore[attr-defined]
        return []
    for number, line in enumerate(lines):
        inside = [area.contains(pymupdf.Point((w[1] + w[3]) / 2, (w[2] + w[4]) / 2)) for w in line.words]
        for position, (_, x0, y0, x1, y1) in enumerate(line.words):
            if inside[position]:
                r, c = _cell_of(boxes, (x0 + x1) / 2, (y0 + y1) / 2)
                bands[r].append((number, position, c))
    merged: list[list[_Cell]] = []

    def cells(spots: list[tuple[int, int, int]]) -> list[_Cell]:
        """A row's cells, each cell's words in the order the text layer gives them."""
        row: list[_Cell] = [[] for _ in range(columns)]
        for number, position, c in spots:
            row[c].append((number, position))
        return [sorted(cell) for cell in row]

    def add(row: list[_Cell]) -> None:
        if len(merged) >= 2 and _goes_on(row, merged[-1], lines):
            for c, cell in enumerate(row):
                merged[-1][c].extend(cell)
        else:
            merged.append(row)

    edges = _row_edges(area, rules)
    if edges:
        # Rules drawn down the columns, a segment per row (LaTeX's "|" columns, a word processor's
        # cell borders): their ends are the rows' edges, wherever the finder drew its bands.
        spots = [spot for band in bands for spot in band]
        for top, bottom in itertools.pairwise(edges):
            row = [spot for spot in spots if top <= _middle(lines, spot) < bottom]
            if row:
                merged.append(cells([spot for line in _drawn_lines(row, lines) for spot in line]))
        bands = []
    for band, band_boxes in zip(bands, boxes, strict=False):
        drawn, whole = _band_rows(band, lines)
        if not whole:
            for line in drawn:
                add(cells(line))
            continue
        top = min(box.y0 for box in band_boxes if box)
        if not any(rule.height <= 2 and abs(rule.y0 - top) <= 2 for rule in rules):
            # The finder cut the band where no rule is drawn: a line going on with the row above
            # (lme4's "factor", the end of "Cross-product of the fixed-effects Cholesky factor")
            # belongs to it, not to the band's row.
            while drawn and len(merged) >= 2 and _goes_on(cells(drawn[0]), merged[-1], lines):
                add(cells(drawn.pop(0)))
        if drawn:
            merged.append(cells([spot for line in drawn for spot in line]))
    filled_columns = sum(1 for c in range(columns) if any(row[c] for row in merged))
    if len(merged) < 2 or filled_columns < 2:
        return []
    return merged


def _row_edges(area: pymupdf.Rect, rules: Sequence[pymupdf.Rect]) -> list[float]:
    """Where the rows of a table start and end, from the rules drawn down its columns a segment per
    row (each segment's ends); [] when it has none, or one segment a column (the whole height)."""
    ends = sorted(
        y
        for rule in rules
        if rule.width <= 2
        and rule.height >= 5
        and area.contains(pymupdf.Point(rule.x0, (rule.y0 + rule.y1) / 2))
        for y in (rule.y0, rule.y1)
    )
    edges: list[float] = []
    for y in ends:
        if not edges or y - edges[-1] > 1.5:
            edges.append(y)
    return edges if len(edges) > 3 else []


def _middle(lines: list[_Line], spot: tuple[int, int, int]) -> float:
    _, _, y0, _, y1 = lines[spot[0]].words[spot[1]]
    return (y0 + y1) / 2


def _band_rows(
    band: list[tuple[int, int, int]], lines: list[_Line]
) -> tuple[list[list[tuple[int, int, int]]], bool]:
    """The drawn lines of a band between rules, and whether the band is one row: it is unless two of
    its columns or more hold several lines (names stacked beside their descriptions); one row's cells
    may wrap (a description of two lines beside a name set level with their middle, in Debian's
    tables)."""
    if not band:
        return [], False
    drawn = _drawn_lines(band, lines)
    stacked = Counter(c for line in drawn for c in {column for _, _, column in line})
    return drawn, sum(1 for count in stacked.values() if count > 1) < 2


def _drawn_lines(band: list[tuple[int, int, int]], lines: list[_Line]) -> list[list[tuple[int, int, int]]]:
    """The words of a band of a table grouped by the line they are drawn on, top to bottom: a word
    whose middle lies within 0.6 of a word's height below the line's middle is on it (a subscript
    is; the next line, 0.9 of a height or more below, is not)."""

    def box(spot: tuple[int, int, int]) -> tuple[float, float, float, float]:
        _, x0, y0, x1, y1 = lines[spot[0]].words[spot[1]]
        return x0, y0, x1, y1

    drawn: list[list[tuple[int, int, int]]] = []
    middle = height = 0.0
    for spot in sorted(band, key=lambda s: (box(s)[1] + box(s)[3]) / 2):
        _, y0, _, y1 = box(spot)
        if drawn and (y0 + y1) / 2 <= middle + 0.6 * height:
            drawn[-1].append(spot)
        else:
            drawn.append([spot])
            middle, height = (y0 + y1) / 2, max(y1 - y0, 1.0)
    return [sorted(line, key=lambda s: box(s)[0]) for line in drawn]


def _cell_of(boxes: list[list[pymupdf.Rect | None]], x: float, y: float) -> tuple[int, int]:
    """The row and column of the cell a point lies in (the nearest, where it lies in none)."""

    def row_distance(r: int) -> float:
        tops = [box.y0 for box in boxes[r] if box]
        bottoms = [box.y1 for box in boxes[r] if box]
        return max(min(tops) - y, y - max(bottoms), 0.0) if tops else float("inf")

    r = min(range(len(boxes)), key=row_distance)
    cells = [(c, box) for c, box in enumerate(boxes[r]) if box]
    c = min(cells, key=lambda item: max(item[1].x0 - x, x - item[1].x1, 0.0))[0]
    return r, c


def _goes_on(row: list[_Cell], above: list[_Cell], lines: list[_Line]) -> bool:
    """Whether a row is the row above broken over lines: it fills fewer cells, each going on in
    lower case ("data, and other user inputs"). A row with a figure, a capital or a symbol first in a
    cell is a row of its own, its first cell left empty or not (a second row under one group)."""
    filled = [cell for cell in row if cell]
    if len(filled) >= sum(1 for cell in above if cell):
        return False
    return all(_word(lines, cell[0])[:1].islower() for cell in filled)


def _word(lines: list[_Line], spot: tuple[int, int]) -> str:
    return lines[spot[0]].words[spot[1]][0]


def _table_lines(k: int, rows: list[list[_Cell]], lines: list[_Line]) -> list[_Line]:
    """A table's rows as lines of the page (block -1 - k), their cells' words in reading order; the
    empty cells before the first and after the last written as none, as other tables' rows are."""
    result = []
    for row in rows:
        while row and not row[-1]:
            row = row[:-1]
        while row and not row[0]:
            row = row[1:]
        if not row:
            continue
        words: list[_Word] = []
        starts: list[int] = []
        for cell in row:
            starts.append(len(words))
            words.extend(lines[n].words[position] for n, position in cell)
        result.append(_Line(-1 - k, tuple(words), cells=tuple(starts)))
    return result


def _row(line: _Line, vocabulary: Counter[str], split: str = " | ") -> tuple[str, list[WordBox]]:
    """A table row's text, its cells split by `split`, and its words' boxes (offsets from the row's
    start; page 0): a word broken over two lines of a cell is joined as in running text."""
    text = ""
    boxes: list[WordBox] = []
    ends = list(line.cells[1:]) + [len(line.words)]
    for column, (start, end) in enumerate(zip(line.cells, ends, strict=True)):
        if column:
            text += split
        joined = False
        for i in range(start, end):
            word, x0, y0, x1, y1 = line.words[i]
            if i > start and not joined:
                text += " "
            joined = False
            following = line.words[i + 1] if i + 1 < end else None
            below = following is not None and (following[2] + following[4]) / 2 > y1  # on the next line
            if below:
                word, joined = _dehyphenated(word, following[0], vocabulary)
            boxes.append(WordBox(len(text), len(text) + len(word), 0, x0, y0, x1, y1))
            text += word
    return text, boxes


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


def _outline(document: pymupdf.Document, text: str, page_starts: list[int]) -> tuple[StructureNode, ...]:
    """The PDF's bookmarks as headings. A bookmark names a page: its heading starts where its title
    stands on that page (the page's start when the title is not found there), and governs the text up
    to the next bookmark of its level or above. (Taken from the page's start, a passage at the top of
    a page was put under a heading printed lower on it: "tmpfs" for the /proc text above it.)"""
    end = len(text)
    toc = [(lvl, title.strip(), page) for lvl, title, page, *_ in document.get_toc(simple=True)]
    toc = [(lvl, title, page) for lvl, title, page in toc if title and 1 <= page <= len(page_starts)]
    starts = [
        _title_at(text, title, page_starts[page - 1], _page_end(page_starts, page, end))
        for _, title, page in toc
    ]
    nodes = []
    for i, (level, title, page) in enumerate(toc):
        start = starts[i]
        following = [starts[j] for j in range(i + 1, len(toc)) if toc[j][0] <= level and starts[j] > start]
        stop = following[0] if following else end
        nodes.append(StructureNode("heading", title, level, start, stop, page))
    return tuple(nodes)


def _title_at(text: str, title: str, page_start: int, page_end: int) -> int:
    """Where a bookmark's title stands in its page's text, whitespace and case aside (the page's start
    when it is not there)."""
    words = title.split()[:_TITLE_WORDS]
    pattern = re.compile(r"\s+".join(re.escape(word) for word in words), re.IGNORECASE)
    found = pattern.search(text, page_start, max(page_start, page_end))
    return found.start() if found else page_start


_TITLE_WORDS = 12  # enough to tell a title from the page's other lines


def _page_end(page_starts: list[int], page: int, end: int) -> int:
    return page_starts[page] - 2 if page < len(page_starts) else end
