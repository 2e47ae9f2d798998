"""EngineRunner: the one worker thread that owns the engine. Widgets talk to it through signals only.

Requests are queued to the worker; results, progress events and errors come back as queued signals,
so the GUI thread never waits on the engine. Cancellation is cooperative (a threading.Event the
engine checks between files and batches); the thread is never terminated.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import threading
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from citedesk_engine import Cancelled, Engine, EngineError
from citedesk_engine.stored_conversations import stored_answers
from citedesk_engine.watch import FolderWatch
from PySide6.QtCore import QObject, QThread, Signal, Slot

from .library_listing import library_listing

log = logging.getLogger(__name__)

EngineFactory = Callable[[Path], Engine]


@contextmanager
def long_lived_objects() -> Iterator[None]:
    """Run code that creates objects living as long as the app (imports of torch, transformers,
    lancedb; loaded models) with the garbage collector off, then move them out of its reach.

    A full collection over those ~500k objects takes 300-600 ms and holds the GIL, so the GUI thread
    froze whenever one ran on the engine thread (benchmarks/ui_stall.py). Frozen, they are never
    scanned again and a full collection costs a few milliseconds."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()


def preload_native_libraries() -> None:
    """Import torch and the OCR engine, and load the language identifier's model, before the window
    exists. Torch's C extension initialises for ~0.3 s holding the GIL, the OCR engine's imports
    (OpenCV, ONNX Runtime, Shapely) hold it up to 50 ms at a time (a stall of 442 ms at the first
    scanned page, on a busy machine), and the identifier reads its model in one call of 140 ms; done
    later on the engine thread (the first question, the first file read), each froze the open window
    (benchmarks/ui_stall.py). Under a splash screen at start they cost the same time and the window
    never stalls."""
    with long_lived_objects():
        import torch  # noqa: F401
        from citedesk_engine.languages import identify

        identify("CiteDesk")
        # Installed by `make`; without it, OCR says so when a file needs it.
        with contextlib.suppress(ImportError):
            import rapidocr_onnxruntime  # noqa: F401


def render_page(path: str, page: int, scale: float) -> tuple[bytes, int]:
    """PNG bytes of a page of a PDF or a picture at `scale` (1.0 = 72 dpi) and the page count."""
    import pymupdf
    from citedesk_engine.ingest.extract.image import IMAGE_EXTENSIONS, open_picture

    picture = Path(path).suffix.lower() in IMAGE_EXTENSIONS
    with open_picture(Path(path).read_bytes()) if picture else pymupdf.open(path) as document:
        pixmap = document[page - 1].get_pixmap(matrix=pymupdf.Matrix(scale, scale))
        return pixmap.tobytes("png"), document.page_count


class _Handler(QObject):
    """Runs requests on its thread; each ends in `finished` or `failed`."""

    event = Signal(object)
    finished = Signal(str, object)
    failed = Signal(str, str, str)

    @Slot(str, object)
    def run(self, operation: str, payload: Any) -> None:
        try:
            result = self._dispatch(operation, payload)
        except Cancelled:
            self.finished.emit(operation, None)
        except EngineError as exc:
            self.failed.emit(operation, str(exc), traceback.format_exc())
        except Exception as exc:  # a bug must reach the user as a dialog, not kill the thread
            log.exception("engine operation %s failed", operation)
            self.failed.emit(
                operation, f"Unexpected error: {type(exc).__name__}: {exc}", traceback.format_exc()
            )
        else:
            self.finished.emit(operation, result)

    def _dispatch(self, operation: str, payload: Any) -> Any:
        raise NotImplementedError


# Reads that need no engine: answered on a thread of their own, so that they never wait behind long
# work on the engine's (a cited PDF's page and a past conversation waited for the end of an ingest).
READS = frozenset({"page", "conversation"})


class _Reader(_Handler):
    """Reads of the open library and of its documents' files, each through its own connection."""

    def __init__(self) -> None:
        super().__init__()
        self.folder: Path | None = None  # the library's, set when it is opened

    def _dispatch(self, operation: str, payload: Any) -> Any:
        if operation == "page":  # a PDF page as PNG bytes, rendered here so the GUI thread never waits
            path, page, scale = payload
            return path, page, scale, render_page(path, page, scale)
        if operation == "conversation":
            if self.folder is None:
                raise EngineError("No library is open.")
            return payload, stored_answers(self.folder, payload)
        raise ValueError(f"unknown read {operation}")


class _Worker(_Handler):
    def __init__(self, factory: EngineFactory, cancel: threading.Event) -> None:
        super().__init__()
        self._factory = factory
        self._cancel = cancel
        self._engine: Engine | None = None

    def close_engine(self) -> None:
        if self._engine is not None:
            self._engine.close()
            self._engine = None

    def _dispatch(self, operation: str, payload: Any) -> Any:
        if operation == "open":
            if self._engine is not None:
                self._engine.close()
                self._engine = None
            with long_lived_objects():  # the first open imports lancedb and pyarrow
                self._engine = self._factory(Path(payload))
            return self._snapshot()
        if operation == "close":
            self.close_engine()
            return None
        engine = self._require()
        if operation == "settings":
            return engine.config, engine.models(verify=False), len(engine.documents())
        if operation == "remote_servers":  # before anything is sent: the window confirms them once
            return engine.config, engine.config.models.remote_servers()
        if operation == "apply_settings":  # save, open the library again with them, re-embed if asked
            config, reembed = payload
            engine.save_settings(config)
            folder = engine.library.folder
            engine.close()
            self._engine = None
            self._engine = engine = self._factory(folder)
            if reembed:
                engine.reembed(on_event=self.event.emit, cancel=self._cancel)
            return self._snapshot()
        if operation == "reembed":  # the library's passages for the configured embedder, resumed
            engine.reembed(on_event=self.event.emit, cancel=self._cancel)
            return self._snapshot()
        if operation in ("ingest", "reindex"):
            report = engine.ingest(
                payload, on_event=self.event.emit, cancel=self._cancel, force=operation == "reindex"
            )
            return report, self._snapshot()
        if operation == "delete":
            engine.delete(payload)
            return self._snapshot()
        if operation == "refresh":
            return self._snapshot()
        if operation == "text":
            return payload, engine.text(payload), engine.structure(payload)
        if operation == "ask":
            question, conversation, mode, follow_up, scope, strategy = payload
            return engine.ask(
                question,
                conversation=conversation,
                mode=mode,
                strategy=strategy,
                follow_up=follow_up,
                documents=scope or None,
                on_event=self.event.emit,
                cancel=self._cancel,
            )
        if operation == "conversations":
            return engine.conversations()
        if operation == "delete_conversation":
            engine.delete_conversation(payload)
            return engine.conversations()
        if operation == "set_authority":
            for document, tier in payload:
                engine.set_authority(document, tier)
            return self._snapshot()
        if operation == "describe":
            document, title, authors, year = payload
            engine.describe(document, title=title, authors=authors, year=year)
            return self._snapshot()
        if operation == "load_models":
            with long_lived_objects():  # torch, transformers and the model: half a million objects
                engine.embedder()
                engine.load_lexicon()  # the question check's English words (unknown_terms)
                if engine.graph_enabled():  # the entity reader too, so the graph's first step is short
                    engine.mention_reader().read([])
            return engine.models(verify=False)
        if operation == "load_generator":
            with long_lived_objects():
                engine.load_generator()
            return None
        if operation == "explore_topics":
            return engine.topics()
        if operation == "explore_entities":
            words, topic = payload
            return engine.entities(words, topic)
        if operation == "explore_entity":
            return engine.entity(payload)
        if operation == "explore_wiki_cached":  # a page already written, or None: nothing is written
            return payload, engine.cached_wiki(payload)
        if operation == "explore_wiki":  # written now (the generator: seconds), cancellable
            return payload, engine.wiki(payload, on_event=self.event.emit, cancel=self._cancel)
        if operation.startswith("watch_"):  # watched folders (folder_watch.py)
            return self._watch(engine, operation, payload)
        if operation == "graph":  # one short step of the slow path (graph_catch_up.py)
            with long_lived_objects():  # the first step loads spaCy's pipeline
                return engine.build_graph(seconds=payload)
        raise ValueError(f"unknown operation {operation}")

    def _watch(self, engine: Engine, operation: str, payload: Any) -> Any:
        watch = FolderWatch(engine)
        if operation == "watch_add":
            folder, queued = watch.add(payload)
            return folder, watch.estimate(queued), watch.folders(), watch.queued()
        if operation == "watch_step":  # a look: maybe a scan, then a few files (runs in the background)
            scan, limit, ask_files, ask_seconds = payload
            held = watch.scan_holding(ask_files, ask_seconds) if scan else []
            step = watch.apply(limit=limit, cancel=self._cancel)
            snapshot = self._snapshot() if step.read or step.removed else None
            return step, watch.folders(), watch.queued(), snapshot, held
        if operation == "watch_pause":
            folder, paused = payload
            watch.pause(folder, paused)
        elif operation == "watch_remove":
            watch.remove(payload)
        return watch.folders(), watch.queued()

    def _snapshot(self) -> Any:
        """The library's state, its documents' warnings, and its documents as the list's rows, prepared
        here, off the window's thread (library_listing.py)."""
        engine = self._require()
        warnings = engine.warnings()
        return engine.status(), warnings, library_listing(engine.documents(), warnings, engine.metadata())

    def _require(self) -> Engine:
        if self._engine is None:
            raise EngineError("No library is open.")
        return self._engine


# Work the window does on its own while the user does nothing (the slow path's steps): it never shows
# the library as busy, and each step is short, so a question asked meanwhile waits at most one step.
BACKGROUND = frozenset(
    {
        "graph",
        "explore_topics",
        "explore_entities",
        "explore_entity",
        "explore_wiki_cached",
        "watch_folders",
        "watch_step",
    }
)


# Work that a Stop pressed before it is not for: each starts with the cancel flag cleared. (A watched
# folder's step is sent only when nothing runs, so no Stop meant for other work is lost.)
CANCEL_CLEARED = frozenset(
    {"ingest", "reindex", "ask", "apply_settings", "reembed", "explore_wiki", "watch_step"}
)


def open_interactive(folder: Path) -> Engine:
    """The window's engine: its slow work that would hold the interpreter lock for long (the entity
    graph's reader) runs in worker processes, so the window keeps drawing (Engine.open)."""
    return Engine.open(folder, interactive=True)


class EngineRunner(QObject):
    """Owns the worker thread. `busy` is true from a request until its result or error arrives
    (background steps aside)."""

    event = Signal(object)
    finished = Signal(str, object)
    failed = Signal(str, str, str)
    busy_changed = Signal(bool)
    _request = Signal(str, object)
    _read = Signal(str, object)

    def __init__(self, factory: EngineFactory = open_interactive, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._cancel = threading.Event()
        self._pending = 0
        self._thread = QThread()
        self._thread.setObjectName("citedesk-engine")
        self._worker = _Worker(factory, self._cancel)
        self._worker.moveToThread(self._thread)
        self._request.connect(self._worker.run)
        self._worker.event.connect(self.event)
        self._worker.finished.connect(self._on_finished)
        self._worker.failed.connect(self._on_failed)
        self._thread.start()
        self._reader_thread = QThread()
        self._reader_thread.setObjectName("citedesk-reader")
        self._reader = _Reader()
        self._reader.moveToThread(self._reader_thread)
        self._read.connect(self._reader.run)
        self._reader.finished.connect(self._on_finished)
        self._reader.failed.connect(self._on_failed)
        self._reader_thread.start()

    @property
    def busy(self) -> bool:
        return self._pending > 0

    def submit(self, operation: str, payload: Any = None) -> None:
        if operation in CANCEL_CLEARED:
            self._cancel.clear()
        if operation not in BACKGROUND:
            self._pending += 1
            if self._pending == 1:
                self.busy_changed.emit(True)
        if operation == "open":
            self._reader.folder = Path(payload)
        if operation in READS:
            self._read.emit(operation, payload)
        else:
            self._request.emit(operation, payload)

    def cancel(self) -> None:
        self._cancel.set()

    def shutdown(self) -> None:
        """Cancel running work, close the library on its own thread, and stop the thread."""
        self._cancel.set()
        self._request.emit("close", None)
        self._thread.quit()
        self._thread.wait()
        self._reader_thread.quit()
        self._reader_thread.wait()
        # quit() can end the thread's event loop before it reaches the queued "close" (when other
        # requests were still waiting): the thread has stopped, so the library is closed from here.
        self._worker.close_engine()

    def _on_finished(self, operation: str, result: object) -> None:
        if operation not in BACKGROUND:
            self._done()
        self.finished.emit(operation, result)

    def _on_failed(self, operation: str, message: str, details: str) -> None:
        if operation not in BACKGROUND:
            self._done()
        self.failed.emit(operation, message, details)

    def _done(self) -> None:
        self._pending = max(0, self._pending - 1)
        if self._pending == 0:
            self.busy_changed.emit(False)
