"""Build Evidence Units from chunk spans: passage, offsets, page, word boxes, scripts, context."""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Sequence
from pathlib import Path

from ..scripts import scripts_in
from ..types import Box, EvidenceUnit
from .chunk import Chunk
from .extract import WordBox


def build_units(
    document: str, version: str, text: str, chunks: Sequence[Chunk], words: Sequence[WordBox]
) -> list[EvidenceUnit]:
    word_starts = [w.start for w in words]
    units: list[EvidenceUnit] = []
    for piece in chunks:
        passage = text[piece.start : piece.end]
        if is_contents(passage):
            # A table of contents ("10.2 Backup and recovery . . . . . 186"): it holds every heading's
            # words and says nothing under them, so it came first for questions worded like a heading
            # (a window session's rephrased question got the Debian manual's page 14 back) and answers
            # nothing. The outline (structure) keeps the headings.
            continue
        segment = piece.segment
        if len(chunks) > 1 and passage.strip() == segment.label:
            # A heading with nothing under it before the next heading ("Basic Usage" before
            # json.dump's definition): it answers nothing and took a place among the passages the
            # model reads. The outline keeps it.
            continue
        if not any(ch.isalpha() for ch in passage) and not any(ch.isalpha() for ch in segment.header):
            # "(1)", an equation number in a one-cell table of a Word file: no word to cite, and as
            # a table it is indexed with the file's name, so it outranked the passages a question
            # naming the document was after. Rows of figures under a header with words are data:
            # every block of a CSV of monthly employment figures but its first was dropped.
            continue
        ordinal = len(units)
        # A table's header is the context of every row block (index_text leaves it out where the
        # passage starts with it): the generator reads each row with its column names. Its title (the
        # sheet's name, or the file's for a CSV) is indexed with it: a row means nothing without
        # knowing which table it is from ("the codename of Debian 12" is a row of debian.csv).
        context = segment.header
        section = segment.label or (Path(document).name if segment.header else "")
        # A PDF's text running on over a page break is one segment: the passage is on the page of
        # its first word, and may go on to the next (its boxes say where each word is drawn).
        boxes = boxes_for(words, word_starts, piece.start, piece.end)
        page = boxes[0].page if boxes and segment.page else segment.page
        units.append(
            EvidenceUnit(
                unit_id=f"{version}-{ordinal:05d}",
                document=document,
                version=version,
                ordinal=ordinal,
                passage=passage,
                char_start=piece.start,
                char_end=piece.end,
                page=page,
                boxes=boxes,
                section=section,
                context=context,
                scripts=scripts_in(passage),
            )
        )
    return units


_LEADER = re.compile(r"([.\s:·…]{4,})\d+\s*$")  # ". . . . 186", "....186", ".. : ...21" at a line's end


def is_contents(passage: str) -> bool:
    """A passage of a table of contents: three lines or more, at least half of them ending in a dot
    leader (three dots or more, as extraction left them) and a page number, the page numbers in
    order. (A price list or a fee schedule is set with dot leaders too, its amounts in no order.)"""
    lines = [line for line in passage.splitlines() if line.strip()]
    pages = []
    for line in lines:
        found = _LEADER.search(line)
        if found and found.group(1).count(".") + 3 * found.group(1).count("…") >= 3:
            pages.append(int(line[found.end(1) :].strip()))
    in_order = all(a <= b for a, b in itertools.pairwise(pages))
    return len(lines) >= 3 and len(pages) >= len(lines) / 2 and in_order


def boxes_for(words: Sequence[WordBox], starts: list[int], start: int, end: int) -> tuple[Box, ...]:
    """One rectangle per drawn line of the span: the union of the boxes of its words on that line,
    with the lowest OCR confidence of those words (-1 when none was read by OCR)."""
    if not words:
        return ()
    i = max(0, bisect.bisect_right(starts, start) - 1)
    boxes: list[Box] = []
    current: list[float] | None = None
    page = first = last = 0
    confidence = -1.0
    while i < len(words) and words[i].start < end:
        w = words[i]
        i += 1
        if w.end <= start:
            continue
        same_line = (
            current is not None
            and w.page == page
            and abs(w.y0 - current[1]) < 0.5 * max(1.0, current[3] - current[1])
            and w.x0 >= current[0] - 1
        )
        if same_line and current is not None:
            current = [current[0], min(current[1], w.y0), max(current[2], w.x1), max(current[3], w.y1)]
            confidence = min(confidence, w.confidence) if confidence >= 0 else w.confidence
        else:
            if current is not None:
                boxes.append(Box(page, *current, first, last, confidence))
            current = [w.x0, w.y0, w.x1, w.y1]
            page, first, confidence = w.page, max(start, w.start), w.confidence
        last = min(end, w.end)
    if current is not None:
        boxes.append(Box(page, *current, first, last, confidence))
    return tuple(boxes)
