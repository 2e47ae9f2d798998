"""Asking from the window with the real engine and models: streamed answer, a citation clicked to its
highlighted PDF page, and a refusal card naming its stage."""

from __future__ import annotations

from pathlib import Path

import factories
import pytest
from citedesk_desktop.main_window import MainWindow
from citedesk_desktop.runner import EngineRunner
from citedesk_engine import Engine, TokenDelta
from PySide6.QtCore import QSettings, QUrl

pytestmark = pytest.mark.models


@pytest.fixture
def window(qtbot, tmp_path: Path):
    """The main window on the real engine and models, in a fresh library, once the models are ready."""
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    runner = EngineRunner(Engine.open)
    window = MainWindow(runner, tmp_path / "library", settings)
    qtbot.addWidget(window)
    window.show()
    try:
        qtbot.waitUntil(lambda: not window.runner.busy, timeout=120_000)
        yield window
    finally:
        window.close()
        runner.shutdown()


def test_ask_click_citation_and_see_a_refusal(qtbot, tmp_path: Path, window: MainWindow) -> None:
    pdf = factories.pdf(
        tmp_path / "harbour.pdf",
        [
            "Annual report of the harbour authority. " + factories.LOREM,
            "The harbour handled 4.2 million containers in 2023, a record for the port.",
        ],
    )
    window.ingest([str(pdf)])
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=120_000)
    tokens = []
    window.runner.event.connect(lambda e: tokens.append(e) if isinstance(e, TokenDelta) else None)
    window.chat.question.setPlainText("How many containers did the harbour handle in 2023?")
    window.chat.ask_button.click()
    assert window.chat.stop_button.isEnabled()
    qtbot.waitUntil(lambda: window.chat.last_answer is not None, timeout=120_000)
    answer = window.chat.last_answer
    assert tokens, "the answer streamed in"
    assert answer.refusal is None and "4.2 million" in answer.text
    assert "cite:1.1" in window.chat.transcript.toHtml()
    assert window.trace.answer is answer and window.trace.tree.topLevelItemCount() == len(answer.trace)
    window.chat._on_link(QUrl("cite:1.1"))  # what clicking [1] of the first answer does
    assert window.tabs.currentWidget() is window.evidence
    qtbot.waitUntil(
        lambda: window.evidence.image.pixmap() is not None and not window.evidence.image.pixmap().isNull(),
        timeout=30_000,
    )
    assert window.evidence.page == 2 and window.evidence.highlighted_boxes >= 1
    # The lines of the sentence the claim stands on are marked strongly, not the whole passage alike.
    assert 1 <= window.evidence.strong_boxes <= window.evidence.highlighted_boxes
    assert "page 2" in window.evidence.header.text()
    details = window.evidence.details.text()
    assert "Found by" in details and "fused" in details and "Verified" in details

    window.chat.question.setPlainText("What about gamma rays?")
    window.chat.ask_button.click()
    qtbot.waitUntil(lambda: window.chat.last_answer is not answer, timeout=120_000)
    refused = window.chat.last_answer
    assert refused.refusal is not None and refused.refusal.stage.value == "relevance"
    page = window.chat.transcript.toPlainText()
    assert "Refused · Not relevant enough" in page and "stage: relevance" in page
    window.chat._on_link(QUrl("trace:2"))
    assert window.tabs.currentWidget() is window.trace
    assert window.trace.refusing_stage() == "relevance"
    marked = [window.trace.tree.topLevelItem(i).text(0) for i in range(window.trace.tree.topLevelItemCount())]
    assert [m for m in marked if "refused here" in m] == ["relevance  ◀ refused here"]

    # The conversation is listed; a new one starts empty; the stored one opens again, whole.
    qtbot.waitUntil(lambda: window.chat.conversations.count() == 1, timeout=10_000)
    conversation = window.chat.conversation
    window.chat.new_conversation()
    assert window.chat.answers == [] and window.chat.conversation is None
    window.chat._open_item(window.chat.conversations.item(0))
    qtbot.waitUntil(lambda: len(window.chat.answers) == 2, timeout=10_000)
    assert window.chat.conversation == conversation
    assert [a.question for a in window.chat.answers] == [answer.question, refused.question]
    assert "cite:1.1" in window.chat.transcript.toHtml()
    # Exported, the stored conversation quotes the real passage with its page, and says the refusal.
    saved = tmp_path / "conversation.md"
    window.chat.export_conversation(str(saved))
    exported = saved.read_text(encoding="utf-8")
    assert "4.2 million" in exported and ", p. 2" in exported
    assert "**Refused: Not relevant enough.**" in exported


def test_citations_of_a_short_and_a_long_pdf_show_their_own_pages_in_turn(
    qtbot, tmp_path: Path, window: MainWindow
) -> None:
    """The real session's critical defect: after a citation in a short PDF, one on page 10 of a long
    PDF showed the short document's page, highlight included. Real engine, real models, real pages."""
    short = factories.pdf(
        tmp_path / "harbour.pdf",
        [
            "Annual report of the harbour authority. " + factories.LOREM,
            "The harbour handled 4.2 million containers in 2023, a record for the port.",
        ],
    )
    pages = [f"Chapter {n}. " + factories.LOREM for n in range(1, 10)]
    pages.append("The lighthouse logbook records 212 storms in the winter of 1998.")
    pages += [f"Appendix {n}. " + factories.LOREM for n in range(1, 3)]
    long = factories.pdf(tmp_path / "lighthouse.pdf", pages)
    window.ingest([str(short), str(long)])
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=240_000)
    for question in (
        "How many containers did the harbour handle in 2023?",
        "How many storms does the lighthouse logbook record for 1998?",
    ):
        before = len(window.chat.answers)
        window.chat.question.setPlainText(question)
        window.chat.ask_button.click()
        qtbot.waitUntil(lambda b=before: len(window.chat.answers) == b + 1, timeout=180_000)
        assert window.chat.last_answer.refusal is None, window.chat.last_answer.refusal
    first, second = window.chat.answers
    assert first.sources[0].page == 2 and second.sources[0].page == 10
    for number, path, page in ((1, short, 2), (2, long, 10), (1, short, 2)):
        window.chat._on_link(QUrl(f"cite:{number}.1"))  # what clicking [1] of that answer does
        qtbot.waitUntil(lambda p=path, n=page: window.evidence.shown == (str(p), n), timeout=30_000)
        assert window.evidence.highlighted_boxes >= 1
        assert f"{Path(path).name}</b>, page {page}<br>" in window.evidence.header.text()
    window.evidence.previous_page()
    qtbot.waitUntil(lambda: window.evidence.shown == (str(short), 1), timeout=30_000)
    assert "page 1 (the passage is on page 2)" in window.evidence.header.text()


def test_ask_in_the_selected_documents_then_the_whole_library(
    qtbot, tmp_path: Path, window: MainWindow
) -> None:
    """The library's "Ask in this document", the scope bar, the answer that says where it was asked,
    an @mention, and "Ask the whole library". Two documents disagree on the bridge's length."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "bridge.txt").write_text(
        "The Vasco da Gama Bridge crosses the Tagus river near Lisbon. The bridge is 12.3 kilometres long.",
        encoding="utf-8",
    )
    (docs / "survey.txt").write_text(
        "An older survey says the Vasco da Gama Bridge is 17.2 kilometres long, including its viaducts.",
        encoding="utf-8",
    )
    window.ingest([str(docs)])
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=120_000)
    survey = str(docs / "survey.txt")
    table = window.library.table
    table.selectRow(
        next(i for i in range(window.library.row_count()) if "survey" in window.library.cell(i, 0))
    )
    assert window.library.indexed_selection() == [survey]
    window.library.ask_in_requested.emit(window.library.indexed_selection())  # the context menu's action
    assert window.chat.scope == [survey] and "survey.txt" in window.chat.scope_label.text()
    window.chat.question.setPlainText("How long is the Vasco da Gama Bridge?")
    window.chat.ask_button.click()
    qtbot.waitUntil(lambda: window.chat.last_answer is not None, timeout=180_000)
    answer = window.chat.last_answer
    assert answer.refusal is None and "17.2" in answer.text and "12.3" not in answer.text
    assert answer.scope == (survey,) and {s.document for s in answer.sources} == {survey}
    assert "Asked in: survey.txt" in window.chat.transcript.toPlainText()
    # the scope stays for the next question until the whole library is asked again
    assert window.chat.scope_bar.isVisible()
    window.chat.scope_clear.click()
    assert window.chat.scope == [] and not window.chat.scope_bar.isVisible()
    window.chat.question.setPlainText("How long is the bridge over the Tagus? @bridge.txt")
    window.chat.ask_button.click()
    qtbot.waitUntil(lambda: window.chat.last_answer is not answer, timeout=180_000)
    mentioned = window.chat.last_answer
    assert mentioned.question == "How long is the bridge over the Tagus?"
    assert [Path(d).name for d in mentioned.scope] == ["bridge.txt"]
    assert mentioned.refusal is None and "12.3" in mentioned.text and "17.2" not in mentioned.text
