"""The library wiki: a short page per topic or entity, written by the local generator from the
passages about it, every sentence checked by the per-claim gate before it is kept.

A page is written lazily, when it is first opened (as the seed builds its wiki), from the passages
that mention the entity most (a topic: those naming most of its entities), and cached in the library
with the fingerprint of what it was written from: its title, its source passages' ids (a unit id
holds its document's version) and the generator. A page whose subject gained or lost passages is
written again when next opened; a changed or removed document removes the pages written from it
(wiki_store.py).

The generator is asked to copy the sentences that say most about the subject (asked for a paragraph,
the 1.5B wrote general knowledge; docs/evaluation.md, "Library wiki"). Each sentence it writes is a
claim with the numbers of the passages it cites, checked as soon as it is written: it must have six
words or more, name the subject, pass every check of the per-claim gate against the passage it cites
(or, cited wrongly, another of the page's passages, as the answer flow re-cites) and, stricter than
for answers, stand with every content word on one sentence of that passage (`stands_on`: a partly
aligned elaboration and a fusion of two sentences with the wrong subject passed the answer gate). A
sentence that fails is left out with its reason. A page never holds an unsupported sentence, and may
hold none: the passages are then what the reader has.

Pages are navigation like the graph: the wiki retriever (retrievers.py) goes from a question to the
sentences of pages nearest it, and from them to the passages they cite, which every gate then judges.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..answer.asides import without_instructions
from ..answer.claims import split_claims
from ..answer.evidence_spans import unit_spans
from ..answer.prompts import DATA, NOT_FOUND, focus
from ..answer.text import content_stems
from ..answer.verify import ClaimVerifier, Verdict
from ..errors import Cancelled, DocumentNotFound
from ..events import EventCallback, SentenceChecked, StageStarted, emit
from ..index.library import Library
from ..protocols import Embedder, Generator
from ..serialize import claim_from_plain, plain
from ..types import Claim, EvidenceUnit, SourceRef
from .explore import most_mentioning, source_refs
from .wiki_store import StoredPage

ENTITY, TOPIC = "entity", "topic"
# What a page is written from and how long it may be, so that a first page appears within 20 s on
# two cores; decoding (6.9 tokens/s on one thread) is most of the time. benchmarks/wiki_pages.py: four
# passages of 500 characters and 200 tokens took 23-34 s a page on Debian's manual; three of 320
# characters and 90 tokens, a median of 14.3 s and at most 20.5 s on three research articles; with 80
# tokens, docs/evaluation.md ("Library wiki") has the figures.
SOURCES = 3
PASSAGE_CHARS = 320  # of each passage, the sentences nearest the subject (prompts.focus)
WIKI_TOKENS = 80  # two or three sentences
# The generator stops writing a page after this many seconds (what it wrote is the page, a sentence
# cut there left out), so that a page appears within 20 s however slow the computer: on two cores the
# largest of 30 pages took 19-21 s from run to run without it (docs/evaluation.md, "Library wiki").
WIKI_SECONDS = 16.0
# Fewer words than this state nothing: the generator copies headings, names and reference-list
# fragments ("Robert Koch Institute.", "In Proc.", "VADER sentiment lexicon.") as if they were sentences.
MIN_WORDS = 6
PAGE_VERSION = 10  # part of the fingerprint: a new prompt, rule or stored form writes pages again

# One worked example, as the answer prompt has (prompts.py). The passage's own words: asked only for
# facts the passages state, the 1.5B elaborated ("covering topics such as branching and merging" of a
# bare list of Git manuals), and the gate let some partly aligned elaborations through.
WIKI_SYSTEM = DATA + (
    "Copy the two or three sentences of the passages that say most about the subject, word for word "
    "(leave words out of a long one, never add any), each followed by the number of its passage in "
    "brackets. "
    "Example:\n"
    "Passage 1: The Rhine is one of Europe's great rivers. The Rhine rises in the Swiss Alps and, after "
    "a long course, flows into the North Sea. Shipping grew after 1850.\n"
    "Passage 2: Basel, Switzerland's only port, lies on the Rhine. Basel hosts an art fair.\n"
    "Subject: Rhine\n"
    "Page: The Rhine is one of Europe's great rivers [1]. The Rhine rises in the Swiss Alps and flows "
    "into the North Sea [1]. Basel, Switzerland's only port, lies on the Rhine [2]."
)


# What the generator copies from the prompt into its sentences: list marks of a passage's lines, the
# "Passage 2:" before a passage; and a citation it writes "(2)" instead of "[2]".
_BULLETS = re.compile(r"[•▪◦‣∙]")
_PASSAGE_LABEL = re.compile(r"^Passage \d+:\s*")
_ROUND_CITATION = re.compile(r"\s*\((\d)\)(?=\s*[.!?]?(?:\s|$))")
_ENDED = re.compile(r"[.!?\]]\W*$")  # text the generator finished (not cut off at WIKI_TOKENS)


def _cleaned(text: str) -> str:
    return _ROUND_CITATION.sub(r" [\1]", _BULLETS.sub(" ", text.replace(NOT_FOUND, "")))


def entity_subject(node: str) -> str:
    return f"{ENTITY}:{node}"


def topic_subject(label: str) -> str:
    return f"{TOPIC}:{label}"


@dataclass(frozen=True, slots=True)
class Dropped:
    """A sentence the generator wrote that the page does not keep, and why."""

    text: str
    why: str
    unsupported: bool  # removed by the gate (else left out: not about the subject, or cut off)


@dataclass(frozen=True, slots=True)
class WikiPage:
    subject: str
    title: str
    claims: tuple[Claim, ...]  # the sentences kept, each supported by the passage it cites
    dropped: tuple[Dropped, ...]  # the sentences left out, in the order they were written
    sources: tuple[SourceRef, ...]  # the passages the page was written from
    written: float  # when, in seconds since the epoch
    generator: str

    @property
    def text(self) -> str:
        return " ".join(claim.text for claim in self.claims)

    @property
    def removed(self) -> int:
        """Sentences the gate removed: no passage supports them."""
        return sum(1 for d in self.dropped if d.unsupported)

    @property
    def left_out(self) -> int:
        """Sentences left out as not about the subject, too short, or unfinished."""
        return sum(1 for d in self.dropped if not d.unsupported)


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
    seconds: float = WIKI_SECONDS
    clock: Callable[[], float] = time.monotonic

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
        check = _SentenceCheck(subject, title, units, self.verifier, on_event)
        written: list[str] = []
        started = self.clock()

        def on_token(piece: str) -> None:
            # A sentence is checked once the next one has begun (its citation has come), so the
            # reader sees the page grow while the generator writes.
            written.append(piece)
            check.written("".join(written), final=False)
            if self.clock() - started > self.seconds:
                raise _TimeUp

        try:
            text = self.generator().generate(
                wiki_messages(title, units, PASSAGE_CHARS),
                max_tokens=WIKI_TOKENS,
                on_token=on_token,
                cancel=cancel,
            )
            unfinished = (
                "cut off at the page's length limit"
                if len(written) >= WIKI_TOKENS
                else "unfinished: the model stopped mid-sentence"
            )
        except _TimeUp:
            text, unfinished = "".join(written), "cut off at the page's time limit"
        if cancel is not None and cancel.is_set():
            raise Cancelled("the page was not written")
        check.written(text, final=True, unfinished=unfinished)
        embedder = self.embedder()
        claims = check.kept
        vectors = embedder.embed([c.text for c in claims]) if claims else np.zeros((0, 0), dtype=np.float32)
        stored = StoredPage(
            subject,
            title,
            fingerprint,
            {
                "claims": plain(claims),
                "dropped": plain(check.dropped),
                "sources": [u.unit_id for u in units],
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
            ids = most_mentioning(store.mentions_of([key]))[:SOURCES]
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
        what = [PAGE_VERSION, title, [u.unit_id for u in units], self.generator_name]
        return hashlib.sha256(json.dumps(what).encode()).hexdigest()

    def _read(self, stored: StoredPage) -> WikiPage:
        page: dict[str, Any] = stored.page
        return WikiPage(
            subject=stored.subject,
            title=stored.title,
            claims=tuple(claim_from_plain(c) for c in page["claims"]),
            dropped=tuple(Dropped(**d) for d in page["dropped"]),
            sources=source_refs(self.library, page["sources"]),
            written=float(page["written"]),
            generator=str(page["generator"]),
        )


def stands_on(
    verifier: ClaimVerifier, sentence: str, passages: Sequence[str]
) -> tuple[int | None, Verdict | None]:
    """The first of `passages` that holds `sentence` whole, as a page's sentence must stand: every
    check of the gate, and one sentence of the passage holding every content word of it (a wider
    window let a fusion of two sentences with the wrong subject through; benchmarks/wiki_gate.py).
    Passage by passage: the gate's own check stops at the first passage that supports a claim, which
    may be a partly aligned one before the one that holds it whole. Returns its index and verdict,
    or None and the best verdict seen (the reason it was left out)."""
    one_sentence = dataclasses.replace(verifier, max_window=1)
    best: Verdict | None = None
    for index, passage in enumerate(passages):
        verdict = one_sentence.check(sentence, [passage])
        if verdict.supported and verdict.score >= verifier.config.full_alignment:
            return index, verdict
        if best is None or (verdict.supported, verdict.score) > (best.supported, best.score):
            best = verdict
    return None, best


class _TimeUp(Exception):
    """The page's time is spent: what the generator wrote so far is the page."""


@dataclass
class _SentenceCheck:
    """The page's sentences checked one by one as they are written: a sentence must have MIN_WORDS
    words, name the subject (a true sentence of a passage about something else, "The bridge is 12.3
    kilometres long" on the page of Europe, is left out) and stand on the passage it cites or, cited
    wrongly, on another of the page's passages (as the answer flow re-cites; `stands_on`)."""

    subject: str
    title: str
    units: Sequence[EvidenceUnit]
    verifier: ClaimVerifier
    on_event: EventCallback | None
    kept: list[Claim] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)
    _seen: set[str] = field(default_factory=set)

    def written(self, text: str, *, final: bool, unfinished: str = "") -> None:
        """Check the sentences of `text` not checked yet (all but the last unless `final`; then a
        last sentence without its end is left out, `unfinished` saying why)."""
        raws = split_claims(_cleaned(text))
        cut_off = final and raws and not _ENDED.search(text)
        for n, raw in enumerate(raws if final else raws[:-1]):
            sentence = _PASSAGE_LABEL.sub("", raw.text.lstrip(" .,;:"))
            if not sentence or sentence.lower() in self._seen:
                continue
            self._seen.add(sentence.lower())
            if cut_off and n == len(raws) - 1:
                self._drop(Dropped(sentence, unfinished, unsupported=False))
            else:
                self._check(sentence, raw.citations)

    def _check(self, sentence: str, citations: Sequence[int]) -> None:
        if len(sentence.split()) < MIN_WORDS:
            self._drop(Dropped(sentence, "too short to state anything", unsupported=False))
            return
        if not set(content_stems(self.title)) & set(content_stems(sentence)):
            self._drop(Dropped(sentence, f"not about {self.title}", unsupported=False))
            return
        cited = [self.units[n - 1] for n in citations if 1 <= n <= len(self.units)]
        ordered = [*cited, *(u for u in self.units if u not in cited)]  # the cited ones first
        index, verdict = stands_on(self.verifier, sentence, [u.index_text for u in ordered])
        if index is None or verdict is None:
            if verdict is None or not verdict.supported:
                why = f"no passage supports it ({verdict.method})" if verdict else "no passage supports it"
            else:
                why = f"not every word of it stands in one sentence of a passage ({verdict.method})"
            self._drop(Dropped(sentence, why, unsupported=True))
            return
        unit = ordered[index]
        method = verdict.method if unit in cited else f"{verdict.method} (re-cited)"
        evidence = tuple((unit.unit_id, start, end) for start, end in unit_spans(sentence, unit))
        self.kept.append(Claim(sentence, True, (unit.unit_id,), method, verdict.score, evidence))
        emit(self.on_event, SentenceChecked(self.subject, sentence, True, method))

    def _drop(self, dropped: Dropped) -> None:
        self.dropped.append(dropped)
        emit(self.on_event, SentenceChecked(self.subject, dropped.text, False, dropped.why))
