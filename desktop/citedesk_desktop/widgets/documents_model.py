"""The library's documents as a Qt item model: one row a document, its cells computed when shown.

A table of widget items made six items a document and rebuilt them all at every change: 60,000 items
and a stall of seconds at 10,000 documents. A model holds the rows once, in the order of their names;
the view asks only for the cells it paints, and a change to one document repaints one row. The rows
are ordered in Python, once (library_listing.py), and the filter matches text prepared once a row: a
sorting proxy compared rows through Python calls, about 120,000 of them for 9,300 documents, a stall
of a second at each key typed in the filter box (benchmarks/million/window.py).
"""

from __future__ import annotations

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QColor, QGuiApplication

from ..library_listing import Listing, Row, listing_of
from .text_colours import for_palette

COLUMNS = ("Document", "Type", "Units", "Lang", "Tier", "State")
NAME, KIND, UNITS, LANGUAGE, TIER, STATE = range(len(COLUMNS))
DOCUMENT_ROLE = Qt.ItemDataRole.UserRole  # the document's id (its path)
_FAILED = QColor("#c62828")
_WARNED = QColor("#b26a00")

Index = QModelIndex | QPersistentModelIndex


class DocumentsModel(QAbstractTableModel):
    """Rows keyed by document, in the order of their names (`Row.order`)."""

    def __init__(self) -> None:
        super().__init__()
        self._listing = Listing()
        self._position: dict[str, int] = {}

    # --- what the panel changes ----------------------------------------------------------------

    def set_rows(self, rows: dict[str, Row]) -> None:
        """Every row at once (a new library listing): one reset, however many documents."""
        self.set_listing(listing_of(rows.values()))

    def set_listing(self, listing: Listing) -> None:
        """A listing prepared elsewhere (library_listing.py): the model takes it as it is."""
        self.beginResetModel()
        self._listing = listing
        self._position = {key: i for i, key in enumerate(listing.keys)}
        self.endResetModel()

    def put(self, row: Row) -> None:
        """Add the row where its name puts it, or repaint it where it is."""
        listing = self._listing
        position = self._position.get(row.document)
        if position is None:
            at = listing.place(row)
            self.beginInsertRows(QModelIndex(), at, at)
            listing.insert(at, row)
            self._position = {key: i for i, key in enumerate(listing.keys)}
            self.endInsertRows()
            return
        listing.rows[row.document] = row
        listing.haystacks[position] = row.haystack()
        self.dataChanged.emit(self.index(position, 0), self.index(position, len(COLUMNS) - 1))

    def remove(self, document: str) -> None:
        listing = self._listing
        position = self._position.get(document)
        if position is None:
            return
        self.beginRemoveRows(QModelIndex(), position, position)
        del listing.keys[position], listing.orders[position], listing.haystacks[position]
        del listing.rows[document]
        self._position = {key: i for i, key in enumerate(listing.keys)}
        self.endRemoveRows()

    def changed(self, document: str) -> None:
        """The row's values were changed in place: repaint it."""
        position = self._position.get(document)
        if position is not None:
            self._listing.haystacks[position] = self._listing.rows[document].haystack()
            self.dataChanged.emit(self.index(position, 0), self.index(position, len(COLUMNS) - 1))

    def haystack(self, position: int) -> str:
        """The row's name, title, authors and year in lower case (`Row.haystack`, kept per row)."""
        return self._listing.haystacks[position]

    def rows(self) -> dict[str, Row]:
        return self._listing.rows

    def index_of(self, document: str) -> QModelIndex:
        """The first cell of the document's row (invalid when it is not listed)."""
        position = self._position.get(document)
        return QModelIndex() if position is None else self.index(position, 0)

    # --- Qt's side -----------------------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self._listing.keys)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):  # type: ignore[no-untyped-def]
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole):  # type: ignore[no-untyped-def]
        if not index.isValid():
            return None
        row = self._listing.rows[self._listing.keys[index.row()]]
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
