"""The slow path in the window: the entity graph built in short steps whenever the engine is idle.

After a library opens, the models are loaded, or documents are added or removed, `kick()` starts the
catch-up: one step (a second or two of reading) is sent to the engine thread, and when it comes back
the next one, as long as the user is not waiting for anything. A question or an ingest asked
meanwhile waits at most one step; the catch-up goes on once the engine is idle again. The status bar
says how far it is.
"""

from __future__ import annotations

from citedesk_engine.types import GraphStatus
from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QLabel

from .runner import EngineRunner

STEP_SECONDS = 1.5  # each step reads at least one batch of passages, then stops past this


class GraphCatchUp(QObject):
    progressed = Signal(object)  # GraphStatus, after each step

    def __init__(self, runner: EngineRunner, label: QLabel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self._label = label
        self._running = False  # a step is with the engine
        self._wanted = False  # there is (or may be) work to do
        self._ready = False  # the models are loaded: the window does not compete with their loading
        self.last: GraphStatus | None = None
        label.setAccessibleName("Entity graph progress")
        label.hide()
        runner.finished.connect(self._on_finished)
        runner.failed.connect(self._on_failed)
        runner.busy_changed.connect(lambda busy: None if busy else self._next())

    def models_ready(self) -> None:
        self._ready = True
        self.kick()

    def kick(self) -> None:
        """Something changed (documents, settings): catch up when the engine is idle."""
        self._wanted = True
        self._next()

    def _next(self) -> None:
        if self._wanted and self._ready and not self._running and not self._runner.busy:
            self._running = True
            self._runner.submit("graph", STEP_SECONDS)

    def _on_finished(self, operation: str, result: object) -> None:
        if operation == "open":
            self._ready = False  # another library: wait for its models, then kick again
        if operation != "graph":
            return
        self._running = False
        if isinstance(result, GraphStatus):
            self.last = result
            self._show(result)
            self.progressed.emit(result)
            self._wanted = result.enabled and not result.current
        QTimer.singleShot(0, self._next)

    def _on_failed(self, operation: str, message: str, _details: str) -> None:
        if operation == "graph":
            self._running = False
            self._wanted = False  # said once; the next change of the library tries again
            self._label.setText("Entity graph stopped")
            self._label.setToolTip(message)
            self._label.show()

    def _show(self, status: GraphStatus) -> None:
        if not status.enabled:
            self._label.hide()
            return
        total = status.documents + status.pending
        if not total:  # an empty library has no topics to count
            self._label.hide()
            return
        if status.current:
            self._label.setText(f"{status.communities:,} topic{'s' * (status.communities != 1)}")
            self._label.setToolTip(
                f"Entity graph: {status.nodes:,} entities in {status.communities:,} topics, from all "
                f"{total:,} documents"
            )
        else:
            self._label.setText(f"Entity graph: {status.documents:,} of {total:,} documents")
            self._label.setToolTip(
                "Entities and topics are read in the background while you do nothing; every document "
                "can be asked about meanwhile."
            )
        self._label.show()
