"""Short answers naming fewer things than the question asks for."""

from __future__ import annotations

import pytest
from citedesk_engine.answer.counts import too_few_items
from factories import believing_gate

# Hutto and Gilbert (2014), VADER, section 3.2 (CC BY 4.0): the sentence before the numbered list.
HEURISTICS = (
    "This deep qualitative analysis resulted in isolating five generalizable heuristics based on "
    "grammatical and syntactical cues to convey changes to sentiment intensity."
)


@pytest.mark.parametrize(
    ("claim", "question", "said"),
    [
        (
            "grammatical and syntactical conventions.",
            "What are the five heuristics VADER uses besides the lexicon?",
            "the question asks for five; the answer names only two",
        ),
        (
            "time",
            "What are two basic primary resources used to gauge complexity?",
            "the question asks for two; the answer names only one",
        ),
        (
            "the Rhine",
            "Name the three rivers of the region.",
            "the question asks for three; the answer names only one",
        ),
        # an item that says a word of the question again is none of those asked for (crq's vignette:
        # its third value stood on the next page, and the model wrote the function's name)
        (
            "Powell, Portnoy, crq",
            "Which three values can the method argument of crq take?",
            "the question asks for three; the answer names only two (crq: the question's own word)",
        ),
        # unless the question offers its own list to choose from
        ("zoo, xts", "Which two of zoo, xts or sandwich handle irregular time series?", ""),
        ("Powell, Portnoy, PengHuang", "Which three values can the method argument of crq take?", ""),
        # as many as asked, however joined
        ("time and storage", "What are two basic primary resources used to gauge complexity?", ""),
        ("yes or no", "What are the two simple word responses to a decision problem?", ""),
        ("punctuation, capitalization, degree modifiers, but, negation", "What are the five heuristics?", ""),
        # the number counts something else, or is no count of answers
        ("cnidarians", "Which group has two layers of cells with a middle layer of mesoglea?", ""),
        ("Jon Voight", "What four time Golden Globe winner stars in the film Holes?", ""),
        ("Jon Voight", "What 4 time Golden Globe winner stars in the film Holes?", ""),
        ("Sweden", "Which country has two official languages?", ""),
    ],
)
def test_an_answer_naming_fewer_things_than_asked(claim: str, question: str, said: str) -> None:
    assert too_few_items(claim, question) == said


def test_the_gate_refuses_a_part_for_the_whole() -> None:
    verdict = believing_gate().check(
        "grammatical and syntactical conventions.",
        [HEURISTICS.replace("cues", "conventions")],
        "What are the five heuristics VADER uses besides the lexicon?",
    )
    assert not verdict.supported
    assert verdict.check == "guard: items"
