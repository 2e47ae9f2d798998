"""How sure the answer model was: the tokens that carry a claim's words, and their probabilities."""

from __future__ import annotations

from citedesk_engine.answer.certainty import generated_tokens, word_probabilities
from citedesk_engine.answer.claims import split_claims
from citedesk_engine.testing import ScriptedGenerator
from citedesk_engine.types import GeneratedToken


def tokens(*pairs: tuple[str, float]) -> list[GeneratedToken]:
    return [GeneratedToken(text, p) for text, p in pairs]


def test_citation_markers_spaces_and_punctuation_carry_no_words() -> None:
    written = tokens(("Bert", 0.4), (" Bolin", 0.9), (" [", 0.3), ("1", 0.2), ("]", 0.5), (".", 0.1))
    assert word_probabilities(written) == [0.4, 0.9]


def test_only_the_tokens_of_the_claims_own_sentence_count() -> None:
    written = tokens(
        ("Paris", 0.95), (".", 0.9), (" [", 0.8), ("1", 0.9), ("]", 0.9),
        (" It", 0.6), (" has", 0.9), (" 12", 0.3), (" bridges", 0.8), (".", 0.9),
    )  # fmt: skip
    text = "".join(t.text for t in written)
    first, second = split_claims(text)
    assert text[first.start : first.end] == "Paris. [1]" and first.text == "Paris."
    assert word_probabilities(written, first.start, first.end) == [0.95]
    assert word_probabilities(written, second.start, second.end) == [0.6, 0.9, 0.3, 0.8]


def test_claim_spans_point_into_the_answer_as_written() -> None:
    answer = "  Bert Bolin [1]. He chaired it [2]. "
    spans = [answer[c.start : c.end] for c in split_claims(answer)]
    assert spans == ["Bert Bolin [1].", "He chaired it [2]."]


def test_a_generator_that_cannot_say_gives_no_tokens() -> None:
    assert generated_tokens(ScriptedGenerator("Paris [1]")) == []
