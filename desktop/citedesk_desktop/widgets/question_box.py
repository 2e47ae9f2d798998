"""The question box: Enter sends, Shift+Enter starts a new line, and "@" offers the library's documents
by name, written as a mention that scopes the question to them."""

from __future__ import annotations

import re

from PySide6.QtCore import QStringListModel, Qt, Signal
from PySide6.QtGui import QKeyEvent, QTextCursor
from PySide6.QtWidgets import QCompleter, QPlainTextEdit, QWidget

# A document named in the question: @report.pdf, or @"annual report.pdf" when the name has spaces.
MENTION = re.compile(r'@"([^"]+)"|@([^\s"]+)')


def mention_of(name: str) -> str:
    return f'@"{name}"' if any(ch.isspace() for ch in name) else f"@{name}"


class QuestionBox(QPlainTextEdit):
    """Enter sends, Shift+Enter starts a new line; "@" offers the library's documents by name, and the
    one chosen is written as a mention (MENTION) that scopes the question to it."""

    submitted = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._names = QStringListModel(self)
        self._pending: list[str] = []  # set_names
        self._listed = True
        self.completer = QCompleter(self._names, self)
        self.completer.setWidget(self)
        self.completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.completer.activated.connect(self._complete)

    def set_names(self, names: list[str]) -> None:
        """The documents' names offered after "@". Put in the completer's list when one is typed: the
        list is set again after every change to the library, and sorting and setting 10,000 names
        took 61 ms of the window's thread (benchmarks/ui_stall.py --library)."""
        self._pending = names
        self._listed = False

    def _offered(self) -> QStringListModel:
        if not self._listed:
            self._names.setStringList(sorted(set(self._pending), key=str.lower))
            self._listed = True
        return self._names

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt's name)
        popup = self.completer.popup()
        if popup.isVisible() and event.key() in (
            Qt.Key.Key_Return,
            Qt.Key.Key_Enter,
            Qt.Key.Key_Tab,
            Qt.Key.Key_Escape,
        ):
            event.ignore()  # the completer's popup takes them: choose a name, or close the list
            return
        if (
            event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
            and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier
        ):
            self.submitted.emit()
            return
        super().keyPressEvent(event)
        typed = self._mention_typed()
        if typed is None or not self._offered().rowCount():
            popup.hide()
            return
        self.completer.setCompletionPrefix(typed)
        if self.completer.completionCount():
            box = self.cursorRect()
            box.setWidth(max(240, popup.sizeHintForColumn(0) + 24))
            self.completer.complete(box)
        else:
            popup.hide()

    def _mention_typed(self) -> str | None:
        """What follows an "@" right before the cursor (None when the cursor is not in a mention)."""
        before = self.toPlainText()[: self.textCursor().position()]
        at = before.rfind("@")
        if at < 0 or (at > 0 and not before[at - 1].isspace()):
            return None
        typed = before[at + 1 :]
        return None if any(ch.isspace() for ch in typed) or '"' in typed else typed

    def _complete(self, name: str) -> None:
        cursor = self.textCursor()
        typed = self._mention_typed()
        if typed is None:
            return
        cursor.movePosition(QTextCursor.MoveOperation.Left, QTextCursor.MoveMode.KeepAnchor, len(typed) + 1)
        cursor.insertText(mention_of(name) + " ")
        self.setTextCursor(cursor)
