"""Short answers checked as answers: agreement with the reader's spans, the reader's decoding, and the
gate refusing another span of the right passage (with a scripted reader; the real one is in
test_reader_model.py)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from citedesk_engine.answer.answer_span import agreement, agrees, best_other
from citedesk_engine.answer.verify import ClaimVerifier
from citedesk_engine.config import VerifyConfig
from citedesk_engine.models.reader import decode
from citedesk_engine.types import Span

PASSAGE = (
    "The IPCC was established in 1988. Its first chair was Bert Bolin, who served until 1997; "
    "Rajendra K. Pachauri chaired it from 2002 to 2015."
)
QUESTION = "Who was the first chair of the IPCC?"


@pytest.mark.parametrize(
    ("answer", "span", "agree"),
    [
        ("Bert Bolin", "Bert Bolin", True),
        ("Bolin", "Bert Bolin", True),
        ("Rajendra K. Pachauri", "Bert Bolin", False),
        ("21 minutes", "21-minute", True),  # the same thing in another form
        ("ten", "ten human raters", True),  # a number word is its value; "human raters" asked
        ("10", "ten human raters", True),
        ("90,000+", "ten human raters", False),
        ("ten", "ten human raters, who scored over 9,000 features", False),  # a span naming much else
        ("1990", "1994", False),
        ("the 1990 World Cup", "the 1994 World Cup", False),  # a number must be the span's
        ("the IPCC", "Bert Bolin", False),  # only the question's words: names nothing
    ],
)
def test_agrees(answer: str, span: str, agree: bool) -> None:
    question = "How many human raters were there?" if "raters" in span else QUESTION
    assert agrees(answer, span, question) is agree


SPANS = [
    Span("Bert Bolin", 60, 70, 0.75),
    Span("Bolin", 65, 70, 0.246),
    Span("Rajendra K. Pachauri", 90, 110, 0.004),  # below min_reader_agreement
]


def test_agreement_is_the_belief_on_agreeing_spans() -> None:
    assert agreement("Bert Bolin", QUESTION, SPANS) == pytest.approx(0.996)
    assert agreement("Rajendra K. Pachauri", QUESTION, SPANS) == pytest.approx(0.004)
    assert agreement("Al Gore", QUESTION, SPANS) == 0.0
    assert best_other("Rajendra K. Pachauri", QUESTION, SPANS) == SPANS[0]
    assert best_other("Bert Bolin", QUESTION, SPANS) == SPANS[2]


def test_decode_takes_spans_of_the_passage_only() -> None:
    # Tokens: [CLS] who ? [SEP] bert bolin chaired [SEP]; offsets only for the passage's tokens.
    passage = "Bert Bolin chaired"
    window = {
        "ids": [0] * 8,
        "types": [0] * 8,
        "offsets": [None, None, None, None, (0, 4), (5, 10), (11, 18), None],
    }
    starts = np.array([[9.0, 8.0, 0, 0, 5.0, 1.0, 0.0, 0]])  # the question's tokens score highest
    ends = np.array([[9.0, 0, 8.0, 0, 0.0, 5.0, 1.0, 0]])
    spans = decode([window], starts, ends, passage, k=3)
    assert spans[0].text == "Bert Bolin" and spans[0].probability > 0.9
    assert all(s.text in passage and s.start < s.end for s in spans)
    assert sum(s.probability for s in decode([window], starts, ends, passage, k=50)) == pytest.approx(1.0)
    # An end before its start, or a window with no passage token, gives nothing.
    blank = {"ids": [0] * 3, "types": [0] * 3, "offsets": [None, None, None]}
    assert decode([blank], np.zeros((1, 3)), np.zeros((1, 3)), passage, k=3) == []


class ScriptedReader:
    def __init__(self, spans: Sequence[Span]) -> None:
        self._spans = list(spans)
        self.calls: list[tuple[str, str]] = []

    def spans(self, question: str, passage: str, k: int = 20) -> list[Span]:
        self.calls.append((question, passage))
        return self._spans[:k]


class AcceptingJudge:
    def supported(self, evidence: str, claim: str, question: str = "") -> float:
        return 1.0


# The reader reads every short answer (as when the answer model cannot say how sure it was).
EVERY = VerifyConfig(reader_below_certainty=1.0)


def gate(reader: ScriptedReader | None, config: VerifyConfig = EVERY) -> ClaimVerifier:
    judge = AcceptingJudge()
    return ClaimVerifier(config, None, lambda: judge, (lambda: reader) if reader else None)


def test_another_span_of_the_right_passage_is_refused() -> None:
    reader = ScriptedReader(SPANS)
    verdict = gate(reader).check("Rajendra K. Pachauri", [PASSAGE], QUESTION)
    assert not verdict.supported and verdict.check == "reader", verdict.method
    assert "'Bert Bolin'" in verdict.method  # says what the passage answers
    assert reader.calls == [(QUESTION, PASSAGE)]
    assert gate(reader).check("Bert Bolin", [PASSAGE], QUESTION).supported
    # Without a reader the verifier alone decides (and here lets the wrong span through).
    assert gate(None).check("Rajendra K. Pachauri", [PASSAGE], QUESTION).supported


def test_the_reader_reads_only_short_answers_that_are_spans() -> None:
    reader = ScriptedReader(SPANS)
    # A sentence is a claim, judged by alignment and the verifier, not by the reader.
    assert gate(reader).check("Rajendra K. Pachauri chaired the IPCC from 2002 to 2015.", [PASSAGE]).supported
    # One of the question's own options: the reader picks spans, not alternatives.
    options = "Was the first chair Bert Bolin or Rajendra K. Pachauri?"
    gate(reader).check("Rajendra K. Pachauri", [PASSAGE], options)
    assert reader.calls == []


def test_the_reader_reads_the_short_answers_the_answer_model_hesitated_over() -> None:
    reader = ScriptedReader(SPANS)
    doubting = gate(reader, VerifyConfig(reader_below_certainty=0.5))
    hesitant = doubting.check("Rajendra K. Pachauri", [PASSAGE], QUESTION, certainty=0.3)
    assert not hesitant.supported and hesitant.check == "reader" and len(reader.calls) == 1
    # Written without hesitation, or by a generator that cannot say: the verifier alone decides.
    assert doubting.check("Rajendra K. Pachauri", [PASSAGE], QUESTION, certainty=0.9).supported
    assert doubting.check("Rajendra K. Pachauri", [PASSAGE], QUESTION).supported
    assert len(reader.calls) == 1
    # An answer the reader agrees with says so, with the share of its belief.
    agreed = doubting.check("Bert Bolin", [PASSAGE], QUESTION, certainty=0.3)
    assert agreed.supported and ", reader " in agreed.method
