from __future__ import annotations

import pytest
from citedesk_engine.answer.claims import split_claims


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Paris is in France [1]. It has 2.1 million people [2].",
            [("Paris is in France.", (1,)), ("It has 2.1 million people.", (2,))],
        ),
        (
            "Dr. Smith met J. R. R. Tolkien in the U.S. in 1950. [1][3] They talked, e.g. about maps [2, 3].",
            [
                ("Dr. Smith met J. R. R. Tolkien in the U.S. in 1950.", (1, 3)),
                ("They talked, e.g. about maps.", (2, 3)),
            ],
        ),
        ("The rate rose 3.5% in Jan. 2020 [1]", [("The rate rose 3.5% in Jan. 2020", (1,))]),
        ("员工不得披露机密信息。[1]他们很好。", [("员工不得披露机密信息。", (1,)), ("他们很好。", ())]),
        ("هل يجوز ذلك؟ لا يجوز [2]", [("هل يجوز ذلك؟", ()), ("لا يجوز", (2,))]),
        (
            "Visit example.com today! Is it open? Yes [1].",
            [("Visit example.com today!", ()), ("Is it open?", ()), ("Yes.", (1,))],
        ),
        ("   ", []),
        ("[1] [2]", []),
    ],
)
def test_split_claims(text: str, expected: list[tuple[str, tuple[int, ...]]]) -> None:
    assert [(c.text, c.citations) for c in split_claims(text)] == expected


def test_a_sentence_ends_at_its_period_when_the_line_breaks_right_after_it() -> None:
    from citedesk_engine.answer.claims import sentence_spans

    text = "results while being more economical).\nWe compensated AMT workers $0.25 for each batch."
    assert [text[a:b] for a, b in sentence_spans(text)] == [
        "results while being more economical).",
        "We compensated AMT workers $0.25 for each batch.",
    ]
    # a break inside a sentence is no end: "e.g.\nthe" and a decimal stay whole
    kept = "Some figures, e.g.\nthe rate of 3.5 per cent, are given."
    assert [kept[a:b] for a, b in sentence_spans(kept)] == [kept]


def test_a_sentence_keeps_its_closing_quotes_and_marks_and_a_mark_in_brackets_ends_nothing() -> None:
    """Debian FAQ quotes seen in a window session began with "”.)" and stopped at "Ian (!"."""
    from citedesk_engine.answer.claims import sentences

    see = (
        "It removes files created by the package.  (Also see Section 7.8, “What is a Virtual Package?”.)"
        "\n\nCurrently all of the control files can be found in /var/lib/dpkg/info."
    )
    assert sentences(see) == [
        "It removes files created by the package.",
        "(Also see Section 7.8, “What is a Virtual Package?”.)",
        "Currently all of the control files can be found in /var/lib/dpkg/info.",
    ]
    ian = (
        "This word is a contraction of the names of Debra and Ian Murdock, who founded the project.  "
        "(Dictionaries seem to offer some ambiguity in the pronunciation of Ian (!), but Ian prefers ee'-en.)"
    )
    assert sentences(ian)[1] == (
        "(Dictionaries seem to offer some ambiguity in the pronunciation of Ian (!), but Ian prefers ee'-en.)"
    )
    assert sentences("Is it? Yes! He said “go.” Then he left. It costs 5 (US) dollars.") == [
        "Is it?",
        "Yes!",
        "He said “go.”",
        "Then he left.",
        "It costs 5 (US) dollars.",
    ]


def test_a_bracket_beyond_the_passages_read_is_the_answers_own_text() -> None:
    # Python's sorting HOW TO: "What does sorted([5, 2, 3, 1, 4]) return?" - "[1, 2, 3, 4, 5]", with
    # three passages read, left no sentence to check.
    (claim,) = split_claims("[1, 2, 3, 4, 5]", passages=3)
    assert claim.text == "[1, 2, 3, 4, 5]" and claim.citations == ()
    (claim,) = split_claims("It returns [1, 2, 3, 4, 5] [2].", passages=3)
    assert claim.text == "It returns [1, 2, 3, 4, 5]." and claim.citations == (2,)
    # numbers within the passages read are citations, as without `passages`; so is a miscounted one
    assert split_claims("[1, 2]", passages=3) == split_claims("[1, 2]") == []
    (claim,) = split_claims("The bridge is 12.3 kilometres long [4].", passages=3)
    assert claim.text == "The bridge is 12.3 kilometres long." and claim.citations == (4,)
