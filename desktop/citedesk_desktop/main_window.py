"""The main window: library on the left, the selected document on the right, status at the bottom."""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path

from citedesk_engine import (
    SUPPORTED_EXTENSIONS,
    Config,
    FileFinished,
    FileStatus,
    IngestReport,
    LibraryStatus,
    ModelInfo,
)
from citedesk_engine.config import DEFAULT
from citedesk_engine.resources import samples_dir
from citedesk_engine.types import Answer, SourceRef
from PySide6.QtCore import QSettings, Qt, QUrl
from PySide6.QtGui import QCloseEvent, QDesktopServices, QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QTabWidget,
)

from .about import AboutDialog
from .folder_watch import FolderWatcher, WatchedFoldersDialog
from .graph_catch_up import GraphCatchUp
from .menus import build_menus
from .remote_consent import ask_consent
from .runner import EngineRunner
from .widgets.chat_pane import ChatPane
from .widgets.document_view import DocumentView
from .widgets.evidence_viewer import EvidenceViewer
from .widgets.explore_panel import ExplorePanel
from .widgets.library_panel import LibraryPanel, count_of
from .widgets.settings_dialog import SettingsDialog
from .widgets.trace_view import TraceView

log = logging.getLogger(__name__)


class MainWindow(QMainWindow):
    def __init__(self, runner: EngineRunner, library_dir: Path, settings: QSettings) -> None:
        super().__init__()
        self.runner = runner
        self.library_dir = library_dir
        self.settings = settings
        self._text_for_document_view = ""  # the document whose text the Document tab asked for
        self._generator_loading = False  # loaded in the background after the other models
        self._library_status: LibraryStatus | None = None  # the last snapshot's figures
        self._settings_message = ""  # what the status bar says once settings applied ("": saved)
        self.setWindowTitle("CiteDesk")
        self.setAcceptDrops(True)
        self.setMinimumSize(800, 500)

        self.library = LibraryPanel()
        self.document = DocumentView()
        self.chat = ChatPane()
        self.evidence = EvidenceViewer()
        self.trace = TraceView()
        # Three panes: the library and the conversations in a sidebar that folds away (Ctrl+B), the
        # conversation in the middle, and its evidence on the right, always in view beside it; the
        # trace and the document's text are tabs of the right pane.
        self.explore = ExplorePanel(runner)
        self.side_tabs = QTabWidget()
        self.side_tabs.setAccessibleName("Library and Explore")
        self.side_tabs.addTab(self.library, "Library")
        self.side_tabs.addTab(self.explore, "Explore")
        self.sidebar = QSplitter(Qt.Orientation.Vertical)
        self.sidebar.addWidget(self.side_tabs)
        self.sidebar.addWidget(self.chat.history)
        self.sidebar.setSizes([520, 200])
        self.tabs = QTabWidget()
        self.tabs.setAccessibleName("Evidence, trace and document text")
        self.tabs.addTab(self.evidence, "Evidence")
        self.tabs.addTab(self.trace, "Trace")
        self.tabs.addTab(self.document, "Document text")
        self.split = QSplitter(Qt.Orientation.Horizontal)
        self.split.addWidget(self.sidebar)
        self.split.addWidget(self.chat)
        self.split.addWidget(self.tabs)
        self.split.setCollapsible(1, False)
        # A narrower window narrows the sidebar too, a fifth as much as each other pane: it kept its
        # width, and at 1100 x 700 the conversation was left 250 pixels (a window session).
        self.split.setStretchFactor(0, 1)
        self.split.setStretchFactor(1, 2)
        self.split.setStretchFactor(2, 2)
        self.split.setSizes([300, 450, 450])
        self.setCentralWidget(self.split)
        self._pinned: tuple[SourceRef, Answer | None] | None = None  # the citation clicked last

        self.status_library = QLabel()
        self.status_models = QLabel("Loading models…")
        self.status_busy = QLabel()
        self.status_graph = QLabel()
        self.graph = GraphCatchUp(runner, self.status_graph, self)
        self.graph.progressed.connect(self._graph_progressed)
        self.status_watch = QLabel()
        self.watcher = FolderWatcher(runner, self.status_watch, self)
        self.watcher.library_changed.connect(self._watched_folder_changed)
        self.watcher.message.connect(lambda text: self.statusBar().showMessage(text, 15000))
        self.explore.passage_clicked.connect(self.show_source)
        self.explore.wiki_clicked.connect(self.show_source)
        self.explore.ask_about.connect(self._ask_about)
        bar = self.statusBar()
        bar.addWidget(self.status_library, 1)
        bar.addPermanentWidget(self.status_watch)
        bar.addPermanentWidget(self.status_graph)
        bar.addPermanentWidget(self.status_models)
        bar.addPermanentWidget(self.status_busy)

        build_menus(self)
        self.library.add_files_requested.connect(self.choose_files)
        self.library.add_folder_requested.connect(self.choose_folder)
        self.library.remove_requested.connect(self.remove_documents)
        self.library.reindex_requested.connect(self.reindex_documents)
        self.library.retry_requested.connect(self.ingest)
        self.library.cancel_requested.connect(runner.cancel)
        self.library.document_selected.connect(self._show_document_text)
        self.library.authority_requested.connect(self.set_authority)
        self.library.open_source_requested.connect(self.open_sources)
        self.library.samples_requested.connect(self.try_samples)
        self.library.ask_in_requested.connect(self.ask_in)
        self.library.describe_requested.connect(lambda *details: runner.submit("describe", details))
        self.chat.ask_requested.connect(self.ask)
        self.chat.ask_as_typed_requested.connect(self.ask_as_typed)
        self.chat.stop_requested.connect(self.stop_answering)
        self.chat.source_clicked.connect(self.show_source)
        self.chat.conversation_cleared.connect(self._clear_evidence)
        self.chat.conversation_cleared.connect(self.trace.clear)
        self.chat.source_hovered.connect(self.preview_source)
        self.chat.notice.connect(lambda text: self.statusBar().showMessage(text, 10000))
        self.chat.trace_requested.connect(self.show_trace)
        self.chat.conversation_requested.connect(lambda c: runner.submit("conversation", c))
        self.chat.delete_conversation_requested.connect(self.delete_conversation)
        self.evidence.page_requested.connect(
            lambda path, page, scale: runner.submit("page", (path, page, scale))
        )
        self.evidence.text_requested.connect(lambda doc: runner.submit("text", doc))
        runner.event.connect(self.library.on_event)
        runner.event.connect(self._count_as_files_finish)
        runner.event.connect(self.chat.on_event)
        runner.finished.connect(self._on_finished)
        runner.failed.connect(self._on_failed)
        runner.busy_changed.connect(lambda busy: self.status_busy.setText("Working…" if busy else "Ready"))

        geometry = settings.value("window/geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        else:  # the first start: most of the screen, up to 1440 x 900
            screen = self.screen().availableGeometry()
            self.resize(min(1440, screen.width() * 9 // 10), min(900, screen.height() * 9 // 10))
        # The three panes' widths and whether the sidebar shows (0.6's two panes were kept under
        # window/splitter, which does not fit three).
        panes = settings.value("window/panes")
        if panes is not None:
            self.split.restoreState(panes)
        sidebar = settings.value("window/sidebar")
        if sidebar is not None:
            self.sidebar.restoreState(sidebar)
        columns = settings.value("window/library_columns")  # INI files give one name back as a string
        if columns is not None:
            self.library.show_columns([columns] if isinstance(columns, str) else list(columns))
        if settings.value("window/sidebar_shown", True, type=bool) is False:
            self._toggle_sidebar()
        runner.submit("open", str(library_dir))

    # --- user actions --------------------------------------------------------------------------

    def choose_files(self) -> None:
        patterns = " ".join(f"*{ext}" for ext in sorted(SUPPORTED_EXTENSIONS))
        paths, _ = QFileDialog.getOpenFileNames(
            self,
            "Add documents to the library",
            str(Path.home()),
            f"Documents CiteDesk reads ({patterns});;PDF (*.pdf);;All files (*)",
        )
        if paths:
            self.ingest(paths)

    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Add a folder to the library", str(Path.home()))
        if folder:
            self.ingest([folder])

    def show_watched_folders(self) -> None:
        WatchedFoldersDialog(self.watcher, self).open()

    def _watched_folder_changed(self, snapshot: object) -> None:
        self._show_library(snapshot)
        self.graph.kick()

    def try_samples(self) -> None:
        samples = samples_dir()
        if not samples.is_dir():
            QMessageBox.warning(self, "CiteDesk", f"The sample documents are missing from {samples}.")
            return
        self.ingest([str(samples)])
        self.chat.question.setPlainText("How many containers did the harbour handle in 2023?")

    def ask(self, question: str, conversation: object, scope: list[str], follow_up: bool = True) -> None:
        """Ask on the engine's thread; `scope`: the documents to ask in (empty: the whole library)."""
        self.chat.set_busy(True)
        self.runner.submit("ask", (question, conversation, None, follow_up, scope, self.chat.strategy))

    def ask_as_typed(self, question: str, conversation: object, scope: list[str]) -> None:
        """Ask again without the conversation: the question searched exactly as the user typed it."""
        self.ask(question, conversation, scope, follow_up=False)

    def _graph_progressed(self, status: object) -> None:
        self.explore.show_status(status)  # type: ignore[arg-type]
        if status.current:  # type: ignore[attr-defined]
            self.explore.refresh()

    def _ask_about(self, question: str, documents: list[str]) -> None:
        """Explore's "Ask about this": the question written, asked in the documents that mention it."""
        self.chat.set_scope(documents)
        self.chat.question.setPlainText(question)
        self._focus_question()

    def ask_in(self, documents: list[str]) -> None:
        """The next questions are asked in these documents only, until the user asks the whole library."""
        if not documents:
            self.statusBar().showMessage("Select the documents to ask in, in the library.", 8000)
            return
        self.chat.set_scope(documents)
        self._focus_question()

    def stop_answering(self) -> None:
        self.runner.cancel()
        if self.runner.busy:
            self.chat.stopping(generator_loading=self._generator_loading)

    def show_source(self, source: SourceRef, answer: Answer | None = None) -> None:
        self._pinned = (source, answer)
        self.tabs.setCurrentWidget(self.evidence)
        self.evidence.show_source(source, answer)

    def preview_source(self, source: SourceRef | None, answer: Answer | None) -> None:
        """The citation under the pointer, shown while it rests there; when the pointer leaves, the
        one clicked last again. Only while the Evidence tab is in front: a hover never takes the
        trace or the document text away from the reader."""
        if self.tabs.currentWidget() is not self.evidence:
            return
        if source is None:
            if self._pinned is None:
                # Nothing was clicked: the viewer was empty before the pointer rested on the link,
                # and is again (a window session kept the preview of a link the pointer had left).
                if self.evidence.source is not None:
                    self.evidence.clear()
                return
            source, answer = self._pinned
        if self.evidence.source != source or self.evidence.answer is not answer:
            self.evidence.show_source(source, answer)

    def _clear_evidence(self) -> None:
        """Nothing in the evidence viewer, and nothing to come back to after a hover."""
        self.evidence.clear()
        self._pinned = None

    def _step_citation(self, step: int) -> None:
        self.tabs.setCurrentWidget(self.evidence)
        self.evidence.step_citation(step)
        if self.evidence.source is not None:
            self._pinned = (self.evidence.source, self.evidence.answer)

    def show_explore(self) -> None:
        if self.sidebar.isHidden():
            self._toggle_sidebar()
        self.side_tabs.setCurrentWidget(self.explore)
        self.explore.refresh()
        self.explore.search.setFocus()

    def _toggle_sidebar(self) -> None:
        # isHidden, not isVisible: the window itself may not be shown yet.
        self.sidebar.setVisible(self.sidebar.isHidden())
        self.sidebar_action.setChecked(not self.sidebar.isHidden())

    def show_trace(self, answer: Answer) -> None:
        self.trace.show_answer(answer)
        self.tabs.setCurrentWidget(self.trace)

    def delete_conversation(self, conversation: str) -> None:
        answer = QMessageBox.question(
            self, "Delete conversation", "Delete this conversation and its answers from the library?"
        )
        if answer == QMessageBox.StandardButton.Yes:
            if conversation == self.chat.conversation:
                self.chat.new_conversation()
            self.runner.submit("delete_conversation", conversation)

    def set_authority(self, documents: list[str], tier: int) -> None:
        self.runner.submit("set_authority", [(d, tier) for d in documents])

    def open_sources(self, paths: list[str]) -> None:
        for path in paths:
            if not Path(path).exists():
                QMessageBox.warning(self, "CiteDesk", f"The source file is no longer there:\n{path}")
            elif not QDesktopServices.openUrl(QUrl.fromLocalFile(path)):
                QMessageBox.warning(self, "CiteDesk", f"No application on this system opens:\n{path}")

    def open_settings(self) -> None:
        self.runner.submit("settings")

    def _edit_settings(self, config: Config, models: tuple[ModelInfo, ...], documents: int) -> None:
        dialog = SettingsDialog(config, models, documents, self, consent=self.settings)
        if dialog.exec() != SettingsDialog.DialogCode.Accepted or dialog.config() == config:
            return
        self.apply_settings(dialog.config(), dialog.reembed)

    def _confirm_remote(self, config: Config, servers: tuple[tuple[str, str], ...]) -> None:
        """Load the models once each server on another computer is confirmed; if the user declines,
        those slots go back to the packaged models, saved, and the status bar says so."""
        if not servers or ask_consent(self, servers, self.settings):
            self.runner.submit("load_models")
            return
        slots = {slot for slot, _ in servers}
        models = dataclasses.replace(
            config.models,
            **{slot: DEFAULT for slot in slots & {"generator", "embedder", "reranker"}},
            allow_remote=False,
        )
        reembed = "embedder" in slots and self._library_status is not None and self._library_status.units > 0
        self._settings_message = (
            "Nothing was sent: the " + " and ".join(sorted(slots)) + " went back to the packaged models "
            "(Settings > Models to change it)."
        )
        self.apply_settings(config.with_changes(models=models), reembed)

    def _offer_reembed(self) -> None:
        """The library's passages were embedded by another model than the one set (a re-embedding
        stopped, or the setting changed outside the app): questions need them embedded again."""
        answer = QMessageBox.question(
            self,
            "CiteDesk",
            "This library's passages were embedded by another model than the embedder set in Settings "
            "(a re-embedding was stopped, or the setting changed). Questions can be asked once they are "
            "embedded again.\n\nEmbed them now? Passages already done are kept; you can cancel and "
            "go on later.",
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.library.work_started("Embedding every passage with the new embedder…")
            self.runner.submit("reembed")
        else:
            self.statusBar().showMessage(
                "Not embedded again: questions wait until the passages are (open the library again, or "
                "switch the embedder back in Settings).",
                30000,
            )

    def apply_settings(self, config: Config, reembed: bool) -> None:
        if reembed:
            self.library.work_started("Embedding every passage with the new embedder…")
        self.status_models.setText("Loading models…")
        self.runner.submit("apply_settings", (config, reembed))

    def _new_conversation(self) -> None:
        self.chat.new_conversation()

    def _focus_question(self) -> None:
        self.chat.question.setFocus()

    def _show_document_text(self, document: str) -> None:
        self._text_for_document_view = document
        self.runner.submit("text", document)

    def choose_library(self) -> None:
        folder = QFileDialog.getExistingDirectory(
            self, "Open or create a library folder", str(self.library_dir.parent)
        )
        if folder:
            self.open_library(Path(folder))

    def open_library(self, folder: Path) -> None:
        self.library_dir = folder
        self.document.clear()
        self._clear_evidence()
        self.trace.clear()
        self.explore.clear()
        self.library.set_documents([])
        self.library.opening()
        self.runner.submit("open", str(folder))

    def ingest(self, paths: list[str]) -> None:
        self.library.ingest_started(paths)
        self.runner.submit("ingest", paths)

    def remove_documents(self, documents: list[str]) -> None:
        if not documents:
            return
        names = "\n".join(Path(d).name for d in documents[:10]) + ("\n…" if len(documents) > 10 else "")
        answer = QMessageBox.question(
            self,
            "Remove documents",
            f"Remove these documents from the library?\n\n{names}\n\n"
            "The files themselves stay where they are.",
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.document.clear()
            for document in documents:
                self.runner.submit("delete", document)

    def reindex_documents(self, documents: list[str]) -> None:
        """Read the documents again from their source files, even when their bytes are unchanged."""
        if documents:
            self.library.ingest_started(documents)
            self.runner.submit("reindex", documents)

    def show_about(self) -> None:
        AboutDialog(str(self.library_dir), self).exec()

    # --- drag and drop -------------------------------------------------------------------------

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 (Qt's name)
        if any(url.isLocalFile() for url in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802
        paths = [url.toLocalFile() for url in event.mimeData().urls() if url.isLocalFile()]
        if paths:
            event.acceptProposedAction()
            self.ingest(paths)

    # --- engine results ------------------------------------------------------------------------

    def _on_finished(self, operation: str, result: object) -> None:
        if operation == "open":
            self._show_library(result)
            self.chat.new_conversation()  # clears the evidence and the trace too (conversation_cleared)
            self.runner.submit("conversations")
            self.runner.submit("remote_servers")  # then the models load; the window is usable meanwhile
            if self._library_status is not None and self._library_status.needs_reembed:
                self._offer_reembed()
        elif operation == "remote_servers":
            self._confirm_remote(*result)  # type: ignore[misc]
        elif operation in ("delete", "refresh", "set_authority", "describe"):
            self._show_library(result)
            if operation == "delete":
                self.graph.kick()
        elif operation in ("apply_settings", "reembed"):
            self.library.ingest_finished()
            if operation == "apply_settings":
                # The models of the new settings load in the background, as at open (a server on
                # another computer confirmed first), and the status bar follows them.
                self.runner.submit("remote_servers")
            if result is None:
                self.statusBar().showMessage(
                    "Re-embedding stopped: the passages done are kept, and it goes on from there when you "
                    "open this library again (or switch the embedder back in Settings).",
                    30000,
                )
                self.runner.submit("refresh")
            else:
                self._show_library(result)
                self.graph.kick()
                saved, self._settings_message = self._settings_message or "Settings saved.", ""
                if operation == "reembed":
                    saved = "Every passage is embedded with the new embedder: ask away."
                self.statusBar().showMessage(saved, 30000)
        elif operation == "settings":
            self._edit_settings(*result)  # type: ignore[misc]
        elif operation in ("conversations", "delete_conversation"):
            self.chat.set_conversations(result)  # type: ignore[arg-type]
        elif operation == "conversation":
            conversation, answers = result  # type: ignore[misc]
            self.chat.show_conversation(conversation, answers)
            self._clear_evidence()  # its citations were another conversation's
            if answers:
                self.trace.show_answer(answers[-1])
        elif operation in ("ingest", "reindex"):
            self.library.ingest_finished()
            if result is not None:
                report, snapshot = result  # type: ignore[misc]
                self._show_library(snapshot)
                self._announce(report)
                self.graph.kick()
        elif operation == "text":
            document, text, structure = result  # type: ignore[misc]
            self.evidence.show_text(document, text)
            if document == self._text_for_document_view:
                self.document.show_document(document, text, structure)
        elif operation == "ask":
            self.chat.set_busy(False)
            if result is None:
                self.chat.show_stopped()
                self.runner.submit("conversations")
            else:  # an answer, a refusal, or a stopped question kept with what the model had written
                self.chat.show_answer(result)  # type: ignore[arg-type]
                self.trace.show_answer(result)  # type: ignore[arg-type]
                self.runner.submit("conversations")
        elif operation == "page":
            path, page, scale, rendered = result  # type: ignore[misc]
            self.evidence.show_page(path, page, scale, rendered)
        elif operation == "load_models":
            # The answer model is the slowest to load (about 10 s): in the background now, so the
            # first question does not wait for it; the window stays usable meanwhile.
            self.status_models.setText("Search models ready · loading the answer model…")
            self._generator_loading = True
            self.runner.submit("load_generator")
        elif operation == "load_generator":
            self._generator_loading = False
            self.status_models.setText("Models ready")
            self.graph.models_ready()

    def _on_failed(self, operation: str, message: str, details: str) -> None:
        if operation in ("ingest", "reindex"):
            self.library.ingest_finished()
            self.runner.submit("refresh")
        if operation == "load_models":
            self.status_models.setText("Models unavailable")
        if operation == "load_generator":
            self._generator_loading = False
            self.status_models.setText("Answer model unavailable")
        if operation == "apply_settings":
            self.library.ingest_finished()
            self.runner.submit("refresh")
        if operation == "open":
            self.status_library.setText(f"No library open: {message}")
            self.library.opening("No library is open: File > Open library… chooses one.")
            message += "\n\nFix the problem, or choose another library folder with File > Open library…"
        if operation == "ask":
            self.chat.set_busy(False)
            self.chat.show_error(message)
            self.runner.submit("conversations")  # the question is kept in its conversation
            return
        if operation in ("explore_wiki", "explore_wiki_cached"):  # said on its page (explore_panel.py)
            return
        if operation == "text":  # e.g. the document was removed meanwhile: say so where it was asked
            self.document.clear()
            self.document.title.setText(f"<i>{message}</i>")
            return
        box = QMessageBox(QMessageBox.Icon.Warning, "CiteDesk", message, parent=self)
        box.setDetailedText(details)
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        box.open()

    def _show_library(self, snapshot: object) -> None:
        status, warnings, listing = snapshot  # type: ignore[misc]
        self.library.show_listing(listing)
        self.chat.set_documents(listing.names)
        self.evidence.set_document_warnings(warnings)
        self._library_status = status
        self._show_counts(status.documents, status.units)

    def _show_counts(self, documents: int, units: int) -> None:
        status = self._library_status
        size = f" · {status.size_bytes / 1e6:,.1f} MB · {status.library_dir}" if status is not None else ""
        self.status_library.setText(f"{count_of(documents, 'document')} · {count_of(units, 'passage')}{size}")

    def _count_as_files_finish(self, event: object) -> None:
        """During a batch the counts follow the files as they finish (the size waits for the end)."""
        if isinstance(event, FileFinished):
            self._show_counts(*self.library.counts())

    def _announce(self, report: IngestReport) -> None:
        parts = [f"{report.count(s)} {s.value}" for s in FileStatus if report.count(s)]
        warned = sum(1 for f in report.files if f.warnings)
        if warned:
            parts.append(f"{warned} with a warning (⚠: select it to read why)")
        message = ("Cancelled: " if report.cancelled else "Done: ") + (", ".join(parts) or "nothing to do")
        self.statusBar().showMessage(message, 15000)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/panes", self.split.saveState())
        self.settings.setValue("window/sidebar", self.sidebar.saveState())
        self.settings.setValue("window/sidebar_shown", not self.sidebar.isHidden())
        self.settings.setValue("window/library_columns", self.library.shown_columns())
        self.settings.setValue("library", str(self.library_dir))
        event.accept()
