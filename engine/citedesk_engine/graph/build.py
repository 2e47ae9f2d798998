"""The slow path: reading the library's passages for entities, then deriving nodes and communities.

It runs after ingest's commit point, never inside it: a new document is askable at once through the
fast path's indexes, and the graph catches up. Work is done in steps (a batch of passages, written
with its progress in one transaction), so it can be stopped between any two batches (Cancelled, a
time budget, the app closed, a crash) and goes on from there the next time. The derived tables
(aliases, nodes, communities, label embeddings) are rebuilt once every document is read and
something changed since they were last built.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..errors import Cancelled
from ..events import EventCallback, Progress, StageStarted, emit
from ..index.library import Library
from ..protocols import Embedder, MentionReader
from ..types import EvidenceUnit, GraphStatus
from .derive import aliases, nodes_and_communities

# The mention reader is spaCy's English pipeline: documents detected as another language are marked
# read with no mentions (the graph and community retrievers find nothing in them; the other
# retrievers are unaffected). "und" (undetermined: code, tables) is read.
READ_LANGUAGES = frozenset({"en", "und"})
# Passages read at a time: a step of the window reads 64 (about 1.5 s of the reader on one core, so a
# question asked meanwhile waits no longer); a build without a time limit (the command line, after an
# ingest) reads 4 times as many, enough for the reader to split them over its worker processes.
BATCH_UNITS = 64
# The names embedded for the question's nodes to be found by meaning ("NYC" for "New York City"):
# entities (not noun phrases) mentioned in at least this many passages; others are found by their words.
VECTOR_MIN_UNITS = 2


@dataclass
class GraphBuilder:
    library: Library
    reader: Callable[[], MentionReader]
    embedder: Callable[[], Embedder]

    def run(
        self,
        seconds: float | None = None,
        on_event: EventCallback | None = None,
        cancel: threading.Event | None = None,
    ) -> GraphStatus:
        """Read and derive until everything is current or `seconds` have passed (None: no limit; at
        least one piece of work is done, so a step always moves on). Raises Cancelled between two
        batches when `cancel` is set; what was written is kept."""
        deadline = None if seconds is None else time.monotonic() + seconds
        store = self.library.graph
        worked = [False]

        def stop() -> bool:
            if cancel is not None and cancel.is_set():
                raise Cancelled("entity graph stopped: what was read is kept for the next time")
            timed_out = worked[0] and deadline is not None and time.monotonic() >= deadline
            worked[0] = True
            return timed_out

        live = self.library.manifest.live_versions()
        store.delete_versions(store.versions() - set(live.values()))  # rows a crash or an old run left
        languages = self.library.manifest.per_document("language")
        progress = store.progress()
        todo = [(d, v) for d, v in sorted(live.items()) if not progress.get(v, (0, False))[1]]
        sizes = {r.document: r.units for r in self.library.manifest.documents()}
        total = sum(sizes[d] for d, _ in todo)
        done = sum(progress.get(v, (0, False))[0] for _, v in todo)
        if todo:
            emit(on_event, StageStarted("graph", f"{len(todo)} documents"))
        for document, version in todo:
            start = progress.get(version, (0, False))[0]
            if languages.get(document, "und") not in READ_LANGUAGES:
                store.write(version, [], sizes[document], done=True)
                done += sizes[document] - start
                continue
            every = self.library.manifest.units_of(document)
            units = [u for u in every if u.ordinal >= start]
            earlier = next((u for u in every if u.ordinal == start - 1), None)  # its overlap is read
            if not units:
                store.write(version, [], start, done=True)
            size = BATCH_UNITS if seconds is not None else 4 * BATCH_UNITS
            for first in range(0, len(units), size):
                if stop():
                    return self.status()
                batch = units[first : first + size]
                before = units[first - 1] if first else earlier
                found = self.reader().read(_unread(before, batch))
                last = first + size >= len(units)
                store.write(
                    version,
                    [(u.unit_id, m) for u, m in zip(batch, found, strict=True)],
                    batch[-1].ordinal + 1,
                    done=last,
                )
                done += len(batch)
                emit(on_event, Progress("graph", done, total, document))
        if store.derived_from() != store.changes() and not stop():
            self._derive()
        self._embed_labels(stop)
        return self.status()

    def _derive(self) -> None:
        store = self.library.graph
        changes = store.changes()
        keys = store.key_counts()
        merged = aliases(keys, store.key_documents())
        nodes, communities = nodes_and_communities(keys, merged, store.co_mentions())
        store.write_derived(merged, nodes, communities, changes)

    def _embed_labels(self, stop: Callable[[], bool]) -> None:
        embedder = self.embedder()
        store = self.library.graph
        missing = store.nodes_without_vectors(embedder.name, VECTOR_MIN_UNITS)
        for first in range(0, len(missing), 256):
            if stop():
                return
            batch = missing[first : first + 256]
            store.write_vectors([n for n, _ in batch], embedder.embed_queries([label for _, label in batch]))

    def status(self) -> GraphStatus:
        store = self.library.graph
        live = set(self.library.manifest.live_versions().values())
        read = {v for v, (_, finished) in store.progress().items() if finished and v in live}
        nodes, communities, _ = store.counts()
        return GraphStatus(
            documents=len(read),
            pending=len(live - read),
            nodes=nodes,
            communities=communities,
            current=not (live - read) and store.derived_from() == store.changes(),
            pages=store.wiki.count(),
        )


def _unread(before: EvidenceUnit | None, batch: Sequence[EvidenceUnit]) -> list[str]:
    """Each passage's text less the overlap it shares with the passage before it (read there): the
    reader's time is the slow path's cost, and a fifth of each passage is overlap."""
    texts = []
    for unit in batch:
        shared = (
            before.char_end - unit.char_start
            if before is not None and before.ordinal + 1 == unit.ordinal
            else 0
        )
        texts.append(unit.passage[shared:] if 0 < shared < len(unit.passage) else unit.passage)
        before = unit
    return texts
