"""What every extractor returns, and the builder that keeps char offsets exact while text is assembled."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ...index.table_keys import EMPTY_CELL
from ...types import DocumentMeta, StructureNode


@dataclass(frozen=True, slots=True)
class Segment:
    """A span of the extracted text that no unit crosses: a page (two, where a sentence goes on over
    the break; `page` is the first), a section, a slide, a table."""

    start: int
    end: int
    page: int | None = None
    label: str = ""
    kind: str = "text"  # text | table | code
    header: str = ""  # a table's header row, repeated as context of each row block


def table_lines(rows: Sequence[Sequence[str]]) -> list[str]:
    """A table's rows as lines, cells split by " | ": columns no row writes are left out, a row's
    empty cells after its last written one too, and those before its first are EMPTY_CELL; a row
    that writes nothing is no line."""
    width = max((len(row) for row in rows), default=0)
    used = [i for i in range(width) if any(i < len(row) and row[i].strip() for row in rows)]
    lines = []
    for row in rows:
        cells = [row[i].strip() if i < len(row) else "" for i in used]
        while cells and not cells[-1]:
            cells.pop()
        if cells:
            first = next(i for i, cell in enumerate(cells) if cell)
            lines.append(" | ".join([EMPTY_CELL] * first + cells[first:]))
    return lines


@dataclass(frozen=True, slots=True)
class WordBox:
    """Where the characters text[start:end] are drawn on a PDF page."""

    start: int
    end: int
    page: int
    x0: float
    y0: float
    x1: float
    y1: float
    confidence: float = -1.0  # the OCR recogniser's for the word's line; -1 for a text layer's word


@dataclass(frozen=True, slots=True)
class ExtractedDocument:
    text: str
    kind: str
    segments: tuple[Segment, ...]
    structure: tuple[StructureNode, ...] = ()
    words: tuple[WordBox, ...] = ()
    pages: int = 0
    # What the reader should know about the file's text, in their words ("page 3: 12 words of
    # hidden text left out ..."): shown with the document, never part of its text.
    warnings: tuple[str, ...] = ()
    ocr_pages: tuple[int, ...] = ()  # the pages read by OCR
    meta: DocumentMeta = DocumentMeta()  # title, authors, year, from the file's own properties


@dataclass
class DocumentBuilder:
    """Assembles a document block by block; every offset it records indexes into the final text."""

    kind: str
    _parts: list[str] = field(default_factory=list)
    _length: int = 0
    _segments: list[Segment] = field(default_factory=list)
    _open_segment: tuple[int, int | None, str, str, str] | None = None  # start, page, label, kind, header
    _structure: list[StructureNode] = field(default_factory=list)
    _open_nodes: list[tuple[str, str, int, int, int | None]] = field(default_factory=list)
    _page: int | None = None
    _label: str = ""
    _hidden: list[str] = field(default_factory=list)
    pages: int = 0
    meta: DocumentMeta = DocumentMeta()  # from the file's own properties (file_meta)

    def page(self, number: int, label: str = "", kind: str = "") -> None:
        """Start page/slide/sheet `number`; with `kind` it is also a structure node."""
        self._close_segment()
        self._close_nodes(0)
        self._page = number
        self._label = label
        self.pages = max(self.pages, number)
        if kind:
            self._open_nodes.append((kind, label or f"{kind} {number}", 0, self._length, number))

    def heading(self, text: str, level: int = 1, label: str = "") -> None:
        """A heading written as `text`; `label` names its section in the outline and on its passages
        when that is shorter than the text ("json.loads" for its signature "json.loads(s, *, cls=None,
        ...)": a question writes the name, not the parameters)."""
        text = " ".join(text.split())
        if not text:
            return
        self._close_segment()
        self._close_nodes(level)
        self._label = label or text
        start = self._write_block(text)
        self._open_nodes.append(("heading", self._label, level, start, self._page))

    def heading_depth(self) -> int:
        """The level of the innermost heading open now; 0 before the first."""
        return max((level for kind, _, level, _, _ in self._open_nodes if kind == "heading"), default=0)

    def end_heading(self, level: int) -> None:
        """Close the headings at `level` and deeper: what follows belongs to the heading above them
        (the text after an API definition is its section's, not the definition's)."""
        self._close_segment()
        self._close_nodes(level)
        self._label = next((label for kind, label, *_ in reversed(self._open_nodes) if kind == "heading"), "")

    def paragraph(self, text: str) -> None:
        text = text.strip()
        if not text:
            return
        if self._open_segment is None or self._open_segment[3] != "text":
            self._close_segment()
            self._open_segment = (self._length, self._page, self._label, "text", "")
        self._write_block(text)

    def table(self, rows: Sequence[Sequence[str]]) -> None:
        """A table as one line per row, cells separated by ' | '; the first row is the header."""
        lines = table_lines([[" ".join(c.split()) for c in row] for row in rows])
        if not lines:
            return
        self._close_segment()
        self._open_segment = (self._length, self._page, self._label, "table", lines[0])
        self._write_block("\n".join(lines))
        self._close_segment()

    def hidden(self, text: str) -> None:
        """Text the file holds but does not show (a hidden element, hidden-formatted words): it is
        left out of the document and reported in one warning."""
        text = " ".join(text.split())
        if text:
            self._hidden.append(text)

    def build(self, structure_extra: Sequence[StructureNode] = ()) -> ExtractedDocument:
        self._close_segment()
        self._close_nodes(0)
        return ExtractedDocument(
            text="".join(self._parts),
            kind=self.kind,
            segments=tuple(s for s in self._segments if s.end > s.start),
            structure=tuple(self._structure) + tuple(structure_extra),
            pages=self.pages,
            warnings=(hidden_text_warning(self._hidden),) if self._hidden else (),
            meta=self.meta,
        )

    def _write_block(self, text: str) -> int:
        if self._length:
            self._parts.append("\n\n")
            self._length += 2
        start = self._length
        self._parts.append(text)
        self._length += len(text)
        if self._open_segment is None:
            self._open_segment = (start, self._page, self._label, "text", "")
        return start

    def _close_segment(self) -> None:
        if self._open_segment is not None:
            start, page, label, kind, header = self._open_segment
            self._segments.append(Segment(start, self._length, page, label, kind, header))
            self._open_segment = None

    def _close_nodes(self, level: int) -> None:
        """Close the open nodes at `level` or deeper; 0 closes every node, page nodes included."""
        while self._open_nodes and self._open_nodes[-1][2] >= level:
            kind, label, lvl, start, page = self._open_nodes.pop()
            self._structure.append(StructureNode(kind, label, lvl, start, self._length, page))


def hidden_text_warning(pieces: Sequence[str], where: str = "", kinds: str = "") -> str:
    """What the user is told about hidden text left out: how much, of what kind, the first words."""
    count = sum(len(p.split()) for p in pieces)
    sample = " ".join(pieces)
    sample = sample if len(sample) <= 80 else sample[:79] + "…"
    how = f" ({kinds})" if kinds else ""
    return (
        f"{where}{count} word{'s' if count != 1 else ''} of hidden text{how} left out, “{sample}”: no "
        "reader sees it, so it is not part of the document's text"
    )


# Titles that authoring tools write for a file they were not given a title for.
_PLACEHOLDER_TITLE = re.compile(
    r"^(?:untitled\b.*|document\d*|microsoft (?:word|powerpoint) - .*"
    r"|.*\.(?:docx?|pdf|tex|dvi|ps|odt|rtf|pptx?))$",
    re.IGNORECASE,
)
_AUTHOR_SPLIT = re.compile(r"\s*(?:;|&|\band\b|,(?!\s*(?:[A-Z]\.\s*)+(?:,|$)))\s*")


def file_meta(title: str | None, authors: str | Sequence[str] | None, year: object = None) -> DocumentMeta:
    """A document's title, authors and year as its file states them, cleaned: a placeholder title
    ("Microsoft Word - draft3.docx", "untitled", a file name) is none, an e-mail address no author,
    an author field is split at ";", "&", "and" and commas ("Hutto, C. J." stays one name), a year
    is four digits between 1400 and 2100."""
    title = " ".join((title or "").split())
    # A file name for a title ("vader_icwsm2014") is no title either.
    file_name = " " not in title and ("_" in title or any(ch.isdigit() for ch in title))
    if _PLACEHOLDER_TITLE.match(title) or file_name or sum(ch.isalpha() for ch in title) < 3:
        title = ""
    names = [authors] if isinstance(authors, str) else list(authors or ())
    # "Hutto, C. J.; Gilbert, E.": with semicolons, the commas are inside the names.
    split = [
        part.strip()
        for name in names
        for part in (name.split(";") if ";" in (name or "") else _AUTHOR_SPLIT.split(name or ""))
    ]
    # An e-mail address in the author field ("C.J. Hutto;gilbert@cc.gatech.edu") names no one.
    found = tuple(dict.fromkeys(a for a in split if sum(ch.isalpha() for ch in a) >= 2 and "@" not in a))
    digits = re.search(r"\b(1[4-9]\d\d|20\d\d|2100)\b", str(year or ""))
    when = int(digits.group(1)) if digits else None
    if not (title or found or when):
        return DocumentMeta()
    return DocumentMeta(title=title, authors=found, year=when, source="file")
