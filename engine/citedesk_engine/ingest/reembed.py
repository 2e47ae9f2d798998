"""Embedding a whole library again for a new embedder, document by document, in a table beside the
current one; stopped (cancel, a crash, the app closed), it goes on from where it was the next time.

At a million passages this is hours of work and the passages do not fit in memory at once, so it
holds one document's passages at a time, and what is written is kept: the next run embeds only the
documents not in the new table yet. The old vectors answer questions until the new table is complete.
"""

from __future__ import annotations

import threading

from ..errors import Cancelled
from ..events import Event, EventCallback, Progress, StageStarted, emit
from ..index.library import Library
from ..protocols import Embedder
from .pipeline import embed_texts


def reembed_library(
    library: Library,
    embedder: Embedder,
    batch: int,
    on_event: EventCallback | None = None,
    cancel: threading.Event | None = None,
) -> int:
    """Every live passage embedded with `embedder` and the new vectors installed; returns how many
    passages the library holds. Progress counts passages over the whole library; Cancelled is raised
    between batches, keeping what was done for the next run."""
    signature = Library.embedder_signature(embedder.name, embedder.dimension)
    store = library.vectors_in_progress(signature)
    live = library.manifest.live_versions()
    done = store.versions()
    for stale in sorted(done - set(live.values())):  # documents removed or read again since it began
        store.delete_version(stale)
    sizes = {record.document: record.units for record in library.manifest.documents()}
    total = sum(sizes.values())
    finished = sum(sizes[document] for document, version in live.items() if version in done)
    emit(on_event, StageStarted("embed", "library"))
    emit(on_event, Progress("embed", finished, total, "library"))
    for document, version in sorted(live.items()):
        if version in done:
            continue
        if cancel is not None and cancel.is_set():
            raise Cancelled("re-embedding cancelled: the documents done are kept for the next run")
        units = library.manifest.units_of(document)
        texts = [u.index_text for u in units]
        vectors = embed_texts(embedder, texts, batch, document, _within(on_event, finished, total), cancel)
        store.add(units, vectors)
        finished += len(units)
    library.install_vectors(store, signature)
    return total


def _within(on_event: EventCallback | None, before: int, total: int) -> EventCallback | None:
    """A document's embedding progress as progress over the whole library."""
    if on_event is None:
        return None

    def forward(event: Event) -> None:
        if isinstance(event, Progress) and event.stage == "embed":
            on_event(Progress("embed", before + event.done, total, "library"))

    return forward
