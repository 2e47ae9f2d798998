"""The ingest pipeline: files to committed document versions, one file at a time.

read -> sha256 manifest check -> extract (OCR of pictures and of pages without text) -> language ->
chunk -> units -> blobs -> embed (batched, cancellable) -> write rows + commit manifest. A failing
file is reported and the batch goes on; a cancel stops between files, OCR pages or embedding batches,
before anything of the current file is written.
"""

from __future__ import annotations

import logging
import os
import stat
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..config import IngestConfig
from ..errors import Cancelled, ExtractionError, LibraryError, ModelError
from ..events import Event, EventCallback, FileFinished, Progress, StageStarted, emit
from ..index.blobs import sha256_hex
from ..index.library import Library, NewVersion
from ..languages import detect_language
from ..protocols import Embedder, Recogniser
from ..types import DocumentRecord, EvidenceUnit, FileResult, FileStatus, IngestReport, StageTimes
from .chunk import chunk
from .extract import PageProgress, extract
from .extract.pdf import TextLayers
from .ocr import OcrJob
from .units import build_units

log = logging.getLogger(__name__)


def document_id(path: Path) -> str:
    """A document is its source path: absolute and normalised, symlinks not resolved."""
    return os.path.normpath(os.path.abspath(path))


def expand_paths(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Files as given, folders walked recursively in sorted order, hidden entries skipped."""
    for raw in paths:
        path = Path(raw).expanduser()
        if not path.is_dir():
            yield path
            continue
        for folder, subfolders, files in os.walk(path):
            subfolders[:] = sorted(d for d in subfolders if not d.startswith("."))
            for name in sorted(files):
                if not name.startswith("."):
                    yield Path(folder) / name


def _size(path: Path) -> int:
    try:
        return max(1, path.stat().st_size)
    except OSError:
        return 1


# The share of a file's time each stage takes of what is left of it when the stage starts; embedding
# takes the rest. A scanned page spends most of its time in OCR; a text PDF about two fifths in
# reading its pages (Debian's 261-page manual: 21 s of 53, `benchmarks/ingest.py`).
_SHARES = {"pages": 0.4, "ocr": 0.9, "embed": 1.0}


# LanceDB writes a version per document, and each version's manifest lists every fragment: 10,000 files
# read in one batch grew the vector folder to 5.1 GB before the batch's compaction (23 MB after).
# Compacted every 200 documents, a batch's folder stays small whatever its size.
COMPACT_EVERY = 200


class _Work:
    """How far a whole ingest is, in bytes of its files: finished files count whole, the file being
    embedded by the share of its passages done (embedding is most of the time), so the bar moves
    through a long document and the time left comes from measured throughput. Emitted as
    Progress("work", done, total) beside the per-file and per-passage events."""

    def __init__(self, sizes: list[int], on_event: EventCallback | None) -> None:
        self._sizes = sizes
        self._total = sum(sizes)
        self._done = 0
        self._on_event = on_event

    def within(self, index: int) -> EventCallback | None:
        """The event callback for file `index`: its page reading, OCR and embedding progress advance
        the work, each stage over its share of what is left of the file (`_SHARES`)."""
        if self._on_event is None:
            return None
        callback = self._on_event
        stage, start, span = "", 0.0, 0.0  # the stage under way and the part of the file it covers

        def forward(event: Event) -> None:
            nonlocal stage, start, span
            callback(event)
            if isinstance(event, Progress) and event.stage in _SHARES and event.total:
                if event.stage != stage:
                    stage, start = event.stage, start + span
                    span = (1.0 - start) * _SHARES[stage]
                fraction = start + span * event.done / event.total
                share = int(self._sizes[index] * fraction)
                callback(Progress("work", self._done + share, self._total, event.subject))

        return forward

    def finished(self, index: int) -> None:
        self._done += self._sizes[index]
        emit(self._on_event, Progress("work", self._done, self._total))


@dataclass
class IngestPipeline:
    library: Library
    embedder: Callable[[], Embedder]  # loaded on first use: an all-unchanged run loads no model
    config: IngestConfig
    # What the reader should know about a document's units (the Engine passes answer/asides.py's
    # `instruction_warnings`: text addressed to an AI), kept with the extractor's own warnings.
    unit_warnings: Callable[[Sequence[EvidenceUnit]], Sequence[str]] = lambda units: ()
    # The OCR recogniser, loaded on first use; None: no OCR whatever the configuration says.
    recogniser: Callable[[], Recogniser] | None = None
    # Where a PDF's text layers are read (extract/pdf_worker.py, an engine behind a window); None: here.
    pdf_layers: Callable[[bytes, int, int], TextLayers] | None = None

    def run(
        self,
        paths: Iterable[str | Path],
        *,
        on_event: EventCallback | None = None,
        cancel: threading.Event | None = None,
        authority: int | None = None,
        force: bool = False,
    ) -> IngestReport:
        """`force` reads files again even when their bytes are unchanged (Re-index: after an upgrade of
        the extractors, or to repair a document)."""
        files = list(expand_paths(paths))
        results: list[FileResult] = []
        times = StageTimes()
        emit(on_event, StageStarted("ingest", f"{len(files)} files"))
        emit(on_event, Progress("files", 0, len(files)))
        work = _Work([_size(path) for path in files], on_event)
        cancelled = False
        written = 0  # documents written since the vector table was last compacted
        for number, path in enumerate(files, start=1):
            if cancelled or (cancel is not None and cancel.is_set()):
                cancelled = True
                result = FileResult(str(path), document_id(path), FileStatus.CANCELLED, "ingest cancelled")
            else:
                try:
                    result, spent = self._one(path, work.within(number - 1), cancel, authority, force)
                except (LibraryError, ModelError):
                    raise  # not about this file: every other file would fail the same way
                except Exception as exc:  # one file's surprise must not end the batch
                    log.exception("ingest of %s failed", path)
                    reason = (
                        f"could not be indexed because of an internal error ({type(exc).__name__}: {exc})"
                    )
                    result, spent = (
                        FileResult(str(path), document_id(path), FileStatus.FAILED, reason),
                        StageTimes(),
                    )
                times = times.add(spent)
                cancelled = result.status is FileStatus.CANCELLED
            results.append(result)
            written += result.status is FileStatus.INGESTED
            if written >= COMPACT_EVERY:
                self.library.vectors.compact()
                written = 0
            emit(on_event, FileFinished(result))
            emit(on_event, Progress("files", number, len(files), str(path)))
            work.finished(number - 1)
        if written:
            self.library.vectors.compact()
        return IngestReport(tuple(results), cancelled=cancelled, times=times)

    def _one(
        self,
        path: Path,
        on_event: EventCallback | None,
        cancel: threading.Event | None,
        authority: int | None,
        force: bool = False,
    ) -> tuple[FileResult, StageTimes]:
        document = document_id(path)
        started = time.perf_counter()
        emit(on_event, StageStarted("read", str(path)))
        try:
            data, mtime = self._read(path)
        except ExtractionError as exc:
            return FileResult(str(path), document, FileStatus.FAILED, str(exc)), StageTimes()
        t_read = time.perf_counter()
        digest = sha256_hex(data)
        existing = self.library.manifest.document(document)
        if existing is not None and existing.sha256 == digest and not force:
            if existing.mtime != mtime:  # touched, not changed: a watched folder's next scan skips it
                self.library.manifest.set_mtime(document, mtime)
            result = FileResult(
                str(path),
                document,
                FileStatus.UNCHANGED,
                units=existing.units,
                pages=existing.pages,
                language=existing.language,
            )
            return result, StageTimes(read=t_read - started)
        emit(on_event, StageStarted("extract", str(path)))
        try:
            ocr = self._ocr_job(str(path), on_event, cancel)
            pages = PageProgress(
                on_pages=lambda done, total: emit(on_event, Progress("pages", done, total, str(path))),
                cancelled=lambda: cancel is not None and cancel.is_set(),
            )
            extracted = extract(data, path.suffix, self.config, ocr, self.pdf_layers, pages)
        except Cancelled:
            return FileResult(str(path), document, FileStatus.CANCELLED, "ingest cancelled"), StageTimes()
        except ExtractionError as exc:
            return FileResult(str(path), document, FileStatus.FAILED, str(exc)), StageTimes(
                read=t_read - started
            )
        t_extract = time.perf_counter()
        version = uuid.uuid4().hex[:12]
        language = detect_language(extracted.text)
        spans = chunk(
            extracted.text, extracted.segments, self.config.chunk_tokens, self.config.overlap_tokens
        )
        units = build_units(document, version, extracted.text, spans, extracted.words)
        t_chunk = time.perf_counter()
        if not units:
            reason = "no text to index was found in the file"
            return FileResult(str(path), document, FileStatus.FAILED, reason), StageTimes(
                read=t_read - started, extract=t_extract - t_read, chunk=t_chunk - t_extract
            )
        try:
            vectors = self._embed([u.index_text for u in units], str(path), on_event, cancel)
        except Cancelled:
            return FileResult(str(path), document, FileStatus.CANCELLED, "ingest cancelled"), StageTimes()
        t_embed = time.perf_counter()
        record = DocumentRecord(
            document=document,
            source_path=str(path),
            sha256=self.library.blobs.put(data),
            version=version,
            size=len(data),
            mtime=mtime,
            kind=extracted.kind,
            units=len(units),
            pages=extracted.pages,
            language=language,
            authority=authority if authority is not None else (existing.authority if existing else 0),
            ingested_at=time.time(),
            text_sha256=self.library.blobs.put(extracted.text.encode("utf-8")),
        )
        emit(on_event, StageStarted("index", str(path)))
        warnings = (*extracted.warnings, *self.unit_warnings(units))
        index_s, commit_s = self.library.write_version(
            NewVersion(record, units, vectors, extracted.structure, warnings, extracted.meta)
        )
        finished = time.perf_counter()
        result = FileResult(
            str(path),
            document,
            FileStatus.INGESTED,
            units=len(units),
            pages=extracted.pages,
            language=language,
            seconds=finished - started,
            warnings=warnings,
        )
        spent = StageTimes(
            read=t_read - started,
            extract=t_extract - t_read,
            chunk=t_chunk - t_extract,
            embed=t_embed - t_chunk,
            index=index_s,
            commit=commit_s,
        )
        return result, spent

    def _ocr_job(
        self, subject: str, on_event: EventCallback | None, cancel: threading.Event | None
    ) -> OcrJob | None:
        if self.config.ocr == "off" or self.recogniser is None:
            return None
        return OcrJob(
            recogniser=self.recogniser(),
            dpi=self.config.ocr_dpi,
            max_seconds=self.config.ocr_max_minutes * 60.0,
            on_page=lambda done, total: emit(on_event, Progress("ocr", done, total, subject)),
            cancelled=lambda: cancel is not None and cancel.is_set(),
        )

    def _read(self, path: Path) -> tuple[bytes, float]:
        limit = self.config.max_file_mb * 1_000_000
        try:
            info = path.stat()
            if not stat.S_ISREG(info.st_mode):
                raise ExtractionError("not a regular file (a device, pipe or socket): nothing to read")
            if info.st_size > limit:
                raise ExtractionError(
                    f"the file is too large ({info.st_size / 1e6:,.0f} MB; the limit is "
                    f"{self.config.max_file_mb} MB, set by [ingest] max_file_mb)"
                )
            with path.open("rb") as handle:
                data = handle.read(limit + 1)
        except FileNotFoundError as exc:
            raise ExtractionError("the file does not exist (it was moved or deleted)") from exc
        except PermissionError as exc:
            raise ExtractionError("the file cannot be read: permission denied") from exc
        except IsADirectoryError as exc:
            raise ExtractionError("this is a folder, not a file") from exc
        except OSError as exc:
            raise ExtractionError(f"the file cannot be read: {exc.strerror or exc}") from exc
        if len(data) > limit:
            raise ExtractionError(
                f"the file grew past the {self.config.max_file_mb} MB limit while it was read"
            )
        return data, info.st_mtime

    def _embed(
        self, texts: list[str], subject: str, on_event: EventCallback | None, cancel: threading.Event | None
    ) -> np.ndarray:
        return embed_texts(self.embedder(), texts, self.config.embed_batch, subject, on_event, cancel)


def embed_texts(
    embedder: Embedder,
    texts: Sequence[str],
    batch: int,
    subject: str,
    on_event: EventCallback | None,
    cancel: threading.Event | None,
) -> np.ndarray:
    """Embed in batches of similar length (less padding), checking for cancel between batches."""
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    vectors = np.empty((len(texts), embedder.dimension), dtype=np.float32)
    emit(on_event, StageStarted("embed", subject))
    for done in range(0, len(order), batch):
        if cancel is not None and cancel.is_set():
            raise Cancelled("cancelled while embedding")
        rows = order[done : done + batch]
        vectors[rows] = embedder.embed([texts[i] for i in rows])
        emit(on_event, Progress("embed", min(done + batch, len(order)), len(order), subject))
    if cancel is not None and cancel.is_set():
        # Cancel clicked while the last batch was embedded: the file is not written (in a window
        # session, Cancel at 384 of 412 passages still added R's manual to the library).
        raise Cancelled("cancelled while embedding")
    return vectors
