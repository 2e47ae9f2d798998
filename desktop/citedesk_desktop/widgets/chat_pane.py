"""The chat pane: ask, watch the answer stream in, read it as verified claims with citations, or a
refusal card that names the stage that refused and shows what was considered."""

from __future__ import annotations

import html
import json
import re
import time
from pathlib import Path

from citedesk_engine import ConversationInfo, TokenDelta
from citedesk_engine.events import StageStarted
from citedesk_engine.export import (
    answer_markdown,
    conversation_json,
    conversation_markdown,
    scope_words,
)
from citedesk_engine.types import Answer, SourceRef
from PySide6.QtCore import QEvent, QObject, QRect, QSize, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QCursor, QGuiApplication, QTextCursor
from PySide6.QtWidgets import (
    QCheckBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QTextBrowser,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from .answer_html import answer_html, asked_in_alone, citation_card, rephrased, stopped_html
from .question_box import MENTION, QuestionBox
from .text_colours import answer_style_sheet

# The stages of a question (answer/flow.py) in a reader's words, shown until the answer comes.
DOING = {
    "follow-up": "Reading the question with the conversation…",
    "reformulate": "Putting the question into the library's languages…",
    "retrieve": "Searching the library…",
    "deep": "Searching further…",
    "relevance": "Weighing the passages found…",
    "generate": "Writing the answer from the passages…",
    "verify": "Checking each sentence against its passage…",
}


class ChatPane(QWidget):
    # question, conversation id or None, the documents to ask in (ids; empty: the whole library)
    ask_requested = Signal(str, object, list)
    ask_as_typed_requested = Signal(str, object, list)  # the same, searched as typed (no follow-up rewrite)
    stop_requested = Signal()
    source_clicked = Signal(object, object)  # SourceRef, the Answer citing it
    # The citation under the pointer once it rests there (SourceRef, Answer), or (None, None) when it
    # has left every citation.
    source_hovered = Signal(object, object)
    notice = Signal(str)  # what an export did, in words for the status bar
    trace_requested = Signal(object)  # Answer
    conversation_requested = Signal(str)  # open this stored conversation
    delete_conversation_requested = Signal(str)
    conversation_cleared = Signal()  # a new, empty conversation: the evidence of the old one goes

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.conversation: str | None = None
        self._titles: dict[str, str] = {}  # conversation id: its title, as listed
        self.answers: list[Answer] = []  # of the conversation shown, in order
        self._blocks: list[str] = []
        self._block_of: dict[int, int] = {}  # answer number (1-based): its block
        self._removed_shown: set[int] = set()  # answers whose removed sentences are shown
        self._asked = False  # the last block is a question waiting for its answer
        self._stream: list[str] = []
        self._stopping = ""  # shown under the streamed text while a stop takes effect
        self._doing = ""  # what the engine is doing for the question asked, in words, until it answers
        self._flush = QTimer(self)
        self._flush.setInterval(60)  # tokens are coalesced: one repaint per 60 ms, not per token
        self._flush.timeout.connect(self._render)

        self.setAccessibleName("Conversation")
        self.conversations = QListWidget()
        self.conversations.setAccessibleName("Conversations")
        self.conversations.setToolTip("Earlier conversations of this library, newest first")
        self.conversations.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.conversations.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.conversations.itemActivated.connect(self._open_item)
        self.conversations.itemClicked.connect(self._open_item)
        self.conversations.itemSelectionChanged.connect(self._enable_list_buttons)
        self.new_button = QPushButton("New")
        self.new_button.setToolTip("Start a new conversation (Ctrl+N)")
        self.new_button.clicked.connect(self.new_conversation)
        self.delete_button = QPushButton("Delete")
        self.delete_button.setToolTip("Delete the selected conversation")
        self.delete_button.clicked.connect(self._delete_selected)
        self.export_button = QPushButton("Export…")
        self.export_button.setToolTip(
            "Save the conversation shown, with each answer's evidence quoted, as Markdown or JSON"
        )
        self.export_button.clicked.connect(self._export_clicked)
        self.export_button.setEnabled(False)
        list_buttons = QHBoxLayout()
        list_buttons.addWidget(self.new_button)
        list_buttons.addWidget(self.export_button)
        list_buttons.addWidget(self.delete_button)
        # The list of conversations, which the window places in its sidebar under the library.
        self.history = QWidget()
        side_layout = QVBoxLayout(self.history)
        side_layout.setContentsMargins(0, 0, 0, 0)
        side_layout.addWidget(QLabel("<b>Conversations</b>"))
        side_layout.addWidget(self.conversations, 1)
        side_layout.addLayout(list_buttons)

        self.transcript = QTextBrowser()
        self.transcript.setAccessibleName("Questions and answers")
        self.transcript.setOpenLinks(False)
        self.transcript.anchorClicked.connect(self._on_link)
        self.transcript.highlighted.connect(self._on_hover)
        # Its colours are the palette's, made readable on it; again when the theme changes.
        self.transcript.document().setDefaultStyleSheet(answer_style_sheet(self.transcript.palette()))
        # Read at its foot, the conversation stays there when its text is laid out again (a narrower
        # pane makes it longer: a window session saw the latest answer scroll away).
        bar = self.transcript.verticalScrollBar()
        self._at_foot = True
        bar.valueChanged.connect(lambda value: setattr(self, "_at_foot", value >= bar.maximum() - 4))
        bar.rangeChanged.connect(lambda _low, high: bar.setValue(high) if self._at_foot else None)
        self._hovered = QUrl()
        # A citation is shown once the pointer rests on it, not for every one it crosses on its way.
        self._hover_rest = QTimer(self)
        self._hover_rest.setSingleShot(True)
        self._hover_rest.setInterval(250)
        self._hover_rest.timeout.connect(self._show_hovered)
        # The pointer leaving the conversation straight from a link (to the evidence beside it) ends
        # the hover too: Qt says nothing then, and a window session's preview stayed in place of the
        # citation clicked.
        self.transcript.viewport().installEventFilter(self)
        self.scope: list[str] = []  # the documents the next question is asked in (ids); empty: all
        self._documents: dict[str, str] = {}  # id: file name, of the library's searchable documents
        self.scope_label = QLabel()
        self.scope_label.setAccessibleName("Asking in")
        self.scope_label.setWordWrap(True)
        self.scope_clear = QPushButton("Ask the whole library")
        self.scope_clear.setToolTip("Ask the next questions in every document of the library again")
        self.scope_clear.clicked.connect(self.clear_scope)
        self.scope_bar = QWidget()
        scope_row = QHBoxLayout(self.scope_bar)
        scope_row.setContentsMargins(0, 0, 0, 0)
        scope_row.addWidget(self.scope_label, 1)
        scope_row.addWidget(self.scope_clear)
        self.scope_bar.setVisible(False)
        self.question = QuestionBox()
        self.question.setAccessibleName("Question")
        self.question.setPlaceholderText(
            "Ask about your documents (Enter sends, Shift+Enter: new line, @ names a document)"
        )
        self.question.setToolTip(
            "Enter sends the question; Shift+Enter starts a new line; type @ and a document's name to "
            "ask in that document only"
        )
        # Three lines of the current font, so the box fits its text at any scale (a fixed 70 px cut the
        # placeholder at 1.5x).
        lines = self.question.fontMetrics().lineSpacing() * 3
        self.question.setFixedHeight(lines + 2 * self.question.frameWidth() + 12)
        self.question.submitted.connect(self._submit)
        self.ask_button = QPushButton("Ask")
        self.ask_button.clicked.connect(self._submit)
        self.stop_button = QPushButton("Stop")
        self.stop_button.setToolTip("Stop generating (Esc)")
        self.stop_button.setEnabled(False)
        self.stop_button.clicked.connect(self.stop_requested)
        self.deep = QCheckBox("Deep")
        self.deep.setAccessibleName("Deep search")
        self.deep.setToolTip(
            "Deep search: the model may ask for more searches before it answers (for a question whose "
            "facts are spread over several passages, such as the birthplace of a film's director). "
            "Slower; every gate checks the answer as usual."
        )
        buttons = QVBoxLayout()
        for button in (self.ask_button, self.stop_button, self.deep):
            buttons.addWidget(button)
        buttons.addStretch(1)
        row = QHBoxLayout()
        row.addWidget(self.question, 1)
        row.addLayout(buttons)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.transcript, 1)
        layout.addWidget(self.scope_bar)
        layout.addLayout(row)
        self._render()

    def set_documents(self, documents: dict[str, str]) -> None:
        """The library's searchable documents (id: file name), offered after "@" and kept in scope
        only while they are in the library."""
        self._documents = dict(documents)
        self.question.set_names(list(documents.values()))
        self.set_scope([d for d in self.scope if d in documents])

    def set_scope(self, documents: list[str]) -> None:
        """Ask the next questions in these documents only (empty: the whole library)."""
        self.scope = list(dict.fromkeys(documents))
        self.scope_bar.setVisible(bool(self.scope))
        if self.scope:
            self.scope_label.setText(
                f"<b>Asking in:</b> {html.escape(scope_words(self.scope))}"
                f"{'' if len(self.scope) == 1 else f' ({len(self.scope)} documents)'}"
            )
            self.scope_label.setToolTip("\n".join(self.scope))

    def clear_scope(self) -> None:
        self.set_scope([])
        self.question.setFocus()

    @property
    def last_answer(self) -> Answer | None:
        return self.answers[-1] if self.answers else None

    def new_conversation(self) -> None:
        self.conversation = None
        self.answers = []
        self._blocks = []
        self._block_of = {}
        self._removed_shown = set()
        self._asked = False
        self.conversations.clearSelection()
        self._render()
        self.question.setFocus()
        self.conversation_cleared.emit()

    def set_conversations(self, conversations: list[ConversationInfo]) -> None:
        """The stored conversations, newest first; the one shown stays selected."""
        self.conversations.clear()
        self._titles = {info.id: info.title for info in conversations}
        for info in conversations:
            when = _when(info.updated)
            questions = f"{info.turns} question{'s' if info.turns != 1 else ''}"
            item = QListWidgetItem()  # the label below draws it; the item keeps the id and the tooltip
            item.setData(Qt.ItemDataRole.UserRole, info.id)
            item.setData(Qt.ItemDataRole.AccessibleTextRole, f"{info.title}, {when}, {questions}")
            item.setToolTip(f"{info.title}\n{when} · {questions}")
            # The title in bold, wrapped onto a second line rather than cut at the list's edge, the time
            # and count small beneath it, in the text colour (grey was unreadable on the selection).
            label = QLabel(
                f"<b>{html.escape(_elide(info.title, 60))}</b><br><small>{when} · {questions}</small>"
            )
            label.setWordWrap(True)
            label.setContentsMargins(4, 3, 4, 3)
            width = max(120, self.conversations.viewport().width() - 4)
            item.setSizeHint(QSize(width, label.heightForWidth(width)))
            self.conversations.addItem(item)
            self.conversations.setItemWidget(item, label)
            if info.id == self.conversation:
                item.setSelected(True)
        self._enable_list_buttons()

    def show_conversation(self, conversation: str, answers: list[Answer]) -> None:
        self._flush.stop()
        self._stream = []
        self.conversation = conversation
        self.answers = []
        self._blocks = []
        self._block_of = {}
        self._removed_shown = set()
        self._asked = False
        for answer in answers:
            self._append(answer)
        self._render()

    def set_busy(self, busy: bool) -> None:
        self.ask_button.setEnabled(not busy)
        self.stop_button.setEnabled(busy)
        self.conversations.setEnabled(not busy)
        self.new_button.setEnabled(not busy)
        self._enable_list_buttons()

    def _enable_list_buttons(self) -> None:
        """Delete acts on the selected conversation and Export on the one shown, neither while a
        question is answered (a window session: Delete stayed enabled then and did nothing)."""
        idle = self.conversations.isEnabled()
        self.delete_button.setEnabled(idle and bool(self.conversations.selectedItems()))
        self.export_button.setEnabled(idle and bool(self.answers))

    @property
    def strategy(self) -> str:
        """How the next question is answered: "deep" when Deep search is ticked, else "standard"."""
        return "deep" if self.deep.isChecked() else "standard"

    def on_event(self, event: object) -> None:
        if isinstance(event, TokenDelta):
            self._stream.append(event.text)
            if not self._flush.isActive():
                self._flush.start()
        elif isinstance(event, StageStarted) and event.stage == "lookup":  # a hop of a deep search
            self._stream.append(f"(looking up: {event.subject}) ")
            if not self._flush.isActive():
                self._flush.start()
        elif isinstance(event, StageStarted) and self._asked and event.stage in DOING:
            # Retrieval and the gates take seconds before the first word streams: say what is done.
            self._doing = DOING[event.stage]
            self._render()

    def show_answer(self, answer: Answer) -> None:
        self._flush.stop()
        self._stream = []
        self._stopping = ""
        self._doing = ""
        self.conversation = answer.conversation
        if self._asked:
            self._blocks.pop()  # the question as typed; _append shows it with its answer
            self._asked = False
        self._append(answer)
        self._render()

    def stopping(self, *, generator_loading: bool) -> None:
        """Stop was pressed: say so at once; the engine stops at its next check."""
        self.stop_button.setEnabled(False)
        self._stopping = (
            "Stopping… the answer model is still loading and stops as soon as it is loaded."
            if generator_loading
            else "Stopping…"
        )
        self._render()

    def show_stopped(self) -> None:
        """The engine stopped without a stopped answer to keep (it keeps one for every stopped
        question): what the model had written stays on screen, marked as unverified."""
        self._flush.stop()
        partial = "".join(self._stream).strip()
        self._stream = []
        self._asked = False
        self._stopping = ""
        self._doing = ""
        self._blocks.append(stopped_html(partial))
        self._render()

    def show_error(self, message: str) -> None:
        """The question failed (a server gone mid-answer): what the model had written stays on screen,
        marked as unverified, as the engine keeps it in the conversation, then the error."""
        self._flush.stop()
        partial = "".join(self._stream).strip()
        self._stream = []
        self._asked = False
        self._doing = ""
        if partial:
            self._blocks.append(stopped_html(partial))
        self._blocks.append(f"<p class='error'>{html.escape(message)}</p>")
        self._render()

    def _append(self, answer: Answer) -> None:
        self.answers.append(answer)
        number = len(self.answers)
        self._block_of[number] = len(self._blocks)
        self._blocks.append(self._answer_block(answer, number))

    def _answer_block(self, answer: Answer, number: int) -> str:
        return (
            f"<p><b>You:</b> {html.escape(answer.question)}</p>"
            f"{answer_html(answer, number, show_removed=number in self._removed_shown)}"
            f"<p align='right'><a href='copy:{number}'><small>Copy with its evidence</small></a> · "
            f"<a href='trace:{number}'><small>Trace of this answer</small></a></p><hr>"
        )

    def _toggle_removed(self, number: int) -> None:
        """Show or hide the sentences removed from answer `number`, struck through, with why."""
        self._removed_shown ^= {number}
        block = self._block_of.get(number)
        if block is not None:
            self._blocks[block] = self._answer_block(self.answers[number - 1], number)
            self._render(follow=False)

    def _submit(self) -> None:
        text = self.question.toPlainText().strip()
        if not text or not self.ask_button.isEnabled():
            return
        question, named, unknown = self._mentions(text)
        if unknown:
            known = ", ".join(sorted(self._documents.values(), key=str.lower)[:5])
            self.notice.emit(
                f"No document of the library is named {', '.join(unknown)}"
                + (f" (type @ to choose one, such as {known})" if known else "")
                + ": the question was not sent."
            )
            return
        if not question:
            self.notice.emit("Write the question after the document's name.")
            return
        scope = list(dict.fromkeys(self.scope + named))
        self.question.clear()
        self._blocks.append(f"<p><b>You:</b> {html.escape(question)}</p>")
        self._asked = True
        self._stream = []
        self._render()
        self.ask_requested.emit(question, self.conversation, scope)

    def _mentions(self, text: str) -> tuple[str, list[str], list[str]]:
        """The question without its @mentions, the documents they name, and the names no document of
        the library has. A name matches a file name whole, case aside, or the start of exactly one."""
        by_name: dict[str, list[str]] = {}
        for document, name in self._documents.items():
            by_name.setdefault(name.lower(), []).append(document)
        named: list[str] = []
        unknown: list[str] = []
        for match in MENTION.finditer(text):
            name = (match.group(1) or match.group(2)).rstrip(".,;:?!").lower()
            found = by_name.get(name)
            if found is None:
                starting = [ds for n, ds in by_name.items() if n.startswith(name)]
                found = starting[0] if len(starting) == 1 else None
            if found:
                named += found
            else:
                unknown.append(match.group(0))
        question = " ".join(MENTION.sub(" ", text).split())
        return question, named, unknown

    def _export_clicked(self) -> None:
        """clicked(bool) straight to export_conversation passed its checked state as the path: the
        button did nothing (a window session). A lambda holding the pane instead crashed the test
        run's exit (PySide6 6.x, the pane outliving QApplication): a method is connected."""
        self.export_conversation()

    def export_conversation(self, path: str | None = None) -> None:
        """Save the conversation shown as Markdown (or JSON, by the file's suffix), asking where."""
        if not self.answers:
            return
        title = self._titles.get(self.conversation or "", "") or self.answers[0].question
        if path is None:
            stem = re.sub(r"[\W_]+", "-", title.lower()).strip("-")[:60].strip("-") or "conversation"
            path, _ = QFileDialog.getSaveFileName(
                self,
                "Export the conversation",
                str(Path.home() / f"{stem}.md"),
                "Markdown (*.md);;JSON (*.json)",
            )
            if not path:
                return
        if Path(path).suffix.lower() == ".json":
            data = conversation_json(self.conversation or "", title, self.answers)
            text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
        else:
            text = conversation_markdown(title, self.answers)
        try:
            Path(path).write_text(text, encoding="utf-8")
        except OSError as exc:
            QMessageBox.warning(
                self, "Export", f"The conversation could not be saved to {path}: {exc.strerror or exc}."
            )
            return
        self.notice.emit(f"Saved {len(self.answers)} answer(s) with their evidence to {path}")

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt's name)
        """A new palette (the system's theme turned dark or light) recolours the conversation."""
        super().changeEvent(event)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            # The pane's own palette: its transcript is given the new one only after this event.
            self.transcript.document().setDefaultStyleSheet(answer_style_sheet(self.palette()))
            self._render(follow=False)

    def _render(self, *, follow: bool = True) -> None:
        """Draw the transcript; `follow` scrolls to its end (new text), else the reader's place stays."""
        self._enable_list_buttons()
        kept = self.transcript.verticalScrollBar().value()
        body = "".join(self._blocks)
        if self._stream:
            body += f"<p class='muted'><i>{html.escape(''.join(self._stream))}</i></p>"
        if self._doing and self._asked and not self._stopping:
            body += f"<p class='muted'>{html.escape(self._doing)}</p>"
        if self._stopping:
            body += f"<p class='error'>{html.escape(self._stopping)}</p>"
        if not body:
            body = (
                "<p class='muted'>Ask a question. Every sentence of an answer cites the passage it "
                "comes from; click a citation to see it highlighted in its document. When the documents do "
                "not support an answer, CiteDesk refuses and says why.</p>"
            )
        self.transcript.setHtml(body)
        bar = self.transcript.verticalScrollBar()
        bar.setValue(bar.maximum() if follow else kept)
        if not self._stream:
            self._flush.stop()

    def _on_link(self, url: QUrl) -> None:
        """Links of answer A (1-based): trace:A, copy:A, astyped:A, removed:A, askin:A.D (ask again in its Dth
        document offered alone), and its passages
        cite:A.N (source N) and near:A.N (the Nth closest passage of a refusal); rephrase:A.N puts the
        question worded with the heading of closest passage N in the box, scoped to its document."""
        linked = self._linked(url)
        if linked is None:
            return
        answer, index = linked
        if url.scheme() == "trace":
            self.trace_requested.emit(answer)
        elif url.scheme() == "askin" and self.ask_button.isEnabled():
            documents = asked_in_alone(answer)
            chosen = index or 1  # askin:A, as written before 0.16.0: the first document
            if not 1 <= chosen <= len(documents):
                return
            self._blocks.append(f"<p><b>You:</b> {html.escape(answer.question)}</p>")
            self._asked = True
            self._render()
            self.ask_requested.emit(answer.question, self.conversation, [documents[chosen - 1]])
        elif url.scheme() == "rephrase" and 1 <= index <= len(answer.considered):
            near = answer.considered[index - 1]
            self.set_scope([near.document])
            self.question.setPlainText(rephrased(answer.question, near.heading))
            self.question.moveCursor(QTextCursor.MoveOperation.End)
            self.question.setFocus()
            self.notice.emit(
                f"The question, worded with a heading of {Path(near.path).name}, is in the question box: "
                "edit it if you like and press Enter to ask it in that document only."
            )
        elif url.scheme() == "removed":
            self._toggle_removed(int((url.path() or url.host()).partition(".")[0]))
        elif url.scheme() == "copy":
            QGuiApplication.clipboard().setText(answer_markdown(answer))
            self.notice.emit("The answer and its quoted evidence are on the clipboard, as Markdown.")
        elif url.scheme() == "astyped" and self.ask_button.isEnabled():
            self._blocks.append(f"<p><b>You:</b> {html.escape(answer.question)}</p>")
            self._asked = True
            self._render()
            self.ask_as_typed_requested.emit(answer.question, self.conversation, list(answer.scope))
        elif (passage := self._passage(url)) is not None:
            self.source_clicked.emit(*passage)

    def _linked(self, url: QUrl) -> tuple[Answer, int] | None:
        """The answer a link names and the 1-based number after its dot (0 when none), or None."""
        number, _, index = (url.path() or url.host()).partition(".")
        if not number.isdigit() or not 1 <= int(number) <= len(self.answers):
            return None
        return self.answers[int(number) - 1], int(index) if index.isdigit() else 0

    def _passage(self, url: QUrl) -> tuple[SourceRef, Answer] | None:
        """The passage a cite:A.N or near:A.N link names, with its answer; None for any other link."""
        linked = self._linked(url)
        if linked is None or url.scheme() not in ("cite", "near"):
            return None
        answer, index = linked
        passages = answer.sources if url.scheme() == "cite" else answer.considered
        return (passages[index - 1], answer) if 1 <= index <= len(passages) else None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if watched is self.transcript.viewport() and event.type() == QEvent.Type.Leave:
            self._on_hover(QUrl())
        return super().eventFilter(watched, event)

    def _on_hover(self, url: QUrl) -> None:
        self._hovered = url
        self._hover_rest.start()

    def _show_hovered(self) -> None:
        """The citation under the pointer: its card beside it, its passage in the evidence viewer."""
        cited = self._passage(self._hovered)
        if cited is not None:
            card = citation_card(*cited, closest=self._hovered.scheme() == "near")
            # Gone as soon as the pointer leaves the link's neighbourhood: left up, a card near the
            # pane's foot covered the question box and took the click meant for it (window session).
            viewport = self.transcript.viewport()
            here = viewport.mapFromGlobal(QCursor.pos())
            QToolTip.showText(QCursor.pos(), card, viewport, QRect(here.x() - 40, here.y() - 12, 80, 24))
        else:
            QToolTip.hideText()
        self.source_hovered.emit(*(cited or (None, None)))

    def _open_item(self, item: QListWidgetItem) -> None:
        conversation = item.data(Qt.ItemDataRole.UserRole)
        if conversation and conversation != self.conversation and self.ask_button.isEnabled():
            self.conversation_requested.emit(conversation)

    def _delete_selected(self) -> None:
        items = self.conversations.selectedItems()
        if items:
            self.delete_conversation_requested.emit(items[0].data(Qt.ItemDataRole.UserRole))


def _when(timestamp: float) -> str:
    """A time as people say it: "today 14:05", "yesterday 09:30", "3 Dec", "3 Dec 2025"."""
    then, now = time.localtime(timestamp), time.localtime()
    days = (time.mktime(now[:3] + (0, 0, 0) + now[6:]) - time.mktime(then[:3] + (0, 0, 0) + then[6:])) / 86400
    if round(days) == 0:
        return time.strftime("today %H:%M", then)
    if round(days) == 1:
        return time.strftime("yesterday %H:%M", then)
    return time.strftime("%d %b" if then.tm_year == now.tm_year else "%d %b %Y", then).lstrip("0")


def _elide(text: str, length: int) -> str:
    return text if len(text) <= length else text[: length - 1] + "…"
