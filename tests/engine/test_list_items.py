"""An answer naming the wrong item of a list of parallel sentences (list_items.py)."""

from __future__ import annotations

from citedesk_engine.answer.list_items import other_item, other_label, other_quote
from citedesk_engine.answer.printouts import other_row
from citedesk_engine.answer.verify import ClaimVerifier
from citedesk_engine.config import VerifyConfig
from citedesk_engine.export import check_words
from factories import believing_gate


def gate_says(wrong: str, right: str, passages: tuple[str, str], question: str, check: str) -> str:
    """The gate (its verifier believing every claim) refuses `wrong` against the first passage by
    `check` and accepts `right` against the second; the words of its reason."""
    gate = believing_gate()
    verdict = gate.check(wrong, [passages[0]], question)
    assert not verdict.supported and verdict.check == check, verdict.method
    assert gate.check(right, [passages[1]], question).supported
    return check_words(verdict.method)


# Python's logging HOWTO (PSF-2.0), "Useful Handlers": the real-document set's q074 was answered
# "TimedRotatingFileHandler" and shown as verified (verifier 0.90).
HANDLERS = (
    "In addition to the base Handler class, many useful subclasses are provided:\n\n"
    "StreamHandler instances send messages to streams (file-like objects).\n\n"
    "FileHandler instances send messages to disk files.\n\n"
    "BaseRotatingHandler is the base class for handlers that rotate log files at a certain point.\n\n"
    "RotatingFileHandler instances send messages to disk files, with support for maximum log file sizes "
    "and log file rotation.\n\n"
    "TimedRotatingFileHandler instances send messages to disk files, rotating the log file at certain "
    "timed intervals.\n\n"
    "SMTPHandler instances send messages to a designated email address."
)
ROTATES = "Which handler rotates log files once they reach a maximum size?"


def test_a_name_opening_another_item_than_the_one_the_question_describes_is_refused() -> None:
    assert other_item("TimedRotatingFileHandler", HANDLERS, ROTATES) == (
        "the passage says that of RotatingFileHandler, not of TimedRotatingFileHandler"
    )
    assert other_item("`SMTPHandler`", HANDLERS, ROTATES)
    assert other_item("RotatingFileHandler", HANDLERS, ROTATES) == ""
    assert other_item("SMTPHandler", HANDLERS, "Which handler sends messages to an email address?") == ""


def test_no_list_no_guard() -> None:
    # a name outside the list, a longer answer, two sentences opening alike, and ordinary prose
    assert other_item("BaseRotatingHandler", HANDLERS, ROTATES) == ""
    assert other_item("RotatingFileHandler instances", HANDLERS, "Which handler sends email?") == ""
    two = "Alpha units store the logs. Beta units store the maximum sizes of the logs."
    assert other_item("Alpha", two, "Which units store the maximum sizes?") == ""
    prose = "The buyer shall pay within 30 days. The seller shall deliver the goods. The agent shall report."
    assert other_item("The", prose, "Who shall deliver the goods?") == ""


def test_the_gate_refuses_the_wrong_item_and_says_why() -> None:
    said = gate_says(
        "TimedRotatingFileHandler", "RotatingFileHandler", (HANDLERS, HANDLERS), ROTATES, "guard: list item"
    )
    assert said.startswith("the passage says that of RotatingFileHandler")
    assert ClaimVerifier(VerifyConfig()).check("RotatingFileHandler", [HANDLERS], ROTATES).supported


# rpart's "Introduction to Recursive Partitioning" (Therneau and Atkinson; Debian r-cran-rpart), page
# 23, as the PDF extractor writes it: "What does minbucket default to?" was answered "20", minsplit's
# default, and shown as verified (0.95).
SETTINGS = (
    "This ability to retain partially missing observations is perhaps the single\n"
    "most useful feature of rpart models.\n\n"
    "• control: a list of control parameters, usually the result of the rpart.control function. "
    "The list must contain\n\n"
    "– minsplit: The minimum number of observations in a node for which the routine\n\n"
    "will even try to compute a split. The default is 20. This parameter can save\n"
    "computation time, since smaller nodes are almost always pruned away by cross-validation.\n\n"
    "– minbucket: The minimum number of observations in a terminal node.\nThis\n"
    "defaults to minsplit/3.\n\n23"
)
MINBUCKET = "What does minbucket default to?"


def test_a_value_of_another_labelled_item_than_the_one_the_question_names_is_refused() -> None:
    assert other_label("20", SETTINGS, MINBUCKET) == "the passage gives 20 for minsplit, not for minbucket"
    assert other_label("minsplit/3", SETTINGS, MINBUCKET) == ""
    assert other_label("20", SETTINGS, "What is the default value of minsplit?") == ""
    # a key written with a hyphen is named with a space; the value must stand in its own item
    pins = "Package: *\nPin: release a=unstable\nPin-Priority: 800\n\nPackage: foo\nPin-Priority: 990"
    assert other_label("990", pins, "Which pin priority is given to foo?") == ""
    assert other_label("unstable", pins, "Which pin priority is set?") == (
        "the passage gives unstable for Pin, not for Pin-Priority"
    )


def test_no_labelled_list_or_no_label_named_no_guard() -> None:
    assert other_label("20", SETTINGS, "What is the default?") == ""  # the question names no item
    one = "Note: the default is 20.\n\nThe minimum bucket size is a third of that."
    assert other_label("20", one, "What does the note say about minbucket?") == ""
    # a number inside a longer one is not the answer's ("200" holds "20")
    assert other_label("20", SETTINGS.replace("is 20", "is 200"), MINBUCKET) == ""
    assert other_label("", SETTINGS, MINBUCKET) == ""


def test_the_gate_refuses_a_value_from_the_wrong_item_and_says_why() -> None:
    said = gate_says("20", "minsplit/3", (SETTINGS, SETTINGS), MINBUCKET, "guard: list item")
    assert said == "the passage gives 20 for minsplit, not for minbucket"


# Python 3.11's collections.html, as the HTML extractor writes it (a newcomer's check): "What is the
# name deque short for?" was answered "deck" and shown as verified (0.97).
DEQUE = (
    "Deques are a generalization of stacks and queues (the name is pronounced “deck” and is short for "
    "“double-ended queue”). Deques support thread-safe, memory efficient appends and pops from either "
    "side of the deque."
)


def test_a_term_the_passage_quotes_for_something_else_than_the_question_asks_is_refused() -> None:
    short_for = "What is the name deque short for?"
    assert other_quote("deck", DEQUE, short_for) == (
        "the passage quotes 'double-ended queue' after 'is short for', 'deck' after 'the name is pronounced'"
    )
    assert other_quote("double-ended queue", DEQUE, short_for) == ""
    assert other_quote('"deck"', DEQUE, "How is the name deque pronounced?") == ""
    # One quote in the sentence, or no quote led by the question's words: nothing to tell apart.
    assert other_quote("deck", "The name is pronounced “deck”.", short_for) == ""
    # Quotes of two clauses are two settings, each led by its own words (sandwich's vignette).
    settings = 'The HC type of each model: CL-0 uses vcovCL with type "HC0"; CL-1 uses type "HC1".'
    assert other_quote("HC1", settings, "Which HC type does vcovCL use by default for lm objects?") == ""
    options = 'The option "-v" means verbose and "-q" means quiet.'
    assert other_quote("-q", options, "Which option means verbose?") == ""
    gate_says("deck", "double-ended queue", (DEQUE, DEQUE), short_for, "guard: quoted term")


# flexmix's vignette, page 6, as the PDF extractor writes summary(m1)'s printout (a window session):
# "What is the BIC of model m1 in summary(m1)?" was answered "-642.5451", the log-likelihood, and
# shown as verified (0.77).
SUMMARY = (
    "R> summary(m1)\n\nCall:\nflexmix(formula = yn ~ x + I(x^2), data = NPreg, k = 2)\n\n"
    "prior size post>0 ratio\nComp.1 0.494\n100\n145 0.690\n\n"
    "'log Lik.' -642.5451 (df=9)\nAIC: 1303.09\nBIC: 1332.775"
)


def test_a_number_standing_in_no_item_is_not_the_value_of_the_item_named() -> None:
    bic = "What is the BIC of model m1 in summary(m1)?"
    assert other_label("-642.5451", SUMMARY, bic) == "the passage gives 1332.775 for BIC, not -642.5451"
    assert other_label("1303.09", SUMMARY, bic) == "the passage gives 1303.09 for AIC, not for BIC"
    assert other_label("1332.775", SUMMARY, bic) == ""
    # A word, not a number, standing outside the items is left to the other checks.
    assert other_label("flexmix", SUMMARY, bic) == ""
    # An item named that gives no number of its own says nothing about which number is its value.
    notes = "Intro line 42.\nAIC: see below\nBIC: see below"
    assert other_label("42", notes, bic) == ""


# effects' partial-residuals vignette, page 2, as the PDF extractor writes knitr's printouts (the
# newcomer check): "In the summary of mod.1, what is the estimated coefficient of x1?" was answered
# "0.00" from the correlation matrix and shown as verified (0.88).
CORRELATIONS = (
    "round(cor(Data.1), 2)\n\n##\nx1\nx2\nx3 error\ny\n## x1\n1.00 -0.03\n0.03\n0.01\n0.49\n"
    "## x2\n-0.03\n1.00 -0.01\n0.00 -0.01\n## x3\n0.03 -0.01\n1.00\n0.02\n0.03\n"
    "## error\n0.01\n0.00\n0.02\n1.00\n0.66\n## y\n0.49 -0.01\n0.03\n0.66\n1.00\n\n"
    "summary(mod.1 <- lm(y ~ x1 + x2 + x3, data = Data.1))"
)
COEFFICIENTS = (
    "## Residuals:\n##\nMin\n1Q\nMedian\n3Q\nMax\n## -7.7493 -1.3702\n0.0438\n1.3873\n8.3059\n##\n"
    "## Coefficients:\n##\nEstimate Std. Error t value Pr(>|t|)\n## (Intercept) 0.005536\n0.028923\n0.191\n"
    "0.848\n## x1\n1.010175\n0.025299\n39.929\n<2e-16\n## x2\n0.001697\n0.024929\n0.068\n0.946"
)


def test_a_figure_of_other_printed_rows_than_the_one_the_question_names_is_refused() -> None:
    question = "In the summary of mod.1, what is the estimated coefficient of x1?"
    assert other_row("0.00", CORRELATIONS, question) == "the passage gives 0.00 for x2 and error, not for x1"
    assert other_row("0.49", CORRELATIONS, question) == ""  # x1's own row gives it
    assert other_row("1.010175", COEFFICIENTS, question) == ""
    assert other_row("0.001697", COEFFICIENTS, question) == "the passage gives 0.001697 for x2, not for x1"
    # Column names over no figures of their own ("Median" over "3Q") name no row.
    assert other_row("0.0438", COEFFICIENTS, "What is the median residual of mod.1?") == ""
    # Fewer than three rows, or a word for an answer: not a printout's rows to tell apart.
    assert other_row("0.00", "## x1\n1.00\n## x2\n0.00", question) == ""
    assert other_row("x2", CORRELATIONS, question) == ""
    gate_says("0.00", "1.010175", (CORRELATIONS, COEFFICIENTS), question, "guard: list item")
