"""Values that cross module boundaries: evidence units, documents, ingest reports."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


@dataclass(frozen=True, slots=True)
class Box:
    """A rectangle on a PDF page, in PDF points, origin top-left (PyMuPDF's convention)."""

    page: int
    x0: float
    y0: float
    x1: float
    y1: float
    # The characters of the document's text whose words the box holds (one drawn line of a passage),
    # so a sentence of the passage can be marked on the page; -1 in libraries built before 0.5.0.
    start: int = -1
    end: int = -1
    # The OCR recogniser's confidence (0 to 1) for the line, where the page was read by OCR; -1 for
    # a line of a text layer (and in libraries built before 0.6.0).
    confidence: float = -1.0

    def as_row(self) -> list[float | int]:
        """The box as stored and printed: [page, x0, y0, x1, y1, start, end, confidence]."""
        return [self.page, self.x0, self.y0, self.x1, self.y1, self.start, self.end, self.confidence]


def ocr_confidence(boxes: tuple[Box, ...]) -> float | None:
    """The mean OCR confidence of a passage's lines, or None when no line of it was read by OCR."""
    read = [b.confidence for b in boxes if b.confidence >= 0]
    return sum(read) / len(read) if read else None


@dataclass(frozen=True, slots=True)
class EvidenceUnit:
    """A citable passage: a byte-exact slice `text[char_start:char_end]` of a document's extracted text.

    `context` is what the reader needs to understand the passage but is not part of it (a table's
    header row); it is embedded and indexed with the passage and the table's title, never cited.
    """

    unit_id: str
    document: str
    version: str
    ordinal: int
    passage: str
    char_start: int
    char_end: int
    page: int | None = None
    boxes: tuple[Box, ...] = ()
    section: str = ""
    context: str = ""
    scripts: tuple[str, ...] = ()

    @property
    def index_text(self) -> str:
        """The text that is embedded and indexed: a table's title (its section) and header row, then
        the passage (the header once, when the passage starts with it: a table's first rows)."""
        if not self.context:
            return self.passage
        parts = [self.section] if self.section else []
        if not self.passage.startswith(self.context):
            parts.append(self.context)
        return "\n".join([*parts, self.passage])

    @property
    def ocr_confidence(self) -> float | None:
        """Whether the passage was read by OCR, and how surely: its lines' mean confidence."""
        return ocr_confidence(self.boxes)


@dataclass(frozen=True, slots=True)
class StructureNode:
    """A heading, slide, sheet or code symbol and the span of the text it governs."""

    kind: str  # heading | slide | sheet | symbol
    label: str
    level: int
    start: int
    end: int
    page: int | None = None


@dataclass(frozen=True, slots=True)
class Span:
    """A span of a passage as the answer reader sees it (models/reader.py)."""

    text: str
    start: int  # character offsets in the passage
    end: int
    probability: float  # share of the reader's probability over its candidate spans


@dataclass(frozen=True, slots=True)
class GeneratedToken:
    """A token the generator wrote, with the probability its model gave it where it chose it (at
    temperature 0 the most probable token: a low probability means the model hesitated there)."""

    text: str
    probability: float


@dataclass(frozen=True, slots=True)
class Candidate:
    """A unit retrieval produced, with how each retriever ranked and scored it (ranks are zero-based)."""

    unit: EvidenceUnit
    ranks: dict[str, int]
    scores: dict[str, float]
    fused: float
    rerank: float | None = None


@dataclass(frozen=True, slots=True)
class Passage:
    """What a reranker sees of a candidate: its id (for index-backed rerankers) and its text."""

    unit_id: str
    text: str


@dataclass(frozen=True, slots=True)
class StageTrace:
    """One pipeline stage of a question: candidates in and out, its figures, and its time."""

    stage: str
    candidates_in: int
    candidates_out: int
    ms: float
    details: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Retrieval:
    """Ranked candidates for a question, and the trace of how they were found."""

    query: str
    candidates: tuple[Candidate, ...]
    trace: tuple[StageTrace, ...]


class Stage(StrEnum):
    """The pipeline stages that can refuse, each attributable on its own."""

    NO_EVIDENCE = "no_evidence"
    SCRIPT = "script"
    RELEVANCE = "relevance"
    AUTHORITY = "authority"
    GENERATION = "generation"  # the model read the passages and found no answer in them
    FAITHFULNESS = "faithfulness"
    CONFLICT = "conflict"


class Decision(StrEnum):
    ANSWERED = "answered"
    PARTIAL = "partial"  # some claims were unsupported and removed
    REFUSED = "refused"
    STOPPED = "stopped"  # the user stopped it: `text` is what the model had written, never verified


@dataclass(frozen=True, slots=True)
class Refusal:
    stage: Stage
    reason: str
    details: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class DocumentMeta:
    """What a document is, for citing it: from the file's own properties (PDF metadata, Word core
    properties, an HTML page's title and citation tags), or as the user wrote it (`source` "you")."""

    title: str = ""
    authors: tuple[str, ...] = ()
    year: int | None = None
    source: str = ""  # "file" (read from the file), "you" (edited: kept when the file is read again)

    def surnames(self) -> list[str]:
        """The authors as a citation names them: "Hutto", "Gilbert"; a body whole ("R Core Team")."""
        return [_surname(a) for a in self.authors if a.strip()]

    @property
    def label(self) -> str:
        """A short citation: "Hutto and Gilbert 2014", "Eddelbuettel et al. 2018", "Smith"; "" when
        there are no authors (the title or the file name names the document then)."""
        surnames = self.surnames()
        if not surnames:
            return ""
        who = (
            surnames[0]
            if len(surnames) == 1
            else f"{surnames[0]} and {surnames[1]}"
            if len(surnames) == 2
            else f"{surnames[0]} et al."
        )
        return f"{who} {self.year}" if self.year else who


def _surname(author: str) -> str:
    """ "Gilbert, Eric" -> "Gilbert"; "C. J. Hutto" -> "Hutto"; a body that wrote the document is
    named whole: "zoo Development Team" (cited as "Team" before), "R Core Team", "The Debian Project"."""
    author = author.strip()
    if "," in author:
        return author.split(",")[0].strip()
    words = author.split()
    # A person and their affiliation in one property: "Roger Koenker University of Illinois at
    # Urbana-Champaign" (crq's vignette, cited by the whole string). "University of ..." opens the
    # affiliation; "Stanford University" might close a name, and is left whole.
    opens = next(
        (
            i
            for i in range(2, len(words) - 1)
            if words[i].lower() in _BODY_WORDS and words[i + 1].lower() in ("of", "at", "for")
        ),
        None,
    )
    if opens is not None and _is_a_person(words[:opens]):
        words = words[:opens]
    if not _is_a_person(words):
        return author
    return words[-1]


# Words that name a body, not a person: an author with one of them is cited by its whole name.
_BODY_WORDS = frozenset(
    "team project group committee consortium foundation institute institution university college "
    "association society council agency department ministry office organization organisation "
    "corporation company inc ltd llc gmbh developers contributors authors board commission "
    "center centre laboratory lab network initiative collaboration working".split()
)
# Lower-case words a person's name may hold ("Ludwig van Beethoven", "Simone de Beauvoir").
_NAME_PARTICLES = frozenset("van von de der den del della di da das dos du la le ter ten bin al".split())


def _is_a_person(words: list[str]) -> bool:
    """A name of at most five words, none naming a body, none lower-case but a particle."""
    plain = [w.strip(".,;:()").lower() for w in words]
    if len(words) > 5 or any(w in _BODY_WORDS for w in plain):
        return False
    return all(w[:1].isupper() or w.lower() in _NAME_PARTICLES or not w[:1].isalpha() for w in words)


@dataclass(frozen=True, slots=True)
class SourceRef:
    """A cited passage: where it is, byte-exact."""

    unit_id: str
    document: str
    path: str
    page: int | None
    boxes: tuple[Box, ...]
    char_start: int
    char_end: int
    passage: str
    section: str = ""
    header: str = ""  # a table's header row (its unit's context): the column names of its rows
    heading: str = ""  # the innermost heading of its document's outline it stands under ("": none)
    # How retrieval found it: each retriever's rank (0-based) and score, the fused and rerank scores.
    ranks: dict[str, int] = field(default_factory=dict)
    scores: dict[str, float] = field(default_factory=dict)
    fused: float | None = None
    rerank: float | None = None
    about: DocumentMeta = DocumentMeta()  # its document's title, authors and year, when known

    @property
    def ocr_confidence(self) -> float | None:
        """Whether the passage was read by OCR, and how surely: its lines' mean confidence."""
        return ocr_confidence(self.boxes)


@dataclass(frozen=True, slots=True)
class Claim:
    text: str
    supported: bool
    sources: tuple[str, ...]  # unit ids of the passages the claim cites
    method: str  # which check decided: e.g. "supported: aligned 0.86, semantic 0.71" or "guard: number"
    score: float
    # Where in its cited passages the claim stands (answer/evidence_spans.py): (unit id, start, end),
    # character offsets into the document's text like a SourceRef's, within that passage.
    evidence: tuple[tuple[str, int, int], ...] = ()
    # Why a verified claim still wants the reader's eye, in words ("": none): the answer model was
    # unsure of the short answer it wrote ([verify] caution_below_certainty).
    caution: str = ""


@dataclass(frozen=True, slots=True)
class Conflict:
    """Two top passages that disagree about the same thing."""

    kind: str  # number | negation | antonym
    unit_ids: tuple[str, str]
    detail: str


@dataclass(frozen=True, slots=True)
class Answer:
    question: str
    decision: Decision
    text: str
    claims: tuple[Claim, ...]
    sources: tuple[SourceRef, ...]
    conflicts: tuple[Conflict, ...]
    trace: tuple[StageTrace, ...]
    refusal: Refusal | None = None
    conversation: str = ""
    removed_claims: int = 0
    searched: str = ""  # the question as searched, when a follow-up was rewritten or folded ("": as asked)
    quote: bool = False  # the model found no answer; the answer is a passage's sentence, quoted verbatim
    # A refusal's closest passages (those the refusing stage weighed or the model read), for a reader
    # to look at, marked as not an answer; never a citation. Empty for an answer.
    considered: tuple[SourceRef, ...] = ()
    scope: tuple[str, ...] = ()  # the documents the question was asked in (ids); empty: the whole library


class FileStatus(StrEnum):
    INGESTED = "ingested"
    UNCHANGED = "unchanged"
    FAILED = "failed"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class FileResult:
    """What happened to one file of an ingest."""

    path: str
    document: str
    status: FileStatus
    reason: str = ""
    units: int = 0
    pages: int = 0
    language: str = ""
    seconds: float = 0.0
    warnings: tuple[str, ...] = ()  # hidden text left out, text addressed to an AI: where and what


@dataclass(frozen=True, slots=True)
class StageTimes:
    """Seconds spent per ingest stage, summed over files."""

    read: float = 0.0
    extract: float = 0.0
    chunk: float = 0.0
    embed: float = 0.0
    index: float = 0.0
    commit: float = 0.0

    def add(self, other: StageTimes) -> StageTimes:
        return StageTimes(*(a + b for a, b in zip(self.as_tuple(), other.as_tuple(), strict=True)))

    def as_tuple(self) -> tuple[float, ...]:
        return (self.read, self.extract, self.chunk, self.embed, self.index, self.commit)

    def as_dict(self) -> dict[str, float]:
        names = ("read", "extract", "chunk", "embed", "index", "commit")
        return dict(zip(names, self.as_tuple(), strict=True))


@dataclass(frozen=True, slots=True)
class IngestReport:
    """The outcome of one `Engine.ingest` call, file by file."""

    files: tuple[FileResult, ...]
    cancelled: bool = False
    times: StageTimes = field(default_factory=StageTimes)

    def count(self, status: FileStatus) -> int:
        return sum(1 for f in self.files if f.status is status)

    @property
    def units(self) -> int:
        return sum(f.units for f in self.files)


@dataclass(frozen=True, slots=True)
class DocumentRecord:
    """A committed document of the library, as the manifest holds it."""

    document: str
    source_path: str
    sha256: str
    version: str
    size: int
    mtime: float
    kind: str
    units: int
    pages: int
    language: str
    authority: int
    ingested_at: float
    text_sha256: str


class DriftKind(StrEnum):
    MISSING = "missing"
    CHANGED = "changed"


@dataclass(frozen=True, slots=True)
class Drift:
    """A library document whose source file is missing or no longer matches what was ingested."""

    document: str
    kind: DriftKind
    detail: str


@dataclass(frozen=True, slots=True)
class Mention:
    """A named entity or key noun phrase of a passage, as the entity graph keeps it (graph/)."""

    node: str  # its key: lower case, determiners dropped, a common noun's last word singular
    label: str  # as the passage writes it
    kind: str  # the entity type (PERSON, ORG, GPE, ...) or NP for a key noun phrase
    sentence: int  # which sentence of the passage, counted from 0


@dataclass(frozen=True, slots=True)
class GraphStatus:
    """How far the slow path (graph/) is: the entity graph and its communities."""

    documents: int  # documents whose passages have been read for entities
    pending: int  # documents still to read (new, changed, or a reading cut short)
    nodes: int
    communities: int
    current: bool  # nodes and communities reflect every document read
    enabled: bool = True  # false when [retrieval] signals leave out graph, community and wiki
    pages: int = 0  # the library wiki's pages written so far (they are written when first opened)


@dataclass(frozen=True, slots=True)
class LibraryStatus:
    """A summary of the library for `citedesk status` and the status bar."""

    library_dir: str
    documents: int
    units: int
    size_bytes: int
    models: tuple[ModelInfo, ...] = ()
    # The passages' vectors come from another embedder than the configured one (the setting changed,
    # or a re-embedding stopped): questions wait for `reembed`, which goes on from what was done.
    needs_reembed: bool = False
    graph: GraphStatus | None = None


@dataclass(frozen=True, slots=True)
class ModelInfo:
    """Where a model slot resolves and whether its files verified."""

    slot: str
    source: str
    path: str
    size_bytes: int
    verified: bool
    detail: str = ""


@dataclass(frozen=True, slots=True)
class OcrWord:
    text: str
    x0: float
    y0: float
    x1: float
    y1: float


@dataclass(frozen=True, slots=True)
class OcrLine:
    """One recognised line: its words with their boxes (in the picture's pixels, or in page points
    once placed on a page), the recogniser's confidence for the line, 0 to 1, and the slope of the
    line in radians (a skewed scan's lines descend or climb to the right)."""

    words: tuple[OcrWord, ...]
    confidence: float
    angle: float = 0.0

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)

    def scaled(self, factor: float) -> OcrLine:
        words = tuple(
            OcrWord(w.text, w.x0 * factor, w.y0 * factor, w.x1 * factor, w.y1 * factor) for w in self.words
        )
        return OcrLine(words, self.confidence, self.angle)
