"""The per-claim gate: honest paraphrase passes; inverted roles, negation, numbers, names fail."""

from __future__ import annotations

import pytest
from citedesk_engine.answer.verify import ClaimVerifier
from citedesk_engine.config import VerifyConfig
from citedesk_engine.testing import HashEmbedder

PASSAGE = (
    "The Treaty of Lisbon was signed by the member states on 13 December 2007. It entered into force "
    "on 1 December 2009. Germany ratified the treaty after its constitutional court approved it. "
    "Napoleon defeated the Austrian army at Austerlitz in 1805."
)


@pytest.fixture
def verifier() -> ClaimVerifier:
    return ClaimVerifier(VerifyConfig())


@pytest.mark.parametrize(
    "claim",
    [
        "The Treaty of Lisbon entered into force on 1 December 2009.",
        "Member states signed the Treaty of Lisbon on 13 December 2007.",
        "Napoleon defeated the Austrian army at Austerlitz.",
        "The Austrian army was defeated by Napoleon at Austerlitz.",
    ],
)
def test_supported(verifier: ClaimVerifier, claim: str) -> None:
    verdict = verifier.check(claim, [PASSAGE])
    assert verdict.supported, verdict.method


@pytest.mark.parametrize(
    ("claim", "guard"),
    [
        ("The Treaty of Lisbon entered into force on 1 December 2010.", "number"),
        ("The Treaty of Lisbon was signed on 13 December 2007 by 30 states.", "number"),
        ("The Treaty of Lisbon did not enter into force on 1 December 2009.", "negation"),
        ("France ratified the treaty after its constitutional court approved it.", "name"),
        ("Austerlitz defeated the Napoleon army at Austrian in 1805.", "roles"),
    ],
)
def test_attacks_are_rejected_by_their_guard(verifier: ClaimVerifier, claim: str, guard: str) -> None:
    verdict = verifier.check(claim, [PASSAGE])
    assert not verdict.supported and guard in verdict.method, verdict.method


def test_absent_facts_fail_alignment(verifier: ClaimVerifier) -> None:
    verdict = verifier.check("The treaty created a European army with shared tanks.", [PASSAGE])
    assert not verdict.supported


def test_comparisons_the_passage_bears_out() -> None:
    verifier = ClaimVerifier(VerifyConfig())
    passage = "Hairspray Live was seen by 8.92 million viewers."
    assert verifier.check("Hairspray Live was seen by more than 8 million viewers.", [passage]).supported
    assert not verifier.check("Hairspray Live was seen by more than 9 million viewers.", [passage]).supported
    assert not verifier.check("Hairspray Live was seen by less than 8 million viewers.", [passage]).supported


def test_answers_are_judged_against_their_question() -> None:
    verifier = ClaimVerifier(VerifyConfig(), lambda: HashEmbedder())
    passage = "These were by Tony Martin, Paul Weston, Bing Crosby and Louis Armstrong."
    question = "Paul Weston and what other artist sang La Vie en rose?"
    assert verifier.check("Tony Martin", [passage], question).supported
    assert not verifier.check("Edith Piaf", [passage], question).supported
    restated = verifier.check("Paul Weston sang La Vie en rose.", [passage], question)
    assert not restated.supported and "adds nothing" in restated.method


def test_best_of_several_passages_decides(verifier: ClaimVerifier) -> None:
    verdict = verifier.check("Napoleon won at Austerlitz in 1805.", ["Unrelated text about bees.", PASSAGE])
    assert verdict.passage in (0, 1)
