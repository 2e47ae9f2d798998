"""The refusal gates before generation: script, relevance, authority (the conflict scan: conflicts.py).

Each gate is a function of the candidates and its own thresholds, returning what passes and, when
nothing does, a Refusal naming its stage. Nothing here generates or retrieves.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..config import AnswerConfig
from ..identifiers import identifiers
from ..scripts import scripts_in
from ..types import Candidate, EvidenceUnit, Refusal, Stage
from .about_document import TITLE_PAGE
from .text import content_stems, stem

# Scripts the tokenizer, the embedder and the generator read (CiteNexus conformance: languages.json).
SUPPORTED_SCRIPTS = frozenset(
    [
        "arabic",
        "bengali",
        "cyrillic",
        "devanagari",
        "greek",
        "han",
        "hangul",
        "hebrew",
        "hiragana",
        "katakana",
        "latin",
        "tamil",
        "telugu",
        "thai",
    ]
)
TRUST_MODES = ("strict", "normal", "exploratory")
# Words for a table's form, not its content: no row writes "first", "sheet" or "listed", so a table
# passage is judged on the question's other words ("What were the depth and magnitude of the first
# earthquake listed in the quakes sheet?": the sheet's first rows held 2 of its 7 words, 2 of 4 without).
TABLE_FORM_STEMS = frozenset(
    stem(w)
    for w in "sheet spreadsheet table row column cell first last top bottom listed list entry line".split()
)


# A table's column name that abbreviates a word: three to five letters ("mag", "lat", "temp", "eol").
_HEADER_WORD = re.compile(r"(?<![a-z])[a-z]{3,5}(?![a-z])")


def abbreviated(question_stems: set[str], header: str) -> set[str]:
    """The question's words that a table's header row abbreviates: "magnitude" for the column "mag",
    "latitude" for "lat". Column names are short; a window session's "In the quakes sheet, what is the
    magnitude of the first earthquake?" found a third of its words in the sheet's rows (quake, not
    magnitude or earthquake) and was refused as off-document. A question word counts when a header
    word begins it and it is at least two letters longer ("lat" is not "late")."""
    heads = set(_HEADER_WORD.findall(header.lower()))
    return {q for q in question_stems if any(q.startswith(h) and len(q) >= len(h) + 2 for h in heads)}


def script_gate(question: str) -> Refusal | None:
    unsupported = sorted(set(scripts_in(question)) - SUPPORTED_SCRIPTS)
    if not unsupported:
        return None
    return Refusal(
        Stage.SCRIPT,
        f"The question is written in a script CiteDesk cannot read reliably ({', '.join(unsupported)}); "
        "its search index and models would only guess. Ask it in a language written in a script they "
        "read (Latin, Cyrillic, Greek, Arabic, Hebrew, Devanagari, Chinese, Japanese, Korean, Thai, "
        "among others): the documents may be in any of these languages, and with the multilingual "
        "embedder (Settings > Models) a question finds passages in another one.",
        {"unsupported_scripts": unsupported, "supported_scripts": sorted(SUPPORTED_SCRIPTS)},
    )


@dataclass(frozen=True, slots=True)
class Relevance:
    candidate: Candidate
    coverage: float  # share of the question's content words found in the passage
    similarity: float  # cosine of question and passage embeddings
    relevant: bool
    rerank: float | None = None  # the packaged reranker's probability, when it is the one used


def relevance_gate(
    question: str,
    question_vector: npt.NDArray[np.float32],
    candidates: Sequence[Candidate],
    stored: Callable[[list[str]], dict[str, npt.NDArray[np.float32]]],
    config: AnswerConfig,
    calibrated_rerank: bool = False,
    searched_in: str = "the library",
    translated: Mapping[str, tuple[str, npt.NDArray[np.float32]]] | None = None,
    language_of: Callable[[str], str] | None = None,
    calibrated_similarity: bool = True,
) -> tuple[list[Relevance], Refusal | None]:
    """A candidate is relevant when the question's words are in it and it means something close,
    or when it is semantically very close, or when it writes the versions, dates or dotted names the
    question names (`identifiers`) and enough of its words, or (`calibrated_rerank`: the packaged
    reranker, whose scores are probabilities) when the reranker judged it likely to answer; one
    shared word is never enough. Passage vectors come from the index (`stored`): nothing is embedded
    again. `translated` holds the question in other languages with its vector ({code: (text,
    vector)}): a candidate whose document (`language_of`) is in one of them is judged against that question.

    The similarity thresholds were chosen for the packaged English embedder; another embedder's
    cosines lie elsewhere (multilingual-e5-small's lie between about 0.7 and 1, its card says; an off-topic
    question met Debian passages at 0.79 in a window session, over
    `high_similarity`), so without `calibrated_similarity` similarity decides nothing: the
    question's words or the reranker must."""
    if not candidates:
        return [], None
    asked = {"": (set(content_stems(question)), question_vector)}
    names = identifiers(question)
    for code, (text, vector) in (translated or {}).items():
        asked[code] = (set(content_stems(text)), vector)
    vectors = stored([c.unit.unit_id for c in candidates])
    judged = []
    for candidate in candidates:
        language = language_of(candidate.unit.document) if language_of is not None else ""
        question_stems, question_vector = asked.get(language, asked[""])
        stems = set(content_stems(candidate.unit.index_text))
        if candidate.unit.context:  # a table unit (its header row as context)
            if question_stems - TABLE_FORM_STEMS:
                question_stems = question_stems - TABLE_FORM_STEMS
            stems |= abbreviated(question_stems, candidate.unit.context)
        coverage = len(question_stems & stems) / len(question_stems) if question_stems else 0.0
        whole_row = bool(candidate.unit.context) and row_covers(question_stems, candidate.unit)
        # The versions, dates or dotted names asked about, written in the passage or its section's
        # heading, whose words then count with the passage's: "When was httpx 0.28.1 released?" and
        # the changelog's "## 0.28.1 (6th December, 2024)" section, which the reranker and the
        # embedder barely tell from 0.7.2's; "The deprecated `proxies` argument has now been
        # removed." under "0.28.0 (28th November, 2024)".
        written = f"{candidate.unit.section}\n{candidate.unit.index_text}"
        names_it = bool(names) and names <= identifiers(written)
        if names_it:
            within = stems | set(content_stems(candidate.unit.section))
            names_it = len(question_stems & within) >= config.min_coverage * len(question_stems)
        vector = vectors.get(candidate.unit.unit_id)
        similarity = float(np.dot(question_vector, vector)) if vector is not None else 0.0
        rerank = candidate.rerank if calibrated_rerank else None
        if calibrated_similarity:
            by_meaning = (
                coverage >= config.min_coverage and similarity >= config.min_similarity
            ) or similarity >= config.high_similarity
        else:
            by_meaning = coverage >= config.min_coverage
        relevant = (
            by_meaning
            or whole_row
            or names_it
            or TITLE_PAGE in candidate.ranks  # the names of who wrote it, asked (about_document.py)
            or (rerank is not None and config.min_rerank > 0 and rerank >= config.min_rerank)
        )
        judged.append(Relevance(candidate, coverage, similarity, relevant, rerank))
    passing = [r for r in judged if r.relevant]
    if len(passing) >= config.min_relevant:
        return judged, None
    return judged, Refusal(
        Stage.RELEVANCE,
        f"Nothing in {searched_in} is relevant enough to this question."
        if not passing
        else f"Only {len(passing)} relevant passage(s); at least {config.min_relevant} are required.",
        {
            "min_coverage": config.min_coverage,
            "min_similarity": config.min_similarity if calibrated_similarity else None,
            "high_similarity": config.high_similarity if calibrated_similarity else None,
            "min_rerank": config.min_rerank if calibrated_rerank else None,
            "min_relevant": config.min_relevant,
            "best": [
                {
                    "unit_id": r.candidate.unit.unit_id,
                    "document": r.candidate.unit.document,
                    "page": r.candidate.unit.page,
                    "coverage": round(r.coverage, 3),
                    "similarity": round(r.similarity, 3),
                    "rerank": None if r.rerank is None else round(r.rerank, 3),
                }
                for r in closest_first(judged)[:3]
            ],
        },
    )


def row_covers(question_stems: set[str], unit: EvidenceUnit) -> bool:
    """Whether one row of a table unit, read with the table's title and header, holds every content
    word of the question (two at least). Such a row is what the question asks about, whatever the
    block's meaning similarity: a block of forty rows of figures means little to the embedder, and
    "What was the population of Brazil in 1952?" was refused as off-document though one row of
    gapminder.csv's block is "Brazil,Americas,1952,50.917,56602560,..." (reranker 0.29, similarity
    under 0.4: a window session). One missing word ("in 2010" for a table ending in 2007) leaves
    the block to the other tests."""
    if len(question_stems) < 2:
        return False
    around = set(content_stems(f"{unit.section}\n{unit.context}"))
    around |= abbreviated(question_stems, unit.context)
    wanted = question_stems - around
    return bool(wanted) and any(
        wanted <= set(content_stems(line)) for line in unit.passage.split("\n") if line.strip()
    )


def closest_first(judged: Sequence[Relevance]) -> list[Relevance]:
    """Weighed passages, the closest to the question first, taken in turn from the reranker's order
    (where it read them) and the meaning similarity's. Either alone left out the passage a window
    session asked about: by similarity, an acknowledgements passage the reranker put first; by the
    reranker, the quakes sheet's rows, first by similarity."""
    by_meaning = sorted(judged, key=lambda r: -r.similarity)
    if all(r.rerank is None for r in judged):
        return by_meaning
    by_reranker = sorted(judged, key=lambda r: -(r.rerank if r.rerank is not None else -1.0))
    merged: dict[int, Relevance] = {}
    for pair in zip(by_reranker, by_meaning, strict=True):
        for relevance in pair:
            merged.setdefault(id(relevance), relevance)
    return list(merged.values())


def authority_gate(
    candidates: Sequence[Candidate], tiers: dict[str, int], mode: str, floor: int
) -> tuple[list[Candidate], Refusal | None]:
    """strict: drop documents below the floor tier; normal: higher tiers first; exploratory: as is."""
    if mode == "exploratory":
        return list(candidates), None
    if mode == "normal":
        return sorted(candidates, key=lambda c: -tiers.get(c.unit.document, 0)), None
    kept = [c for c in candidates if tiers.get(c.unit.document, 0) >= floor]
    if kept:
        return kept, None
    return [], Refusal(
        Stage.AUTHORITY,
        f"The relevant passages come only from documents below authority tier {floor}, which strict "
        "mode does not cite. Raise the tier of the documents you trust (right-click them in the library: "
        "Authority tier, or `citedesk ingest --authority N`), lower the floor in Settings, or ask in "
        "normal mode.",
        {"floor": floor, "tiers": {c.unit.document: tiers.get(c.unit.document, 0) for c in candidates}},
    )
