"""Questions about a document itself: who wrote it.

"Who are the authors of the paper?" shares no word with the page that answers it: a title page
writes names, not "author" or "paper". Over lme4's JSS article that page was retrieved but judged not
relevant (reranker 0.55, no word of the question in it) and the question refused; over the sandwich
vignette it was not retrieved at all, though the citation label under every answer names the
author. The document's own metadata (PDF properties, Word core properties, what the user wrote)
says who wrote it; it is navigation, never evidence: it picks the opening passage that writes one of
those names, and that passage is what the model reads, cites and the gate checks.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import replace

from ..types import Candidate, DocumentMeta, EvidenceUnit, Retrieval, StageTrace

TITLE_PAGE = "title page"  # the name a title page's candidate is ranked under
_OPENING_UNITS = 4  # a title page's names stand in the first passages of a document
_DOCUMENTS = 2  # title pages of the documents of the best candidates, in their order

_WHO_WROTE = re.compile(
    r"\bwho\s+(?:wrote|authored|is\s+the\s+author|are\s+the\s+authors|were\s+the\s+authors)\b"
    r"|\bauthors?\s+of\b|\bwritten\s+by\s+whom\b|\bwho\s+(?:is|was|were)\s+it\s+written\s+by\b",
    re.IGNORECASE,
)
_THE_DOCUMENT = re.compile(
    r"\b(?:this|the)\s+(?:[\w-]+\s+){0,3}?(?:paper|article|document|report|book|manual|guide|study|"
    r"vignette|thesis|publication|chapter|handbook|tutorial|preprint|manuscript|text|howto|faq)\b"
    r"|\bwho\s+wrote\s+(?:this|it)\b",
    re.IGNORECASE,
)


def asks_who_wrote(question: str) -> bool:
    """Whether `question` asks who wrote the document it is asked of ("Who are the authors of the
    paper?", "Who wrote this?"), not who wrote something it names ("Who wrote littler?")."""
    return bool(_WHO_WROTE.search(question) and _THE_DOCUMENT.search(question))


def names_no_one(answer: str, question: str) -> bool:
    """Whether an answer to "who wrote this?" names no one: no word of it capitalised as a name is,
    once the question's own words and its opening article are set aside ("The first author of the
    present paper", from the zoo vignette's history of the project, was shown as verified for "Who
    wrote the zoo paper?"). Scripts without capitals are not judged."""
    if not asks_who_wrote(question) or any(
        ch.isalpha() and not ch.isupper() and not ch.islower() for ch in answer
    ):
        return False
    asked = {w.lower() for w in re.findall(r"[^\W\d_]+", question)}
    found = re.findall(r"[^\W\d_]+", answer)
    if found and found[0].lower() in {"the", "a", "an", "this", "these", "its", "their"}:
        found = found[1:]
    return not any(w[0].isupper() and w.lower() not in asked for w in found)


# A word of a person's name: capitalised with a lower-case letter in it ("Mächler", "McMaster",
# "Balland-Poirier"; "ETH" is not), an initial ("M.", "J.-P."), or a particle ("van", "de").
_NAME_WORD = re.compile(r"[^\W\d_](?:\.(?:-[^\W\d_]\.)?|[\w'’-]*[^\W\d_A-Z][\w'’-]*)")
_PARTICLES = {"van", "von", "der", "den", "de", "da", "di", "du", "del", "della", "la", "le", "bin", "ibn"}
# Words of an affiliation, not of a person's name ("Mayo Clinic", "Universität Innsbruck").
_NOT_PERSONS = {
    "university", "universität", "université", "universidad", "università", "universiteit", "institute",
    "institut", "instituto", "clinic", "college", "department", "school", "hospital", "laboratory",
    "laboratories", "lab", "labs", "center", "centre", "inc", "ltd", "gmbh", "corporation", "company",
    "foundation", "group", "team", "project", "society", "association", "press", "council", "agency",
    "office", "faculty", "academy", "consortium", "research", "abstract", "contents", "introduction",
}  # fmt: skip
_SEPARATORS = re.compile(r"\s*(?:,\s*(?:and\s+|&\s+)?|\s+and\s+|\s+&\s+|;\s*)")
# A name's footnote marks ("Therneau1,2", "Atkinson∗"), where a byline points to affiliations.
_MARKS = re.compile(r"(?<=[^\W\d_])[\d∗*†‡§¶]+(?:,[\d∗*†‡§¶]+)*")


def whole_byline(answer: str, passage: str, authors: Sequence[str] = ()) -> str:
    """Every author named on the title page `answer`, some of a document's authors, comes from, as
    the passage writes them; "" when the answer names a sentence, not only names, or names them all.
    "Who wrote the Concordance vignette?" was answered "Terry Therneau" from a title page reading
    "Terry Therneau, Elizabeth Atkinson", and lme4's JSS article "Bates" (one of four, each above an
    affiliation): a user takes a single name for the author. The authors are a block of the passage
    (lines between blank lines) holding every name of the answer whose lines are nothing but persons'
    names, or, where the document's metadata names its `authors`, the passage's lines of names that
    write their surnames, one for each (the metadata says which lines; the names are the passage's)."""
    return _byline_block(answer, passage) or _named_authors(answer, passage, authors)


def _named_authors(answer: str, passage: str, authors: Sequence[str]) -> str:
    """The passage's names of each of `authors` (by surname), when `answer` is some of them only."""
    surnames = [_folded(s) for s in DocumentMeta(authors=tuple(authors)).surnames()]
    if len(surnames) < 2:
        return ""
    written: dict[str, str] = {}  # surname: the name as the passage writes it, in the passage's order
    for line in passage.splitlines():
        for name in _names(line) or []:
            for surname in surnames:
                if surname not in written and _writes(_folded(name), surname):
                    written[surname] = name
    said = _folded(answer)
    named = [s for s in surnames if _writes(said, s)]
    if len(written) < len(surnames) or not named or len(named) == len(surnames):
        return ""
    words = {w for name in written.values() for w in _folded(name).replace(".", " ").split()}
    if not set(re.findall(r"[^\W\d_]+", said)) <= words | {"and"}:
        return ""  # more than names: "It was written by Bates"
    return _listed(sorted(written.values(), key=passage.index))


def _writes(text: str, word: str) -> bool:
    """Whether `text` writes `word` as a whole word."""
    return bool(re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text))


def _byline_block(answer: str, passage: str) -> str:
    """The names of the block of names that holds every name of `answer`, and more."""
    said = _names(answer.strip().rstrip("."))
    if not said:
        return ""
    for block in re.split(r"\n\s*\n", passage):
        lines = [line.strip() for line in block.splitlines() if line.strip()]
        found = [_names(line) for line in lines]
        if not lines or not all(found):
            continue
        names = [name for line in found for name in (line or [])]
        if set(said) < set(names):
            return _listed(names)
    return ""


def _listed(names: Sequence[str]) -> str:
    """ "A, B and C"."""
    return ", ".join(names[:-1]) + " and " + names[-1]


def _names(line: str) -> list[str] | None:
    """The persons' names a line lists ("Terry Therneau, Elizabeth Atkinson"), or None when it is
    anything else (a title, an affiliation, a date, a sentence)."""
    names = []
    for part in _SEPARATORS.split(_MARKS.sub("", line.strip())):
        name = part.strip()
        words = name.split()
        if not 2 <= len(words) <= 5 or not words[0][:1].isupper() or not words[-1][:1].isupper():
            return None
        if not all(_NAME_WORD.fullmatch(w) or w in _PARTICLES for w in words):
            return None
        if any(w.lower().strip(".") in _NOT_PERSONS for w in words):
            return None
        names.append(name)
    return names or None


def title_page(opening: Sequence[EvidenceUnit], meta: DocumentMeta) -> EvidenceUnit | None:
    """The first of a document's opening passages that writes the surname of one of its authors."""
    surnames = [_folded(a) for a in meta.surnames() if len(a) >= 2]
    for unit in opening[:_OPENING_UNITS]:
        text = _folded(unit.passage)
        if any(_writes(text, name) for name in surnames):
            return unit
    return None


def unnamed_title_page(opening: Sequence[EvidenceUnit]) -> EvidenceUnit | None:
    """The title page of a document whose metadata names no author: its first passage, when that is
    prose. survival's timedep.pdf names its three authors under its title and nowhere in its
    properties, and "Who wrote this paper?" was refused as off the documents. The model reads the
    page and the gate checks that every name it answers is written there; a table's first rows name
    no author and are left alone."""
    return opening[0] if opening and not opening[0].context else None


def with_title_pages(
    retrieval: Retrieval,
    opening: Callable[[str, int], Sequence[EvidenceUnit]],
    metadata: Callable[[], dict[str, DocumentMeta]],
) -> Retrieval:
    """`retrieval` with the title pages of the documents of its best candidates put first (ranked
    under `TITLE_PAGE`), for a question asking who wrote the document: the opening passage writing
    an author the metadata names, or the first passage where it names none (`unnamed_title_page`); a
    document whose opening passages write none of the authors its metadata names adds nothing."""
    documents = list(dict.fromkeys(c.unit.document for c in retrieval.candidates))[:_DOCUMENTS]
    known = metadata()
    pages = []
    for document in documents:
        meta = known.get(document)
        first = opening(document, _OPENING_UNITS)
        page = title_page(first, meta) if meta is not None and meta.surnames() else unnamed_title_page(first)
        if page is not None:
            pages.append(page)
    if not pages:
        return retrieval
    found = {c.unit.unit_id: c for c in retrieval.candidates}
    first = [
        replace(found[page.unit_id], ranks={**found[page.unit_id].ranks, TITLE_PAGE: rank})
        if page.unit_id in found
        else Candidate(page, {TITLE_PAGE: rank}, {}, 0.0)
        for rank, page in enumerate(pages)
    ]
    placed = {c.unit.unit_id for c in first}
    rest = [c for c in retrieval.candidates if c.unit.unit_id not in placed]
    candidates = tuple(first + rest)[: max(len(retrieval.candidates), len(first))]
    trace = StageTrace(
        TITLE_PAGE,
        len(retrieval.candidates),
        len(candidates),
        0.0,
        {"documents": [p.document for p in pages]},
    )
    return Retrieval(retrieval.query, candidates, (*retrieval.trace, trace))


def _folded(text: str) -> str:
    """Lower case without accents: a PDF may write "Mächler" as "Machler" or "M¨achler"."""
    decomposed = unicodedata.normalize("NFKD", text.replace("¨", ""))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()
