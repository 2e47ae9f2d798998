"""The library's watched folders and their queue of changes, kept in its SQLite file (watch.py).

The queue is written before any of its work is done and an entry leaves it only when its file has
been read (or removed from the library), so changes found before a crash or a quit are still there
when the library opens again. A file that could not be read stays in the queue with its reason, its
size and its modification time: it is not read again until it changes.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable
from dataclasses import dataclass

_SCHEMA = """
CREATE TABLE IF NOT EXISTS watched (folder TEXT PRIMARY KEY, paused INTEGER NOT NULL, added_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS watch_queue (
    path TEXT PRIMARY KEY, kind TEXT NOT NULL, folder TEXT NOT NULL, size INTEGER NOT NULL,
    mtime REAL NOT NULL, queued_at REAL NOT NULL, reason TEXT NOT NULL
);
"""


@dataclass(frozen=True, slots=True)
class WatchedFolder:
    folder: str  # absolute and normalised, as document ids are
    paused: bool
    added_at: float


@dataclass(frozen=True, slots=True)
class QueuedChange:
    path: str  # the file: its document id
    kind: str  # "added" | "changed" | "removed"
    folder: str  # the watched folder it was found in
    size: int  # bytes (0 for a removed file)
    mtime: float
    reason: str = ""  # why the file could not be read; "" while it waits


class WatchStore:
    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db
        self._db.executescript(_SCHEMA)

    def folders(self) -> list[WatchedFolder]:
        rows = self._db.execute("SELECT folder, paused, added_at FROM watched ORDER BY folder").fetchall()
        return [WatchedFolder(folder, bool(paused), added_at) for folder, paused, added_at in rows]

    def add(self, folder: str) -> None:
        self._db.execute("INSERT OR IGNORE INTO watched VALUES (?, 0, ?)", (folder, time.time()))

    def remove(self, folder: str) -> None:
        """Stop watching `folder`: its waiting changes are dropped (its documents stay)."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            self._db.execute("DELETE FROM watched WHERE folder = ?", (folder,))
            self._db.execute("DELETE FROM watch_queue WHERE folder = ?", (folder,))
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def set_paused(self, folder: str, paused: bool) -> None:
        self._db.execute("UPDATE watched SET paused = ? WHERE folder = ?", (int(paused), folder))

    def queue(self, changes: Iterable[QueuedChange]) -> None:
        """Add changes; a later change of a file replaces the one waiting for it."""
        rows = [(c.path, c.kind, c.folder, c.size, c.mtime, time.time(), c.reason) for c in changes]
        self._db.executemany("INSERT OR REPLACE INTO watch_queue VALUES (?, ?, ?, ?, ?, ?, ?)", rows)

    def queued(self) -> list[QueuedChange]:
        rows = self._db.execute(
            "SELECT path, kind, folder, size, mtime, reason FROM watch_queue ORDER BY queued_at, path"
        ).fetchall()
        return [QueuedChange(*row) for row in rows]

    def done(self, paths: Iterable[str]) -> None:
        self._db.executemany("DELETE FROM watch_queue WHERE path = ?", [(p,) for p in paths])

    def failed(self, path: str, reason: str) -> None:
        self._db.execute("UPDATE watch_queue SET reason = ? WHERE path = ?", (reason, path))
