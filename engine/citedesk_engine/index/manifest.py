"""The library manifest in SQLite: committed documents, their structure, and the ingest intent log.

The manifest is the commit point. Rows in the vector and lexical indexes belong to a (document,
version) pair; a version is live only once its manifest row is committed. Before rows of a new
version are written it is recorded as `pending`; the commit swaps the document to it and records the
old version as `garbage`, in one transaction. On open, pending versions are rolled back and garbage is
removed, so a crash at any moment leaves only whole documents.
"""

from __future__ import annotations

import dataclasses
import sqlite3
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

from ..types import DocumentRecord, StructureNode

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS documents (
    document TEXT PRIMARY KEY, source_path TEXT NOT NULL, sha256 TEXT NOT NULL, version TEXT NOT NULL,
    size INTEGER NOT NULL, mtime REAL NOT NULL, kind TEXT NOT NULL, units INTEGER NOT NULL,
    pages INTEGER NOT NULL, language TEXT NOT NULL, authority INTEGER NOT NULL,
    ingested_at REAL NOT NULL, text_sha256 TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS structure (
    document TEXT NOT NULL, kind TEXT NOT NULL, label TEXT NOT NULL, level INTEGER NOT NULL,
    char_start INTEGER NOT NULL, char_end INTEGER NOT NULL, page INTEGER
);
CREATE INDEX IF NOT EXISTS structure_document ON structure (document);
CREATE TABLE IF NOT EXISTS pending (document TEXT NOT NULL, version TEXT PRIMARY KEY, started REAL);
CREATE TABLE IF NOT EXISTS garbage (document TEXT NOT NULL, version TEXT PRIMARY KEY);
"""
_COLUMNS = (
    "document, source_path, sha256, version, size, mtime, kind, units, pages, language, authority, "
    "ingested_at, text_sha256"
)


class Manifest:
    def __init__(self, path: Path) -> None:
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        self._db.close()

    def get_meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        self._db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    def document(self, document: str) -> DocumentRecord | None:
        row = self._db.execute(f"SELECT {_COLUMNS} FROM documents WHERE document = ?", (document,)).fetchone()
        return None if row is None else DocumentRecord(*row)

    def documents(self) -> list[DocumentRecord]:
        rows = self._db.execute(f"SELECT {_COLUMNS} FROM documents ORDER BY document").fetchall()
        return [DocumentRecord(*row) for row in rows]

    def live_versions(self) -> dict[str, str]:
        return dict(self._db.execute("SELECT document, version FROM documents").fetchall())

    def structure(self, document: str) -> list[StructureNode]:
        rows = self._db.execute(
            "SELECT kind, label, level, char_start, char_end, page FROM structure WHERE document = ? "
            "ORDER BY char_start, level",
            (document,),
        ).fetchall()
        return [StructureNode(*row) for row in rows]

    def structure_nodes(self) -> list[tuple[str, str, str, int, int, int]]:
        """Every live structure node: (document, version, label, level, char_start, char_end)."""
        rows = self._db.execute(
            "SELECT s.document, d.version, s.label, s.level, s.char_start, s.char_end "
            "FROM structure s JOIN documents d ON d.document = s.document"
        ).fetchall()
        return [tuple(row) for row in rows]

    def begin_version(self, document: str, version: str) -> None:
        """Record the intent to write rows of `version`, before any is written."""
        self._db.execute(
            "INSERT INTO pending (document, version, started) VALUES (?, ?, ?)",
            (document, version, time.time()),
        )

    def commit_version(self, record: DocumentRecord, structure: Sequence[StructureNode]) -> str | None:
        """Make `record.version` the live version of its document; return the version it replaced."""
        with self._transaction():
            previous = self._db.execute(
                "SELECT version FROM documents WHERE document = ?", (record.document,)
            ).fetchone()
            placeholders = ", ".join("?" * 13)
            self._db.execute(
                f"INSERT OR REPLACE INTO documents ({_COLUMNS}) VALUES ({placeholders})",
                dataclasses.astuple(record),
            )
            self._db.execute("DELETE FROM structure WHERE document = ?", (record.document,))
            self._db.executemany(
                "INSERT INTO structure VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(record.document, n.kind, n.label, n.level, n.start, n.end, n.page) for n in structure],
            )
            self._db.execute("DELETE FROM pending WHERE version = ?", (record.version,))
            if previous is not None and previous[0] != record.version:
                self._db.execute(
                    "INSERT OR IGNORE INTO garbage VALUES (?, ?)", (record.document, previous[0])
                )
        return None if previous is None else str(previous[0])

    def remove_document(self, document: str) -> str | None:
        """Drop the document from the manifest; its rows become garbage. Returns its version."""
        with self._transaction():
            row = self._db.execute("SELECT version FROM documents WHERE document = ?", (document,)).fetchone()
            if row is None:
                return None
            self._db.execute("DELETE FROM documents WHERE document = ?", (document,))
            self._db.execute("DELETE FROM structure WHERE document = ?", (document,))
            self._db.execute("INSERT OR IGNORE INTO garbage VALUES (?, ?)", (document, row[0]))
        return str(row[0])

    def set_authority(self, document: str, authority: int) -> bool:
        cursor = self._db.execute(
            "UPDATE documents SET authority = ? WHERE document = ?", (authority, document)
        )
        return cursor.rowcount > 0

    def pending(self) -> list[tuple[str, str]]:
        return [(str(d), str(v)) for d, v in self._db.execute("SELECT document, version FROM pending")]

    def garbage(self) -> list[tuple[str, str]]:
        return [(str(d), str(v)) for d, v in self._db.execute("SELECT document, version FROM garbage")]

    def forget(self, versions: Iterable[str]) -> None:
        """The rows of these versions are gone from every index: drop them from the intent log."""
        with self._transaction():
            for version in versions:
                self._db.execute("DELETE FROM pending WHERE version = ?", (version,))
                self._db.execute("DELETE FROM garbage WHERE version = ?", (version,))

    def referenced_blobs(self) -> set[str]:
        rows = self._db.execute("SELECT sha256, text_sha256 FROM documents").fetchall()
        return {digest for row in rows for digest in row}

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, *_: object) -> None:
        self._db.execute("COMMIT" if kind is None else "ROLLBACK")
