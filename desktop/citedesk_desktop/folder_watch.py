"""Watched folders in the window: the library kept in step with folders while CiteDesk is open.

The engine finds and queues the changes (citedesk_engine/watch.py); here the window decides when to
look. It looks when the library opens (changes made while CiteDesk was closed), two seconds after the
file system says something changed in a watched folder (a burst of changes makes one look), and every
minute (a file written in place may not be reported). Each look is one short step on the engine
thread: a scan, then a few files read; the next step follows as long as the user waits for nothing,
as the entity graph's steps do (graph_catch_up.py), so a question asked meanwhile waits at most one
step. Adding a folder with much to read asks first and says what it will cost; "Not now" keeps the
folder watched and paused.
"""

from __future__ import annotations

import os
from pathlib import Path

from citedesk_engine.watch import QueuedChange, WatchedFolder, WatchEstimate, size_words
from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from .runner import EngineRunner

DEBOUNCE_MS = 2000  # after the last change the file system reports, before looking
RESCAN_MS = 60_000  # a look every minute, for changes it does not report
STEP_FILES = 3  # files read in one step
ASK_ABOVE_FILES = 20  # adding a folder with more to read than this (or ASK_ABOVE_SECONDS) asks first
ASK_ABOVE_SECONDS = 60.0
MAX_DIRECTORIES = 2000  # folders the file system is asked to report on; past it the minutely look does


class FolderWatcher(QObject):
    """Owns the watched folders' timers and the file system watcher; talks to the engine through the
    runner ("watch_*" operations)."""

    changed = Signal(object, object)  # folders, queue: after every answer from the engine
    library_changed = Signal(object)  # a snapshot, when a step read or removed documents
    message = Signal(str)  # for the status bar

    def __init__(self, runner: EngineRunner, label: QLabel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self._label = label
        self._parent = parent
        self.folders: list[WatchedFolder] = []
        self.queue: list[QueuedChange] = []
        self._running = False  # a step is with the engine
        self._wanted = False  # a step is due: something may have changed, or changes wait
        self._scan = False  # the next step scans first
        self._system = QFileSystemWatcher(self)
        self._system.directoryChanged.connect(self._on_file_system)
        self._system.fileChanged.connect(self._on_file_system)
        self._debounce = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._debounce.timeout.connect(self.look)
        self._rescan = QTimer(self, interval=RESCAN_MS)
        self._rescan.timeout.connect(self.look)
        label.setAccessibleName("Watched folders")
        label.hide()
        runner.finished.connect(self._on_finished)
        runner.failed.connect(self._on_failed)
        runner.busy_changed.connect(lambda busy: None if busy else self._next())

    # --- what the user asks ------------------------------------------------------------------------

    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self._parent, "Watch a folder", str(Path.home()))
        if folder:
            self.watch(folder)

    def watch(self, folder: str) -> None:
        self._runner.submit("watch_add", folder)

    def pause(self, folder: str, paused: bool) -> None:
        self._runner.submit("watch_pause", (folder, paused))

    def stop_watching(self, folder: str) -> None:
        self._runner.submit("watch_remove", folder)

    def look(self) -> None:
        """Scan the watched folders and do what waits, when the engine is idle."""
        if self.folders:
            self._wanted = self._scan = True
            self._next()

    # --- the engine's answers ----------------------------------------------------------------------

    def _on_finished(self, operation: str, result: object) -> None:
        if operation == "open":
            self._runner.submit("watch_folders")
            return
        if not operation.startswith("watch_"):
            return
        if operation == "watch_step":
            self._running = False
            step, folders, queue, snapshot, held = result  # type: ignore[misc]
            self._set(folders, queue)
            for folder, cost in held:  # much found at once: paused until the user says to read it
                self._ask(folder, cost, "has {files} new or changed files ({size})")
            if snapshot is not None:
                self.library_changed.emit(snapshot)
            for path, reason in step.failed:
                self.message.emit(f"{Path(path).name} in a watched folder could not be read: {reason}")
            self._wanted = bool(step.waiting) and bool(step.read or step.removed or step.failed)
            QTimer.singleShot(0, self._next)
            return
        if operation == "watch_add":
            folder, estimate, folders, queue = result  # type: ignore[misc]
            self._set(folders, queue)
            self._added(folder, estimate)
            return
        folders, queue = result  # type: ignore[misc]
        self._set(folders, queue)
        if operation == "watch_folders" and folders:
            self.look()  # changes made while CiteDesk was closed
        elif operation == "watch_pause":
            self._wanted = True
            self._next()

    def _on_failed(self, operation: str, message: str, _details: str) -> None:
        if operation == "watch_step":
            self._running = False
            self._wanted = False  # said once; the next change tries again
            self._label.setText("Watching stopped")
            self._label.setToolTip(message)

    def _added(self, folder: str, estimate: WatchEstimate) -> None:
        name = Path(folder).name or folder
        if not estimate.files and not estimate.removals:
            self.message.emit(f"Watching {name}: the library already holds every file of it.")
            return
        if estimate.files > ASK_ABOVE_FILES or estimate.seconds > ASK_ABOVE_SECONDS:
            self.pause(folder, True)  # until the user says to read it
            self._ask(folder, estimate, "holds {files} files ({size}) that the library does not have")
            return
        self.message.emit(f"Watching {name}: reading {estimate.files:,} files in the background.")
        self._wanted = True
        self._next()

    def _ask(self, folder: str, estimate: WatchEstimate, found: str) -> None:
        """Whether to read a paused folder's many waiting files now (`found` says what they are, with
        {files} and {size}); Read now resumes it."""
        name = Path(folder).name or folder
        what = found.format(files=f"{estimate.files:,}", size=size_words(estimate.bytes))
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Watch a folder",
            f"“{name}” {what}. Reading them takes {_duration(estimate.seconds)} on this computer; you can "
            "ask questions meanwhile.\n\nRead them now? Not now keeps the folder watched and paused: "
            "Resume in File > Watched folders… reads them.",
            parent=self._parent,
        )
        read = box.addButton("Read now", QMessageBox.ButtonRole.AcceptRole)
        box.addButton("Not now", QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(read)
        box.exec()
        if box.clickedButton() is read:
            self.message.emit(f"Watching {name}: reading {estimate.files:,} files in the background.")
            self.pause(folder, False)

    # --- stepping ----------------------------------------------------------------------------------

    def _next(self) -> None:
        if self._wanted and self.folders and not self._running and not self._runner.busy:
            self._running = True
            self._wanted = False
            scan, self._scan = self._scan, False
            self._runner.submit("watch_step", (scan, STEP_FILES, ASK_ABOVE_FILES, ASK_ABOVE_SECONDS))

    def _on_file_system(self, _path: str) -> None:
        self._debounce.start()

    def _set(self, folders: list[WatchedFolder], queue: list[QueuedChange]) -> None:
        self.folders, self.queue = folders, queue
        self._follow(folders)
        self._show()
        self.changed.emit(folders, queue)

    def _follow(self, folders: list[WatchedFolder]) -> None:
        """Ask the file system about every folder under the watched ones (up to MAX_DIRECTORIES)."""
        wanted: list[str] = []
        for watched in folders:
            for root, subfolders, _files in os.walk(watched.folder):
                subfolders[:] = [d for d in subfolders if not d.startswith(".")]
                wanted.append(root)
                if len(wanted) >= MAX_DIRECTORIES:
                    break
        current = set(self._system.directories())
        gone = sorted(current - set(wanted))
        added = sorted(set(wanted) - current)
        if gone:
            self._system.removePaths(gone)
        if added:
            self._system.addPaths(added)
        if folders:
            self._rescan.start()
        else:
            self._rescan.stop()

    def _show(self) -> None:
        if not self.folders:
            self._label.hide()
            return
        waiting = sum(1 for c in self.queue if not c.reason)
        paused = sum(1 for f in self.folders if f.paused)
        count = len(self.folders)
        if paused == count:  # nothing is followed now
            text = f"{count} watched folder{'s' * (count != 1)}, paused"
        else:
            text = f"Watching {count - paused} folder{'s' * (count - paused != 1)}"
            text += f" · {paused} paused" if paused else ""
        if waiting:
            text += f" · {waiting:,} change{'s' * (waiting != 1)} waiting"
        self._label.setText(text)
        self._label.setToolTip("\n".join(f.folder + (" (paused)" if f.paused else "") for f in self.folders))
        self._label.show()


class WatchedFoldersDialog(QDialog):
    """File > Watched folders…: the folders, their state and what waits; watch, pause, resume, stop."""

    def __init__(self, watcher: FolderWatcher, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Watched folders")
        self.setMinimumWidth(560)
        self._watcher = watcher
        self.list = QListWidget()
        self.list.setAccessibleName("Watched folders")
        self.list.currentItemChanged.connect(lambda *_: self._enable())
        self.empty = QLabel("No folder is watched.")
        about = QLabel(
            "A watched folder's new, changed, moved and deleted files (its subfolders' too) are read into "
            "the library in the background, also those changed while CiteDesk was closed. Stop watching "
            "keeps the documents already read."
        )
        about.setWordWrap(True)
        self.add_button = QPushButton("&Watch a folder…")
        self.pause_button = QPushButton("&Pause")
        self.remove_button = QPushButton("&Stop watching")
        self.remove_button.setToolTip("Stop watching the folder; its documents stay in the library")
        self.add_button.clicked.connect(watcher.choose_folder)
        self.pause_button.clicked.connect(self._toggle_pause)
        self.remove_button.clicked.connect(self._stop)
        buttons = QHBoxLayout()
        for button in (self.add_button, self.pause_button, self.remove_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(about)
        layout.addWidget(self.empty)
        layout.addWidget(self.list, 1)
        layout.addLayout(buttons)
        layout.addWidget(close)
        watcher.changed.connect(self.show_folders)
        self.show_folders(watcher.folders, watcher.queue)

    def show_folders(self, folders: list[WatchedFolder], queue: list[QueuedChange]) -> None:
        selected = self._selected()
        self.list.clear()
        for folder in folders:
            mine = [c for c in queue if c.folder == folder.folder]
            waiting = sum(1 for c in mine if not c.reason)
            failed = [c for c in mine if c.reason]
            state = "paused" if folder.paused else "watching"
            text = f"{folder.folder}\n    {state} · {waiting:,} change{'s' * (waiting != 1)} waiting"
            if failed:
                text += f" · {len(failed)} file{'s' * (len(failed) != 1)} could not be read"
            item = QListWidgetItem(text)
            item.setData(256, folder)  # Qt.ItemDataRole.UserRole
            item.setToolTip("\n".join(f"{Path(c.path).name}: {c.reason}" for c in failed) or folder.folder)
            self.list.addItem(item)
            if selected is not None and folder.folder == selected.folder:
                self.list.setCurrentItem(item)
        if self.list.currentItem() is None and self.list.count():
            self.list.setCurrentRow(0)
        self.empty.setVisible(not folders)
        self._enable()

    def _selected(self) -> WatchedFolder | None:
        item = self.list.currentItem()
        return None if item is None else item.data(256)

    def _enable(self) -> None:
        folder = self._selected()
        self.pause_button.setEnabled(folder is not None)
        self.remove_button.setEnabled(folder is not None)
        self.pause_button.setText("&Resume" if folder is not None and folder.paused else "&Pause")

    def _toggle_pause(self) -> None:
        folder = self._selected()
        if folder is not None:
            self._watcher.pause(folder.folder, not folder.paused)

    def _stop(self) -> None:
        folder = self._selected()
        if folder is not None:
            self._watcher.stop_watching(folder.folder)


def _duration(seconds: float) -> str:
    if seconds < 90:
        return "about a minute"
    if seconds < 90 * 60:
        return f"about {seconds / 60:.0f} minutes"
    return f"about {seconds / 3600:.1f} hours"
