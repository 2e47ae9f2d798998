"""The relevance gate on table blocks: one row holding every word of the question is relevant."""

from __future__ import annotations

import numpy as np
from citedesk_engine.answer.gates import relevance_gate, row_covers
from citedesk_engine.answer.text import content_stems
from citedesk_engine.config import AnswerConfig
from citedesk_engine.types import Candidate, EvidenceUnit

HEADER = "country,continent,year,lifeExp,pop,gdpPercap,iso_alpha,iso_num,centroid_lon,centroid_lat"
# plotly's gapminder.csv: a block starting at Botswana that holds Brazil's first row
BLOCK = (
    "Botswana,Africa,2002,46.634,1630347,11003.60508,BWA,72,24.0,-22.0\n"
    "Botswana,Africa,2007,50.728,1639131,12569.85177,BWA,72,24.0,-22.0\n"
    "Brazil,Americas,1952,50.917,56602560,2108.944355,BRA,76,-55.0,-10.0\n"
    "Brazil,Americas,1957,53.285,65551171,2487.365989,BRA,76,-55.0,-10.0"
)


def unit(passage: str = BLOCK) -> EvidenceUnit:
    return EvidenceUnit(
        "g-29", "gapminder.csv", "v", 29, passage, 0, len(passage), section="gapminder.csv", context=HEADER
    )


def stems(question: str) -> set[str]:
    return set(content_stems(question))


def test_a_row_holding_every_word_of_the_question_covers_it() -> None:
    assert row_covers(stems("What was the population of Brazil in 1952?"), unit())  # "pop" abbreviates it
    # a word no row holds, or words spread over two rows, cover nothing
    assert not row_covers(stems("What was the population of Brazil in 2010?"), unit())
    assert not row_covers(stems("What was the population of Brazil in 2007?"), unit())
    # the header alone is not a row: a question about a column is left to the other tests
    assert not row_covers(stems("What is the population?"), unit())


def test_the_gate_lets_a_block_through_on_a_row_that_covers_the_question() -> None:
    question = "What was the population of Brazil in 1952?"
    vector = np.array([1, 0, 0, 0], dtype=np.float32)
    far = np.array([0, 1, 0, 0], dtype=np.float32)  # a block of figures means little to the embedder
    candidates = [Candidate(unit(), {}, {}, 1.0)]
    judged, refusal = relevance_gate(question, vector, candidates, lambda ids: {"g-29": far}, AnswerConfig())
    assert refusal is None and judged[0].relevant
    judged, refusal = relevance_gate(
        "What was the population of Brazil in 2010?",
        vector,
        candidates,
        lambda ids: {"g-29": far},
        AnswerConfig(),
    )
    assert refusal is not None and not judged[0].relevant
