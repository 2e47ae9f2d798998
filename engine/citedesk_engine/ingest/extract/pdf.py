"""PDF with PyMuPDF: text in the file's reading order per page, with the box of every word kept.

A page whose text layer is missing or unreadable is read by OCR (ingest/ocr.py) when an OcrJob is
given: rendered, recognised, its lines put in reading order, its words kept with their boxes like a
born-digital page's. Pictures (PNG, JPEG, TIFF ...) are read the same way, one page per frame.
"""

from __future__ import annotations

import logging
import re
import time
import unicodedata
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
import pymupdf

from ...errors import Cancelled, ExtractionError
from ...types import DocumentMeta
from ..ocr import OcrJob, reading_order, text_layer_problem
from .base import ExtractedDocument, Segment, StructureNode, WordBox, file_meta, hidden_text_warning
from .pdf_lines import (
    MARGIN,
    WORD_FLAGS,
    Line,
    composed,
    dehyphenated,
    runs_on,
    same_row,
    superscript_marks,
    without_marks,
)
from .pdf_tables import caption, header_line, table_row, with_tables

log = logging.getLogger(__name__)
pymupdf.TOOLS.mupdf_display_errors(False)  # damaged files are reported per file, not on stderr


# Pages whose text layers are read at a time: progress and Cancel between batches. Reading a page
# takes 20-100 ms (its tables searched included: Debian's 261-page manual reads in about 20 s), so a
# batch takes a second or two, and a batch sent to the worker process costs one open of the file.
PAGE_BATCH = 16


@dataclass(frozen=True, slots=True)
class PageProgress:
    """How reading a PDF's pages reports: pages read of all, and whether the user cancelled."""

    on_pages: Callable[[int, int], None] = lambda done, total: None
    cancelled: Callable[[], bool] = lambda: False


def extract_pdf(
    data: bytes,
    ocr: OcrJob | None = None,
    read_layers: Callable[[bytes, int, int], TextLayers] | None = None,
    progress: PageProgress | None = None,
) -> ExtractedDocument:
    """The text of a PDF. `read_layers(data, first, last)` reads pages first..last-1's text layers
    elsewhere (a worker process, pdf_worker.py: MuPDF holds Python's lock in every call, up to 20 ms a
    page); in this process without it. They are read PAGE_BATCH pages at a time, each batch reported
    to `progress` and a cancel honoured between them. OCR and the rest run here."""
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
            if read_layers is None:
                layers = _in_batches(
                    document.page_count, lambda a, b: text_layers(document, pages=range(a, b)), progress
                )
            else:
                layers = _in_batches(document.page_count, lambda a, b: read_layers(data, a, b), progress)
            return extract_pages(document, ocr, layers=layers)
        except (ExtractionError, Cancelled):
            if document.is_repaired:  # MuPDF had to rebuild the file: its pages are what is left
                raise ExtractionError(damaged) from None
            raise
        except Exception as exc:
            raise ExtractionError(f"the PDF is damaged and cannot be read: {exc}") from exc


@dataclass(frozen=True, slots=True)
class TextLayers:
    """What a document's text layers hold, page by page: its drawn lines and height, the warnings
    about hidden text, and the pages whose text layer cannot stand for them (index: why)."""

    pages: list[tuple[list[Line], float]]
    warnings: list[str]
    unreadable: dict[int, str]


def _in_batches(
    count: int, read: Callable[[int, int], TextLayers], progress: PageProgress | None
) -> TextLayers:
    """The text layers of pages 0..count-1, read PAGE_BATCH pages at a time."""
    progress = progress or PageProgress()
    layers = TextLayers([], [], {})
    for first in range(0, count, PAGE_BATCH):
        if progress.cancelled():
            raise Cancelled("ingest cancelled")
        batch = read(first, min(count, first + PAGE_BATCH))
        layers.pages.extend(batch.pages)
        layers.warnings.extend(batch.warnings)
        layers.unreadable.update(batch.unreadable)
        progress.on_pages(len(layers.pages), count)
    return layers


def text_layers(document: pymupdf.Document, kind: str = "pdf", pages: range | None = None) -> TextLayers:
    """The text layers of the document's pages (those of `pages` only, when given)."""
    layers = TextLayers([], [], {})
    for number in pages if pages is not None else range(document.page_count):
        page = document[number]
        lines, hidden = _lines(page)
        layers.pages.append((lines, page.rect.height))
        if hidden:
            layers.warnings.append(_hidden_warning(page.number + 1, hidden))
        problem = _problem(page, lines) if kind == "pdf" else "it is a picture"
        if problem:
            layers.unreadable[page.number] = problem
    return layers


def read_text_layers(data: bytes, first: int, last: int) -> TextLayers:
    """The text layers of pages first..last-1 of a PDF given as bytes (what a worker process is asked
    for)."""
    with pymupdf.open(stream=data, filetype="pdf") as document:
        return text_layers(document, pages=range(first, last))


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
    bodies = [
        [line for line in lines if not _is_furniture(line, height, furniture)] for lines, height in pages
    ]
    joined = False  # the previous line ended in a broken word that this line's first word ends
    for index, body in enumerate(bodies):
        number = index + 1
        # A sentence going on from the page before stays in one segment, so a passage can hold it
        # whole; the page's text outside its tables is another segment otherwise.
        runs = bool(length) and runs_on(bodies[index - 1], body)
        separator = ("" if joined else " ") if runs else "\n\n" if length else ""
        parts.append(separator)
        length += len(separator)
        if runs:
            last = segments.pop()
            text_start, text_page = last.start, last.page or number
        else:
            text_start, text_page = length, number
        page_start = length
        page_starts.append(page_start)
        previous_block: int | None = None
        joined = False
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
                        segments.append(Segment(text_start, before, page=text_page))
                    table_start = length
                    # Cells that write "|" themselves (lme4's formulas, "(1 | g)") would split where
                    # they do not end: that table's cells are split by tabs, as a spreadsheet's.
                    rows = [other for other in body if other.block == line.block]
                    split = "\t" if any("|" in w[0] for other in rows for w in other.words) else " | "
                    head = header_line(rows)
                row, row_words = table_row(line, vocabulary, split)
                words.extend(
                    replace(w, start=w.start + length, end=w.end + length, page=number) for w in row_words
                )
                parts.append(row)
                length += len(row)
                header = row if line is head else header
                if following is None or following.block != line.block:
                    title = caption(body, line.block)
                    segments.append(
                        Segment(table_start, length, page=number, label=title, kind="table", header=header)
                    )
                    text_start, text_page = length, number
                previous_block = line.block
                continue
            if previous_block is not None and previous_block < 0:
                text_start, text_page = length, number  # after a table, past the separator
            if following is None and index + 1 < len(bodies) and runs_on(body, bodies[index + 1]):
                following = replace(bodies[index + 1][0], block=line.block)  # a word broken over pages
            for position, (word, x0, y0, x1, y1) in enumerate(line.words):
                if position:
                    parts.append(" ")
                    length += 1
                if (
                    position == len(line.words) - 1
                    and following is not None
                    and following.block == line.block
                ):
                    word, joined = dehyphenated(word, following.words[0][0], vocabulary)
                # A broken word is two WordBoxes, one per line: its highlight follows the drawing.
                words.append(WordBox(length, length + len(word), number, x0, y0, x1, y1, line.confidence))
                parts.append(word)
                length += len(word)
            previous_block = line.block
        if length > text_start:
            segments.append(Segment(text_start, length, page=text_page))
        if length == page_start and length:  # an empty page adds no separator
            parts.pop()
            length -= len(separator)
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


def _problem(page: pymupdf.Page, lines: list[Line]) -> str:
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
    pages: list[tuple[list[Line], float]],
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
            Line(block, tuple((w.text, w.x0, w.y0, w.x1, w.y1) for w in line.words), line.confidence)
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


def _lines(page: pymupdf.Page) -> tuple[list[Line], dict[str, list[str]]]:
    """The page's drawn lines, and the words left out because no reader sees them, by why."""
    textpage = page.get_textpage(flags=WORD_FLAGS)
    drawn = [line for block in textpage.extractDICT()["blocks"] for line in block.get("lines", ())]
    hidden = _hidden_spans(page, [span for line in drawn for span in line["spans"] if span["text"].strip()])
    marks = superscript_marks(drawn)
    left_out: dict[str, list[str]] = {}
    lines: list[Line] = []
    current: list[tuple[str, float, float, float, float]] = []
    key: tuple[int, int] | None = None
    for x0, y0, x1, y1, word, block, line, _ in page.get_text("words", textpage=textpage):
        why = _why_hidden(word, x0, y0, x1, y1, hidden)
        if why:
            left_out.setdefault(why, []).append(word)
            continue
        beside = key is not None and same_row(block, key[0], current[-1], (x0, y0, y1), page.rect.height)
        if key is not None and (block, line) != key and not beside:
            lines.append(Line(key[0], tuple(current)))
            current = []
        current.append(without_marks((composed(word), x0, y0, x1, y1), marks))
        key = (block, line)
    if current and key is not None:
        lines.append(Line(key[0], tuple(current)))
    try:
        return with_tables(page, lines), left_out
    except Exception:  # reading a table never costs a document its text: the page stays as drawn
        log.warning("page %d: its tables could not be read; kept as text", page.number + 1, exc_info=True)
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


def _hidden_spans(page: pymupdf.Page, spans: list[dict]) -> list[_Hidden]:
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
_REPEATS = 0.4
_MIN_PAGES = 3


def _shape(text: str) -> str:
    return re.sub(r"\d+", "#", " ".join(text.lower().split()))


def _in_margin(line: Line, height: float) -> bool:
    return line.top <= height * MARGIN or line.bottom >= height * (1 - MARGIN)


def _running_lines(pages: list[tuple[list[Line], float]]) -> frozenset[str]:
    """The shapes of the lines that repeat in the page margins: page furniture, not content."""
    if len(pages) < _MIN_PAGES:
        return frozenset()
    seen: Counter[str] = Counter()
    for lines, height in pages:
        seen.update({_shape(line.text) for line in lines if _in_margin(line, height)})
    needed = max(_MIN_PAGES, _REPEATS * len(pages))
    return frozenset(shape for shape, count in seen.items() if count >= needed)


def _is_furniture(line: Line, height: float, furniture: frozenset[str]) -> bool:
    return bool(furniture) and _in_margin(line, height) and _shape(line.text) in furniture


def _vocabulary(pages: list[tuple[list[Line], float]]) -> Counter[str]:
    """Every word of the document, lower-cased, to tell "automatic-/ally" from "long-/term"."""
    return Counter(w[0].lower().strip(".,;:()[]") for lines, _ in pages for line in lines for w in line.words)


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
