"""A figure of a printed test result answering for another data set than the one it was printed for.

R prints a test's result under the data it was run on ("data: art", then "f(x) = 11.296, p-value =
0.0032"), and a vignette prints several such results one after another, for several data sets. A window
session on vcd's residual-shadings vignette asked "What p-value did the sum-of-squares permutation test
give for the piston rings data?" and was shown 0.0032, printed for the Arthritis data ("data: art"),
as verified: every word of the answer stands in the passage.
"""

from __future__ import annotations

import re

from .text import numbers, words

# A printed result's data line: "data: art", "data:  x and y", "## data: pistonrings".
_DATA_LINE = re.compile(r"^\s*(?:#+\s*)?data:\s+(?P<name>\S.*?)\s*$")
# A question that names the data it asks about.
_ASKS_DATA = re.compile(r"\b(?:data|dataset|data set)\b", re.IGNORECASE)


def other_data(claim: str, passage: str, question: str) -> str:
    """What the guard says when a figure answering for the data the question names stands only in
    results printed for other data ("the passage prints 0.0032 for the data 'art', not for the data the
    question names"); "" otherwise, and when the question names no data."""
    answer = claim.strip().rstrip(".").strip()
    if not numbers(answer) or not _ASKS_DATA.search(question):
        return ""
    results = _printed_results(passage)
    value = re.compile(rf"(?<![\w.]){re.escape(answer)}(?![\w]|\.\d)")
    holders = [name for name, text in results if value.search(text)]
    if not holders or any(_named(name, question) for name in holders):
        return ""
    return f"the passage prints {answer} for the data {holders[0]!r}, not for the data the question names"


def _printed_results(passage: str) -> list[tuple[str, str]]:
    """Each printed result's data name and its lines: from its data line to the next blank line."""
    results: list[tuple[str, str]] = []
    name, lines = "", []
    for line in [*passage.splitlines(), ""]:
        opened = _DATA_LINE.match(line)
        if opened:
            if name:
                results.append((name, "\n".join(lines)))
            name, lines = opened.group("name"), []
        elif name and not line.strip():
            results.append((name, "\n".join(lines)))
            name, lines = "", []
        elif name:
            lines.append(line)
    return results


def _named(name: str, question: str) -> bool:
    """Whether the question names the data: by its name ("art"), a word it shortens ("Arthritis" for
    "art"), its words written apart ("piston rings" for "pistonrings"), or one of its words of three
    letters or more ("x and y": not "and")."""
    asked = words(question)
    joined = {"".join(asked[i : i + n]) for n in (1, 2, 3) for i in range(len(asked) - n + 1)}
    parts = [w for w in re.findall(r"[a-z0-9]+", name.lower()) if len(w) >= 3 and w != "and"]
    whole = "".join(re.findall(r"[a-z0-9]+", name.lower()))
    return any(said.startswith(part) for said in joined for part in [whole, *parts] if part)
