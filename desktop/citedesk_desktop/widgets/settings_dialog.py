"""Settings of the open library (its config.toml): model slots, threads, retrieval and trust mode.

The dialog edits a copy of the Config and hands it back; the main window saves it through the engine
thread. Changing the embedder of a non-empty library needs every passage embedded again: the dialog
says so and lets the user choose, it never mixes vectors of two models.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from citedesk_engine import Config, ConfigError, ModelInfo
from citedesk_engine.config import DEFAULT, HTTP, MULTILINGUAL, SMALL
from citedesk_engine.models.recogniser import LANGUAGES as OCR_LANGUAGES
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ..remote_consent import ask_consent
from .server_fields import ServerFields

SIGNALS = ("vector", "lexical", "structure", "rows")
SIGNAL_TEXT = {
    "vector": "Meaning (embeddings)",
    "lexical": "Words (BM25 full text)",
    "structure": "Headings and outline",
    "rows": "Table rows by their first cell",
}
RERANKERS = {
    "default": "Packaged cross-encoder (recommended)",
    "none": "None: keep the fused order",
    "embedding": "Embedding similarity",
    "cross-encoder": "My cross-encoder folder…",
    "gguf": "Generator yes/no judgement (slow)",
    "http": "Local reranking server (HTTP)",
}
VERIFIERS = {
    "default": "Packaged claim verifier (recommended)",
    "none": "None: embedding similarity for paraphrases",
}
READERS = {
    "none": "None: short answers judged by the claim verifier (recommended)",
    "packaged": "Packaged answer reader, for answers the model hesitated over: stricter, also refuses "
    "some right answers",
}
# The state line of a model slot set to something other than what is loaded.
PENDING = (
    "<small>Not loaded yet: takes effect after OK, when models load again (files and checksums, or "
    "the server, are checked then).</small>"
)
TRUST_TEXT = {
    "strict": "Strict: cite only documents at or above the floor tier; refuse on conflicts",
    "normal": "Normal: prefer higher tiers, show conflicts",
    "exploratory": "Exploratory: every tier alike",
}


class ModelSlot(QWidget):
    """A model slot: the packaged default or the user's own file or folder, with its state."""

    def __init__(
        self,
        value: str,
        info: ModelInfo | None,
        pick_folder: bool,
        caption: str,
        packaged: tuple[tuple[str, str], ...] = (("Packaged default", DEFAULT),),
        server: tuple[str, str] | None = None,
    ) -> None:
        super().__init__()
        self._pick_folder = pick_folder
        self._caption = caption
        self._packaged = {key for _, key in packaged}
        self._configured = value
        self._loaded = _state(info)
        self.choice = QComboBox()
        for label, key in packaged:
            self.choice.addItem(label, key)
        self.choice.addItem("My own " + ("folder…" if pick_folder else "file…"), "user")
        if server is not None:
            self.choice.addItem("A server (OpenAI-compatible: llama.cpp, Ollama, LM Studio, vLLM)…", HTTP)
            self._packaged.add(HTTP)  # a choice of its own, not a path
        self._configured_server = server or ("", "")
        self.server = ServerFields(*(server or ("", "")))
        self.server.setVisible(server is not None)
        self.path = QLineEdit("" if value in self._packaged else value)
        self.path.setPlaceholderText("folder" if pick_folder else "file")
        self.browse = browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        # Its own row of the form (the dialog adds it): nested in this widget, a wrapped label was
        # given one line's height and its second line was cut.
        self.state = QLabel(_state(info))
        self.state.setWordWrap(True)
        # Two lines' height whatever it says: a state of one line then two moved the fields below
        # while the user was about to click them (window session).
        self.state.setMinimumHeight(2 * self.state.fontMetrics().lineSpacing())
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.choice)
        row.addWidget(self.path, 1)
        row.addWidget(browse)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.server)
        self.choice.currentIndexChanged.connect(self._sync)
        self.path.textChanged.connect(self._sync)
        self.server.changed.connect(self._sync)
        self.choice.setCurrentIndex(self.choice.findData(value if value in self._packaged else "user"))
        self._sync()

    def value(self) -> str:
        key = self.choice.currentData()
        return key if key in self._packaged else self.path.text().strip()

    def _sync(self) -> None:
        self.path.setEnabled(self.choice.currentData() not in self._packaged)
        self.browse.setEnabled(self.path.isEnabled())
        self.server.setEnabled(self.choice.currentData() == HTTP)
        # The state describes the model loaded now; another choice is only checked when it loads.
        same = self.value() == self._configured and (
            self.value() != HTTP or self.server.values() == self._configured_server
        )
        self.state.setText(self._loaded if same else PENDING)

    def _browse(self) -> None:
        start = self.path.text() or str(Path.home())
        if self._pick_folder:
            chosen = QFileDialog.getExistingDirectory(self, self._caption, start)
        else:
            chosen, _ = QFileDialog.getOpenFileName(self, self._caption, start, "GGUF models (*.gguf)")
        if chosen:
            self.path.setText(chosen)
            self.choice.setCurrentIndex(self.choice.findData("user"))


class SettingsDialog(QDialog):
    def __init__(
        self,
        config: Config,
        models: tuple[ModelInfo, ...],
        documents: int,
        parent: QWidget | None = None,
        consent: QSettings | None = None,
    ) -> None:
        super().__init__(parent)
        self._consent = consent  # where confirmed servers on other computers are remembered
        self.setWindowTitle("Settings")
        self.original = config
        self.documents = documents
        self.reembed = False  # set when the user accepted embedding the library again
        info = {m.slot: m for m in models}
        m, r, a = config.models, config.retrieval, config.answer

        self.embedder = ModelSlot(
            m.embedder,
            info.get("embedder"),
            True,
            "Embedder folder",
            (
                ("Packaged: English, all-MiniLM-L6-v2 (default)", DEFAULT),
                ("Packaged: multilingual, e5-small (about 100 languages, slower to add files)", MULTILINGUAL),
            ),
            server=(m.embedder_url, m.embedder_model),
        )
        self.generator = ModelSlot(
            m.generator,
            info.get("generator"),
            False,
            "Generator model",
            (
                ("Packaged: Qwen2.5-Coder 1.5B (default)", DEFAULT),
                ("Packaged: Qwen2.5-Coder 0.5B (faster, less accurate)", SMALL),
            ),
            server=(m.generator_url, m.generator_model),
        )
        self.allow_remote = QCheckBox("Servers on other computers may be used")
        self.allow_remote.setChecked(m.allow_remote)
        self.allow_remote.setToolTip(
            "Off: only servers on this computer (127.0.0.1, localhost). On: a server elsewhere may be "
            "set, and each question with the passages found for it is sent there; you confirm each "
            "server once."
        )
        self.reranker = QComboBox()
        for key, text in RERANKERS.items():
            self.reranker.addItem(text, key)
        self.reranker.setCurrentIndex(max(0, self.reranker.findData(m.reranker)))
        self.reranker_path = QLineEdit(m.reranker_path)
        self.reranker_path.setPlaceholderText("sentence-transformers CrossEncoder folder")
        self.reranker_url = QLineEdit(m.reranker_url)
        self.reranker_url.setPlaceholderText("http://127.0.0.1:8080")
        self.reranker_model = QLineEdit(m.reranker_model)
        self.reranker_model.setPlaceholderText("model name the server expects")
        self.reranker_state = QLabel(_state(info.get("reranker")))
        self.reranker_state.setWordWrap(True)
        self.reranker.currentIndexChanged.connect(self._sync_reranker)
        for edit in (self.reranker_path, self.reranker_url, self.reranker_model):
            edit.textChanged.connect(self._sync_reranker)
        self.verifier = QComboBox()
        for key, text in VERIFIERS.items():
            self.verifier.addItem(text, key)
        self.verifier.setCurrentIndex(max(0, self.verifier.findData(m.verifier)))
        self.verifier.setToolTip(
            "Reads each claim of an answer with its cited passage and judges whether the passage "
            "supports it; the number, negation, name and role guards veto either way"
        )
        self.verifier_state = QLabel(_state(info.get("verifier")))
        self.verifier_state.setWordWrap(True)
        self.verifier.currentIndexChanged.connect(self._sync_verifier)
        self.reader = QComboBox()
        for key, text in READERS.items():
            self.reader.addItem(text, key)
        self.reader.setCurrentIndex(max(0, self.reader.findData(m.reader)))
        self.reader.setToolTip(
            "Reads the question with the cited passage and finds where the passage answers it; a "
            "short answer the answer model hesitated over that is some other span of the passage is "
            "refused"
        )
        self.reader_state = QLabel(_state(info.get("reader")))
        self.reader_state.setWordWrap(True)
        self.reader.currentIndexChanged.connect(self._sync_reader)
        # What the reranker, verifier and reader state lines say while the loaded choice stays chosen.
        self._loaded = {slot: _state(info.get(slot)) for slot in ("reranker", "verifier", "reader")}
        self.threads = QSpinBox()
        self.threads.setRange(0, 64)
        self.threads.setSpecialValueText("automatic (cores − 1)")
        self.threads.setValue(m.threads)
        models_box = QGroupBox("Models")
        form = QFormLayout(models_box)
        form.addRow("Embedder", self.embedder)
        form.addRow("", self.embedder.state)
        form.addRow("Generator", self.generator)
        form.addRow("", self.generator.state)
        form.addRow("Reranker", self.reranker)
        form.addRow("Reranker folder", self.reranker_path)
        form.addRow("Server URL", self.reranker_url)
        form.addRow("Server model", self.reranker_model)
        form.addRow("", self.reranker_state)
        form.addRow("Claim verifier", self.verifier)
        form.addRow("", self.verifier_state)
        form.addRow("Answer reader", self.reader)
        form.addRow("", self.reader_state)
        form.addRow("Generator threads", self.threads)
        form.addRow("Servers", self.allow_remote)

        self.top_k = QSpinBox()
        self.top_k.setRange(1, 50)
        self.top_k.setValue(r.top_k)
        self.rerank_head = QSpinBox()
        self.rerank_head.setRange(1, 200)
        self.rerank_head.setValue(r.rerank_head)
        self.signals = {name: QCheckBox(SIGNAL_TEXT[name]) for name in SIGNALS}
        for name, box in self.signals.items():
            box.setChecked(not r.signals or name in r.signals)
        signal_row = QHBoxLayout()
        for box in self.signals.values():
            signal_row.addWidget(box)
        retrieval_box = QGroupBox("Retrieval")
        form = QFormLayout(retrieval_box)
        form.addRow("Passages per answer (top k)", self.top_k)
        form.addRow("Reranked head", self.rerank_head)
        form.addRow("Search by", signal_row)

        self.trust = QComboBox()
        for key, text in TRUST_TEXT.items():
            self.trust.addItem(text, key)
        self.trust.setCurrentIndex(max(0, self.trust.findData(a.trust_mode)))
        self.floor = QSpinBox()
        self.floor.setRange(0, 3)
        self.floor.setValue(a.authority_floor)
        self.floor.setToolTip("Strict mode cites only documents of this authority tier or higher")
        self.context = QSpinBox()
        self.context.setRange(1, 8)
        self.context.setValue(a.context_passages)
        self.context.setToolTip(
            "How many passages the local model reads to write an answer: fewer answer faster "
            "(on 2 cores, 2 passages: ~3 s; 3 passages: ~5-8 s), more find more answers"
        )
        answer_box = QGroupBox("Answers")
        form = QFormLayout(answer_box)
        form.addRow("Trust mode", self.trust)
        form.addRow("Strict mode floor tier", self.floor)
        form.addRow("Passages the model reads", self.context)

        i = self.original.ingest
        self.ocr = QCheckBox("Read pictures, and PDF pages without a text layer, by OCR")
        self.ocr.setChecked(i.ocr == "auto")
        self.ocr.setToolTip(
            f"Local OCR (PP-OCRv4) reads {' and '.join(OCR_LANGUAGES)}. A scanned page takes 5-20 s "
            "on two cores; pages with a text layer are never OCR'd. Off: pictures are refused and "
            "scanned pages stay unsearchable."
        )
        self.ocr_dpi = QSpinBox()
        self.ocr_dpi.setRange(100, 400)
        self.ocr_dpi.setSingleStep(50)
        self.ocr_dpi.setSuffix(" dpi")
        self.ocr_dpi.setValue(i.ocr_dpi)
        self.ocr_dpi.setToolTip(
            "How finely a page is rendered for OCR; a scan finer than this is read at its own"
        )
        self.ocr.toggled.connect(self.ocr_dpi.setEnabled)
        self.ocr_dpi.setEnabled(self.ocr.isChecked())
        ingest_box = QGroupBox("Adding documents")
        form = QFormLayout(ingest_box)
        form.addRow("OCR", self.ocr)
        form.addRow("OCR resolution", self.ocr_dpi)
        form.addRow("", QLabel("<small>Applies to documents added or re-indexed from now on.</small>"))

        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        note = QLabel(
            "<small>Saved in this library's config.toml; models load again on the next question.</small>"
        )
        layout = QVBoxLayout(self)
        for widget in (models_box, retrieval_box, answer_box, ingest_box, note, buttons):
            layout.addWidget(widget)
        self._sync_reranker()

    def config(self) -> Config:
        """The settings as edited."""
        chosen = tuple(name for name, box in self.signals.items() if box.isChecked())
        return self.original.with_changes(
            models=dataclasses.replace(
                self.original.models,
                embedder=self.embedder.value(),
                embedder_url=self.embedder.server.values()[0],
                embedder_model=self.embedder.server.values()[1],
                generator=self.generator.value(),
                generator_url=self.generator.server.values()[0],
                generator_model=self.generator.server.values()[1],
                allow_remote=self.allow_remote.isChecked(),
                reranker=self.reranker.currentData(),
                reranker_path=self.reranker_path.text().strip(),
                reranker_url=self.reranker_url.text().strip(),
                reranker_model=self.reranker_model.text().strip(),
                verifier=self.verifier.currentData(),
                reader=self.reader.currentData(),
                threads=self.threads.value(),
            ),
            retrieval=dataclasses.replace(
                self.original.retrieval,
                top_k=self.top_k.value(),
                rerank_head=self.rerank_head.value(),
                signals=() if len(chosen) == len(SIGNALS) else chosen,
            ),
            answer=dataclasses.replace(
                self.original.answer,
                trust_mode=self.trust.currentData(),
                authority_floor=self.floor.value(),
                context_passages=self.context.value(),
            ),
            ingest=dataclasses.replace(
                self.original.ingest,
                ocr="auto" if self.ocr.isChecked() else "off",
                ocr_dpi=self.ocr_dpi.value(),
            ),
        )

    def problem(self) -> str:
        """What stops these settings from being saved, in words; empty when they can be."""
        if not any(box.isChecked() for box in self.signals.values()):
            return "Choose at least one way to search."
        for slot in (self.embedder, self.generator):
            if slot.value() == HTTP and not slot.server.values()[0]:
                return (
                    "Give the address of the server, such as http://127.0.0.1:8080, or choose another model."
                )
        if self.reranker.currentData() == "http" and not self.reranker_url.text().strip():
            return "Give the URL of the reranking server, or choose another reranker."
        try:
            config = self.config()
        except ConfigError as exc:  # a server on another computer without the box ticked, a bad address
            return _in_dialog_words(str(exc))
        if config.models.embedder == "" or config.models.generator == "":
            return "Choose a folder or file for each model slot set to your own, or go back to the default."
        if config.models.reranker == "cross-encoder" and not config.models.reranker_path:
            return "Choose the folder of your cross-encoder, or another reranker."
        return ""

    def accept(self) -> None:
        problem = self.problem()
        if problem:
            QMessageBox.warning(self, "Settings", problem)
            return
        chosen, before = self.config().models, self.original.models
        if (chosen.embedder, chosen.embedder_model) != (
            before.embedder,
            before.embedder_model,
        ) and self.documents:
            answer = QMessageBox.question(
                self,
                "Embed the library again?",
                f"A different embedder means every passage of the {self.documents} documents in this "
                "library must be embedded again, so that the vectors of two models never mix. Your "
                "documents stay; questions wait until it is done (about a minute per 2,000 passages "
                "here). You can cancel it: the old vectors are then kept.\n\nEmbed the library again now?",
            )
            if answer != QMessageBox.StandardButton.Yes:
                return
            self.reembed = True
        if not ask_consent(self, self.config().models.remote_servers(), self._consent):
            return
        super().accept()

    def _sync_reranker(self) -> None:
        kind = self.reranker.currentData()
        self.reranker_path.setEnabled(kind == "cross-encoder")
        self.reranker_url.setEnabled(kind == "http")
        self.reranker_model.setEnabled(kind == "http")
        m = self.original.models
        chosen = (
            kind,
            *(e.text().strip() for e in (self.reranker_path, self.reranker_url, self.reranker_model)),
        )
        same = chosen == (m.reranker, m.reranker_path, m.reranker_url, m.reranker_model)
        self.reranker_state.setText(self._loaded["reranker"] if same else PENDING)

    def _sync_verifier(self) -> None:
        same = self.verifier.currentData() == self.original.models.verifier
        self.verifier_state.setText(self._loaded["verifier"] if same else PENDING)

    def _sync_reader(self) -> None:
        same = self.reader.currentData() == self.original.models.reader
        self.reader_state.setText(self._loaded["reader"] if same else PENDING)


def _in_dialog_words(message: str) -> str:
    """A configuration error, told with the dialog's names for the settings."""
    for setting, words in (
        ("Set allow_remote = true in [models]", "Tick “Servers on other computers may be used”"),
        ("[models] generator_url", "The generator's server address"),
        ("[models] embedder_url", "The embedder's server address"),
        ("[models] reranker_url", "The reranking server's address"),
        ("[models] ", ""),
    ):
        message = message.replace(setting, words)
    return message


def _state(info: ModelInfo | None) -> str:
    if info is None:
        return ""
    mark = "✓" if info.verified else "✗"
    size = f", {info.size_bytes / 1e6:,.0f} MB" if info.size_bytes else ""
    return f"<small>{mark} {info.source}{size}: {info.detail}<br>{info.path}</small>"
