"""OCR in ingest: which PDF pages need it, what a reading job needs, and the reading order of the
lines a recogniser (models/recogniser.py) finds on a page."""

from __future__ import annotations

import math
import statistics
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..protocols import Recogniser
from ..types import OcrLine


@dataclass
class OcrJob:
    """What an extractor needs to read pages by OCR: the recogniser, how finely to render a page,
    how long one file may take, and the pipeline's progress and cancel hooks."""

    recogniser: Recogniser
    dpi: int = 300
    max_seconds: float = 1800.0
    on_page: Callable[[int, int], None] = lambda done, total: None  # pages read, pages to read
    cancelled: Callable[[], bool] = lambda: False
    # The longer side of a rendered page at most this many pixels: a 300-dpi A3 page or a 40-megapixel
    # photograph is scaled down, so one page's picture never takes more than ~50 MB.
    max_side: int = 4000
    read_pages: list[int] = field(default_factory=list)  # filled in: the page numbers read by OCR


# --- which pages need OCR ----------------------------------------------------------------------------

_MIN_WORDS = 20  # fewer words than this on a page covered by a picture: the words are a stamp or a header


def text_layer_problem(words: Sequence[str], picture_share: float, drawn: bool) -> str:
    """Why a PDF page's text layer cannot stand for the page, or "" when it can.

    `words` are the page's words, `picture_share` how much of the page pictures cover (0 to 1),
    `drawn` whether anything else is drawn on it. A blank page needs nothing.
    """
    if not words:
        return "it has no text layer" if picture_share > 0 or drawn else ""
    chars = [c for w in words for c in w]
    unknown = sum(1 for c in chars if c == "\ufffd" or unicodedata.category(c) in ("Co", "Cn", "Cc"))
    if unknown > 0.3 * len(chars):
        return "its text layer is mostly unknown characters"
    if len(chars) >= 4 and sum(1 for c in chars if c.isalnum()) < 0.3 * len(chars):
        return "its text layer is mostly symbols (a font without a character map)"
    if len(words) >= _MIN_WORDS and sum(1 for w in words if len(w) == 1) > 0.6 * len(words):
        return "its text layer is single letters, one per word"
    if len(words) < _MIN_WORDS and picture_share >= 0.5:
        return "it is a picture with little text on it"
    return ""


# --- reading order -----------------------------------------------------------------------------------

# A gap between columns at least this many line heights wide (a 10-point gutter is 0.95 of the line
# boxes the recogniser draws around 9-point type), with lines of at least _COLUMN_LINE line heights on
# both sides (a column of prose, not the cells of a table row, which are read row by row).
_GUTTER = 0.6
_COLUMN_LINE = 8.0


def reading_order(lines: Sequence[OcrLine]) -> list[list[OcrLine]]:
    """The lines grouped in blocks, blocks in reading order, each block's lines top to bottom.

    A recursive XY cut on the line boxes: a block is cut down between two columns of prose where a
    gutter runs its whole height, else across at its widest free band (a heading above two columns,
    a figure between paragraphs), until no band is wide enough. So a two-column page reads column by
    column, and a title above both columns first (it spans the gutter, so the first cut is across).
    Lines side by side in a block (a table row's cells) are one line, read left to right. The boxes
    are first turned upright by the lines' median slope: on a scan skewed by 2 degrees, a column's
    left edge moves by a line height every 30 lines, which would close the gutter. Not handled: two
    sections of columns one above the other with no line across between them read as one pair of
    columns.
    """
    if not lines:
        return []
    angle = statistics.median(line.angle for line in lines)
    boxes = [_upright(line, angle) for line in lines]
    height = statistics.median(b[3] - b[1] for b in boxes) or 1.0
    blocks: list[list[int]] = []
    _cut(list(range(len(lines))), boxes, height, blocks)
    return [_rows(block, lines, boxes, height) for block in blocks]


_Box = tuple[float, float, float, float]


def _upright(line: OcrLine, angle: float) -> _Box:
    """The line's extent once the page is turned by -angle (about the picture's origin)."""
    cos, sin = math.cos(angle), math.sin(angle)
    xs, ys = [], []
    for w in line.words:
        x, y = (w.x0 + w.x1) / 2, (w.y0 + w.y1) / 2
        half_w, half_h = (w.x1 - w.x0) / 2, (w.y1 - w.y0) / 2
        u, v = x * cos + y * sin, -x * sin + y * cos  # the word's middle, turned upright
        xs += [u - half_w, u + half_w]
        ys += [v - half_h, v + half_h]
    # A word's own box is the extent of its skewed letters: a little taller than the letters, which
    # the turn of its middle does not undo; it is small next to a line height for words of a few letters.
    return min(xs), min(ys), max(xs), max(ys)


def _cut(items: list[int], boxes: list[_Box], height: float, out: list[list[int]]) -> None:
    across = _widest_gap([(boxes[i][1], boxes[i][3]) for i in items])
    down = _widest_gap([(boxes[i][0], boxes[i][2]) for i in items])
    if down is not None and down[1] - down[0] >= _GUTTER * height:
        left = [i for i in items if boxes[i][2] <= down[0] + 0.5]
        right = [i for i in items if boxes[i][0] >= down[1] - 0.5]
        prose = all(
            statistics.median(boxes[i][2] - boxes[i][0] for i in side) >= _COLUMN_LINE * height
            for side in (left, right)
        )
        if prose:
            _cut(left, boxes, height, out)
            _cut(right, boxes, height, out)
            return
    if across is not None and across[1] - across[0] >= 0.5 * height:
        _cut([i for i in items if boxes[i][3] <= across[0] + 0.5], boxes, height, out)
        _cut([i for i in items if boxes[i][1] >= across[1] - 0.5], boxes, height, out)
        return
    out.append(items)


def _widest_gap(spans: list[tuple[float, float]]) -> tuple[float, float] | None:
    """The widest free interval between the projected spans, or None when they leave none."""
    best: tuple[float, float] | None = None
    ordered = sorted(spans)
    reach = ordered[0][1]
    for start, end in ordered[1:]:
        if start > reach and (best is None or start - reach > best[1] - best[0]):
            best = (reach, start)
        reach = max(reach, end)
    return best


def _rows(items: list[int], lines: Sequence[OcrLine], boxes: list[_Box], height: float) -> list[OcrLine]:
    """Top to bottom; lines whose middles are within half a line height of each other are one row,
    read left to right, as one line (the recogniser cuts a line at a wide space: a table row's
    cells). A row's confidence is its lines' mean, by their number of words."""
    ordered = sorted(items, key=lambda i: (boxes[i][1] + boxes[i][3]) / 2)
    rows: list[list[int]] = []
    for i in ordered:
        middle = (boxes[i][1] + boxes[i][3]) / 2
        if (
            rows
            and abs(middle - statistics.fmean((boxes[j][1] + boxes[j][3]) / 2 for j in rows[-1]))
            < 0.5 * height
        ):
            rows[-1].append(i)
        else:
            rows.append([i])
    merged = []
    for row in rows:
        row.sort(key=lambda i: boxes[i][0])
        words = tuple(w for i in row for w in lines[i].words)
        confidence = sum(lines[i].confidence * len(lines[i].words) for i in row) / len(words)
        merged.append(OcrLine(words, confidence, lines[row[0]].angle))
    return merged
