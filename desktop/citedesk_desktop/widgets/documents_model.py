"""The library's documents as a Qt item model: one row a document, its cells computed when shown.

A table of widget items made six items a document and rebuilt them all at every change: 60,000 items
and a stall of seconds at 10,000 documents. A model holds the rows once, in the order of their names;
the view asks only for the cells it paints, and a change to one document repaints one row. The rows
are ordered here, in Python, once, and the filter matches text prepared once a row: a sorting proxy
compared rows through Python calls, about 120,000 of them for 9,300 documents, a stall of a second at
each key typed in the filter box (benchmarks/million/window.py).
"""

from __future__ import annotations

import bisect
import os
from dataclasses import dataclass

from citedesk_engine import FileStatus
from citedesk_engine.languages import UNDETERMINED
from citedesk_engine.types import DocumentMeta
from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QColor, QGuiApplication

from .text_colours import for_palette

COLUMNS = ("Document", "Type", "Units", "Lang", "Tier", "State")
NAME, KIND, UNITS, LANGUAGE, TIER, STATE = range(len(COLUMNS))
TIERS = {
    0: "Tier 0: not rated (default)",
    1: "Tier 1: reviewed",
    2: "Tier 2: authoritative",
    3: "Tier 3: primary source",
}
STATE_TEXT = {
    FileStatus.INGESTED: "indexed",
    FileStatus.UNCHANGED: "unchanged",
    FileStatus.FAILED: "failed",
    FileStatus.CANCELLED: "cancelled",
}
DOCUMENT_ROLE = Qt.ItemDataRole.UserRole  # the document's id (its path)
_FAILED = QColor("#c62828")
_WARNED = QColor("#b26a00")

Index = QModelIndex | QPersistentModelIndex


@dataclass
class Row:
    document: str
    kind: str = ""
    units: int | None = None
    language: str = ""
    state: str = "indexed"
    reason: str = ""
    authority: int | None = None
    source_path: str = ""
    warnings: tuple[str, ...] = ()  # hidden text left out, text addressed to an AI (engine.warnings)
    about: DocumentMeta = DocumentMeta()  # title, authors, year (engine.metadata)

    @property
    def name(self) -> str:
        # os.path, not Path: a listing of 10,000 documents asks for every name twice, on the GUI thread
        return os.path.basename(self.document)

    def order(self) -> tuple[str, str]:
        """Where the row stands in the list: by name, ignoring case (then by path)."""
        return self.name.lower(), self.document

    def haystack(self) -> str:
        """What the filter box matches: the name, title, authors and year, in lower case."""
        about = self.about
        return " ".join((self.name, about.title, *about.authors, str(about.year or ""))).lower()

    @property
    def state_text(self) -> str:
        state = self.state if not self.reason else f"{self.state}: {self.reason}"
        return f"⚠ {state}" if self.warnings else state  # the warnings: under the table, in the tooltip

    def cells(self) -> tuple[str, ...]:
        return (
            self.name,
            self.kind,
            "" if self.units is None else f"{self.units:,}",
            "?" if self.language == UNDETERMINED else self.language,
            "" if self.authority is None else str(self.authority),
            self.state_text,
        )

    def tooltip(self) -> str:
        language = "" if self.language in ("", UNDETERMINED) else f"language {self.language}"
        units = "" if self.units is None else f"{self.units:,} passages"
        # "pdf · language en · 64 passages": the columns hidden by default
        facts = " · ".join(fact for fact in (self.kind, language, units) if fact)
        return (
            f"{self.document}\n{self.state_text}"
            + (f"\n{facts}" if facts else "")
            + about_lines(self.about)
            + ("" if self.authority is None else f"\n{TIERS.get(self.authority, self.authority)}")
            + "".join(f"\n⚠ {w}" for w in self.warnings)
        )


def about_lines(about: DocumentMeta) -> str:
    lines = [about.title, "; ".join(about.authors), str(about.year or "")]
    shown = "\n".join(line for line in lines if line)
    if not shown:
        return ""
    where = "as you wrote it" if about.source == "you" else "from the file"
    return f"\n{shown}\n({where}; cited as {about.label or 'its name'})"


class DocumentsModel(QAbstractTableModel):
    """Rows keyed by document, in the order of their names (`Row.order`)."""

    def __init__(self) -> None:
        super().__init__()
        self._keys: list[str] = []
        self._orders: list[tuple[str, str]] = []  # each row's Row.order(), in step with _keys
        self._rows: dict[str, Row] = {}
        self._position: dict[str, int] = {}
        self._haystacks: list[str] = []  # each row's Row.haystack(), in step with _keys

    # --- what the panel changes ----------------------------------------------------------------

    def set_rows(self, rows: dict[str, Row]) -> None:
        """Every row at once (a new library listing): one reset, however many documents."""
        self.beginResetModel()
        self._rows = dict(rows)
        ordered = sorted((row.order(), key) for key, row in rows.items())
        self._keys = [key for _, key in ordered]
        self._orders = [order for order, _ in ordered]
        self._haystacks = [rows[key].haystack() for key in self._keys]
        self._position = {key: i for i, key in enumerate(self._keys)}
        self.endResetModel()

    def put(self, row: Row) -> None:
        """Add the row where its name puts it, or repaint it where it is."""
        position = self._position.get(row.document)
        if position is None:
            at = bisect.bisect(self._orders, row.order())
            self.beginInsertRows(QModelIndex(), at, at)
            self._keys.insert(at, row.document)
            self._orders.insert(at, row.order())
            self._haystacks.insert(at, row.haystack())
            self._rows[row.document] = row
            self._position = {key: i for i, key in enumerate(self._keys)}
            self.endInsertRows()
            return
        self._rows[row.document] = row
        self._haystacks[position] = row.haystack()
        self.dataChanged.emit(self.index(position, 0), self.index(position, len(COLUMNS) - 1))

    def remove(self, document: str) -> None:
        position = self._position.get(document)
        if position is None:
            return
        self.beginRemoveRows(QModelIndex(), position, position)
        del self._keys[position], self._orders[position], self._haystacks[position]
        del self._rows[document]
        self._position = {key: i for i, key in enumerate(self._keys)}
        self.endRemoveRows()

    def changed(self, document: str) -> None:
        """The row's values were changed in place: repaint it."""
        position = self._position.get(document)
        if position is not None:
            self._haystacks[position] = self._rows[document].haystack()
            self.dataChanged.emit(self.index(position, 0), self.index(position, len(COLUMNS) - 1))

    def haystack(self, position: int) -> str:
        """The row's name, title, authors and year in lower case (`Row.haystack`, kept per row)."""
        return self._haystacks[position]

    def rows(self) -> dict[str, Row]:
        return self._rows

    def index_of(self, document: str) -> QModelIndex:
        """The first cell of the document's row (invalid when it is not listed)."""
        position = self._position.get(document)
        return QModelIndex() if position is None else self.index(position, 0)

    # --- Qt's side -----------------------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self._keys)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):  # type: ignore[no-untyped-def]
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole):  # type: ignore[no-untyped-def]
        if not index.isValid():
            return None
        row = self._rows[self._keys[index.row()]]
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return row.cells()[column]
        if role == DOCUMENT_ROLE:
            return row.document
        if role == Qt.ItemDataRole.ToolTipRole:
            return row.tooltip()
        if role == Qt.ItemDataRole.TextAlignmentRole and column == UNITS:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole:
            palette = QGuiApplication.palette()
            if row.state == "failed":
                return for_palette(_FAILED, palette)
            if row.warnings and column == STATE:
                return for_palette(_WARNED, palette)
        return None


class DocumentsFilter(QSortFilterProxyModel):
    """The rows (in the model's order) whose name, title, authors or year hold every word typed,
    matched against the text the model prepared for each row."""

    def __init__(self, source: DocumentsModel) -> None:
        super().__init__()
        self._source = source
        self._words: tuple[str, ...] = ()
        self.setSourceModel(source)

    def set_words(self, text: str) -> None:
        words = tuple(text.lower().split())
        if words != self._words:
            self.beginFilterChange()
            self._words = words
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        if not self._words:
            return True
        haystack = self._source.haystack(source_row)
        return all(word in haystack for word in self._words)
