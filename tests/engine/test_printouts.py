"""A figure of a printout is no answer for another data set or another column (answer/printouts.py)."""

from __future__ import annotations

from citedesk_engine.answer.printouts import other_cell, other_data, other_printed
from citedesk_engine.answer.verify import ClaimVerifier
from citedesk_engine.config import VerifyConfig

# vcd's residual-shadings vignette, page 3 (r-cran-vcd 1.4-11), as extracted.
ARTHRITIS = """Permutation test for conditional independence

data: art
f(x) = 1.8696, p-value = 0.0096

and the sum-of-squares test, indicate a significant departure from independence.

> coindep_test(art, n = 5000, indepfun = ss)

Permutation test for conditional independence

data: art
f(x) = 11.296, p-value = 0.0032
"""
PISTONS = "What p-value did the sum-of-squares permutation test give for the piston rings data?"


def test_a_figure_printed_for_other_data_is_refused_for_the_data_asked_about() -> None:
    """A window session was shown 0.0032, the Arthritis data's p-value, as verified for the piston rings."""
    assert other_data("0.0032", ARTHRITIS, PISTONS) == (
        "the passage prints 0.0032 for the data 'art', not for the data the question names"
    )
    # Named by the word its name shortens, or written apart, the data is the question's.
    assert other_data("0.0032", ARTHRITIS, "Which p-value did the test give for the Arthritis data?") == ""
    named_apart = ARTHRITIS.replace("data: art\nf(x) = 11.296", "data: pistonrings\nf(x) = 11.296")
    assert other_data("0.0032", named_apart, PISTONS) == ""
    other = other_data("0.0096", named_apart, PISTONS)
    assert other.startswith("the passage prints 0.0096 for the data 'art'")
    # A question that names no data, or a figure printed for none, is not judged here.
    assert other_data("0.0032", ARTHRITIS, "What p-value did the sum-of-squares test give?") == ""
    assert other_data("5000", ARTHRITIS, PISTONS) == ""


def test_the_gate_refuses_the_other_datas_figure() -> None:
    verdict = ClaimVerifier(VerifyConfig()).check("0.0032", [ARTHRITIS], PISTONS)
    assert not verdict.supported and "for the data 'art'" in verdict.method


# vcd's vignette, page 4: R's print of the piston-rings table, as extracted since 0.26.0.
PISTON_TABLE = """> pistonrings

leg
compressor North Centre South

C1 17 17 12
C2 11 9 13
C3 11 8 19
C4 14 7 28

Although there seems to be some slight association between the leg and the compressor"""


def test_a_cell_of_a_printed_table_under_another_column_is_refused() -> None:
    """Two window sessions were shown 14, C4's North count, as verified for its South one."""
    south = "How many piston ring failures were recorded for compressor C4 in the South leg?"
    assert other_cell("14", PISTON_TABLE, south) == "the passage prints 28 for C4 under South, not 14"
    assert other_cell("28", PISTON_TABLE, south) == ""
    worded = "In the piston rings table, what is the value in row C4, column South?"
    assert other_printed("14", PISTON_TABLE, worded).startswith("the passage prints 28 for C4 under South")
    # A question naming no column, or two rows, is not judged here; nor is a line of words over rows
    # that do not have as many figures as it names columns.
    assert other_cell("14", PISTON_TABLE, "How many failures did compressor C4 have?") == ""
    assert other_cell("14", PISTON_TABLE, "Did C1 or C4 fail more often in the South leg?") == ""
    summary = (
        "Coefficients:\nEstimate Std. Error t value Pr(>|t|)\n\nx1 0.52 0.11 4.7 0.001\nx2 0.10 0.20 0.5 0.62"
    )
    assert other_cell("0.11", summary, "What is the estimate of x1?") == ""
    two_words = "Estimate Std. Error\n\nx1 0.52 0.11\nx2 0.10 0.20"  # "Std." is no column of its own
    assert other_cell("0.11", two_words, "What is the std. error of x1?") == ""
    verdict = ClaimVerifier(VerifyConfig()).check("14", [PISTON_TABLE], south)
    assert not verdict.supported and "for C4 under South" in verdict.method
