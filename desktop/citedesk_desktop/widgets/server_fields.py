"""The address and model name of an OpenAI-compatible server, for a model slot in Settings."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLineEdit, QWidget


class ServerFields(QWidget):
    changed = Signal()

    def __init__(self, url: str, model: str) -> None:
        super().__init__()
        self.url = QLineEdit(url)
        self.url.setPlaceholderText("http://127.0.0.1:8080")
        self.url.setToolTip("The server's address; /v1 may be left out (CiteDesk adds it)")
        self.model = QLineEdit(model)
        self.model.setPlaceholderText("model name the server serves")
        self.model.setToolTip("As the server lists it (GET /v1/models): for Ollama e.g. qwen2.5:7b-instruct")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.url, 3)
        layout.addWidget(self.model, 2)
        self.url.textChanged.connect(self.changed)
        self.model.textChanged.connect(self.changed)

    def values(self) -> tuple[str, str]:
        return self.url.text().strip(), self.model.text().strip()
