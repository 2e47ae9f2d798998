"""The dialog that corrects a document's title, authors and year, as CiteDesk cites it."""

from __future__ import annotations

from citedesk_engine.types import DocumentMeta
from PySide6.QtGui import QIntValidator
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)


class DetailsDialog(QDialog):
    """Title, authors (one per line) and year of a document, as CiteDesk cites it."""

    def __init__(self, name: str, about: DocumentMeta, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Details of {name}")
        self.title = QLineEdit(about.title)
        self.title.setAccessibleName("Title")
        self.authors = QPlainTextEdit("\n".join(about.authors))
        self.authors.setAccessibleName("Authors, one per line")
        self.authors.setFixedHeight(self.authors.fontMetrics().lineSpacing() * 4 + 12)
        self.year = QLineEdit(str(about.year or ""))
        self.year.setAccessibleName("Year")
        self.year.setValidator(QIntValidator(1000, 2200, self))
        self.year.setPlaceholderText("such as 2014")
        form = QFormLayout()
        form.addRow("Title", self.title)
        form.addRow("Authors (one per line)", self.authors)
        form.addRow("Year", self.year)
        note = QLabel(
            "<small>Answers cite the document by its authors and year (“Hutto and Gilbert 2014, p. 5”), "
            "and exports list it under its title. What you write is kept when the file is read again.</small>"
        )
        note.setWordWrap(True)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(buttons)

    def details(self) -> tuple[str, list[str], int]:
        """(title, authors, year; 0 for none), as typed."""
        authors = [line.strip() for line in self.authors.toPlainText().splitlines() if line.strip()]
        year = self.year.text().strip()
        return self.title.text().strip(), authors, int(year) if year.isdigit() else 0
