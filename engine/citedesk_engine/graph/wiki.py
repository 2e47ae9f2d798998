"""The library wiki: a short page per topic or entity, written by the local generator from the
passages about it, every sentence checked by the per-claim gate before it is kept.

A page is written lazily, when it is first opened (as the seed builds its wiki), from the passages
that mention the entity most (a topic: those naming most of its entities), and cached in the library
with the fingerprint of what it was written from: its title, its source passages' ids (a unit id
holds its document's version) and the generator. A page whose subject gained or lost passages is
written again when next opened; a changed or removed document removes the pages written from it
(wiki_store.py). Each sentence the generator writes is a claim with the numbers of the passages it
cites; the gate checks it against them (or, cited wrongly, against the page's other passages, as the
answer flow re-cites), and a sentence no passage supports is dropped and counted, as is one that does
not name the subject. A page never holds an unsupported sentence, and may hold none: the passages are
then what the reader has.

Pages are navigation like the graph: the wiki retriever (retrievers.py) goes from a question to the
sentences of pages nearest it, and from them to the passages they cite, which every gate then judges.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..answer.asides import without_instructions
from ..answer.claims import split_claims
from ..answer.evidence_spans import unit_spans
from ..answer.flow import source_ref
from ..answer.prompts import DATA, NOT_FOUND, focus
from ..answer.text import content_stems
from ..answer.verify import ClaimVerifier
from ..errors import Cancelled, DocumentNotFound
from ..events import EventCallback, StageStarted, emit
from ..index.library import Library
from ..protocols import Embedder, Generator
from ..types import Candidate, Claim, EvidenceUnit, SourceRef
from .wiki_store import StoredPage

ENTITY, TOPIC = "entity", "topic"
SOURCES = 4  # passages a page is written from: the 1.5B reads four in about 10 s on two cores
WIKI_TOKENS = 200  # three to five sentences
PROMPT_VERSION = 1  # part of the fingerprint: a new prompt writes pages again

# One worked example, as for answers (prompts.py): told in prose alone, the 1.5B wrote the
# citations at the end of the paragraph or not at all.
WIKI_SYSTEM = DATA + (
    "Write a short encyclopedia paragraph about the subject from the passages only: three to five "
    "sentences, each stating one fact that a passage states and ending with the number of that "
    "passage in brackets. Name the subject rather than writing 'it'. Write nothing the passages do "
    f"not state; if they say nothing about the subject, write {NOT_FOUND}. Example:\n"
    "Passage 1: The Rhine rises in the Swiss Alps and flows 1,230 kilometres to the North Sea.\n"
    "Passage 2: Basel, Switzerland's only port, lies on the Rhine.\n"
    "Subject: Rhine\n"
    "Page: The Rhine rises in the Swiss Alps [1]. The Rhine flows 1,230 kilometres to the North Sea "
    "[1]. Basel, Switzerland's only port, lies on the Rhine [2]."
)


def entity_subject(node: str) -> str:
    return f"{ENTITY}:{node}"


def topic_subject(label: str) -> str:
    return f"{TOPIC}:{label}"


@dataclass(frozen=True, slots=True)
class WikiPage:
    subject: str
    title: str
    claims: tuple[Claim, ...]  # the sentences kept, each supported by the passages it cites
    sources: tuple[SourceRef, ...]  # the passages the page was written from
    removed: int  # sentences the gate removed: no passage supports them
    off_subject: int  # sentences left out because they do not name the subject
    written: float  # when, in seconds since the epoch
    generator: str

    @property
    def text(self) -> str:
        return " ".join(claim.text for claim in self.claims)


def wiki_messages(title: str, units: Sequence[EvidenceUnit], max_chars: int) -> list[dict[str, str]]:
    passages = "\n".join(
        f"Passage {n}: {focus(without_instructions(unit.index_text), title, max_chars)}"
        for n, unit in enumerate(units, 1)
    )
    return [
        {"role": "system", "content": WIKI_SYSTEM},
        {"role": "user", "content": f"{passages}\nSubject: {title}\nPage:"},
    ]


@dataclass
class WikiWriter:
    library: Library
    generator: Callable[[], Generator]
    verifier: ClaimVerifier
    embedder: Callable[[], Embedder]
    generator_name: str
    max_chars: int = 500  # of each passage the generator reads (AnswerConfig.max_passage_chars)

    def cached(self, subject: str) -> WikiPage | None:
        """The subject's page when it is written and current, without writing it."""
        title, units = self._sources(subject)
        stored = self.library.graph.wiki.get(subject)
        if stored is None or stored.fingerprint != self._fingerprint(title, units):
            return None
        return self._read(stored)

    def page(
        self, subject: str, *, on_event: EventCallback | None = None, cancel: threading.Event | None = None
    ) -> WikiPage:
        """The subject's page: the cached one when it is current, else written, checked and stored."""
        title, units = self._sources(subject)
        fingerprint = self._fingerprint(title, units)
        stored = self.library.graph.wiki.get(subject)
        if stored is not None and stored.fingerprint == fingerprint:
            return self._read(stored)
        emit(on_event, StageStarted("wiki", title))
        text = self.generator().generate(
            wiki_messages(title, units, self.max_chars), max_tokens=WIKI_TOKENS, cancel=cancel
        )
        if cancel is not None and cancel.is_set():
            raise Cancelled("the page was not written")
        claims, removed, off_subject = self._checked(title, text, units)
        embedder = self.embedder()
        vectors = embedder.embed([c.text for c in claims]) if claims else np.zeros((0, 0), dtype=np.float32)
        stored = StoredPage(
            subject,
            title,
            fingerprint,
            {
                "sentences": [
                    {
                        "text": c.text,
                        "units": list(c.sources),
                        "method": c.method,
                        "score": c.score,
                        "evidence": [list(e) for e in c.evidence],
                    }
                    for c in claims
                ],
                "sources": [u.unit_id for u in units],
                "removed": removed,
                "off_subject": off_subject,
                "written": time.time(),
                "generator": self.generator_name,
            },
        )
        self.library.graph.wiki.put(
            stored, {u.version for u in units}, [c.sources for c in claims], embedder.name, vectors
        )
        return self._read(stored)

    def _sources(self, subject: str) -> tuple[str, list[EvidenceUnit]]:
        """The page's title and the passages it is written from, most telling first."""
        kind, _, key = subject.partition(":")
        store = self.library.graph
        if kind == ENTITY:
            node = store.node_info([key]).get(key)
            if node is None:
                raise DocumentNotFound(f"No entity {key!r} in this library's graph (it may be removed).")
            counts = Counter(unit for unit, _, _ in store.mentions_of([key]))
            ids = sorted(counts, key=lambda unit: (-counts[unit], unit))[:SOURCES]
            title = node.label
        elif kind == TOPIC:
            found = next((c for c in store.communities() if c.label == key), None)
            if found is None:
                raise DocumentNotFound(f"No topic {key!r} in this library's graph (it may have changed).")
            ids = [unit for unit, _ in store.community_units(found.community, SOURCES)]
            title = key
        else:
            raise ValueError(f"unknown wiki subject {subject!r}")
        units = self.library.manifest.units_by_id(ids)
        if not units:
            raise DocumentNotFound(f"No passage of the library mentions {title} any more.")
        return title, [units[i] for i in ids if i in units]

    def _fingerprint(self, title: str, units: Sequence[EvidenceUnit]) -> str:
        what = [PROMPT_VERSION, title, [u.unit_id for u in units], self.generator_name]
        return hashlib.sha256(json.dumps(what).encode()).hexdigest()

    def _checked(self, title: str, text: str, units: Sequence[EvidenceUnit]) -> tuple[list[Claim], int, int]:
        """The generator's sentences about the subject that a passage supports (with where), how
        many no passage supports, and how many do not name the subject (a true sentence of the
        passage about something else, "The bridge is 12.3 kilometres long" on the page of Europe)."""
        kept: list[Claim] = []
        removed = off_subject = 0
        seen: set[str] = set()
        subject = set(content_stems(title))
        for raw in split_claims(text.replace(NOT_FOUND, "")):
            if raw.text.lower() in seen:
                continue
            seen.add(raw.text.lower())
            if not subject & set(content_stems(raw.text)):
                off_subject += 1
                continue
            cited = [units[n - 1] for n in raw.citations if 1 <= n <= len(units)]
            others = [u for u in units if u not in cited]
            verdict, by = None, cited
            for group in (cited, others):
                if not group:
                    continue
                verdict = self.verifier.check(raw.text, [u.index_text for u in group])
                by = group
                if verdict.supported:
                    break
            if verdict is None or not verdict.supported:
                removed += 1
                continue
            unit = by[verdict.passage]
            method = verdict.method if by is cited else f"{verdict.method} (re-cited)"
            evidence = tuple((unit.unit_id, start, end) for start, end in unit_spans(raw.text, unit))
            kept.append(Claim(raw.text, True, (unit.unit_id,), method, verdict.score, evidence))
        return kept, removed, off_subject

    def _read(self, stored: StoredPage) -> WikiPage:
        page = stored.page
        ids = [str(u) for u in page["sources"]]  # type: ignore[union-attr]
        units = self.library.manifest.units_by_id(ids)
        paths = self.library.manifest.per_document("source_path")
        claims = tuple(
            Claim(
                s["text"],
                True,
                tuple(s["units"]),
                s["method"],
                s["score"],
                tuple((u, int(a), int(b)) for u, a, b in s["evidence"]),
            )
            for s in page["sentences"]  # type: ignore[union-attr]
        )
        return WikiPage(
            subject=stored.subject,
            title=stored.title,
            claims=claims,
            sources=tuple(source_ref(Candidate(units[i], {}, {}, 0.0), paths) for i in ids if i in units),
            removed=int(page["removed"]),  # type: ignore[arg-type]
            off_subject=int(page["off_subject"]),  # type: ignore[arg-type]
            written=float(page["written"]),  # type: ignore[arg-type]
            generator=str(page["generator"]),
        )
