"""The library list as a model and a view: ten thousand documents listed, filtered by name, title,
author or year, their selection kept across a new listing, and ingest progress repainting one row
instead of rebuilding the list."""

from __future__ import annotations

from citedesk_desktop.library_listing import library_listing
from citedesk_desktop.widgets.library_panel import COLUMNS, LibraryPanel
from citedesk_engine import FileResult, FileStatus, Progress, StageStarted
from citedesk_engine.events import FileFinished
from citedesk_engine.types import DocumentMeta, DocumentRecord
from PySide6.QtCore import QItemSelectionModel


def record(number: int) -> DocumentRecord:
    document = f"/papers/paper-{number:05d}.pdf"
    return DocumentRecord(document, document, "s", "v", 10, 0.0, "pdf", 100 + number, 9, "en", 0, 0.0, "t")


def test_ten_thousand_documents_are_listed_sorted_and_filtered(qtbot) -> None:
    panel = LibraryPanel()
    qtbot.addWidget(panel)
    records = [record(n) for n in reversed(range(10_000))]
    about = {records[-1].document: DocumentMeta("Sentiment of tweets", ("C. J. Hutto",), 2014)}
    panel.set_documents(records, {}, about)
    assert panel.row_count() == 10_000
    assert panel.cell(0, 0) == "paper-00000.pdf" and panel.cell(9_999, 0) == "paper-09999.pdf"
    assert panel.cell(0, COLUMNS.index("Units")) == "100"
    assert panel.counts() == (10_000, sum(100 + n for n in range(10_000)))
    panel.filter.setText("paper-0999")  # every word typed must be in the name, title, authors or year
    assert panel.row_count() == 10 and panel.shown.isVisibleTo(panel)
    assert panel.shown.text() == "10 of 10,000 documents"
    panel.filter.setText("hutto 2014")
    assert panel.row_count() == 1 and panel.cell(0, 0) == "paper-00000.pdf"
    panel.filter.setText("no such paper")
    assert panel.row_count() == 0 and panel.shown.text() == "none of 10,000 documents matches"
    panel.filter.setText("")
    assert panel.row_count() == 10_000 and not panel.shown.isVisibleTo(panel)


def test_the_selection_is_kept_when_the_library_is_listed_again(qtbot) -> None:
    panel = LibraryPanel()
    qtbot.addWidget(panel)
    records = [record(n) for n in range(50)]
    panel.set_documents(records)
    panel.table.selectRow(7)
    assert panel.selected_documents() == ["/papers/paper-00007.pdf"]
    panel.set_documents([record(n) for n in range(3, 60)])  # three gone, ten new
    assert panel.selected_documents() == ["/papers/paper-00007.pdf"]
    assert panel.cell(0, 0) == "paper-00003.pdf"


def test_ingest_progress_repaints_rows_without_rebuilding_the_list(qtbot) -> None:
    panel = LibraryPanel()
    qtbot.addWidget(panel)
    panel.set_documents([record(n) for n in range(1_000)])
    resets: list[int] = []
    panel.model.modelReset.connect(lambda: resets.append(1))
    new = "/papers/new.pdf"
    panel.ingest_started([new])
    assert panel.row(new).state == "queued"
    panel.on_event(StageStarted("read", new))
    assert panel.row(new).state == "processing"
    panel.on_event(FileFinished(FileResult(new, new, FileStatus.INGESTED, units=12, language="en")))
    panel.ingest_finished()
    assert resets == []
    shown = {panel.cell(r, 0): panel.cell(r, COLUMNS.index("State")) for r in range(panel.row_count())}
    assert shown["new.pdf"] == "indexed" and len(shown) == 1_001
    failed = "/papers/broken.pdf"
    panel.ingest_started([failed])
    reason = "the PDF is damaged"
    panel.on_event(FileFinished(FileResult(failed, failed, FileStatus.FAILED, reason)))
    panel.ingest_finished()
    assert panel.row(failed).state == "failed"
    row = next(r for r in range(panel.row_count()) if panel.cell(r, 0) == "broken.pdf")
    assert panel.cell(row, COLUMNS.index("State")) == f"failed: {reason}"
    panel.dismiss([failed])
    assert panel.row(failed) is None and panel.row_count() == 1_001


def test_added_rows_take_their_place_by_name_and_the_filter_follows_changes(qtbot) -> None:
    panel = LibraryPanel()
    qtbot.addWidget(panel)
    panel.set_documents([record(n) for n in (1, 5, 9)])
    panel.ingest_started(["/papers/paper-00004.pdf", "/papers/Appendix.pdf"])  # case ignored
    assert [panel.cell(r, 0) for r in range(panel.row_count())] == [
        "Appendix.pdf",
        "paper-00001.pdf",
        "paper-00004.pdf",
        "paper-00005.pdf",
        "paper-00009.pdf",
    ]
    for new in ("/papers/paper-00004.pdf", "/papers/Appendix.pdf"):
        panel.on_event(FileFinished(FileResult(new, new, FileStatus.INGESTED, units=3, language="en")))
    panel.ingest_finished()
    panel.filter.setText("appendix")
    assert panel.row_count() == 1
    panel.ingest_started(["/papers/appendix-b.pdf"])  # a row added while filtered is filtered too
    assert [panel.cell(r, 0) for r in range(panel.row_count())] == ["appendix-b.pdf", "Appendix.pdf"]
    row = panel.row("/papers/paper-00005.pdf")
    row.about = DocumentMeta("An appendix on methods", (), 2020)  # details edited: matched from now on
    panel.model.changed(row.document)
    assert [panel.cell(r, 0) for r in range(panel.row_count())] == [
        "appendix-b.pdf",
        "Appendix.pdf",
        "paper-00005.pdf",
    ]
    panel.model.remove("/papers/Appendix.pdf")
    assert [panel.cell(r, 0) for r in range(panel.row_count())] == ["appendix-b.pdf", "paper-00005.pdf"]


def select_only(panel: LibraryPanel, row: int) -> None:
    """Select exactly this row, as a plain click does (selectRow follows the keyboard's modifiers,
    and another test's Ctrl shortcut can leave Ctrl set in the application's state)."""
    flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
    panel.table.selectionModel().select(panel.table.model().index(row, 0), flags)


def test_a_selection_the_filter_hides_is_selected_again_and_shown_when_the_filter_is_cleared(qtbot) -> None:
    """A window session lost the selection this way (Remove disabled, the old document still shown)."""
    panel = LibraryPanel()
    qtbot.addWidget(panel)
    panel.resize(300, 200)
    panel.show()
    panel.set_documents([record(n) for n in range(500)])
    select_only(panel, 400)
    assert panel.selected_documents() == ["/papers/paper-00400.pdf"]
    panel.filter.setText("paper-0001")  # hides it
    assert panel.selected_documents() == [] and not panel.remove_button.isEnabled()
    panel.filter.setText("")
    assert panel.selected_documents() == ["/papers/paper-00400.pdf"]
    assert panel.remove_button.isEnabled()
    shown = panel.table.visualRect(panel.table.selectionModel().selectedRows()[0])
    assert panel.table.viewport().rect().contains(shown.center())  # scrolled to, not left at the top
    select_only(panel, 3)  # a new choice replaces the old one
    panel.filter.setText("paper-0000")
    panel.filter.setText("")
    assert panel.selected_documents() == ["/papers/paper-00003.pdf"]


def test_type_language_and_tier_are_hidden_until_chosen_and_told_in_the_tooltip(qtbot) -> None:
    """In the narrow sidebar the short columns squeezed the names to 'ca-certifica…'."""
    panel = LibraryPanel()
    qtbot.addWidget(panel)
    panel.set_documents([record(1)])
    assert panel.shown_columns() == ["Document", "Units", "State"]
    assert "pdf · language en · 101 passages" in panel.row("/papers/paper-00001.pdf").tooltip()
    panel.show_columns(["Tier", "Lang", "no such column"])
    assert panel.shown_columns() == ["Document", "Lang", "Tier"]
    panel.show_columns([])
    assert panel.shown_columns() == ["Document"]  # the name always shows


def test_the_list_says_the_library_is_opening_until_its_documents_come(qtbot) -> None:
    """Not 'Your library is empty' over a library of 947 documents while it is read (window session)."""
    panel = LibraryPanel()
    qtbot.addWidget(panel)
    panel.show()
    assert panel.waiting.isVisible() and not panel.empty.isVisible()
    assert panel.waiting.text() == "Opening the library…"
    panel.set_documents([record(1)])
    assert panel.table.isVisible() and not panel.waiting.isVisible()
    panel.set_documents([])
    assert panel.empty.isVisible()


def test_a_listing_prepared_off_the_window_s_thread_is_taken_as_it_is_failed_rows_kept(qtbot) -> None:
    """Ordering 10,000 rows and their filter texts froze the window 128 ms after each listing
    (ui_stall.py): the engine's thread prepares them, the panel only swaps them in."""
    panel = LibraryPanel()
    qtbot.addWidget(panel)
    panel.set_documents([record(2)])
    failed = "/papers/broken.pdf"
    panel.ingest_started([failed])
    panel.on_event(FileFinished(FileResult(failed, failed, FileStatus.FAILED, "the PDF is damaged")))
    panel.ingest_finished()
    records = [record(n) for n in (9, 3, 1)]
    about = {records[0].document: DocumentMeta("Sentiment of tweets", ("C. J. Hutto",), 2014)}
    prepared = library_listing(records, {}, about)
    assert prepared.keys == ["/papers/paper-00001.pdf", "/papers/paper-00003.pdf", "/papers/paper-00009.pdf"]
    assert prepared.names == {r.document: r.document.rsplit("/", 1)[1] for r in records}
    panel.show_listing(prepared)
    assert panel.model.rows() is prepared.rows  # not built again
    assert [panel.cell(r, 0) for r in range(panel.row_count())] == [
        "broken.pdf",  # the failure of the last ingest stays listed, in its place by name
        "paper-00001.pdf",
        "paper-00003.pdf",
        "paper-00009.pdf",
    ]
    assert failed not in prepared.names  # only committed documents are offered after "@"
    panel.filter.setText("hutto")
    assert panel.row_count() == 1 and panel.cell(0, 0) == "paper-00009.pdf"


def test_a_long_pdf_being_read_says_which_page_and_the_bar_moves(qtbot) -> None:
    """Debian's 261-page manual sat 20 s on "reading text" with a bar that did not move."""
    panel = LibraryPanel()
    qtbot.addWidget(panel)
    manual = "/papers/debian-reference.en.pdf"
    panel.ingest_started([manual])
    panel.on_event(Progress("files", 0, 1))
    panel.on_event(StageStarted("read", manual))
    panel.on_event(StageStarted("extract", manual))
    assert panel.progress_label.text() == "File 1 of 1: debian-reference.en.pdf — reading text"
    panel.on_event(Progress("pages", 48, 261, manual))
    panel.on_event(Progress("work", 400, 5_000, manual))
    assert panel.progress_label.text().startswith(
        "File 1 of 1: debian-reference.en.pdf — reading page 48 of 261"
    )
    assert panel.progress.maximum() > 0 and panel.progress.value() > 0
