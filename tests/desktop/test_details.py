"""A document's details in the window: shown in the library's tooltip, corrected in a dialog, and
used to name its citations."""

from __future__ import annotations

from citedesk_desktop.widgets.chat_pane import ChatPane
from citedesk_desktop.widgets.details_dialog import DetailsDialog
from citedesk_desktop.widgets.library_panel import LibraryPanel
from citedesk_engine.types import Answer, Claim, Decision, DocumentMeta, DocumentRecord, SourceRef
from PySide6.QtWidgets import QDialog

PAPER = "/docs/hutto2014-vader-icwsm.pdf"
ABOUT = DocumentMeta("VADER: A Rule-based Model", ("C. J. Hutto", "Eric Gilbert"), 2014, "you")


def record(document: str) -> DocumentRecord:
    return DocumentRecord(document, document, "s", "v1", 10, 0.0, "pdf", 3, 1, "en", 0, 0.0, "t")


def test_the_library_shows_the_details_and_the_dialog_edits_them(qtbot, monkeypatch) -> None:
    panel = LibraryPanel()
    qtbot.addWidget(panel)
    panel.set_documents([record(PAPER), record("/docs/notes.txt")], {}, {PAPER: ABOUT})
    tips = {panel.cell(i, 0): panel.tooltip(i) for i in range(2)}
    paper_tip = tips["hutto2014-vader-icwsm.pdf"]
    assert "VADER: A Rule-based Model" in paper_tip and "C. J. Hutto; Eric Gilbert" in paper_tip
    assert "as you wrote it; cited as Hutto and Gilbert 2014" in paper_tip
    assert "cited as" not in tips["notes.txt"]  # nothing known, nothing said

    dialog = DetailsDialog("hutto2014-vader-icwsm.pdf", ABOUT)
    qtbot.addWidget(dialog)
    assert dialog.title.text() == ABOUT.title and dialog.year.text() == "2014"
    dialog.authors.setPlainText("C. J. Hutto\n\n  Eric Gilbert \n")
    dialog.year.setText("")
    assert dialog.details() == (ABOUT.title, ["C. J. Hutto", "Eric Gilbert"], 0)

    sent: list[tuple] = []
    panel.describe_requested.connect(lambda *args: sent.append(args))
    monkeypatch.setattr(DetailsDialog, "exec", lambda self: QDialog.DialogCode.Accepted)
    panel.edit_details(PAPER)
    assert sent == [(PAPER, ABOUT.title, ["C. J. Hutto", "Eric Gilbert"], 2014)]


def test_an_answer_names_its_citation_by_authors_and_year(qtbot) -> None:
    source = SourceRef("u1", PAPER, PAPER, 5, (), 0, 22, "ten independent raters", about=ABOUT)
    claim = Claim("ten", True, ("u1",), "verifier", 0.9)
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.show_answer(Answer("How many raters?", Decision.ANSWERED, "ten [1]", (claim,), (source,), (), ()))
    assert "Hutto and Gilbert 2014, page 5" in pane.transcript.toPlainText()
