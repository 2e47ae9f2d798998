"""A claim that gives one sentence's description ("X is a P") to another sentence's subject."""

from __future__ import annotations

import pytest
from citedesk_engine.answer.subjects import subject_moved
from factories import believing_gate

# The surveillance paper's section 3 (benchmarks/realdocs), where stop 40's wiki session found it.
SURVEILLANCE = (
    "First we describe the Farrington method introduced by Farrington, Andrews, Beale, and Catchpole "
    "(1996) together with the improvements proposed by Noufaily, Enki, Farrington, Garthwaite, Andrews, "
    "and Charlett (2012). As a Bayesian counterpart to these methods we present the BODA method "
    "published by Manitz and Höhle (2013) which allows the easy integration of covariates."
)


def test_the_description_of_another_sentences_subject_is_refused() -> None:
    claim = (
        "Farrington is a Bayesian counterpart to the methods introduced by Farrington, Andrews, Beale, "
        "and Catchpole (1996)."
    )
    reason = subject_moved(claim, SURVEILLANCE)
    assert "'Bayesian counterpart' of 'BODA" in reason and "not of 'Farrington'" in reason
    verdict = believing_gate().check(claim, [SURVEILLANCE])
    assert not verdict.supported and verdict.check == "guard: subject", verdict.method


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # the same claim of the right subject, named as the passage names it or more briefly
        ("The BODA method is a Bayesian counterpart to these methods.", SURVEILLANCE),
        ("BODA is a Bayesian counterpart to the Farrington methods.", SURVEILLANCE),
        # the sentence that describes refers to the subject with a pronoun
        (
            "BODA is a Bayesian method.",
            "Manitz and Höhle published BODA in 2013. It is a Bayesian method for outbreak detection.",
        ),
        # the subject is in the sentence that describes it
        ("Paris is the capital of France.", "France is a country in Europe. Its capital is Paris."),
        # the describing sentence names nothing else
        (
            "The tool is used to clean logs.",
            "The tool ships with Debian. Administrators use it to clean logs.",
        ),
        # one sentence: the other guards' business
        ("Lyon is the largest city of France.", "Paris is the largest city of France."),
        # not of the form "X is P"
        ("Farrington introduced a method in 1996.", SURVEILLANCE),
    ],
)
def test_other_claims_are_left_to_the_other_checks(claim: str, window: str) -> None:
    assert subject_moved(claim, window) == ""


def test_a_description_given_to_a_subject_the_describing_sentence_does_not_name() -> None:
    window = "Lyon is in France. Paris is the largest city of France."
    assert "'largest city' of 'Paris'" in subject_moved("Lyon is the largest city of France.", window)
