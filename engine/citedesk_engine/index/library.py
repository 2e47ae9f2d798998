"""A library folder: manifest, blobs, vectors and lexical index, kept consistent across crashes.

Layout of `library_dir`:
  library.sqlite   manifest (the commit point), structure index, intent log, conversations, and
                   the entity graph (graph/store.py)
  blobs/           raw source bytes and extracted text, content-addressed
  vectors/         LanceDB table `units`
  lexical/         tantivy index
  lock             held by the process that has the library open
"""

from __future__ import annotations

import logging
import os
import shutil
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..errors import ConfigError, DocumentNotFound, LibraryError
from ..graph.store import GraphStore
from ..types import DocumentMeta, DocumentRecord, Drift, DriftKind, EvidenceUnit, StructureNode
from .blobs import BlobStore, sha256_hex
from .conversations import Conversations
from .lexical import LexicalIndex
from .lock import LibraryLock
from .manifest import Manifest
from .vectors import AnnPolicy, VectorStore

log = logging.getLogger(__name__)

_VECTORS_NEXT = "vectors.next"
_VECTORS_OLD = "vectors.old"
_SIGNATURE = "EMBEDDER"  # inside a complete vector folder built for a new embedder: its signature
_PENDING = "EMBEDDER.PENDING"  # inside vectors.next while it is being built: the new embedder's signature


@dataclass(frozen=True, slots=True)
class NewVersion:
    """Everything a document version consists of, ready to be written and committed."""

    record: DocumentRecord
    units: Sequence[EvidenceUnit]
    vectors: npt.NDArray[np.float32]
    structure: Sequence[StructureNode]
    warnings: Sequence[str] = ()
    meta: DocumentMeta = DocumentMeta()  # as the file states it


DATABASE = "library.sqlite"  # a library folder's SQLite file: manifest, conversations, graph


class Library:
    def __init__(self, folder: Path, vector_policy: AnnPolicy | None = None) -> None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise LibraryError(f"Cannot create the library folder {folder}: {exc.strerror}") from exc
        self.folder = folder
        self._languages: frozenset[str] | None = None  # of the committed documents, until one changes
        self._vector_policy = vector_policy or AnnPolicy()
        self._lock = LibraryLock(folder / "lock")
        try:
            self.manifest = Manifest(folder / DATABASE)
            self.blobs = BlobStore(folder / "blobs")
            self._finish_vector_swap()
            self.vectors = VectorStore(folder / "vectors", self._vector_policy)
            self.lexical = LexicalIndex(folder / "lexical")
            self.conversations = Conversations(folder / DATABASE)
            self.graph = GraphStore(folder / DATABASE)
            self.recover()
            if self.lexical.needs_rebuild:
                self._rebuild_lexical()
        except Exception:
            self._lock.release()
            raise

    def close(self) -> None:
        self.conversations.close()
        self.graph.close()
        self.lexical.close()
        self.manifest.close()
        self._lock.release()

    def recover(self) -> None:
        """Roll back versions a crash left half-written, remove replaced ones, drop orphan blobs."""
        pending = self.manifest.pending()
        garbage = self.manifest.garbage()
        stale = [version for _, version in pending + garbage]
        if stale:
            log.info("recovering library: %d unfinished, %d replaced versions", len(pending), len(garbage))
            self._delete_rows(stale)
            self.manifest.forget(stale)
        if pending:
            self.blobs.keep_only(self.manifest.referenced_blobs())

    def languages(self) -> frozenset[str]:
        """The languages of the committed documents (ISO 639-1 codes, "und" for undetermined)."""
        if self._languages is None:
            self._languages = frozenset(self.manifest.per_document("language").values())
        return self._languages

    def _rebuild_lexical(self) -> None:
        started = time.perf_counter()
        records = self.manifest.documents()
        added = self.lexical.rebuild((self.manifest.units_of(r.document), r.language) for r in records)
        took = time.perf_counter() - started
        log.info("full-text index built again: %d units of %d documents in %.1fs", added, len(records), took)

    def write_version(self, new: NewVersion) -> tuple[float, float]:
        """Write the rows of a new version and commit it; the previous version's rows are removed.

        Until the manifest commit the new rows are pending (rolled back by `recover` after a crash);
        after it the old rows are garbage (removed here, or by `recover` if we crash first).
        Returns the seconds spent writing index rows and committing (with the clean-up).
        """
        started = time.perf_counter()
        self.manifest.begin_version(new.record.document, new.record.version)
        try:
            self.vectors.add(new.units, new.vectors)
            self.lexical.add(new.units, new.record.language)
        except BaseException:
            self.abandon_version(new.record.version)
            raise
        written = time.perf_counter()
        self._languages = None
        previous = self.manifest.commit_version(new.record, new.structure, new.units, new.warnings, new.meta)
        if previous is not None:
            self._delete_rows([previous])
            self.manifest.forget([previous])
            self.blobs.keep_only(self.manifest.referenced_blobs())
        return written - started, time.perf_counter() - written

    def vectors_in_progress(self, signature: str) -> VectorStore:
        """The vector table being built beside the current one for a new embedder (`signature`): the one
        an earlier re-embedding with the same embedder left (cancelled, the app closed or crashed), to
        go on with, else a new one. The current vectors stay in use until `install_vectors`."""
        building = self.folder / _VECTORS_NEXT
        pending = building / _PENDING
        resumable = pending.exists() and pending.read_text(encoding="utf-8") == signature
        if building.exists() and not resumable:
            shutil.rmtree(building)
        building.mkdir(exist_ok=True)
        if not resumable:
            _write_atomically(pending, signature)
        return VectorStore(building, self._vector_policy)

    def install_vectors(self, store: VectorStore, signature: str) -> None:
        """Swap in the complete table `vectors_in_progress` gave: marked complete with the embedder's
        signature, then renamed into place. A crash at any point leaves either the old vectors with the
        old signature or the new ones with the new signature."""
        store.compact()
        building = self.folder / _VECTORS_NEXT
        _write_atomically(building / _SIGNATURE, signature)  # the completion mark
        (building / _PENDING).unlink(missing_ok=True)
        current = self.folder / "vectors"
        if current.exists():
            os.replace(current, self.folder / _VECTORS_OLD)
        os.replace(building, current)
        self._finish_vector_swap()
        self.vectors = VectorStore(current, self._vector_policy)

    def _finish_vector_swap(self) -> None:
        """Complete or roll back a vector swap a crash interrupted (see install_vectors); a table still
        being built (pending) is kept for its re-embedding to go on."""
        current, building = self.folder / "vectors", self.folder / _VECTORS_NEXT
        if building.exists():
            if (building / _SIGNATURE).exists() and not current.exists():
                os.replace(building, current)
            elif not (building / _PENDING).exists():
                shutil.rmtree(building)
        shutil.rmtree(self.folder / _VECTORS_OLD, ignore_errors=True)
        marked = current / _SIGNATURE
        if marked.exists():
            self.manifest.set_meta("embedder", marked.read_text(encoding="utf-8"))

    def abandon_version(self, version: str) -> None:
        """Remove whatever was written of a version that will not be committed (cancel, error)."""
        self._delete_rows([version])
        self.manifest.forget([version])

    def delete(self, document: str) -> DocumentRecord:
        record = self.manifest.document(document)
        if record is None:
            raise DocumentNotFound(f"{document} is not in the library.")
        self.manifest.remove_document(document)
        self._languages = None
        self._delete_rows([record.version])
        self.manifest.forget([record.version])
        self.blobs.keep_only(self.manifest.referenced_blobs())
        return record

    def units(self, document: str) -> list[EvidenceUnit]:
        record = self.manifest.document(document)
        if record is None:
            raise DocumentNotFound(f"{document} is not in the library.")
        return self.manifest.units_of(record.document)

    def describe(
        self, document: str, title: str | None, authors: Sequence[str] | None, year: int | None
    ) -> DocumentMeta:
        """Write a document's title, authors or year (None: keep what is known; "", [] or 0: clear it)."""
        known = self.manifest.metadata().get(document, DocumentMeta())
        if year is not None and year != 0 and not 1000 <= year <= 2200:
            raise ConfigError(f"{year} is not a year: write it with four digits, such as 2014.")
        meta = DocumentMeta(
            title=" ".join(title.split()) if title is not None else known.title,
            authors=tuple(a.strip() for a in authors if a.strip()) if authors is not None else known.authors,
            year=(year or None) if year is not None else known.year,
            source="you",
        )
        self.manifest.set_metadata(document, meta)
        return meta

    def documents_under(self, folder: Path) -> list[str]:
        """The documents whose source file lies under `folder` (a question asked in a folder)."""
        root = folder.resolve()
        return [
            d.document
            for d in self.manifest.documents()
            if Path(d.source_path).resolve().is_relative_to(root)
        ]

    def text(self, document: str) -> str:
        record = self.manifest.document(document)
        if record is None:
            raise DocumentNotFound(f"{document} is not in the library.")
        return self.blobs.get(record.text_sha256).decode("utf-8")

    def reconcile(self) -> list[Drift]:
        """Library documents whose source file is missing or no longer what was ingested."""
        drift: list[Drift] = []
        for record in self.manifest.documents():
            path = Path(record.source_path)
            try:
                info = path.stat()
            except OSError:
                drift.append(Drift(record.document, DriftKind.MISSING, "the source file is missing"))
                continue
            if info.st_size == record.size and info.st_mtime == record.mtime:
                continue
            try:
                changed = sha256_hex(path.read_bytes()) != record.sha256
            except OSError as exc:
                drift.append(Drift(record.document, DriftKind.MISSING, f"cannot read it: {exc.strerror}"))
                continue
            if changed:
                drift.append(
                    Drift(record.document, DriftKind.CHANGED, "the file changed since it was ingested")
                )
        return drift

    def size_bytes(self) -> int:
        """The library folder's size on disk. Its files come and go while it is summed (the full-text
        index merges its segments in the background and deletes the old ones): one that went counts
        nothing, rather than raising FileNotFoundError out of the status bar's update."""
        total = 0
        for root, _folders, files in os.walk(self.folder):  # a folder that went is passed over
            for name in files:
                try:
                    total += os.stat(os.path.join(root, name)).st_size
                except FileNotFoundError:
                    continue
        return total

    def _delete_rows(self, versions: Sequence[str]) -> None:
        started = time.perf_counter()
        for version in versions:
            self.vectors.delete_version(version)
        self.lexical.delete_versions(versions)
        self.graph.delete_versions(versions)
        log.debug("deleted rows of %d versions in %.3fs", len(versions), time.perf_counter() - started)

    @staticmethod
    def embedder_signature(name: str, dimension: int) -> str:
        return f"{name}:{dimension}"

    def stored_embedder(self) -> str | None:
        """The name of the embedder whose vectors the library holds (None before the first ingest)."""
        stored = self.manifest.get_meta("embedder")
        return None if stored is None else stored.rsplit(":", 1)[0]

    def check_embedder(self, name: str, dimension: int) -> None:
        """A library holds vectors of one model only: mixing two would make distances meaningless."""
        stored = self.manifest.get_meta("embedder")
        signature = self.embedder_signature(name, dimension)
        if stored is None:
            self.manifest.set_meta("embedder", signature)
        elif stored != signature:
            raise LibraryError(
                f"This library was indexed with the embedder {stored}, not {signature}. "
                "Re-index it with the new embedder (Settings in the app, or `citedesk reembed`) or switch "
                "the embedder back."
            )


def _write_atomically(path: Path, text: str) -> None:
    partial = path.with_name(path.name + ".part")
    partial.write_text(text, encoding="utf-8")
    os.replace(partial, path)
