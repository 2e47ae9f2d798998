"""Word, PowerPoint and Excel files (the zip-based Office formats), checked for zip bombs first."""

from __future__ import annotations

import datetime as dt
import io
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from ...errors import ExtractionError
from .base import DocumentBuilder, ExtractedDocument, file_meta
from .guards import check_zip

ZipLimits = tuple[int, int]  # max unzipped bytes, max compression ratio


def extract_docx(data: bytes, limits: ZipLimits) -> ExtractedDocument:
    import docx
    from docx.table import Table

    def build(builder: DocumentBuilder) -> None:
        document = docx.Document(io.BytesIO(data))
        core = document.core_properties
        # Word's "created" is when the file was started, not when the work appeared: no year.
        builder.meta = file_meta(core.title, core.author)
        for block in document.iter_inner_content():
            if isinstance(block, Table):
                builder.table([[cell.text for cell in row.cells] for row in block.rows])
                continue
            style = (block.style.name if block.style is not None else "") or ""
            level = _heading_level(style)
            text = _shown_text(block, builder)
            if level:
                builder.heading(text, level)
            else:
                builder.paragraph(text)

    return _parse(data, limits, "Word (.docx)", "docx", build)


def _shown_text(paragraph: Any, builder: DocumentBuilder) -> str:
    """A Word paragraph's text without its hidden-formatted words (Word's "Hidden" font effect, on
    the run or its paragraph's style): Word does not show or print them."""
    style_hidden = bool(paragraph.style is not None and paragraph.style.font.hidden)
    runs = list(paragraph.runs)
    hidden = [r for r in runs if r.font.hidden or (style_hidden and r.font.hidden is not False)]
    if not hidden:
        return str(paragraph.text)
    for run in hidden:
        builder.hidden(run.text)
    return "".join(r.text for r in runs if r not in hidden)


def extract_pptx(data: bytes, limits: ZipLimits) -> ExtractedDocument:
    import pptx

    def build(builder: DocumentBuilder) -> None:
        presentation = pptx.Presentation(io.BytesIO(data))
        for number, slide in enumerate(presentation.slides, start=1):
            title_shape = slide.shapes.title
            title = " ".join(title_shape.text.split()) if title_shape is not None else ""
            builder.page(number, label=title or f"Slide {number}", kind="slide")
            for shape in _shapes(slide.shapes):
                if getattr(shape, "has_table", False) and shape.has_table:
                    builder.table([[c.text for c in row.cells] for row in shape.table.rows])
                elif getattr(shape, "has_text_frame", False) and shape.has_text_frame:
                    for paragraph in shape.text_frame.paragraphs:
                        builder.paragraph("".join(run.text for run in paragraph.runs))
            if slide.has_notes_slide and slide.notes_slide.notes_text_frame is not None:
                builder.paragraph(slide.notes_slide.notes_text_frame.text)

    return _parse(data, limits, "PowerPoint (.pptx)", "pptx", build)


def extract_xlsx(data: bytes, limits: ZipLimits) -> ExtractedDocument:
    import openpyxl

    def build(builder: DocumentBuilder) -> None:
        workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
        try:
            for number, sheet in enumerate(workbook.worksheets, start=1):
                builder.page(number, label=sheet.title, kind="sheet")
                # Read-only sheets trust the file's own <dimension> record, which writers other than
                # Excel often leave at "A1" (R's writexl: only the first cell came out); reset, the
                # rows are read as they are.
                if hasattr(sheet, "reset_dimensions"):
                    sheet.reset_dimensions()
                rows = [list(row) for row in sheet.iter_rows(values_only=True) if any(_cell(v) for v in row)]
                above, table, below = _sheet_parts(rows)
                builder.paragraph(_note(above))
                builder.table([[_cell(v) for v in row] for row in table])
                builder.paragraph(_note(below))
        finally:
            workbook.close()

    return _parse(data, limits, "Excel (.xlsx)", "xlsx", build)


def _parse(
    data: bytes, limits: ZipLimits, what: str, kind: str, build: Callable[[DocumentBuilder], None]
) -> ExtractedDocument:
    check_zip(data, max_unzipped=limits[0], max_ratio=limits[1], what=what)
    builder = DocumentBuilder(kind)
    try:
        build(builder)
    except ExtractionError:
        raise
    except Exception as exc:  # the parsers raise anything from KeyError to XMLSyntaxError on bad files
        raise ExtractionError(f"not a readable {what} file: {type(exc).__name__}: {exc}") from exc
    doc = builder.build()
    if not doc.text.strip():
        raise ExtractionError(f"the {what} file holds no text")
    return doc


def _heading_level(style: str) -> int:
    if style == "Title":
        return 1
    if style.startswith("Heading "):
        suffix = style.removeprefix("Heading ").strip()
        return int(suffix) if suffix.isdigit() else 1
    return 0


def _shapes(shapes: Iterable[Any]) -> Iterable[Any]:
    for shape in shapes:
        if hasattr(shape, "shapes"):  # a group: its members, in order
            yield from _shapes(shape.shapes)
        else:
            yield shape


def _sheet_parts(
    rows: list[list[object]],
) -> tuple[list[list[object]], list[list[object]], list[list[object]]]:
    """A sheet's notes written above its table, the table (header row first) and the notes below.

    readxl's example sheets (Debian's r-cran-readxl, deaths.xlsx) hold a table of people with a few
    lines of notes above and below it, spread over the cells ("at | the | top | | of | their
    spreadsheets"); read whole, the first note became the table's header and the notes its rows.
    Where the table has figures (numbers, dates, true/false), its data rows run from the first row
    holding one to the last. Above them, the topmost row filling the same columns as most data rows is
    the header, when only rows filling some of those columns stand between (a second header row, a
    row with blanks); with none, the row just above when it leaves one of them blank (the corner).
    Below them, the rows filling the same columns are rows of the table too. The rest are notes. A
    sheet without figures, or with no header row above its figures, is one table as before."""
    figured = [i for i, row in enumerate(rows) if any(_is_figure(v) for v in row)]
    if not figured:
        return [], rows, []
    first, last = figured[0], figured[-1]
    layout = Counter(_filled(rows[i]) for i in figured).most_common(1)[0][0]
    # Up through the rows filling some of the data rows' columns (a row with blanks); the topmost
    # filling all of them is the header.
    top, row = first, first - 1
    while row >= 0 and _filled(rows[row]) <= layout:
        if _filled(rows[row]) == layout:
            top = row
        row -= 1
    if top == first and first > 0:
        above = _filled(rows[first - 1])
        if above < layout and len(above) >= max(2, len(layout) - 1):
            top -= 1  # a header with its corner cell blank
    if top == first:
        return [], rows, []
    bottom = last
    while bottom + 1 < len(rows) and _filled(rows[bottom + 1]) == layout:
        bottom += 1
    return rows[:top], rows[top : bottom + 1], rows[bottom + 1 :]


def _filled(row: list[object]) -> frozenset[int]:
    return frozenset(i for i, value in enumerate(row) if _cell(value))


def _note(rows: list[list[object]]) -> str:
    """Rows of notes as one paragraph, a line per row, its cells joined by spaces."""
    return "\n".join(" ".join(_cell(v) for v in row if _cell(v)) for row in rows)


def _is_figure(value: object) -> bool:
    return isinstance(value, int | float | dt.datetime | dt.date | dt.time)  # bool is an int


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        # As Excel shows it, to its 15 significant digits: a pivot table's mean of 15.16 was
        # answered "15.161538461538463", a sum "27.299999999999997" (a window session), and
        # 6.02214076e23 was written out as 602214075999999987023872.
        return f"{value:.15g}" if value else "0"  # not "-0"
    if isinstance(value, dt.datetime) and value.time() == dt.time():
        return value.date().isoformat()  # a date, as Excel stores one: "1947-01-08", not "...T00:00:00"
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    return str(value)
