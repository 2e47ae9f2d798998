"""The chat pane: ask, watch the answer stream in, read it as verified claims with citations, or a
refusal card that names the stage that refused and shows what was considered."""

from __future__ import annotations

import html
from pathlib import Path

from citedesk_engine import TokenDelta
from citedesk_engine.types import Answer, SourceRef
from PySide6.QtCore import Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QHBoxLayout, QPlainTextEdit, QPushButton, QTextBrowser, QVBoxLayout, QWidget

STAGE_TEXT = {
    "no_evidence": "No evidence",
    "script": "Unreadable script",
    "relevance": "Not relevant enough",
    "authority": "Below the authority floor",
    "faithfulness": "Not supported by the passages",
    "conflict": "Conflicting sources",
}


class QuestionBox(QPlainTextEdit):
    """Enter sends, Shift+Enter starts a new line."""

    submitted = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt's name)
        if (
            event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
            and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier
        ):
            self.submitted.emit()
            return
        super().keyPressEvent(event)


class ChatPane(QWidget):
    ask_requested = Signal(str, object)  # question, conversation id or None
    stop_requested = Signal()
    source_clicked = Signal(object)  # SourceRef

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.conversation: str | None = None
        self.last_answer: Answer | None = None
        self._blocks: list[str] = []
        self._stream: list[str] = []
        self._flush = QTimer(self)
        self._flush.setInterval(60)  # tokens are coalesced: one repaint per 60 ms, not per token
        self._flush.timeout.connect(self._render)

        self.transcript = QTextBrowser()
        self.transcript.setOpenLinks(False)
        self.transcript.anchorClicked.connect(self._on_link)
        self.question = QuestionBox()
        self.question.setPlaceholderText(
            "Ask a question about your documents (Enter to send, Shift+Enter for a new line)"
        )
        self.question.setFixedHeight(70)
        self.question.submitted.connect(self._submit)
        self.ask_button = QPushButton("Ask")
        self.ask_button.clicked.connect(self._submit)
        self.stop_button = QPushButton("Stop")
        self.stop_button.setEnabled(False)
        self.stop_button.clicked.connect(self.stop_requested)
        self.new_button = QPushButton("New conversation")
        self.new_button.clicked.connect(self.new_conversation)
        buttons = QVBoxLayout()
        for button in (self.ask_button, self.stop_button, self.new_button):
            buttons.addWidget(button)
        row = QHBoxLayout()
        row.addWidget(self.question, 1)
        row.addLayout(buttons)
        layout = QVBoxLayout(self)
        layout.addWidget(self.transcript, 1)
        layout.addLayout(row)
        self._render()

    def new_conversation(self) -> None:
        self.conversation = None
        self._blocks = []
        self._render()

    def set_busy(self, busy: bool) -> None:
        self.ask_button.setEnabled(not busy)
        self.stop_button.setEnabled(busy)

    def on_event(self, event: object) -> None:
        if isinstance(event, TokenDelta):
            self._stream.append(event.text)
            if not self._flush.isActive():
                self._flush.start()

    def show_answer(self, answer: Answer) -> None:
        self._flush.stop()
        self._stream = []
        self.last_answer = answer
        self.conversation = answer.conversation
        self._blocks.append(_answer_html(answer))
        self._render()

    def show_error(self, message: str) -> None:
        self._flush.stop()
        self._stream = []
        self._blocks.append(f"<p style='color:#c62828'>{html.escape(message)}</p>")
        self._render()

    def _submit(self) -> None:
        text = self.question.toPlainText().strip()
        if not text or not self.ask_button.isEnabled():
            return
        self.question.clear()
        self._blocks.append(f"<p><b>You:</b> {html.escape(text)}</p>")
        self._stream = []
        self._render()
        self.ask_requested.emit(text, self.conversation)

    def _render(self) -> None:
        body = "".join(self._blocks)
        if self._stream:
            body += f"<p style='color:gray'><i>{html.escape(''.join(self._stream))}</i></p>"
        if not body:
            body = (
                "<p style='color:gray'>Ask a question. Every sentence of an answer cites the passage it "
                "comes from; click a citation to see it highlighted in its document. When the documents do "
                "not support an answer, CiteDesk refuses and says why.</p>"
            )
        self.transcript.setHtml(body)
        self.transcript.verticalScrollBar().setValue(self.transcript.verticalScrollBar().maximum())
        if not self._stream:
            self._flush.stop()

    def _on_link(self, url: QUrl) -> None:
        if url.scheme() == "cite" and self.last_answer is not None:
            index = int(url.path() or url.host() or "0") - 1
            if 0 <= index < len(self.last_answer.sources):
                self.source_clicked.emit(self.last_answer.sources[index])


def _answer_html(answer: Answer) -> str:
    if answer.refusal is not None:
        stage = answer.refusal.stage.value
        considered = ""
        best = answer.refusal.details.get("best") if isinstance(answer.refusal.details, dict) else None
        if isinstance(best, list) and best:
            rows = "".join(_considered(b) for b in best)
            considered = f"<p>Considered:</p><ul>{rows}</ul>"
        generated = (
            answer.refusal.details.get("generated") if isinstance(answer.refusal.details, dict) else None
        )
        if generated:
            considered += f"<p>The model wrote: <i>{html.escape(str(generated))}</i></p>"
        return (
            "<table width='100%' style='background:#fff3e0; border:1px solid #ef6c00' cellpadding='8'>"
            "<tr><td>"
            f"<b style='color:#e65100'>Refused · {STAGE_TEXT.get(stage, stage)}</b> "
            f"<span style='color:gray'>(stage: {stage})</span><br>{html.escape(answer.refusal.reason)}"
            f"{considered}</td></tr></table><br>"
        )
    order = {s.unit_id: i + 1 for i, s in enumerate(answer.sources)}
    sentences = []
    for claim in answer.claims:
        if not claim.supported:
            continue
        marks = "".join(f" <a href='cite:{order[u]}'>[{order[u]}]</a>" for u in claim.sources if u in order)
        sentences.append(f"{html.escape(claim.text)}{marks}")
    parts = [f"<p><b>CiteDesk:</b> {' '.join(sentences)}</p>"]
    if answer.removed_claims:
        parts.append(f"<p style='color:gray'>{answer.removed_claims} unsupported sentence(s) removed.</p>")
    for conflict in answer.conflicts:
        parts.append(
            f"<p style='color:#e65100'>Conflict ({conflict.kind}): {html.escape(conflict.detail)}</p>"
        )
    parts.append(
        "<ol>"
        + "".join(f"<li><a href='cite:{i}'>{_where(s)}</a></li>" for i, s in enumerate(answer.sources, 1))
        + "</ol>"
    )
    return "".join(parts)


def _considered(best: dict[str, object]) -> str:
    """One candidate the relevance gate weighed, in words a reader understands."""
    name = Path(str(best.get("document") or "")).name or str(best.get("unit_id"))
    page = f", page {best['page']}" if best.get("page") else ""
    coverage = round(100 * float(best.get("coverage", 0) or 0))  # type: ignore[arg-type]
    return (
        f"<li>{html.escape(name)}{page}: holds {coverage}% of the question's words, "
        f"meaning similarity {best.get('similarity')}</li>"
    )


def _where(source: SourceRef) -> str:
    place = (
        f", page {source.page}"
        if source.page
        else (f", {html.escape(source.section)}" if source.section else "")
    )
    return f"{html.escape(Path(source.path).name)}{place}"
