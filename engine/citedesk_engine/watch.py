"""Watched folders: the library keeps folders in step with their files.

A watched folder is scanned (when it is added, when the window sees a change in it, every minute
while the window is open, and by `citedesk watch sync`): a file the library does not hold is
*added*, one whose size or modification time differs from what was read is *changed*, a document
under the folder whose file is gone is *removed*. A file moved or renamed is one removal and one
addition (its passages are read and embedded again under its new name). Only files CiteDesk reads
are looked at (ingest/extract.SUPPORTED), hidden ones never, as when a folder is added once.

Changes go to a queue in the library (index/watch_store.py) before anything is done about them, and
`apply` works through it in short steps (a few files each) on the engine's thread, so a question
asked meanwhile waits at most one step; the queue survives a quit or a crash. Additions are read
before removals are applied, so a moved file is searchable all along. A paused folder is scanned but
its changes wait. A file that cannot be read stays queued with its reason and is not read again until
it changes.

Adding a folder never starts reading it unasked: `add` returns what there is to read and `estimate`
what it will cost, and the caller (the window, the CLI) asks before `apply`. Nor does a scan that
finds much at once (`scan_holding`: thousands of files dropped in, a drive changed while CiteDesk was
closed): their folder is paused until the user says to read them.
"""

from __future__ import annotations

import os
import threading
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from .api import Engine
from .errors import DocumentNotFound, EngineError
from .events import EventCallback
from .index.watch_store import QueuedChange, WatchedFolder
from .ingest.extract import is_supported
from .ingest.pipeline import document_id, expand_paths
from .types import FileStatus

__all__ = ["FolderWatch", "QueuedChange", "WatchEstimate", "WatchStep", "WatchedFolder", "size_words"]


# Reading a file costs something whatever its size (opening it, detecting its language, committing
# it): 25 one-line notes took about 5 s in the window's steps (tests/desktop/test_watch_in_window.py).
_SECONDS_PER_FILE = 0.2


@dataclass(frozen=True, slots=True)
class WatchEstimate:
    files: int  # to read (added or changed)
    removals: int
    bytes: int
    seconds: float  # about, at the configured reading rate


@dataclass(frozen=True, slots=True)
class WatchStep:
    read: tuple[str, ...]  # files read into the library
    removed: tuple[str, ...]  # documents removed because their file is gone
    failed: tuple[tuple[str, str], ...]  # (file, why it could not be read)
    waiting: int  # changes still queued that a step would do (paused folders' aside)


def size_words(size: int) -> str:
    """A size as a person reads it: "6 KB", "1,250.0 MB"."""
    if size < 1_000_000:
        return f"{max(1, round(size / 1000)):,} KB"
    return f"{size / 1e6:,.1f} MB"


class FolderWatch:
    """The watched folders of one engine's library."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._store = engine.library.manifest.watch

    def folders(self) -> list[WatchedFolder]:
        return self._store.folders()

    def add(self, folder: str | Path) -> tuple[str, list[QueuedChange]]:
        """Watch `folder` (with its subfolders) and queue what differs from the library; nothing is
        read yet (see `estimate`, `apply`). Returns the folder as the library names it (absolute,
        normalised) and its queued changes."""
        path = Path(folder).expanduser()
        if not path.is_dir():
            raise EngineError(f"{path} is not a folder that can be watched: it does not exist or is a file.")
        watched = document_id(path)
        self._store.add(watched)
        return watched, [c for c in self.scan() if c.folder == watched]

    def remove(self, folder: str | Path) -> None:
        """Stop watching; the folder's documents stay in the library, its waiting changes are dropped."""
        self._store.remove(self._known(folder))

    def pause(self, folder: str | Path, paused: bool = True) -> None:
        self._store.set_paused(self._known(folder), paused)

    def queued(self) -> list[QueuedChange]:
        return self._store.queued()

    def scan(self) -> list[QueuedChange]:
        """Compare every watched folder with the library, queue the differences, return the queue."""
        documents = {d.document: d for d in self.engine.documents()}
        waiting = {c.path: c for c in self._store.queued()}
        found: list[QueuedChange] = []
        seen: set[str] = set()
        for watched in self._store.folders():
            root = Path(watched.folder)
            if not root.is_dir():
                continue  # unplugged or renamed: its documents stay until the folder is back or unwatched
            for path in expand_paths([root]):
                if not is_supported(path.suffix) or not path.is_file():
                    continue
                document = document_id(path)
                seen.add(document)
                try:
                    info = path.stat()
                except OSError:
                    continue
                record = documents.get(document)
                if record is not None and record.size == info.st_size and record.mtime == info.st_mtime:
                    continue
                queued = waiting.get(document)
                if queued is not None and queued.size == info.st_size and queued.mtime == info.st_mtime:
                    continue  # waiting already, or could not be read as it is
                kind = "added" if record is None else "changed"
                found.append(QueuedChange(document, kind, watched.folder, info.st_size, info.st_mtime))
            inside = watched.folder.rstrip(os.sep) + os.sep
            for document in documents:
                already = waiting.get(document)
                if (
                    document.startswith(inside)
                    and document not in seen
                    and not os.path.exists(document)
                    and (already is None or already.kind != "removed")
                ):
                    found.append(QueuedChange(document, "removed", watched.folder, 0, 0.0))
        # A file queued while it existed and gone since (and never read) needs nothing done.
        gone = [c.path for c in waiting.values() if c.kind != "removed" and c.path not in seen]
        self._store.done(p for p in gone if p not in documents)
        self._store.queue(found)
        return self._store.queued()

    def scan_holding(self, files: int, seconds: float) -> list[tuple[str, WatchEstimate]]:
        """Scan, and pause each folder whose newly found changes would take more than `files` files
        or `seconds` to read (thousands of files dropped in, a drive's worth changed while CiteDesk
        was closed): its changes wait until the user says to read them. Returns those folders with
        what their new changes cost."""
        before = {(c.path, c.kind, c.size, c.mtime) for c in self._store.queued()}
        new = [c for c in self.scan() if (c.path, c.kind, c.size, c.mtime) not in before]
        paused = {f.folder for f in self._store.folders() if f.paused}
        held = []
        for folder in sorted({c.folder for c in new} - paused):
            cost = self.estimate([c for c in new if c.folder == folder])
            if cost.files > files or cost.seconds > seconds:
                self._store.set_paused(folder, True)
                held.append((folder, cost))
        return held

    def estimate(self, changes: list[QueuedChange] | None = None) -> WatchEstimate:
        """What reading the waiting changes will cost: files, bytes and about how long."""
        changes = self._waiting() if changes is None else changes
        to_read = [c for c in changes if c.kind != "removed" and not c.reason]
        size = sum(c.size for c in to_read)
        rate = max(1, self.engine.config.ingest.estimate_kb_per_s) * 1024
        seconds = size / rate + _SECONDS_PER_FILE * len(to_read)
        return WatchEstimate(len(to_read), sum(c.kind == "removed" for c in changes), size, seconds)

    def apply(
        self,
        limit: int = 5,
        *,
        on_event: EventCallback | None = None,
        cancel: threading.Event | None = None,
    ) -> WatchStep:
        """Do up to `limit` waiting changes of folders that are not paused: files read first (added or
        changed), then documents whose file is gone removed. Each leaves the queue once done."""
        waiting = self._waiting()
        reads = [c for c in waiting if c.kind != "removed"][:limit]
        read: list[str] = []
        failed: list[tuple[str, str]] = []
        if reads:
            report = self.engine.ingest([c.path for c in reads], on_event=on_event, cancel=cancel)
            for result in report.files:
                if result.status in (FileStatus.INGESTED, FileStatus.UNCHANGED):
                    read.append(result.document)
                    self._store.done([result.document])
                elif result.status is FileStatus.FAILED:
                    failed.append((result.document, result.reason))
                    self._store.failed(result.document, result.reason)
        removed: list[str] = []
        if not reads:
            for change in [c for c in waiting if c.kind == "removed"][:limit]:
                if cancel is not None and cancel.is_set():
                    break
                if not os.path.exists(change.path):
                    with suppress(DocumentNotFound):  # removed by hand meanwhile
                        self.engine.delete(change.path)
                    removed.append(change.path)
                self._store.done([change.path])
        return WatchStep(tuple(read), tuple(removed), tuple(failed), len(self._waiting()))

    def _waiting(self) -> list[QueuedChange]:
        """Queued changes that a step would do: not failed, of folders not paused."""
        paused = {f.folder for f in self._store.folders() if f.paused}
        return [c for c in self._store.queued() if not c.reason and c.folder not in paused]

    def _known(self, folder: str | Path) -> str:
        wanted = document_id(Path(folder).expanduser())
        if wanted not in {f.folder for f in self._store.folders()}:
            raise EngineError(f"{wanted} is not a watched folder of this library.")
        return wanted
