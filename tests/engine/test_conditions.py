"""A value a passage gives for "otherwise" is no answer about the case it names another value for."""

from __future__ import annotations

import pytest
from citedesk_engine.answer.conditions import other_condition

# sandwich's vignette (r-cran-sandwich, sandwich-CL.pdf, page 12), as its PDF lines come
SANDWICH = (
    "Second, the HC\nbias correction from Equations 14–17 is specified via type with the default to use "
    '"HC1" for\n‘lm’ objects and "HC0" otherwise. Moreover, type = "HC2" and "HC3" are only available for'
)
LM = "Which HC bias-correction type does vcovCL() use by default for lm objects?"


@pytest.mark.parametrize("answer", ["HC0", '"HC0"', "The default is HC0.", "HC0 for lm objects"])
def test_the_value_given_otherwise_is_no_answer_for_the_case_named(answer: str) -> None:
    assert other_condition(answer, ["Unrelated passage.", SANDWICH], LM) == (
        'condition: the passage gives "HC1" for ‘lm’ objects, "HC0" otherwise'
    )


@pytest.mark.parametrize(
    ("answer", "question"),
    [
        ("HC1", LM),  # the value for the case named
        ("HC0 or HC1", LM),  # both: not a choice of the other one
        ("HC0", "Which HC type does vcovCL() use by default for glm objects?"),  # the other case
        ("HC0", "Which HC type does vcovCL() use by default?"),  # no case named
    ],
)
def test_other_answers_and_questions_are_not_refused(answer: str, question: str) -> None:
    assert other_condition(answer, [SANDWICH], question) == ""


def test_other_wordings_of_otherwise() -> None:
    passage = "The timeout is 30 seconds with TLS connections, but 10 seconds in all other cases."
    assert other_condition("10", [passage], "What is the timeout for TLS connections?") != ""
    assert other_condition("30", [passage], "What is the timeout for TLS connections?") == ""
