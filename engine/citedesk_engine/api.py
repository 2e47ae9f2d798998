"""The Engine facade: the one object the CLI and the desktop talk to. Synchronous and Qt-free."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType

from .config import Config, cache_dir, default_library_dir, load_config
from .errors import DocumentNotFound
from .events import EventCallback
from .index.blobs import sha256_hex
from .index.library import Library
from .ingest.pipeline import IngestPipeline, document_id
from .models.embedder import SentenceTransformerEmbedder
from .models.registry import ModelRegistry
from .protocols import Embedder
from .types import (
    DocumentRecord,
    Drift,
    DriftKind,
    EvidenceUnit,
    IngestReport,
    LibraryStatus,
    ModelInfo,
    StructureNode,
)

PACKAGED_EMBEDDER_NAME = "all-MiniLM-L6-v2"


class Engine:
    """Open with `Engine.open(...)`; close (or use as a context manager) to release the library."""

    def __init__(self, library: Library, config: Config, registry: ModelRegistry, embedder: Embedder | None):
        self.library = library
        self.config = config
        self.registry = registry
        self._embedder = embedder
        self._embedder_checked = False

    @classmethod
    def open(
        cls,
        library_dir: str | Path | None = None,
        config: Config | None = None,
        *,
        embedder: Embedder | None = None,
    ) -> Engine:
        """Open (or create) a library; models load lazily, on first use."""
        folder = Path(library_dir).expanduser() if library_dir else default_library_dir()
        config = config if config is not None else load_config(folder / "config.toml")
        registry = ModelRegistry(config.models, cache_dir())
        return cls(Library(folder), config, registry, embedder)

    def close(self) -> None:
        self.library.close()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *_: type[BaseException] | BaseException | TracebackType | None) -> None:
        self.close()

    def embedder(self) -> Embedder:
        """The embedder, loaded on first call and checked against the library's vectors."""
        if self._embedder is None:
            folder = self.registry.embedder_path()
            name = PACKAGED_EMBEDDER_NAME if self.config.models.embedder == "default" else str(folder)
            self._embedder = SentenceTransformerEmbedder(
                folder, name=name, batch_size=self.config.ingest.embed_batch
            )
        if not self._embedder_checked:
            self.library.check_embedder(self._embedder.name, self._embedder.dimension)
            self._embedder_checked = True
        return self._embedder

    def ingest(
        self,
        paths: Iterable[str | Path],
        *,
        on_event: EventCallback | None = None,
        cancel: threading.Event | None = None,
        authority: int | None = None,
    ) -> IngestReport:
        """Add or refresh files and folders (recursively); each file's outcome is in the report."""
        pipeline = IngestPipeline(self.library, self.embedder, self.config.ingest)
        return pipeline.run(paths, on_event=on_event, cancel=cancel, authority=authority)

    def delete(self, document: str | Path) -> DocumentRecord:
        """Remove every trace of a document: units, vectors, lexical rows, blobs, structure."""
        return self.library.delete(self.resolve(document))

    def resolve(self, document: str | Path) -> str:
        """A document id from an id or a path, as typed by the user."""
        if self.library.manifest.document(str(document)) is not None:
            return str(document)
        candidate = document_id(Path(document).expanduser())
        if self.library.manifest.document(candidate) is None:
            raise DocumentNotFound(f"{document} is not in the library (see `citedesk status`).")
        return candidate

    def documents(self) -> list[DocumentRecord]:
        return self.library.manifest.documents()

    def units(self, document: str) -> list[EvidenceUnit]:
        return self.library.units(self.resolve(document))

    def text(self, document: str) -> str:
        """The extracted text every unit of the document is a slice of."""
        return self.library.text(self.resolve(document))

    def structure(self, document: str) -> list[StructureNode]:
        return self.library.manifest.structure(self.resolve(document))

    def set_authority(self, document: str, authority: int) -> None:
        self.library.manifest.set_authority(self.resolve(document), authority)

    def reconcile(self) -> list[Drift]:
        """Library documents whose source file is missing or no longer what was ingested."""
        drift: list[Drift] = []
        for record in self.documents():
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

    def models(self, verify: bool = True) -> tuple[ModelInfo, ...]:
        return self.registry.describe(verify=verify)

    def status(self, verify_models: bool = False) -> LibraryStatus:
        documents = self.documents()
        return LibraryStatus(
            library_dir=str(self.library.folder),
            documents=len(documents),
            units=sum(d.units for d in documents),
            size_bytes=self.library.size_bytes(),
            models=self.models(verify=verify_models),
        )
