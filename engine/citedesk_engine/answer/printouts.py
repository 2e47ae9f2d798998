"""Figures of R printouts answering for something else than what they were printed for: a figure of
another printed row than the one named, a test result printed for another data set, a cell of a
printed table under another column.

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


def other_printed(claim: str, passage: str, question: str) -> str:
    """What the guard says when a figure of a printout answers for something else than it was printed
    for (`other_row`, `other_data`, `other_cell`); "" otherwise."""
    return (
        other_row(claim, passage, question)
        or other_data(claim, passage, question)
        or other_cell(claim, passage, question)
    )


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


def other_cell(claim: str, passage: str, question: str) -> str:
    """What the guard says when a figure answering for a printed table's row and column the question
    names is another cell ("the passage prints 28 for C4 under South, not 14"); "" otherwise. A window
    session asked vcd's vignette "How many piston ring failures were recorded for compressor C4 in the
    South leg?" and was shown 14, C4's North count, as verified: R prints the table as "compressor North
    Centre South" over "C4 14 7 28", and every figure of the row stands in the passage. A column is a
    name of the line over the rows that name as many columns as the rows have figures (after one that
    names the rows: "compressor")."""
    answer = claim.strip().rstrip(".").strip()
    if len(numbers(answer)) != 1:
        return ""
    asked = _asked_names(question)
    for header, rows in _printed_tables(passage):
        row = [name for name in rows if name.lower() in asked]
        column = [i for i, name in enumerate(header) if name.lower() in asked]
        if len(row) != 1 or len(column) != 1:
            continue
        cell = rows[row[0]][column[0]]
        if _number(cell) != _number(answer):
            return f"the passage prints {cell} for {row[0]} under {header[column[0]]}, not {answer}"
    return ""


def _printed_tables(passage: str) -> list[tuple[list[str], dict[str, list[str]]]]:
    """The printed tables of a passage: the column names of the line over each run of printed rows
    (`printed_rows`) and the rows, when that line names as many columns as the rows have
    figures (one more: the first names the rows)."""
    tables = []
    header: list[str] = []
    block: list[str] = []
    for line in [*passage.splitlines(), ""]:
        rows = printed_rows(line) if line.strip() else {}
        if rows:
            block.append(line)
            continue
        if block:
            found = printed_rows("\n".join(block))
            widths = {len(figures) for figures in found.values()}
            if len(widths) == 1 and len(header) - widths.pop() in (0, 1):
                tables.append((header[-len(next(iter(found.values()))) :], found))
            block = []
        if line.strip():
            # Column names are words: "Std." or "Pr(>|t|)" is part of a name written in two words
            # ("Estimate Std. Error"), which no count of words lines up with the figures.
            tokens = line.split()
            header = tokens if all(_COLUMN_NAME.fullmatch(t) for t in tokens) else []
    return tables


_COLUMN_NAME = re.compile(r"[A-Za-z][A-Za-z_-]*")


def _number(text: str) -> float | None:
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


# A printed row of figures: a line opening with a row's name (R's printouts: "## x1", "## (Intercept)
# 0.005536", "Comp.1 0.494"), its figures on it and on the lines under it up to the next name.
_ROW_NAME = re.compile(r"^(?:#+\s*)?(?P<name>[A-Za-z(][\w.()]*)(?:\s+(?P<rest>[-+<\d].*))?$")
FIGURE_TOKEN = re.compile(r"[-+<]?\d[\d.,]*(?:e[-+]?\d+)?\**")
_MIN_ROWS = 3


def other_row(claim: str, passage: str, question: str) -> str:
    """What the guard says when a figure answering for a printed row the question names ("x1") stands
    only in other rows of the printout ("the passage gives 0.00 for x2 and error, not for x1"); ""
    otherwise. The newcomer check's partial-residuals vignette: "In the summary of mod.1, what is the
    estimated coefficient of x1?" was answered "0.00" from the correlation matrix printed above the
    summary (x2's and error's rows) and shown as verified (0.88). A row is a name on a line of its
    own or before figures, its figures running to the next name; a name over no figures (a column
    name, "Median" over "3Q") names no row."""
    answer = claim.strip().rstrip(".").strip()
    if not numbers(answer):
        return ""
    rows = printed_rows(passage)
    if len(rows) < _MIN_ROWS:
        return ""
    asked = _asked_names(question)
    named = {name for name in rows if name.lower() in asked}
    if not named:
        return ""
    holders = [name for name, figures in rows.items() if answer in figures]
    if not holders or named & set(holders):
        return ""
    return f"the passage gives {answer} for {' and '.join(holders)}, not for {' or '.join(sorted(named))}"


def printed_rows(passage: str) -> dict[str, list[str]]:
    """The printed rows of a passage: each row's name and its figures as written."""
    rows: dict[str, list[str]] = {}
    name, figures = "", []
    for line in [*passage.splitlines(), "END"]:
        text = line.strip()
        tokens = text.lstrip("#").split()
        if tokens and all(FIGURE_TOKEN.fullmatch(t) for t in tokens):
            figures += [t.rstrip("*") for t in tokens]
            continue
        opened = _ROW_NAME.match(text)
        if name and figures:
            rows.setdefault(name, figures)
        name, figures = "", []
        if opened and all(FIGURE_TOKEN.fullmatch(t) for t in (opened.group("rest") or "").split()):
            name = opened.group("name")
            figures = [t.rstrip("*") for t in (opened.group("rest") or "").split()]
    return rows


def _asked_names(question: str) -> set[str]:
    """The question's words as a printout names rows and columns ("x1", "(intercept)", "c4"), lower-cased."""
    return set(re.findall(r"[\w.()]+", question.lower()))
