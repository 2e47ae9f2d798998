"""A short answer to "who" made of names the passage gives only as a cited work's authors."""

from __future__ import annotations

import pytest
from citedesk_engine.answer.cited_works import bibliographic_only, cited_elsewhere
from factories import believing_gate

# The Rcpp introduction's footnote (benchmarks/realdocs), where the stop 41 window session's wrong
# answer came from; the footnote number is glued to its first word as PyMuPDF extracts it.
LITTLER = (
    "Dongarra JJ, Moler CB, Bunch JR, Stewart GW (1979). LINPACK users’ guide. SIAM. Eddelbuettel D "
    "(2013). Seamless R and C++ Integration with Rcpp. Use R! Springer, New York. ISBN "
    "978-1-4614-6867-7. 7The littler package (Eddelbuettel and Horner, 2021) has a helper script "
    "‘roxy.r‘ for this. Eddelbuettel D, Balamuta JJ (2017). “Extending R with C++: A Brief "
    "Introduction to Rcpp.” PeerJ Preprints, 5."
)
NARRATIVE = (
    "Noufaily et al. (2013) proposed an improved Farrington method that is less sensitive to past "
    "outbreaks. It is the default of the package."
)


@pytest.mark.parametrize(
    ("claim", "passage", "question"),
    [
        # the real case: the authors of littler, asked for the authors of the paper itself
        ("Eddelbuettel and Horner", LITTLER, "Who are the authors of the Rcpp introduction paper?"),
        # a question naming no work at all: the cited names are another work's
        ("Eddelbuettel and Horner", LITTLER, "Who wrote the paper?"),
        # a narrative citation, the question about another method
        ("Noufaily et al.", NARRATIVE, "Who proposed the Bayesian outbreak detection algorithm?"),
        # several works in one parenthesis, the question about something else
        (
            "Sanderson and Curtin",
            "We use the Armadillo template classes (Sanderson and Curtin, 2016; Eddelbuettel et al. 2021) "
            "for the linear algebra.",
            "Who developed the bootstrap example?",
        ),
    ],
)
def test_cited_authors_answer_no_question_about_another_work(claim: str, passage: str, question: str) -> None:
    assert cited_elsewhere(claim, passage, question)
    verdict = believing_gate().check(claim, [passage], question)
    assert not verdict.supported and verdict.check == "guard: cited work", verdict.method
    assert "authors of a work the passage cites" in verdict.method


def test_the_names_must_be_cited_together_for_the_work_asked_about() -> None:
    # Eddelbuettel is an author of the Rcpp introduction (its entry), Horner is not
    question = "Who are the authors of the Rcpp introduction paper?"
    reason = cited_elsewhere("Eddelbuettel and Horner", LITTLER, question)
    assert "(Eddelbuettel and Horner, 2021)" in reason and "about 'The littler package" in reason
    verdict = believing_gate().check("Eddelbuettel and Horner", [LITTLER], question)
    assert not verdict.supported and verdict.check == "guard: cited work", verdict.method


def test_a_reference_entry_says_who_wrote_the_work_it_names() -> None:
    verifier = believing_gate()
    question = "Who wrote the LINPACK users' guide?"
    assert verifier.check("Dongarra, Moler, Bunch and Stewart", [LITTLER], question).supported
    # the entry stays no evidence for what the work claims (the reference-list guard)
    verdict = verifier.check("Dongarra and Moler wrote about LINPACK users in 1979.", [LITTLER])
    assert not verdict.supported and verdict.check == "guard: reference", verdict.method
    # nor a "who" answer about another work
    verdict = verifier.check("Dongarra, Moler, Bunch and Stewart", [LITTLER], "Who wrote Rcpp?")
    assert not verdict.supported, verdict.method


@pytest.mark.parametrize(
    ("claim", "passage", "question"),
    [
        # the question is about the cited work: the reference list entry's title names it
        ("Eddelbuettel and Balamuta", LITTLER, "Who are the authors of the Rcpp introduction paper?"),
        # or its name stands right before the citation
        ("Eddelbuettel and Horner", LITTLER, "Who wrote littler?"),
        ("Eddelbuettel and Horner", LITTLER, "Who are the authors of the littler package?"),
        # or right after a narrative citation
        ("Noufaily et al.", NARRATIVE, "Who proposed the improved Farrington method?"),
        # the passage names them outside a citation too (a title page): not this guard's business
        (
            "Dirk Eddelbuettel",
            "Extending R with C++. Dirk Eddelbuettel and James Balamuta. As shown before "
            "(Eddelbuettel, 2013), R is extensible.",
            "Who wrote the paper?",
        ),
        # no citation at all
        ("Ada Lovelace", "Ada Lovelace wrote the first published program.", "Who wrote the first program?"),
        # not a "who" question
        ("2021", LITTLER, "When was littler released?"),
    ],
)
def test_other_answers_are_left_to_the_other_checks(claim: str, passage: str, question: str) -> None:
    assert cited_elsewhere(claim, passage, question) == ""
    assert believing_gate().check(claim, [passage], question).supported


def test_a_year_in_parentheses_that_is_no_citation_is_not_read_as_one() -> None:
    passage = "Grace Hopper led the team (from 1957) that wrote the FLOW-MATIC compiler."
    assert cited_elsewhere("Grace Hopper", passage, "Who led the team that wrote FLOW-MATIC?") == ""


@pytest.mark.parametrize(
    "passage",
    [
        "Cornell Haynes Jr. (born November 2, 1974), known professionally as Nelly, is an American rapper.",
        "Richard Kiel (September 13, 1939 – September 10, 2014) was an American actor.",
    ],
)
def test_dates_in_parentheses_are_no_citations(passage: str) -> None:
    # a Wikipedia biography's dates, and a relative "who" in a question about them
    assert (
        cited_elsewhere("November 2, 1974", passage, "When was the rapper who sang Hot in Herre born?") == ""
    )
    assert cited_elsewhere("Nelly", passage, "Who is Cornell Haynes Jr.?") == ""


# The Rcpp introduction's reference list (Eddelbuettel and Balamuta 2018, GPL-2+): the passage the
# answer "40" to "How many CRAN packages depend on Rcpp?" was taken from.
RCPP_REFERENCES = (
    "“Rcpp: Seamless R and C++ Integration.” Journal of Statistical Software, 40(8), 1–18. doi: "
    "10.18637/jss.v040.i08. URL https://doi.org/10.18637/jss.v040.i08. Eddelbuettel D, François R "
    "(2022a). Frequently Asked Questions About Rcpp. Vignette included in R package Rcpp."
)


@pytest.mark.parametrize(
    ("claim", "passage", "question"),
    [
        ("40", RCPP_REFERENCES, "How many CRAN packages depend on Rcpp?"),
        ("18", RCPP_REFERENCES, "How many unit tests does Rcpp have?"),
        ("Rcpp is used by 40 packages.", RCPP_REFERENCES, ""),
        ("12", "See Smith J (2001). A study. Nature, 410(6), 12-19.", "How many sites were studied?"),
        ("5", "as shown before (pp. 5-9)", "How many steps are there?"),
    ],
)
def test_a_cited_works_volume_or_pages_count_nothing(claim: str, passage: str, question: str) -> None:
    assert bibliographic_only(claim, passage, question)
    verdict = believing_gate().check(claim, [passage], question)
    assert not verdict.supported
    assert verdict.check == "guard: cited number"


@pytest.mark.parametrize(
    ("claim", "passage", "question"),
    [
        # asked for the place in the journal
        ("40", RCPP_REFERENCES, "In which volume of the journal did it appear?"),
        ("1–18", RCPP_REFERENCES, "On which pages was it printed?"),
        # the number stands outside the reference too
        ("40", "Some 40 packages use it. Journal of Statistical Software, 40(8), 1–18.", "How many?"),
        # a year in parentheses and a count beside a year are no volume
        ("25", "The town grew by 25 (2011 figures).", "By how much did the town grow?"),
        ("2022", RCPP_REFERENCES, "When was the FAQ vignette written?"),
    ],
)
def test_numbers_a_reference_does_not_hold_alone_pass(claim: str, passage: str, question: str) -> None:
    assert bibliographic_only(claim, passage, question) == ""


def test_prose_just_above_the_reference_list_is_no_entry() -> None:
    """ordinal's article (a window check): "CRAN", from the sentence right above "References", was
    refused as taken from a list of references."""
    from citedesk_engine.answer.cited_works import in_reference_entry

    prose = (
        "The results in this paper were obtained using R 4.2.2 with ordinal, version 2022.11.16. R itself "
        "and all packages used are available from CRAN at https://CRAN.R-project.org/."
    )
    entry = "Agresti A (2002). Categorical Data Analysis. 3rd edition. John Wiley & Sons."
    passage = f"Computational details\n\n{prose}\n\nReferences\n\n{entry}"
    assert not in_reference_entry(prose, passage)
    assert in_reference_entry(entry, passage)
    # Without the heading between them, the URL's sentence reads as the end of an entry before the next.
    assert in_reference_entry(prose, f"{prose}\n\n{entry}")
