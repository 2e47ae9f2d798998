"""A figure printed for one data set is no answer for another (answer/printed_tests.py)."""

from __future__ import annotations

from citedesk_engine.answer.printed_tests import other_data
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
