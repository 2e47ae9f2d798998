"""Questions about a document itself: who wrote it, answered from its title page."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import factories
import pymupdf
import pytest
from citedesk_engine import Engine
from citedesk_engine.answer.about_document import (
    TITLE_PAGE,
    asks_who_wrote,
    names_no_one,
    title_page,
    whole_byline,
    with_title_pages,
)
from citedesk_engine.answer.verify import ClaimVerifier
from citedesk_engine.config import VerifyConfig
from citedesk_engine.types import Candidate, Decision, DocumentMeta, EvidenceUnit, Retrieval

# lme4's JSS article (Debian's r-cran-lme4, GPL): its first passage.
LMER = (
    "Fitting Linear Mixed-Effects Models Using lme4\n\nDouglas Bates\nUniversity of Wisconsin-Madison\n\n"
    "Martin Mächler\n\nETH Zurich\n\nBenjamin M. Bolker\n\nMcMaster University\n\nAbstract\n\nMaximum "
    "likelihood or restricted maximum likelihood (REML) estimates ..."
)
META = DocumentMeta("Fitting Linear Mixed-Effects Models Using lme4", ("Douglas Bates", "Martin Maechler"))


def unit(number: int, text: str, document: str = "lmer.pdf") -> EvidenceUnit:
    return EvidenceUnit(f"{document}-{number}", document, "v", number, text, 0, len(text), page=1 + number)


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("Who are the authors of the paper?", True),
        ("Who wrote this paper?", True),
        ("Who wrote this?", True),
        ("Who is the author of this vignette?", True),
        ("What are the names of the authors of the article?", True),
        ("Who are the authors of the Rcpp introduction paper?", True),
        ("Who wrote the Logging HOWTO?", True),
        # someone who wrote something the question names, or no author at all
        ("Who wrote littler?", False),
        ("Who wrote War and Peace?", False),
        ("What does the paper say about REML?", False),
        ("Which authors does the paper cite for the EM algorithm?", False),
    ],
)
def test_which_questions_ask_who_wrote_the_document(question: str, asks: bool) -> None:
    assert asks_who_wrote(question) is asks


def test_the_title_page_is_the_opening_passage_writing_an_authors_name() -> None:
    opening = [
        unit(0, "Contents\n1 Introduction 2"),
        unit(1, LMER),
        unit(2, "1. Introduction\n\nBates wrote"),
    ]
    assert title_page(opening, META) == opening[1]
    # a PDF's text may write "Mächler" with a loose diaeresis: one name, accents aside
    assert title_page([unit(0, "Martin M¨achler\nETH Zurich")], DocumentMeta(authors=("Mächler, Martin",)))
    assert title_page(opening, DocumentMeta(authors=("Jane Doe",))) is None
    assert title_page(opening, DocumentMeta()) is None


def test_title_pages_of_the_best_candidates_documents_come_first() -> None:
    found = [unit(7, "The sleepstudy data ..."), unit(3, "Other paper", document="other.pdf")]
    retrieval = Retrieval(
        "q", tuple(Candidate(u, {"vector": i}, {}, 1.0, 0.5) for i, u in enumerate(found)), ()
    )
    pages = {"lmer.pdf": [unit(0, LMER)], "other.pdf": [unit(0, "An essay", document="other.pdf")]}
    put = with_title_pages(
        retrieval,
        lambda document, first: pages[document][:first],
        lambda: {"lmer.pdf": META, "other.pdf": DocumentMeta(authors=("Ann Roe",))},
    )
    assert [c.unit.unit_id for c in put.candidates] == ["lmer.pdf-0", "lmer.pdf-7"]  # as many as before
    assert put.candidates[0].ranks == {TITLE_PAGE: 0}
    assert put.trace[-1].stage == TITLE_PAGE
    # a document whose metadata names no author: its first passage, if prose (timedep.pdf names its
    # authors under its title only); a table's first rows, or authors the opening never writes, add nothing
    unnamed = with_title_pages(retrieval, lambda d, f: pages[d][:f], dict)
    assert [c.unit.unit_id for c in unnamed.candidates] == ["lmer.pdf-0", "other.pdf-0"]
    table = {d: [replace(u, context="Country | Gold") for u in us] for d, us in pages.items()}
    assert with_title_pages(retrieval, lambda d, f: table[d][:f], dict) is retrieval
    stranger = {
        "lmer.pdf": DocumentMeta(authors=("Jane Doe",)),
        "other.pdf": DocumentMeta(authors=("Ann Roe",)),
    }
    assert with_title_pages(retrieval, lambda d, f: pages[d][:f], lambda: stranger) is retrieval


@pytest.mark.models
def test_who_wrote_this_paper_is_answered_from_its_title_page(tmp_path: Path) -> None:
    # A paper whose body never says "author": its title page names the authors, the file's metadata too.
    (tmp_path / "docs").mkdir()
    paper = factories.pdf(
        tmp_path / "docs" / "harbour.pdf",
        [
            "Container Throughput of Northern Harbours\n\nMarta Kowalczyk, Jonas Lindqvist\n\n"
            "University of Gdansk\n\n"
            "Abstract\n\nWe compare the throughput of twelve northern harbours between 2010 and 2020.",
            "1. Introduction\n\nThe harbour of Gdansk handled 2.1 million containers in 2020, a record. "
            "Rotterdam handled 14.3 million containers in the same year.",
            "2. Methods\n\nThroughput figures were taken from the port authorities' yearly reports.",
        ],
    )
    document = pymupdf.open(paper)
    document.set_metadata({"title": "Container Throughput of Northern Harbours", "author": "Marta Kowalczyk"})
    document.saveIncr()
    document.close()
    with Engine.open(tmp_path / "lib") as engine:
        engine.ingest([paper])
        answer = engine.ask("Who wrote this paper?")
        assert answer.decision is Decision.ANSWERED, answer.refusal
        assert "Kowalczyk" in answer.text and "Lindqvist" in answer.text  # the whole byline
        assert answer.sources[0].page == 1
        # a question about someone else's work is not answered from the title page
        other = engine.ask("Who is the author of the book Moby-Dick?")
        assert "Kowalczyk" not in other.text


# The zoo vignette (Debian's r-cran-zoo, GPL-2): the history of the project, on its first page.
ZOO = (
    "And this was the starting point for the zoo project: the first author of the present paper "
    "needed more general support for ordered observations, independent of a particular index class, "
    "for the package strucchange (Zeileis, Leisch, Hornik, and Kleiber 2002)."
)


def test_an_answer_to_who_wrote_it_must_name_someone() -> None:
    """A window session: "Who wrote the zoo paper?" answered "The first author of the present paper",
    verbatim from the passage, aligned 1.00 and shown as verified."""
    question = "Who wrote the zoo paper?"
    assert names_no_one("The first author of the present paper", question)
    assert names_no_one("the authors", question)
    for named in ("Achim Zeileis and Gabor Grothendieck", "Zeileis", "the R Core Team", "张三"):
        assert not names_no_one(named, question), named
    assert not names_no_one("the first author", "Who wrote strucchange?")  # not the document itself
    verdict = ClaimVerifier(VerifyConfig()).check("The first author of the present paper", [ZOO], question)
    assert not verdict.supported and "names no one" in verdict.method


# survival's competing-risks vignette (Debian's r-cran-survival, LGPL-2+): its first passage.
COMPETE = (
    "Multi-state models and competing risks\n\nTerry Therneau\nCynthia Crowson\nElizabeth Atkinson\n\n"
    "February 6, 2023\n\n1\nMulti-state models\n\nA multi-state model is used to model a process."
)


def test_an_answer_naming_some_authors_of_a_byline_is_given_them_all() -> None:
    everyone = "Terry Therneau, Cynthia Crowson and Elizabeth Atkinson"
    assert whole_byline("Terry Therneau", COMPETE) == everyone
    assert whole_byline("Elizabeth Atkinson.", COMPETE) == everyone
    assert whole_byline("Terry Therneau and Cynthia Crowson", COMPETE) == everyone
    marked = "A Title\n\nTerry Therneau1,2, Elizabeth Atkinson∗ and J.-P. van der Berg3\n\n1 Mayo Clinic"
    three = "Terry Therneau, Elizabeth Atkinson and J.-P. van der Berg"
    assert whole_byline("Elizabeth Atkinson", marked) == three


def test_a_byline_is_only_a_block_of_persons_names() -> None:
    assert whole_byline(COMPETE.split("\n\n")[1].replace("\n", ", "), COMPETE) == ""  # all named already
    assert whole_byline("Douglas Bates", LMER) == ""  # an affiliation stands in the block
    assert whole_byline("Martin Mächler", LMER) == ""  # a block of its own: names no one else
    with_clinic = "A Title\n\nTerry Therneau\nElizabeth Atkinson\nMayo Clinic\n\nAbstract"
    assert whole_byline("Terry Therneau", with_clinic) == ""
    assert whole_byline("It was written by Terry Therneau", COMPETE) == ""  # a sentence: left as written
    assert whole_byline("Marta Kowalczyk", COMPETE) == ""  # named nowhere in it
    assert whole_byline("Terry Therneau", "Terry Therneau\nFebruary 6, 2023") == ""  # a date is no name


def test_the_metadatas_authors_say_which_lines_of_a_title_page_are_the_byline() -> None:
    """lme4's JSS article, a window session: "Who wrote ...?" answered "Bates", one of four authors,
    each on the title page above an affiliation. The names are the passage's ("Benjamin M. Bolker"
    where the properties say "Ben Bolker"); the metadata only says which lines they are."""
    authors = ("Douglas Bates", "Martin Mächler", "Ben Bolker")
    everyone = "Douglas Bates, Martin Mächler and Benjamin M. Bolker"
    assert whole_byline("Bates", LMER, authors) == everyone
    assert whole_byline("Douglas Bates and Martin Mächler", LMER, authors) == everyone
    assert whole_byline(everyone, LMER, authors) == ""  # all named already
    assert whole_byline("It was written by Bates", LMER, authors) == ""  # a sentence
    unwritten = ("Douglas Bates", "Martin Maechler", "Ben Bolker")  # the passage writes "Mächler"
    assert whole_byline("Bates", LMER, unwritten) == ""
    assert whole_byline("Bates", LMER, ("Douglas Bates",)) == ""  # one author: nothing to add
    assert whole_byline("Bates", LMER) == ""  # no metadata: a block of names only
