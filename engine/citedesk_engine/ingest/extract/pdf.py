"""PDF with PyMuPDF: text in the file's reading order per page, with the box of every word kept."""

from __future__ import annotations

import pymupdf

from ...errors import ExtractionError
from .base import ExtractedDocument, Segment, StructureNode, WordBox

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
        if document.page_count == 0:
            raise ExtractionError("the PDF has no pages")
        try:
            return _extract(document)
        except ExtractionError:
            raise
        except Exception as exc:
            raise ExtractionError(f"the PDF is damaged and cannot be read: {exc}") from exc


def _extract(document: pymupdf.Document) -> ExtractedDocument:
    parts: list[str] = []
    length = 0
    segments: list[Segment] = []
    words: list[WordBox] = []
    page_starts: list[int] = []
    for index, page in enumerate(document):
        number = index + 1
        if length:
            parts.append("\n\n")
            length += 2
        page_start = length
        page_starts.append(page_start)
        previous: tuple[int, int] | None = None
        for x0, y0, x1, y1, word, block, line, _ in page.get_text("words"):
            if previous is not None:
                sep = " " if previous == (block, line) else ("\n" if previous[0] == block else "\n\n")
                parts.append(sep)
                length += len(sep)
            words.append(WordBox(length, length + len(word), number, x0, y0, x1, y1))
            parts.append(word)
            length += len(word)
            previous = (block, line)
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
    )


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
