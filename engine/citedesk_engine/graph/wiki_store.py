"""The library wiki's pages in the library's SQLite file (the graph store's connection).

`wiki_pages` holds a page per subject ("entity:<node>", "topic:<label>") as JSON with the fingerprint
of what it was written from (graph/wiki.py); `wiki_versions` the document versions of its source
passages, so removing or changing a document removes every page written from it in the same
transaction as its mentions; `wiki_sentences` each kept sentence's cited units and its embedding, for
the wiki retriever.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..index.manifest import Transaction

SCHEMA = """
CREATE TABLE IF NOT EXISTS wiki_pages (
    subject TEXT PRIMARY KEY, title TEXT NOT NULL, fingerprint TEXT NOT NULL, page TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS wiki_versions (subject TEXT NOT NULL, version TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS wiki_versions_version ON wiki_versions (version);
CREATE INDEX IF NOT EXISTS wiki_versions_subject ON wiki_versions (subject);
CREATE TABLE IF NOT EXISTS wiki_sentences (
    subject TEXT NOT NULL, position INTEGER NOT NULL, units TEXT NOT NULL, embedder TEXT NOT NULL,
    vector BLOB NOT NULL, PRIMARY KEY (subject, position)
);
"""


Sentence = tuple[str, tuple[str, ...]]  # a page's subject and the units one of its sentences cites


@dataclass(frozen=True, slots=True)
class StoredPage:
    subject: str
    title: str
    fingerprint: str
    page: dict[str, object]  # graph/wiki.py reads it back


class WikiStore:
    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db
        self._db.executescript(SCHEMA)
        self._vectors: dict[str, tuple[list[Sentence], npt.NDArray[np.float32]]] = {}

    def get(self, subject: str) -> StoredPage | None:
        row = self._db.execute(
            "SELECT subject, title, fingerprint, page FROM wiki_pages WHERE subject = ?", (subject,)
        ).fetchone()
        return StoredPage(row[0], row[1], row[2], json.loads(row[3])) if row else None

    def put(
        self,
        stored: StoredPage,
        versions: Iterable[str],
        sentences: Sequence[tuple[str, ...]],
        embedder: str,
        vectors: npt.NDArray[np.float32],
    ) -> None:
        """A page (replacing the subject's earlier one), the versions it was written from, and the
        cited units and embedding of each of its sentences, in one transaction."""
        with Transaction(self._db):
            self._remove([stored.subject])
            self._db.execute(
                "INSERT INTO wiki_pages VALUES (?, ?, ?, ?)",
                (stored.subject, stored.title, stored.fingerprint, json.dumps(stored.page)),
            )
            self._db.executemany(
                "INSERT INTO wiki_versions VALUES (?, ?)", ((stored.subject, v) for v in set(versions))
            )
            self._db.executemany(
                "INSERT INTO wiki_sentences VALUES (?, ?, ?, ?, ?)",
                (
                    (stored.subject, i, " ".join(units), embedder, vectors[i].astype(np.float32).tobytes())
                    for i, units in enumerate(sentences)
                ),
            )
        self._vectors.clear()

    def delete_versions(self, versions: Sequence[str]) -> None:
        """Every page written from one of these versions (inside the caller's transaction)."""
        subjects: set[str] = set()
        for version in versions:
            rows = self._db.execute("SELECT subject FROM wiki_versions WHERE version = ?", (version,))
            subjects |= {subject for (subject,) in rows}
        self._remove(sorted(subjects))
        self._vectors.clear()

    def _remove(self, subjects: Sequence[str]) -> None:
        for subject in subjects:
            for table in ("wiki_pages", "wiki_versions", "wiki_sentences"):
                self._db.execute(f"DELETE FROM {table} WHERE subject = ?", (subject,))

    def subjects(self) -> list[str]:
        return [s for (s,) in self._db.execute("SELECT subject FROM wiki_pages ORDER BY subject")]

    def count(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM wiki_pages").fetchone()[0])

    def sentence_vectors(self, embedder: str) -> tuple[list[Sentence], npt.NDArray[np.float32]]:
        """(subject, cited units) of every sentence embedded by `embedder`, and their embeddings as
        one matrix (cached until a page changes). Pages written with another embedder are left out
        until they are written again."""
        if embedder not in self._vectors:
            rows = self._db.execute(
                "SELECT subject, units, vector FROM wiki_sentences WHERE embedder = ? "
                "ORDER BY subject, position",
                (embedder,),
            ).fetchall()
            found = [(subject, tuple(units.split())) for subject, units, _ in rows]
            matrix = (
                np.vstack([np.frombuffer(blob, dtype=np.float32) for _, _, blob in rows])
                if rows
                else np.zeros((0, 0), dtype=np.float32)
            )
            self._vectors = {embedder: (found, matrix)}
        return self._vectors[embedder]
