"""A page as its document calls it, for every place a passage's location is written (the answer's
citations, the evidence pane, the trace): "page 4", "slide 4", or a spreadsheet's "sheet quakes"."""

from __future__ import annotations

from pathlib import PurePath

_SPREADSHEETS = frozenset({".xlsx", ".xlsm", ".xls"})
_SLIDES = frozenset({".pptx", ".ppt"})


def page_words(path: str, page: int, section: str = "") -> str:
    suffix = PurePath(path).suffix.lower()
    if suffix in _SPREADSHEETS:
        return f"sheet {section}" if section else f"sheet {page}"
    if suffix in _SLIDES:
        return f"slide {page}"
    return f"page {page}"
