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
