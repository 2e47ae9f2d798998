"""The library manifest in SQLite: committed documents, their structure, and the ingest intent log.

The manifest is the commit point. Rows in the vector and lexical indexes belong to a (document,
version) pair; a version is live only once its manifest row is committed. Before rows of a new
version are written it is recorded as `pending`; the commit swaps the document to it and records the
old version as `garbage`, in one transaction. On open, pending versions are rolled back and garbage is
removed, so a crash at any moment leaves only whole documents.

It also holds the live units (passages and where they are) for fast lookup by id: they change in
the same transaction as the document row, so they can never be stale.
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ..types import Box, Claim, DocumentMeta, DocumentRecord, EvidenceUnit, SourceRef, StructureNode
from .table_keys import KEYS_VERSION, row_keys
from .watch_store import WatchStore

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
CREATE TABLE IF NOT EXISTS units (
    unit_id TEXT PRIMARY KEY, document TEXT NOT NULL, version TEXT NOT NULL, ordinal INTEGER NOT NULL,
    passage TEXT NOT NULL, context TEXT NOT NULL, section TEXT NOT NULL, char_start INTEGER NOT NULL,
    char_end INTEGER NOT NULL, page INTEGER, boxes TEXT NOT NULL, scripts TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS units_document ON units (document, char_start);
CREATE TABLE IF NOT EXISTS warnings (document TEXT NOT NULL, warning TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS warnings_document ON warnings (document);
CREATE TABLE IF NOT EXISTS pending (document TEXT NOT NULL, version TEXT PRIMARY KEY, started REAL);
CREATE TABLE IF NOT EXISTS garbage (document TEXT NOT NULL, version TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS metadata (
    document TEXT PRIMARY KEY, title TEXT NOT NULL, authors TEXT NOT NULL, year INTEGER, source TEXT NOT NULL
);
"""
# The words of every structure label (headings, slides, sheets, symbols), kept in step with the structure
# table by triggers: a question finds the labels that share a word with it without reading them all
# (300,000 labels of 10,000 papers took seconds a question). `_` is a word character, as in `\w`.
_LABEL_WORDS = """
CREATE VIRTUAL TABLE structure_words USING fts5(
    label, content='structure', content_rowid='rowid', tokenize="unicode61 remove_diacritics 0 tokenchars '_'"
);
CREATE TRIGGER structure_words_insert AFTER INSERT ON structure BEGIN
    INSERT INTO structure_words (rowid, label) VALUES (new.rowid, new.label);
END;
CREATE TRIGGER structure_words_delete AFTER DELETE ON structure BEGIN
    INSERT INTO structure_words (structure_words, rowid, label) VALUES ('delete', old.rowid, old.label);
END;
INSERT INTO structure_words (structure_words) VALUES ('rebuild');
"""
# The first cell of every row of every table unit (table_keys.py), for the table row retriever; kept
# with the units in the same transactions. A library made before it is filled once, from its units.
_ROW_KEYS = (
    "CREATE TABLE row_keys (key TEXT NOT NULL, unit_id TEXT NOT NULL, document TEXT NOT NULL)",
    "CREATE INDEX row_keys_key ON row_keys (key)",
    "CREATE INDEX row_keys_document ON row_keys (document)",
)
_PER_DOCUMENT = ("source_path", "authority", "language")
_COLUMNS = (
    "document, source_path, sha256, version, size, mtime, kind, units, pages, language, authority, "
    "ingested_at, text_sha256"
)

_UNIT_COLUMNS = (
    "unit_id, document, version, ordinal, passage, context, section, char_start, char_end, page, boxes, "
    "scripts"
)


def _unit_row(unit: EvidenceUnit) -> tuple[object, ...]:
    boxes = json.dumps([b.as_row() for b in unit.boxes])
    return (
        unit.unit_id,
        unit.document,
        unit.version,
        unit.ordinal,
        unit.passage,
        unit.context,
        unit.section,
        unit.char_start,
        unit.char_end,
        unit.page,
        boxes,
        ",".join(unit.scripts),
    )


def _unit(row: tuple) -> EvidenceUnit:  # type: ignore[type-arg]
    uid, document, version, ordinal, passage, context, section, start, end, page, boxes, scripts = row
    return EvidenceUnit(
        unit_id=uid,
        document=document,
        version=version,
        ordinal=ordinal,
        passage=passage,
        char_start=start,
        char_end=end,
        page=page,
        boxes=tuple(Box(int(b[0]), *b[1:]) for b in json.loads(boxes)),
        section=section,
        context=context,
        scripts=tuple(x for x in scripts.split(",") if x),
    )


def _key_rows(units: Iterable[EvidenceUnit]) -> Iterator[tuple[str, str, str]]:
    for unit in units:
        for key in row_keys(unit):
            yield key, unit.unit_id, unit.document


class Manifest:
    def __init__(self, path: Path) -> None:
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)
        known = self._db.execute("SELECT 1 FROM sqlite_master WHERE name = 'structure_words'").fetchone()
        if not known:  # a new library, or one made before the label index: built from the labels it has
            self._db.executescript(f"BEGIN; {_LABEL_WORDS} COMMIT;")
        keyed = self._db.execute("SELECT 1 FROM sqlite_master WHERE name = 'row_keys'").fetchone()
        if not keyed or self.get_meta("row_keys_version") != KEYS_VERSION:
            # A new library, one made before the row keys, or one whose keys were made another way
            # (before dates were keyed as dates): made from its table units.
            with self._transaction():
                if keyed:  # only units with keys get keys: version 2 rewrites dates, it makes none anew
                    tables = self._db.execute(
                        f"SELECT {_UNIT_COLUMNS} FROM units WHERE unit_id IN (SELECT unit_id FROM row_keys)"
                    ).fetchall()
                    self._db.execute("DELETE FROM row_keys")
                else:
                    for statement in _ROW_KEYS:
                        self._db.execute(statement)
                    tables = self._db.execute(
                        f"SELECT {_UNIT_COLUMNS} FROM units WHERE context != ''"
                    ).fetchall()
                self._db.executemany("INSERT INTO row_keys VALUES (?, ?, ?)", _key_rows(map(_unit, tables)))
                self.set_meta("row_keys_version", KEYS_VERSION)
        self.watch = WatchStore(self._db)  # watched folders and their queue of changes (watch.py)

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

    def warnings(self) -> dict[str, tuple[str, ...]]:
        """Per document with any: what its reader should know about its text (hidden text, text
        addressed to an AI), in the order ingest found them."""
        out: dict[str, list[str]] = {}
        for document, warning in self._db.execute("SELECT document, warning FROM warnings ORDER BY rowid"):
            out.setdefault(document, []).append(warning)
        return {document: tuple(found) for document, found in out.items()}

    def per_document(self, column: str) -> dict[str, Any]:
        """One column of every document (source_path, authority or language), by document: a few
        milliseconds for 10,000 documents, where reading their whole records takes tens."""
        if column not in _PER_DOCUMENT:
            raise ValueError(f"not a per-document column: {column}")
        return dict(self._db.execute(f"SELECT document, {column} FROM documents").fetchall())

    def live_versions(self) -> dict[str, str]:
        return dict(self._db.execute("SELECT document, version FROM documents").fetchall())

    def structure(self, document: str) -> list[StructureNode]:
        rows = self._db.execute(
            "SELECT kind, label, level, char_start, char_end, page FROM structure WHERE document = ? "
            "ORDER BY char_start, level",
            (document,),
        ).fetchall()
        return [StructureNode(*row) for row in rows]

    def described(self, sources: Sequence[SourceRef], claims: Sequence[Claim] = ()) -> tuple[SourceRef, ...]:
        """Each passage with its document's title, authors and year, and the heading it stands under:
        that of the first sentence the claims stand on in it, else of its start. A passage opening
        with the last sentence of one section and going on into the next was shown under the first
        section's heading for an answer taken from the second (a window session on lmtest's
        vignette: "158 fetuses" under "U.S. macroeconomic data", not "The mandible data")."""
        known = self.metadata()
        standing: dict[str, int] = {}
        for claim in claims:
            for unit_id, start, _ in claim.evidence:
                standing[unit_id] = min(start, standing.get(unit_id, start))
        return tuple(
            dataclasses.replace(
                s,
                about=known.get(s.document, s.about),
                heading=self.heading_at(s.document, standing.get(s.unit_id, s.char_start)),
            )
            for s in sources
        )

    def heading_at(self, document: str, offset: int) -> str:
        """The innermost heading of a document's outline whose text holds this character offset ("" when
        none does: a document without headings, or text before the first)."""
        row = self._db.execute(
            "SELECT label FROM structure WHERE document = ? AND kind = 'heading' AND char_start <= ? "
            "AND ? < char_end ORDER BY level DESC, char_start DESC LIMIT 1",
            (document, offset, offset),
        ).fetchone()
        return str(row[0]) if row else ""

    def structure_labels(self, words: Iterable[str]) -> list[tuple[int, str]]:
        """The live structure labels that hold any of these words (lower case): (row id, label)."""
        wanted = sorted({w for w in words if w})
        if not wanted:
            return []
        match = " OR ".join('"' + w.replace('"', '""') + '"' for w in wanted)
        rows = self._db.execute(
            "SELECT rowid, label FROM structure_words WHERE structure_words MATCH ?", (match,)
        )
        return [(int(rowid), str(label)) for rowid, label in rows]

    def structure_spans(self, rowids: Iterable[int]) -> dict[int, tuple[str, str, int, int, int]]:
        """Where these structure nodes are: row id -> (document, version, level, char_start, char_end)."""
        found: dict[int, tuple[str, str, int, int, int]] = {}
        ids = sorted(set(rowids))
        for start in range(0, len(ids), 500):  # SQLite's limit on bound parameters
            chunk = ids[start : start + 500]
            marks = ", ".join("?" * len(chunk))
            rows = self._db.execute(
                "SELECT s.rowid, s.document, d.version, s.level, s.char_start, s.char_end FROM structure s "
                f"JOIN documents d ON d.document = s.document WHERE s.rowid IN ({marks})",
                chunk,
            )
            found.update((int(row[0]), tuple(row[1:])) for row in rows)
        return found

    def begin_version(self, document: str, version: str) -> None:
        """Record the intent to write rows of `version`, before any is written."""
        self._db.execute(
            "INSERT INTO pending (document, version, started) VALUES (?, ?, ?)",
            (document, version, time.time()),
        )

    def commit_version(
        self,
        record: DocumentRecord,
        structure: Sequence[StructureNode],
        units: Sequence[EvidenceUnit] = (),
        warnings: Sequence[str] = (),
        meta: DocumentMeta | None = None,
    ) -> str | None:
        """Make `record.version` the live version of its document; return the version it replaced.
        `meta` (as the file states it) replaces what was known, unless the user wrote it."""
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
            self._db.execute("DELETE FROM units WHERE document = ?", (record.document,))
            self._db.executemany(
                f"INSERT INTO units ({_UNIT_COLUMNS}) VALUES ({', '.join('?' * 12)})", map(_unit_row, units)
            )
            self._db.execute("DELETE FROM row_keys WHERE document = ?", (record.document,))
            self._db.executemany("INSERT INTO row_keys VALUES (?, ?, ?)", _key_rows(units))
            self._db.execute("DELETE FROM warnings WHERE document = ?", (record.document,))
            self._db.executemany(
                "INSERT INTO warnings VALUES (?, ?)", [(record.document, w) for w in warnings]
            )
            edited = self._db.execute(
                "SELECT 1 FROM metadata WHERE document = ? AND source = 'you'", (record.document,)
            ).fetchone()
            if not edited:
                self._write_meta(record.document, meta or DocumentMeta())
            self._db.execute("DELETE FROM pending WHERE version = ?", (record.version,))
            if previous is not None and previous[0] != record.version:
                self._db.execute(
                    "INSERT OR IGNORE INTO garbage VALUES (?, ?)", (record.document, previous[0])
                )
        return None if previous is None else str(previous[0])

    def set_mtime(self, document: str, mtime: float) -> None:
        """The modification time of a document's file whose bytes were found unchanged."""
        self._db.execute("UPDATE documents SET mtime = ? WHERE document = ?", (mtime, document))

    def remove_document(self, document: str) -> str | None:
        """Drop the document from the manifest; its rows become garbage. Returns its version."""
        with self._transaction():
            row = self._db.execute("SELECT version FROM documents WHERE document = ?", (document,)).fetchone()
            if row is None:
                return None
            self._db.execute("DELETE FROM documents WHERE document = ?", (document,))
            self._db.execute("DELETE FROM structure WHERE document = ?", (document,))
            self._db.execute("DELETE FROM units WHERE document = ?", (document,))
            self._db.execute("DELETE FROM row_keys WHERE document = ?", (document,))
            self._db.execute("DELETE FROM warnings WHERE document = ?", (document,))
            self._db.execute("DELETE FROM metadata WHERE document = ?", (document,))
            self._db.execute("INSERT OR IGNORE INTO garbage VALUES (?, ?)", (document, row[0]))
        return str(row[0])

    def metadata(self) -> dict[str, DocumentMeta]:
        """Each document's title, authors and year, where known."""
        rows = self._db.execute("SELECT document, title, authors, year, source FROM metadata").fetchall()
        return {
            document: DocumentMeta(title, tuple(json.loads(authors)), year, source)
            for document, title, authors, year, source in rows
        }

    def set_metadata(self, document: str, meta: DocumentMeta) -> None:
        """The user's title, authors and year for a document: kept when its file is read again."""
        with self._transaction():
            self._write_meta(document, meta)

    def _write_meta(self, document: str, meta: DocumentMeta) -> None:
        self._db.execute("DELETE FROM metadata WHERE document = ?", (document,))
        if meta.title or meta.authors or meta.year or meta.source == "you":
            self._db.execute(
                "INSERT INTO metadata VALUES (?, ?, ?, ?, ?)",
                (document, meta.title, json.dumps(list(meta.authors)), meta.year, meta.source),
            )

    def units_by_id(self, unit_ids: Sequence[str]) -> dict[str, EvidenceUnit]:
        found: dict[str, EvidenceUnit] = {}
        ids = list(unit_ids)
        for start in range(0, len(ids), 500):  # SQLite's limit on bound parameters
            chunk = ids[start : start + 500]
            rows = self._db.execute(
                f"SELECT {_UNIT_COLUMNS} FROM units WHERE unit_id IN ({', '.join('?' * len(chunk))})", chunk
            ).fetchall()
            found.update((row[0], _unit(row)) for row in rows)
        return found

    def units_with_row_keys(self, keys: Iterable[str]) -> dict[str, set[str]]:
        """{unit_id: the keys it holds a row of} for the live table units with a row keyed by one of
        `keys` (table_keys.normal_key)."""
        wanted = list(set(keys))
        found: dict[str, set[str]] = {}
        for start in range(0, len(wanted), 500):  # SQLite's limit on bound parameters
            chunk = wanted[start : start + 500]
            rows = self._db.execute(
                f"SELECT unit_id, key FROM row_keys WHERE key IN ({', '.join('?' * len(chunk))})", chunk
            )
            for unit_id, key in rows:
                found.setdefault(unit_id, set()).add(key)
        return found

    def table_ends(self, sections: Iterable[str]) -> list[tuple[str, str]]:
        """(first unit_id, last unit_id) of each table of the live documents whose section (a sheet's
        name, a CSV file's name), lower-cased, is one of `sections`."""
        wanted = list(set(sections))[:500]  # SQLite's limit on bound parameters
        if not wanted:
            return []
        rows = self._db.execute(
            "SELECT u.document, u.section, u.unit_id FROM units u JOIN documents d "
            "ON d.document = u.document AND d.version = u.version "
            f"WHERE u.context != '' AND lower(u.section) IN ({', '.join('?' * len(wanted))}) "
            "ORDER BY u.document, u.section, u.ordinal",
            wanted,
        )
        tables: dict[tuple[str, str], list[str]] = {}
        for document, section, unit_id in rows:
            tables.setdefault((document, section), []).append(unit_id)
        return [(units[0], units[-1]) for units in tables.values()]

    def units_of(self, document: str, first: int = -1) -> list[EvidenceUnit]:
        """A document's units in reading order; with `first`, only that many of its opening ones."""
        rows = self._db.execute(
            f"SELECT {_UNIT_COLUMNS} FROM units WHERE document = ? ORDER BY ordinal LIMIT ?",
            (document, first),
        ).fetchall()
        return [_unit(row) for row in rows]

    def units_in_span(self, document: str, start: int, end: int) -> list[EvidenceUnit]:
        """The live units of a document that overlap text[start:end], in reading order."""
        rows = self._db.execute(
            f"SELECT {_UNIT_COLUMNS} FROM units WHERE document = ? AND char_start < ? AND char_end > ? "
            "ORDER BY ordinal",
            (document, end, start),
        ).fetchall()
        return [_unit(row) for row in rows]

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

    def _transaction(self) -> Transaction:
        return Transaction(self._db)


class Transaction:
    """`with Transaction(db):` runs the block in one immediate transaction, rolled back on an error."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, *_: object) -> None:
        self._db.execute("COMMIT" if kind is None else "ROLLBACK")
