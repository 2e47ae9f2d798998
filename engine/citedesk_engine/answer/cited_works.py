"""Names that a passage gives only as the authors of a work it cites.

"The littler package (Eddelbuettel and Horner, 2021) has a helper script" names the authors of
littler, not of the paper the passage stands in. Asked "Who are the authors of the Rcpp introduction
paper?", the answer model took those names, the verifier and the answer reader agreed (the best span
of that passage), and the answer was shown as verified (issue 20, the stop 41 window session). In
research papers author-year citations are everywhere, so a "who" question over them needs this
check: when every place the passage has the answer's names is inside an author-year citation, the
question must be about the cited work, that is, the words it uses for what was written must stand
right beside the citation ("Who wrote littler?" - "The littler package (...)").

Author-year styles of the usual kinds are read: "(Name and Name, 2021)", "(Name et al. 2019; Other
2020a)", "Name et al. (2013)", and a reference list's entries ("Eddelbuettel D, Balamuta JJ (2017).
Extending R with C++: A Brief Introduction to Rcpp."), whose work is named by the title after them.
A name that the passage also uses outside those (a title page, "Eddelbuettel wrote ...") is left to
the other checks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .text import content_stems, names, numbers, shorten, stem, tokens

_YEAR = r"(?:19|20)\d\d[a-z]?"
# "(Eddelbuettel and Horner, 2021)", "(R Core Team, 2021a)", "(see Höhle 2007; Salmon et al. 2016)":
# every part names authors, then the year; not "(born November 2, 1974)" or "(1939 – 2014)".
_NAME = r"[A-Z][\w'’.-]*(?:-\s+[a-z]+)?"  # "Sander- son": hyphenated at a line break
_AUTHORS = rf"{_NAME}(?:(?:\s+|,\s*)(?:and\s+|&\s+)?{_NAME})*(?:\s+et\s+al\.?)?"
_PART = rf"(?:(?:see|e\.g\.|cf\.|also)[,\s]+)*{_AUTHORS},?\s+{_YEAR}(?:,\s*{_YEAR})*"
_PARENTHETICAL = re.compile(rf"\({_PART}(?:;\s*{_PART})*\)")
# "Noufaily et al. (2013)", "Hutto and Gilbert (2014)", "Sanderson & Curtin (2016)".
_NARRATIVE = re.compile(
    rf"\b[A-Z][^\W\d_A-Z][\w'’-]*(?:\s+(?:et al\.?|(?:and|&)\s+[A-Z][\w'’-]+))?"
    rf"\s+\({_YEAR}(?:[,;]\s*{_YEAR})*\)"
)
# A question asking who made something: "Who ...?", "Whose ...?", "By whom ...?", or naming authorship
# ("Which authors ...?", "... written by ...?"); not a relative "who" ("the actor who starred ...").
_WHO = re.compile(
    r"^\W*(?:\w+\s+)?(?:who|whom|whose)\b"
    r"|\b(?:authors?|authored|wrote|written|writers?|creators?|inventors?|developers?)\b",
    re.IGNORECASE,
)
# The question's words for authorship and for the kind of work, which name no particular work.
_GENERIC = frozenset(
    stem(w)
    for w in (
        "who whom whose author authors authored wrote write written writer writers creator creators "
        "inventor inventors developer developers develop developed create created propose proposed "
        "introduce introduced invent invented design designed publish published name names "
        "paper papers article articles work works study studies book books package packages "
        "library libraries software tool tools method methods approach approaches algorithm "
        "algorithms model models vignette manual report document documents original first"
    ).split()
)
_ANCHOR_WORDS = 8  # how far before (or, for "Name (2013) proposed ...", after) a citation its work is named
_CLAUSE_END = re.compile(r"[.;:!?]\s")
# A reference list entry's year: "Eddelbuettel D, Balamuta JJ (2017). Extending R ...".
_ENTRY_YEAR = re.compile(rf"\(\s*{_YEAR}\s*\)\.\s")
# The end of the text before an entry's authors: a sentence end after a word, not after an initial
# ("New York. ", "ISBN 0-89871-447-8. ", "Rcpp.” "; not "Balamuta JJ. " or "Gilbert, E. ").
_ENTRY_START = re.compile(r"(?<=[a-z0-9)\]][a-z0-9)\]])[.!?][\"”’]?\s")


# Where a reference gives a cited work's place rather than a count of anything: volume and issue with
# their pages ("40(8), 1–18", "72(1):2-9"), pages ("pp. 12-18", "p. 5"), a volume or number written
# out ("Vol. 3", "no. 4"), a DOI or a URL ("doi: 10.18637/jss.v040.i08").
_BIBLIOGRAPHIC = re.compile(
    r"\b\d{1,4}\s*\(\d{1,3}(?:[–-]\d{1,3})?\)(?:\s*[,:]\s*(?:pp?\.\s*)?\d+(?:\s*[–-]\s*\d+)?)?"
    r"|\bpp?\.\s*\d+(?:\s*[–-]\s*\d+)?"
    r"|\b(?:vol(?:ume)?\.?|no\.|issue)\s*\d+"
    r"|\bdoi:?\s*\S+|\bhttps?://\S+",
    re.IGNORECASE,
)
# A question or claim about where a work was published asks for those numbers.
_ABOUT_PLACE = re.compile(r"\b(?:volumes?|vol|issues?|pages?|pp|doi|url)\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class _Citation:
    start: int  # the characters of the passage naming the cited authors
    end: int
    work: str  # the passage's words for the cited work


def cited_elsewhere(claim: str, passage: str, question: str) -> str:
    """Why a short answer to a "who" question names the authors of another work than the one asked
    about, or "" when it may not. Fires only when every occurrence in the passage of each of the
    answer's names is inside a citation, and no citation holding all of them stands beside the
    question's own words for the work."""
    cited = _cited(claim, passage, question)
    if cited is None or cited.asked:
        return ""
    return (
        "those names are the authors of a work the passage cites: "
        f"{shorten(passage[cited.shown.start : cited.shown.end], 80)!r}, "
        f"about {shorten(cited.shown.work.strip(), 60)!r}"
    )


def bibliographic_only(claim: str, passage: str, question: str = "") -> str:
    """What the guard says when a number of the claim stands in the passage only as a cited work's
    volume, issue, pages, DOI or URL ("How many CRAN packages depend on Rcpp?" - "40", from "Journal of
    Statistical Software, 40(8), 1–18"); "" otherwise, or when the claim or question asks about those."""
    if _ABOUT_PLACE.search(claim) or _ABOUT_PLACE.search(question):
        return ""
    stated = numbers(passage)
    if not stated:
        return ""
    elsewhere = numbers(_BIBLIOGRAPHIC.sub(" ", passage))
    only_there = sorted(n for n in numbers(claim) & stated if n not in elsewhere)
    if not only_there:
        return ""
    verb = "is" if len(only_there) == 1 else "are"
    return f"{', '.join(only_there)} {verb} only a cited work's volume, issue or pages there"


# An author, their initials and the year of an entry of a reference list: "Knoth S (2016). ",
# "Gilbert, E. (2014). ", "Hutto CJ, Gilbert E (2014). ".
_REFERENCE_ENTRY = re.compile(r"\b[A-Z][\w'’-]+,? (?:[A-Z]\.? ?){1,3}\((?:19|20)\d\d[a-z]?\)\.(?:\s|$)")
_ENTRY_CHARACTERS = 300  # from an entry's authors to its journal, volume and pages: a title between


def in_reference_entry(window: str, passage: str) -> bool:
    """Whether `window` (sentences of `passage`) is part of a reference list entry: it holds an entry's
    authors and year, or it is an entry's place of publication (a journal with its volume and pages,
    a DOI or URL) among entries ("“Rcpp: ...” Journal of Statistical Software, 40(8), 1–18. doi: ...
    Eddelbuettel D, François R (2022a).": asked for the journal of the paper itself, the model took a
    reference's)."""
    if _REFERENCE_ENTRY.search(window):
        return True
    start = passage.find(window)
    if start < 0 or not _BIBLIOGRAPHIC.search(window):
        return False
    # An entry's authors a little before it, or the next entry's a little after (a passage may start
    # inside an entry: the chunker cuts a reference list anywhere).
    end = start + len(window)
    # The list's heading after the window ends the prose before it: ordinal's "R itself and all
    # packages used are available from CRAN at https://CRAN.R-project.org/." stands right above
    # "References", and "CRAN" was refused as taken from the list (a window check).
    after = _LIST_HEADING.split(passage[end : end + _ENTRY_CHARACTERS], maxsplit=1)[0]
    near = passage[max(0, start - _ENTRY_CHARACTERS) : start] + " " + after
    return bool(_REFERENCE_ENTRY.search(near))


_LIST_HEADING = re.compile(r"(?im)^\s*(?:references|bibliography|literature(?: cited)?|works cited)\s*$")


def names_cited_work(claim: str, passage: str, question: str) -> bool:
    """A short answer to a "who" question that a citation of the passage gives as the authors of the
    very work the question names: a reference list entry says who wrote what ("Who wrote the LAPACK
    Users' Guide?" - "Anderson et al.", from "Anderson E, Bai Z, ... (1999). LAPACK Users' Guide.")."""
    cited = _cited(claim, passage, question)
    return cited is not None and cited.asked


@dataclass(frozen=True, slots=True)
class _Cited:
    shown: _Citation  # the first citation holding all of the answer's names (or some of them)
    asked: bool  # one holding all of them names the work the question asks about


def _cited(claim: str, passage: str, question: str) -> _Cited | None:
    """How the passage cites the answer's names; None when it uses one of them outside a citation,
    or the question does not ask who."""
    if not _WHO.search(question):
        return None
    asked = set(content_stems(question))
    answer_names = {n for n in names(claim) if n not in asked}
    if not answer_names:
        return None
    citations = _citations(passage)
    if not citations:
        return None
    holding: dict[_Citation, set[str]] = {}  # the citations that hold the answer's names, and which
    for token in re.finditer(r"[^\W_]+(?:['’][^\W_]+)*", passage):
        name = stem(token.group().lower())
        if not token.group()[:1].isupper() or name not in answer_names:
            continue
        around = [c for c in citations if c.start <= token.start() < c.end]
        if not around:
            return None  # the passage uses the name outside a citation too
        for citation in around:
            holding.setdefault(citation, set()).add(name)
    if not holding:
        return None
    work = {s for s in asked if s not in _GENERIC} - answer_names
    together = [c for c, held in holding.items() if held == answer_names]
    named = any(work and all(_found(s, set(content_stems(c.work))) for s in work) for c in together)
    return _Cited(min(together or holding, key=lambda c: c.start), named)


def _citations(passage: str) -> list[_Citation]:
    found = []
    for match in _PARENTHETICAL.finditer(passage):
        found.append(_Citation(match.start(), match.end(), _beside(passage, match.start(), match.end())))
    for match in _NARRATIVE.finditer(passage):
        found.append(_Citation(match.start(), match.end(), _beside(passage, match.start(), match.end())))
    for match in _ENTRY_YEAR.finditer(passage):
        before = list(_ENTRY_START.finditer(passage, max(0, match.start() - 300), match.start()))
        start = before[-1].end() if before else max(0, match.start() - 300)
        title = passage[match.end() :]
        stop = _ENTRY_START.search(title)
        found.append(_Citation(start, match.end(), title[: stop.start() if stop else 200]))
    return found


def _beside(passage: str, start: int, end: int) -> str:
    """The words naming an in-text citation's work: those before it back to the clause's start (at
    most _ANCHOR_WORDS), and those after it up to the clause's end ("Noufaily et al. (2013) proposed
    an improved Farrington method")."""
    before = " ".join(_words_before(passage, start))
    after_text = passage[end:]
    stop = _CLAUSE_END.search(after_text)
    after = tokens(after_text[: stop.start() if stop else len(after_text)])[:_ANCHOR_WORDS]
    return f"{before} {' '.join(after)}"


def _words_before(passage: str, start: int) -> list[str]:
    text = passage[:start]
    ends = list(_CLAUSE_END.finditer(text))
    if ends:
        text = text[ends[-1].end() :]
    kept = tokens(text)[-_ANCHOR_WORDS:]
    # A footnote's number glued to its first word ("7The littler package"): drop the digits.
    return [re.sub(r"^\d+(?=[^\W\d_])", "", w) for w in kept]


def _found(stem_: str, stems: set[str]) -> bool:
    """The stem, or a longer or shorter form of it ("littler"/"littl")."""
    return stem_ in stems or any(
        min(len(s), len(stem_)) >= 5 and (s.startswith(stem_) or stem_.startswith(s)) for s in stems
    )
