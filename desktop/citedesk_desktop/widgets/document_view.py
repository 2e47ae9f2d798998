"""The text of the selected document as CiteDesk extracted it, with its outline."""

from __future__ import annotations

from pathlib import Path

from citedesk_engine import StructureNode
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import (
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QSplitter,
    QVBoxLayout,
    QWidget,
)


class DocumentView(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel("<i>Select a document to see the text CiteDesk extracted from it.</i>")
        self.title.setWordWrap(True)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setAccessibleName("Document text")
        self.outline = QListWidget()
        self.outline.setAccessibleName("Outline")
        self.outline.setToolTip("Headings, slides and sheets: click one to jump to it")
        self.outline.itemActivated.connect(self._jump)
        self.outline.itemClicked.connect(self._jump)
        self.text = QPlainTextEdit()
        self.text.setAccessibleName("Extracted text")
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.outline)
        split.addWidget(self.text)
        split.setSizes([120, 600])
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(split, 1)
        self.outline.setVisible(False)

    def show_document(self, document: str, text: str, structure: list[StructureNode]) -> None:
        pages = f" · {text.count(chr(12)) + 1} pages" if "\f" in text else ""
        self.title.setText(f"<b>{Path(document).name}</b>{pages}<br><small>{document}</small>")
        self.text.setPlainText(text)
        self.outline.clear()
        for node in structure:
            indent = "    " * max(0, node.level - 1)
            where = f"  (p. {node.page})" if node.page else ""
            item = QListWidgetItem(f"{indent}{node.label}{where}")
            item.setData(Qt.ItemDataRole.UserRole, node.start)
            self.outline.addItem(item)
        self.outline.setVisible(bool(structure))

    def clear(self) -> None:
        self.title.setText("<i>Select a document to see the text CiteDesk extracted from it.</i>")
        self.text.clear()
        self.outline.clear()
        self.outline.setVisible(False)

    def _jump(self, item: QListWidgetItem) -> None:
        cursor = self.text.textCursor()
        cursor.setPosition(int(item.data(Qt.ItemDataRole.UserRole)))
        cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor)
        self.text.setTextCursor(cursor)
        self.text.centerCursor()
