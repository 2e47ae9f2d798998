"""Tables on a PDF page, found by PyMuPDF and written row by row (see the comment below)."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Sequence

import pymupdf

from ..._pymupdf_without_layout import load_layout
from ...index.table_keys import EMPTY_CELL
from .base import WordBox
from .pdf_lines import MARGIN, WORD_FLAGS, Line, Word, dehyphenated

pymupdf.no_recommend_layout()  # its advice, printed on stdout: the analyser is loaded when needed

# Tables. Set as text, a table's cells come one per line (or a column at a time), so a row's cells
# never stood together: lme4's "Table 1" put each R function lines away from what it does, and a
# wrong function was shown as verified (a window session). A table found on the page is written row
# by row, cells split by " | " as every other kind's tables, and is a segment of its own with its
# first row as the header, so the row checks of the gate apply to it. Only pages with at least two
# horizontal rules between their margins are searched (`_tables` says what the search costs). The
# finder's cell boxes are used, not its text: each word goes to the cell its middle lies in, and
# keeps its box. A table is kept as text when it does not look like one: fewer than two rows or
# columns, part of a table (`_is_partial`), framed code (`_is_code`) or a table of contents
# (`_is_contents`).
_RULE_MIN_WIDTH = 0.2  # of the page's width
_BESIDE = 10.0  # points: closer than a column gutter


def with_tables(page: pymupdf.Page, lines: list[Line]) -> list[Line]:
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
    result: list[Line] = []
    written: set[int] = set()
    for number, line in enumerate(lines):
        for position in range(len(line.words)):
            k = placed.get((number, position))
            if k is not None and k not in written:
                written.add(k)
                result.extend(_table_lines(k, tables[k], lines))
        kept = tuple(word for position, word in enumerate(line.words) if (number, position) not in placed)
        if kept:
            result.append(Line(line.block, kept, line.confidence))
    return result


def _tables(
    page: pymupdf.Page, lines: list[Line], rules: list[pymupdf.Rect], layout: bool
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
        rows = _split_merged(_table_rows(table, lines, rules), lines)
        if rows and not _is_code(pymupdf.Rect(table.bbox), monospaced) and not _is_contents(rows, lines):
            kept.append(rows)
    return kept, partial


def _is_partial(box: pymupdf.Rect, lines: list[Line]) -> bool:
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
    top, bottom = page.rect.height * MARGIN, page.rect.height * (1 - MARGIN)
    return sum(1 for box in rules if box.height <= 2 and box.width >= wide and top < box.y0 < bottom) >= 2


def _monospaced_spans(page: pymupdf.Page) -> list[tuple[pymupdf.Rect, int, bool]]:
    """Each span of text on the page: its box, its length, whether its font is monospaced."""
    return [
        (pymupdf.Rect(span["bbox"]), len(span["text"].strip()), _is_monospaced(span))
        for block in page.get_text("dict", flags=WORD_FLAGS)["blocks"]
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


def _is_contents(rows: list[list[_Cell]], lines: list[Line]) -> bool:
    """Whether a table found on a page is a table of contents (or a list of tables): half its rows or
    more hold a dot leader. Passages of contents are left out of the index (ingest/units.py), which
    sees them only as text."""
    texts = [" ".join(_word(lines, spot) for cell in row for spot in cell) for row in rows]
    return sum(1 for text in texts if _LEADER_DOTS.search(text)) >= len(rows) / 2


_Cell = list[tuple[int, int]]  # its words, as (line, position) in the page's lines


def _table_rows(table: object, lines: list[Line], rules: Sequence[pymupdf.Rect] = ()) -> list[list[_Cell]]:
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


def _split_merged(rows: list[list[_Cell]], lines: list[Line]) -> list[list[_Cell]]:
    """The rows with each column the finder merged split again: a column whose every written cell,
    header included, holds the same number of short words (two or more), each under the same word
    of the others, is that many columns. ordinal's Table 4 read "3 4" over "8 2" under a category
    header: the answer for category 3 was taken from the wrong cell and shown as verified."""
    if len(rows) < 3:
        return rows
    split: dict[int, int] = {}
    for c in range(max(len(row) for row in rows)):
        cells = [row[c] for row in rows if c < len(row) and row[c]]
        counts = {len(cell) for cell in cells}
        if len(cells) < 3 or len(counts) != 1 or (k := counts.pop()) < 2:
            continue
        words = [[lines[n].words[p] for n, p in cell] for cell in cells]
        if any(len(w[0]) > _SHORT_CELL for ws in words for w in ws) or any(
            max(w[4] for w in ws) - min(w[4] for w in ws) > (ws[0][4] - ws[0][2]) / 2 for ws in words
        ):
            continue  # a cell of words, or of words on several drawn lines: one cell of text
        middles = [[(w[1] + w[3]) / 2 for w in ws] for ws in words]
        if all(max(m[i] for m in middles) - min(m[i] for m in middles) <= _BESIDE for i in range(k)):
            split[c] = k
    result = []
    for row in rows:
        cells: list[_Cell] = []
        for c, cell in enumerate(row):
            if c not in split:
                cells.append(cell)
            elif len(cell) == split[c]:
                cells += [[spot] for spot in cell]  # a word a column
            else:
                cells += [cell] + [[] for _ in range(split[c] - 1)]  # an empty cell stays one cell wide
        result.append(cells)
    return result


_SHORT_CELL = 8  # characters: a value ("0.25", "n/a"), not a word of a description


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


def _middle(lines: list[Line], spot: tuple[int, int, int]) -> float:
    _, _, y0, _, y1 = lines[spot[0]].words[spot[1]]
    return (y0 + y1) / 2


def _band_rows(
    band: list[tuple[int, int, int]], lines: list[Line]
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


def _drawn_lines(band: list[tuple[int, int, int]], lines: list[Line]) -> list[list[tuple[int, int, int]]]:
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


def _goes_on(row: list[_Cell], above: list[_Cell], lines: list[Line]) -> bool:
    """Whether a row is the row above broken over lines: it fills fewer cells, each going on in
    lower case ("data, and other user inputs"). A row with a figure, a capital or a symbol first in a
    cell is a row of its own, its first cell left empty or not (a second row under one group)."""
    filled = [cell for cell in row if cell]
    if len(filled) >= sum(1 for cell in above if cell):
        return False
    return all(_word(lines, cell[0])[:1].islower() for cell in filled)


def _word(lines: list[Line], spot: tuple[int, int]) -> str:
    return lines[spot[0]].words[spot[1]][0]


def _table_lines(k: int, rows: list[list[_Cell]], lines: list[Line]) -> list[Line]:
    """A table's rows as lines of the page (block -1 - k), their cells' words in reading order; as
    other tables' rows are (`base.table_lines`), columns no row writes are left out, a row's empty
    cells after its last written one too, and those before its first kept (`table_row` writes them
    as EMPTY_CELL) so that each cell stays under its column's name."""
    result = []
    lead = min((next(c for c, cell in enumerate(row) if cell) for row in rows if any(row)), default=0)
    for row in rows:
        row = row[lead:]
        while row and not row[-1]:
            row = row[:-1]
        if not row:
            continue
        words: list[Word] = []
        starts: list[int] = []
        for cell in row:
            starts.append(len(words))
            words.extend(lines[n].words[position] for n, position in cell)
        result.append(Line(-1 - k, tuple(words), cells=tuple(starts)))
    return result


def header_line(rows: Sequence[Line]) -> Line:
    """A table's header: its first row, or its second where the first writes at most half as many
    cells, a label over the columns ("Least—Most bitter" over "1 | 2 | 3 | 4 | 5" in ordinal's Table
    4: taken for the header, it left the columns unnamed and a wrong cell was shown as verified)."""

    def written(line: Line) -> int:
        return sum(
            1
            for start, end in zip(line.cells, [*line.cells[1:], len(line.words)], strict=True)
            if end > start
        )

    return rows[1] if len(rows) >= 3 and 2 * written(rows[0]) <= written(rows[1]) else rows[0]


def table_row(line: Line, vocabulary: Counter[str], split: str = " | ") -> tuple[str, list[WordBox]]:
    """A table row's text, its cells split by `split`, and its words' boxes (offsets from the row's
    start; page 0): a word broken over two lines of a cell is joined as in running text."""
    text = ""
    boxes: list[WordBox] = []
    ends = list(line.cells[1:]) + [len(line.words)]
    written = False  # a cell of the row written yet
    for column, (start, end) in enumerate(zip(line.cells, ends, strict=True)):
        if column:
            text += split
        if start == end and not written:
            text += EMPTY_CELL
        written = written or start < end
        joined = False
        for i in range(start, end):
            word, x0, y0, x1, y1 = line.words[i]
            if i > start and not joined:
                text += " "
            joined = False
            following = line.words[i + 1] if i + 1 < end else None
            below = following is not None and (following[2] + following[4]) / 2 > y1  # on the next line
            if below:
                word, joined = dehyphenated(word, following[0], vocabulary)
            boxes.append(WordBox(len(text), len(text) + len(word), 0, x0, y0, x1, y1))
            text += word
    return text, boxes


# A table's caption: "Table 1: Scaled MSE for Several Estimators of the Median ..." stands apart from
# the rows (above or below them), so a question that names the table or what its caption says ("In
# Table 1, what is the scaled MSE ...?") found rows that write neither, and the gate refused the right
# cell as answering for something the table does not name. The caption is the table's title: it goes
# with every block of its rows into the index and the gate, as a spreadsheet's sheet name does.
_CAPTION = re.compile(r"(?:Table|TABLE|Tab\.)\s*[\dIVXLA-Z]+(?:[.-]\d+)*[.:]?(?:\s|$)")
_CAPTION_GAP = 60.0  # points between the rows and their caption, at most
_CAPTION_WORDS = 40  # the caption's opening words kept as the title


def caption(lines: Sequence[Line], block: int) -> str:
    """The caption of the table whose rows are `lines` of `block` (below 0): the nearest paragraph
    above or below its rows that opens with "Table N"; "" when none is near."""
    rows = [line for line in lines if line.block == block]
    if not rows:
        return ""
    top, bottom = min(line.top for line in rows), max(line.bottom for line in rows)
    best: tuple[float, int] | None = None
    for line in lines:
        if line.block < 0 or not _CAPTION.match(line.text):
            continue
        gap = top - line.bottom if line.bottom <= top + 2 else line.top - bottom
        if -2 <= gap <= _CAPTION_GAP and (best is None or gap < best[0]):
            best = (gap, line.block)
    if best is None:
        return ""
    start = next(i for i, line in enumerate(lines) if line.block == best[1] and _CAPTION.match(line.text))
    said: list[str] = []
    for line in (line for line in lines[start:] if line.block == best[1]):
        words = [w[0] for w in line.words]
        if said and words:
            said[-1], joined = dehyphenated(said[-1], words[0], Counter())
            if joined:
                said[-1] += words.pop(0)
        said += words
    return " ".join(said[:_CAPTION_WORDS])
