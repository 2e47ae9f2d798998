"""The library panel: every document with its state, buttons to add and remove, ingest progress."""

from __future__ import annotations

import html
import time
from pathlib import Path

from citedesk_engine import DocumentRecord, FileResult, FileStatus, Progress, StageStarted
from citedesk_engine.types import DocumentMeta
from PySide6.QtCore import QItemSelection, QItemSelectionModel, QPoint, Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QProgressBar,
    QPushButton,
    QStackedLayout,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..library_listing import STATE_TEXT, TIERS, Listing, Row, library_listing
from .buttons import tool_button
from .details_dialog import DetailsDialog
from .documents_model import (
    COLUMNS,
    DOCUMENT_ROLE,
    NAME,
    STATE,
    DocumentsFilter,
    DocumentsModel,
)
from .pace import Throughput, duration_words

__all__ = ["COLUMNS", "DEFAULT_COLUMNS", "LibraryPanel", "Row", "count_of"]

TIER_HELP = (
    "Authority tiers: in normal mode passages of higher tiers come first; strict mode cites only "
    "documents at or above its floor tier (Settings)."
)


DEFAULT_COLUMNS = ("Document", "Units", "State")  # the others: right-click the header
_BAR_STEPS = 1000  # the progress bar's resolution: work is counted in bytes, too many for a QProgressBar


class LibraryPanel(QWidget):
    add_files_requested = Signal()
    add_folder_requested = Signal()
    remove_requested = Signal(list)
    reindex_requested = Signal(list)
    cancel_requested = Signal()
    document_selected = Signal(str)
    authority_requested = Signal(list, int)  # documents, tier
    open_source_requested = Signal(list)  # source paths
    samples_requested = Signal()
    retry_requested = Signal(list)  # failed files to add again
    ask_in_requested = Signal(list)  # ask the next questions in these documents only
    describe_requested = Signal(str, str, list, int)  # document, title, authors, year (0: none)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Library")
        self._files_total = 0
        self._files_done = 0
        self._work = (0, 0)  # bytes of the batch done, of all (Progress "work")
        self._throughput = Throughput()
        self._step = ""
        self._current = ""
        # The documents the user selected: kept while a filter hides them, selected again (and
        # scrolled to) when the filter shows them again.
        self._chosen: list[str] = []
        self._filtering = False

        title = QLabel("<b>Library</b>")
        # Tool buttons: as wide as their words, so the row fits a narrow sidebar (a push button is
        # at least 80 pixels wide in most styles).
        add_files = tool_button("Add files…")
        add_files.setToolTip("Add documents to the library (Ctrl+O)")
        add_folder = tool_button("Add folder…")
        add_folder.setToolTip("Add every document of a folder and its subfolders (Ctrl+Shift+O)")
        self.remove_button = tool_button("Remove")
        self.remove_button.setToolTip("Remove the selected documents from the library (Delete)")
        self.reindex_button = tool_button("Re-index")
        self.reindex_button.setToolTip("Read the selected documents again from their source files")
        add_files.clicked.connect(self.add_files_requested)
        add_folder.clicked.connect(self.add_folder_requested)
        self.remove_button.clicked.connect(self.remove_selected)
        self.reindex_button.clicked.connect(lambda: self.reindex_requested.emit(self.selected_documents()))
        buttons = QHBoxLayout()
        for widget in (title, add_files, add_folder, self.remove_button, self.reindex_button):
            buttons.addWidget(widget)
        buttons.insertStretch(1)

        # A model and a view: the view asks only for the rows it paints (10,000 documents scroll
        # as smoothly as ten); a filter box narrows them by name, title, author or year.
        self.model = DocumentsModel()
        self.shown_rows = DocumentsFilter(self.model)  # the model's rows (by name) that pass the filter
        self.filter = QLineEdit()
        self.filter.setAccessibleName("Filter documents")
        self.filter.setPlaceholderText("Filter by name, title, author or year")
        self.filter.setClearButtonEnabled(True)
        for clear in self.filter.findChildren(QToolButton):  # Qt's clear button, named for screen readers
            clear.setAccessibleName("Clear the filter")
        self.filter.textChanged.connect(self._on_filter)
        self.shown = QLabel()  # "12 of 10,000 documents" while a filter hides some
        self.shown.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.shown.setVisible(False)
        self.table = QTableView()
        self.table.setAccessibleName("Documents")
        self.table.setModel(self.shown_rows)
        # By name; not sorted by clicking a column: the sort marks widened every column of the narrow
        # sidebar past its width.
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)
        rows = self.table.verticalHeader()
        rows.setVisible(False)
        # One height for every row: the view never measures rows to lay them out.
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        rows.setDefaultSectionSize(self.fontMetrics().height() + 8)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(NAME, QHeaderView.ResizeMode.Stretch)
        # The short columns fit their contents, measured on the rows in view only (by default Qt
        # measures a thousand rows at every change: a stall with 10,000 documents).
        header.setResizeContentsPrecision(0)
        for column in range(1, STATE):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        # The state column keeps its width, a long failure reason elided ("failed: the PDF is…"):
        # sized to its contents, one reason pushed the names out and the table scrolled sideways.
        # The whole reason shows under the table when the row is selected, and in its tooltip.
        header.setSectionResizeMode(STATE, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(STATE, self.fontMetrics().horizontalAdvance("processing 100%") + 24)
        # In the narrow sidebar every short column takes width from the names ("ca-certifica…" in a
        # window session): type, language and tier are in the tooltip and hidden until chosen from
        # the header's menu (the window remembers the choice).
        self.show_columns(DEFAULT_COLUMNS)
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(self._columns_menu)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.selectionModel().selectionChanged.connect(self._on_selection)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._context_menu)
        listing = QWidget()
        listing_layout = QVBoxLayout(listing)
        listing_layout.setContentsMargins(0, 0, 0, 0)
        filter_row = QHBoxLayout()
        filter_row.addWidget(self.filter, 1)
        filter_row.addWidget(self.shown)
        listing_layout.addLayout(filter_row)
        listing_layout.addWidget(self.table, 1)
        self._listing = listing

        self.empty = QLabel(
            "<h3>Your library is empty</h3>"
            "<p>Drop PDF, Word, PowerPoint, Excel, HTML, Markdown, text, CSV or code files, scans and "
            "pictures anywhere on this window,<br>or click <b>Add files…</b> or <b>Add folder…</b>.</p>"
            "<p>Everything stays on this computer.</p>"
        )
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.empty.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.samples_button = QPushButton("Try sample documents")
        self.samples_button.setToolTip("Add three small documents shipped with CiteDesk, then ask about them")
        self.samples_button.clicked.connect(self.samples_requested)
        empty_page = QWidget()
        empty_layout = QVBoxLayout(empty_page)
        empty_layout.addStretch(1)
        empty_layout.addWidget(self.empty)
        empty_layout.addWidget(self.samples_button, 0, Qt.AlignmentFlag.AlignHCenter)
        empty_layout.addStretch(1)
        self._empty_page = empty_page
        self._stack = QStackedLayout()
        self._stack.addWidget(empty_page)
        self._stack.addWidget(listing)
        # Until the library has been read: "Your library is empty" showed for seconds over a library
        # of 947 documents while it opened (window session).
        self.waiting = QLabel()
        self.waiting.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.waiting.setWordWrap(True)
        self.waiting.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self._stack.addWidget(self.waiting)
        self.opening()

        self.progress = QProgressBar()
        self.progress.setAccessibleName("Indexing progress")
        self.progress.setTextVisible(True)
        self.progress_label = QLabel()
        self.progress_label.setWordWrap(True)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop after the current step; finished documents are kept (Esc)")
        self.cancel_button.clicked.connect(self._on_cancel)
        progress_row = QHBoxLayout()
        progress_row.addWidget(self.progress, 1)
        progress_row.addWidget(self.cancel_button)
        self.progress_box = QWidget()
        box = QVBoxLayout(self.progress_box)
        box.setContentsMargins(0, 0, 0, 0)
        box.addLayout(progress_row)
        box.addWidget(self.progress_label)
        self.progress_box.setVisible(False)

        # The whole reason a selected file failed, in words: the State column is too narrow for it.
        self.reason = QLabel()
        self.reason.setWordWrap(True)
        self.reason.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.reason.setVisible(False)

        layout = QVBoxLayout(self)
        layout.addLayout(buttons)
        layout.addLayout(self._stack, 1)
        layout.addWidget(self.reason)
        layout.addWidget(self.progress_box)
        self._update_buttons()

    # --- documents -----------------------------------------------------------------------------

    def set_documents(
        self,
        documents: list[DocumentRecord],
        warnings: dict[str, tuple[str, ...]] | None = None,
        metadata: dict[str, DocumentMeta] | None = None,
    ) -> None:
        """Show the committed documents (`show_listing` of their listing)."""
        self.show_listing(library_listing(documents, warnings, metadata))

    def show_listing(self, listing: Listing) -> None:
        """Show a listing of the committed documents as it is (the window's comes prepared on the
        engine's thread, runner.py); failures and cancellations of the last ingest stay listed."""
        for row in [r for r in self._rows.values() if r.state in ("failed", "cancelled")]:
            if row.document not in listing.rows:
                listing.insert(listing.place(row), row)
        selected = self.selected_documents()
        self.table.selectionModel().blockSignals(True)  # rebuilding is not the user selecting
        self.model.set_listing(listing)
        self._select(selected)
        self.table.selectionModel().blockSignals(False)
        self._shown_changed()

    @property
    def _rows(self) -> dict[str, Row]:
        return self.model.rows()

    def row_count(self) -> int:
        """Rows shown (the filter's), in their order on screen."""
        return self.shown_rows.rowCount()

    def cell(self, row: int, column: int) -> str:
        """The text of a cell as shown: row in screen order."""
        return str(self.shown_rows.index(row, column).data())

    def tooltip(self, row: int) -> str:
        return str(self.shown_rows.index(row, 0).data(Qt.ItemDataRole.ToolTipRole))

    def counts(self) -> tuple[int, int]:
        """Documents in the library and their passages, as the rows show them now."""
        rows = [r for r in self._rows.values() if r.state in ("indexed", "unchanged")]
        return len(rows), sum(r.units or 0 for r in rows)

    def row(self, document: str) -> Row | None:
        return self._rows.get(document)

    def selected_documents(self) -> list[str]:
        rows = sorted({index.row() for index in self.table.selectionModel().selectedRows()})
        return [self.shown_rows.index(r, 0).data(DOCUMENT_ROLE) for r in rows]

    def _select(self, documents: list[str]) -> None:
        """Select these documents' rows (those the filter shows), without touching the keyboard's
        modifiers: selectRow follows them, and a Ctrl held while rows change would toggle rows off."""
        selection = QItemSelection()
        for document in documents:
            source = self.model.index_of(document)
            shown = self.shown_rows.mapFromSource(source) if source.isValid() else source
            if shown.isValid():
                selection.select(shown, shown)
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        self.table.selectionModel().select(selection, flags)

    # --- ingest progress ---------------------------------------------------------------------

    def ingest_started(self, paths: list[str]) -> None:
        for key in [k for k, r in self._rows.items() if r.state in ("failed", "cancelled")]:
            self.model.remove(key)
        for path in paths:
            if not Path(path).is_dir():
                row = self._rows.get(path) or Row(path)
                row.state, row.reason = "queued", ""
                self.model.put(row)
        self._throughput = Throughput()
        self._files_total = self._files_done = 0
        self._work, self._step = (0, 0), ""
        self.progress.setRange(0, 0)
        self.progress_label.setText("Looking at the files…")
        self.cancel_button.setEnabled(True)
        self.progress_box.setVisible(True)
        self._shown_changed()

    def work_started(self, text: str) -> None:
        """Long work on the whole library (re-embedding): progress with its own words, and Cancel."""
        self._throughput = Throughput()
        self._files_total = self._files_done = 0
        self._work, self._step = (0, 0), ""
        self._current = ""
        self.progress.setRange(0, 0)
        self.progress_label.setText(text)
        self.cancel_button.setEnabled(True)
        self.progress_box.setVisible(True)

    def on_event(self, event: object) -> None:
        if isinstance(event, StageStarted) and event.stage == "read":
            self._current = event.subject
            row = self._rows.get(event.subject) or Row(event.subject)
            row.state = "processing"
            self.model.put(row)
        elif isinstance(event, Progress) and event.stage == "files":
            self._files_total, self._files_done = event.total, event.done
            self._describe_progress("")
        elif isinstance(event, Progress) and event.stage == "work":
            # Bytes of the batch done, the file being embedded counted by its passages (the engine's
            # measure): the bar moves through one long document, and the time left follows it.
            self._work = (event.done, event.total)
            self._throughput.add(time.monotonic(), event.done)
            self.progress.setRange(0, _BAR_STEPS)
            self.progress.setValue(round(_BAR_STEPS * event.done / max(1, event.total)))
            self._describe_progress(self._step)
        elif isinstance(event, Progress) and event.stage == "pages" and event.total:
            self._describe_progress(f"reading page {event.done:,} of {event.total:,}")
        elif isinstance(event, Progress) and event.stage == "ocr" and event.total:
            page = min(event.done + 1, event.total)
            self._describe_progress(f"OCR page {page:,} of {event.total:,}")
        elif isinstance(event, Progress) and event.stage == "embed":
            if self._files_total:
                self._describe_progress(f"embedding {event.done:,} of {event.total:,} passages")
            else:  # the whole library at once (a new embedder): the passages are the measure
                self.progress.setRange(0, max(1, event.total))
                self.progress.setValue(event.done)
                self._throughput.add(time.monotonic(), event.done)
                seconds = self._throughput.seconds_left(event.total)
                left = (
                    f" · about {duration_words(seconds)} left" if seconds and event.total > event.done else ""
                )
                self.progress_label.setText(f"Embedding {event.done:,} of {event.total:,} passages{left}")
        elif isinstance(event, StageStarted) and event.stage in ("extract", "index"):
            self._describe_progress("reading text" if event.stage == "extract" else "indexing")
        elif hasattr(event, "result") and isinstance(event.result, FileResult):
            self._file_finished(event.result)

    def ingest_finished(self) -> None:
        self.progress_box.setVisible(False)
        for row in self._rows.values():
            if row.state in ("queued", "processing"):
                row.state = "cancelled"
                self.model.changed(row.document)
        self._shown_changed()

    def _file_finished(self, result: FileResult) -> None:
        if result.path != result.document:
            self.model.remove(result.path)  # queued under the path given, listed under its id
        if result.status is FileStatus.FAILED or result.status is FileStatus.CANCELLED:
            key = result.document
            self.model.put(Row(key, state=STATE_TEXT[result.status], reason=result.reason))
        else:
            row = self._rows.get(result.document) or Row(result.document)
            row.units, row.language = result.units, result.language
            row.kind = row.kind or Path(result.path).suffix.lstrip(".")
            row.state, row.reason = STATE_TEXT[result.status], ""
            if result.status is FileStatus.INGESTED:
                row.warnings = result.warnings
            self.model.put(row)
        self._shown_changed()

    def _describe_progress(self, step: str) -> None:
        self._step = step
        done, total = self._files_done, self._files_total
        name = Path(self._current).name if self._current else ""
        text = f"File {min(done + 1, total)} of {total}: {name}" if total and done < total else "Finishing…"
        if step:
            text += f" — {step}"
        work_done, work_total = self._work
        # From measured throughput, once there is enough of it to say (5% of the work).
        left = self._throughput.seconds_left(work_total)
        if left is not None and 0.05 * work_total <= work_done < work_total:
            text += f" · about {duration_words(left)} left"
        self.progress_label.setText(text)

    def _on_cancel(self) -> None:
        self.cancel_button.setEnabled(False)
        self.progress_label.setText("Cancelling after the current step…")
        self.cancel_requested.emit()

    # --- rendering ---------------------------------------------------------------------------

    def _on_filter(self, text: str) -> None:
        self._filtering = True
        try:
            self.shown_rows.set_words(text)
            self._select(self._chosen)
        finally:
            self._filtering = False
        selected = self.table.selectionModel().selectedRows()
        if selected:
            self.table.scrollTo(selected[0])
        self._shown_changed()

    def opening(self, text: str = "Opening the library…") -> None:
        """No list yet: the library is being read (or could not be); `set_documents` shows it."""
        self.waiting.setText(text)
        self._stack.setCurrentWidget(self.waiting)

    def _shown_changed(self) -> None:
        """The empty page or the list; how many rows the filter shows; the buttons."""
        total, shown = self.model.rowCount(), self.shown_rows.rowCount()
        self._stack.setCurrentWidget(self._listing if total else self._empty_page)
        if shown:
            self.shown.setText(f"{shown:,} of {count_of(total, 'document')}")
        else:  # an empty table alone reads as an empty library
            self.shown.setText(f"none of {count_of(total, 'document')} matches")
        self.shown.setVisible(shown != total)
        self._update_buttons()

    def _on_selection(self, *_: object) -> None:
        self._update_buttons()
        selected = self.selected_documents()
        if self._filtering:
            return  # rows the filter hid or showed again: not the user's choice
        self._chosen = selected
        failed = [self._rows[d] for d in selected if self._rows[d].state in ("failed", "cancelled")]
        warned = [self._rows[d] for d in selected if self._rows[d].warnings]
        if len(selected) == 1 and failed and failed[0].reason:
            self.reason.setText(
                f"<b>{html.escape(Path(failed[0].document).name)}</b> was not added: "
                f"{html.escape(failed[0].reason)}."
            )
            self.reason.setVisible(True)
        elif len(selected) == 1 and warned:
            # What the user should know about the document's text: hidden text left out, text
            # addressed to an AI that CiteDesk never passes on.
            self.reason.setText(
                f"<b>{html.escape(Path(warned[0].document).name)}</b>:<br>"
                + "<br>".join(f"⚠ {html.escape(w)}" for w in warned[0].warnings)
            )
            self.reason.setVisible(True)
        else:
            self.reason.setVisible(False)
        if len(selected) == 1 and self._rows[selected[0]].state in ("indexed", "unchanged"):
            self.document_selected.emit(selected[0])

    def _failed_selection(self) -> list[str]:
        return [d for d in self.selected_documents() if self._rows[d].state in ("failed", "cancelled")]

    def remove_selected(self) -> None:
        """Indexed documents are removed from the library (after a question); failed and cancelled rows,
        which are not in it, are dismissed from the list."""
        self.dismiss(self._failed_selection())
        indexed = self.indexed_selection()
        if indexed:
            self.remove_requested.emit(indexed)

    def dismiss(self, documents: list[str]) -> None:
        for document in documents:
            self.model.remove(document)
        if documents:
            self.reason.setVisible(False)
            self._shown_changed()

    def shown_columns(self) -> list[str]:
        """The names of the columns in view, for the window to remember."""
        return [name for column, name in enumerate(COLUMNS) if not self.table.isColumnHidden(column)]

    def show_columns(self, names: list[str] | tuple[str, ...]) -> None:
        """Show the columns named (unknown names are ignored); the document's name always shows."""
        for column, name in enumerate(COLUMNS):
            self.table.setColumnHidden(column, column != NAME and name not in names)

    def _columns_menu(self, position: QPoint) -> None:
        menu = QMenu(self)
        shown = self.shown_columns()
        for column, name in enumerate(COLUMNS):
            if column == NAME:
                continue
            action = menu.addAction(name)
            action.setCheckable(True)
            action.setChecked(name in shown)
            action.toggled.connect(lambda on, c=column: self.table.setColumnHidden(c, not on))
        menu.popup(self.table.horizontalHeader().mapToGlobal(position))

    def _context_menu(self, position: QPoint) -> None:
        indexed = self.indexed_selection()
        failed = self._failed_selection()
        if failed and not indexed:
            menu = QMenu(self)
            menu.addAction("Try again", lambda: self.retry_requested.emit(failed))
            menu.addAction("Dismiss", lambda: self.dismiss(failed))
            menu.popup(self.table.viewport().mapToGlobal(position))
            return
        if not indexed:
            return
        menu = QMenu(self)
        paths = [self._rows[d].source_path or d for d in indexed]
        these = "this document" if len(indexed) == 1 else f"these {len(indexed)} documents"
        menu.addAction(f"Ask in {these}", lambda: self.ask_in_requested.emit(indexed))
        if len(indexed) == 1:
            menu.addAction("Edit details…", lambda: self.edit_details(indexed[0]))
        menu.addSeparator()
        menu.addAction("Open source", lambda: self.open_source_requested.emit(paths))
        menu.addAction("Re-index", lambda: self.reindex_requested.emit(indexed))
        menu.addAction("Remove…", lambda: self.remove_requested.emit(indexed))
        tiers = menu.addMenu("Authority tier")
        tiers.setToolTipsVisible(True)
        current = {self._rows[d].authority for d in indexed}
        for tier, label in TIERS.items():
            action = tiers.addAction(label, lambda t=tier: self.authority_requested.emit(indexed, t))
            action.setCheckable(True)
            action.setChecked(current == {tier})
            action.setToolTip(TIER_HELP)
        menu.popup(self.table.viewport().mapToGlobal(position))

    def edit_details(self, document: str) -> None:
        """The document's title, authors and year, as CiteDesk cites it: a dialog to correct them."""
        row = self._rows.get(document)
        if row is None:
            return
        dialog = DetailsDialog(Path(document).name, row.about, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.describe_requested.emit(document, *dialog.details())

    def indexed_selection(self) -> list[str]:
        """The selected documents that are in the library (not failed or cancelled rows)."""
        return [
            d
            for d in self.selected_documents()
            if self._rows.get(d, Row(d)).state in ("indexed", "unchanged")
        ]

    def _update_buttons(self) -> None:
        indexed = self.indexed_selection()
        self.remove_button.setEnabled(bool(indexed) or bool(self._failed_selection()))
        self.reindex_button.setEnabled(bool(indexed))


def count_of(number: int, thing: str) -> str:
    """ "1 document", "2,314 passages"."""
    return f"{number:,} {thing}{'' if number == 1 else 's'}"
