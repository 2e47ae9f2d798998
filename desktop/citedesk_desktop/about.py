"""The About dialog: version, where the library is, and the licenses of what CiteDesk ships."""

from __future__ import annotations

import html
import sys

from citedesk_engine import __version__
from PySide6 import __version__ as pyside_version
from PySide6.QtCore import Qt
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QTextBrowser, QVBoxLayout, QWidget

# (component, what it does here, license) of everything a build of CiteDesk carries.
COMPONENTS = (
    ("all-MiniLM-L6-v2", "embedding model (sentence-transformers)", "Apache-2.0"),
    ("Qwen2.5-Coder-1.5B-Instruct", "generator model (GGUF, Q4_K_M)", "Apache-2.0"),
    ("Qwen2.5-Coder-0.5B-Instruct", "smaller generator option (GGUF, Q4_K_M)", "Apache-2.0"),
    ("Qt 6 / PySide6", "user interface", "LGPL-3.0"),
    ("PyMuPDF / MuPDF", "reading and rendering PDF", "AGPL-3.0 (or Artifex commercial)"),
    ("llama.cpp / llama-cpp-python", "running the generator", "MIT"),
    ("PyTorch", "running the embedding model", "BSD-3-Clause"),
    ("sentence-transformers, transformers, tokenizers", "embedding and reranking", "Apache-2.0"),
    ("LanceDB, Lance", "vector storage", "Apache-2.0"),
    ("Apache Arrow (pyarrow)", "vector storage", "Apache-2.0"),
    ("tantivy / tantivy-py", "full-text index", "MIT"),
    ("python-docx, python-pptx", "Word and PowerPoint files", "MIT"),
    ("openpyxl", "Excel files", "MIT"),
    ("lxml", "HTML files", "BSD-3-Clause"),
    ("markdown-it-py", "Markdown files", "MIT"),
    ("charset-normalizer", "text encodings", "MIT"),
    ("py3langid", "language detection", "BSD-3-Clause"),
    ("snowballstemmer", "word stems for the gates", "BSD-3-Clause"),
    ("platformdirs, tomlkit", "settings and folders", "MIT"),
)

AGPL_NOTE = (
    "PyMuPDF is licensed under the GNU AGPL 3.0. CiteDesk's own code is Apache-2.0, which may be "
    "combined with AGPL code; a build that includes PyMuPDF is, as a whole, distributed under the "
    "AGPL 3.0: whoever passes such a build on must offer its complete corresponding source code "
    "(CiteDesk's source is public) under the AGPL. Shipping CiteDesk in a closed product needs "
    "Artifex's commercial license for PyMuPDF instead. Qt is used under the LGPL 3.0 as dynamic "
    "libraries that a user may replace."
)


class AboutDialog(QDialog):
    def __init__(self, library: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("About CiteDesk")
        self.resize(640, 560)
        heading = QLabel()
        heading.setPixmap(QIcon.fromTheme("citedesk", self.windowIcon()).pixmap(64, 64))
        title = QLabel(
            f"<h2>CiteDesk {__version__}</h2>"
            "<p>Answers from your own documents, every claim cited, or a refusal that says why. "
            "Everything runs on this computer; nothing is sent anywhere.</p>"
            f"<p>Library: {html.escape(library)}<br>"
            f"Python {sys.version.split()[0]}, PySide6 {pyside_version}</p>"
        )
        title.setWordWrap(True)
        title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        rows = "".join(
            f"<tr><td>{html.escape(name)}</td><td>{html.escape(role)}</td><td>{html.escape(license)}</td></tr>"
            for name, role, license in COMPONENTS
        )
        self.licenses = QTextBrowser()
        self.licenses.setOpenExternalLinks(False)
        self.licenses.setHtml(
            "<h3>What CiteDesk ships, and under which license</h3>"
            "<table cellpadding='3'><tr><th align='left'>Component</th><th align='left'>Used for</th>"
            f"<th align='left'>License</th></tr>{rows}</table><h3>What the AGPL means here</h3>"
            f"<p>{html.escape(AGPL_NOTE)}</p>"
        )
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addWidget(title)
        layout.addWidget(self.licenses, 1)
        layout.addWidget(buttons)
