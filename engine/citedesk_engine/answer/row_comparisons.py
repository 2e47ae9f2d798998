"""Two rows of a table compared, and the row with the most or least of something: which row a
question comparing rows asks for, and whether the answer is from it. Every cell is the passage's own
word, so no word check can tell: "2006" for the year fossil-fuel generation was highest, cited from
rows showing 2010 higher, and "Chuck Berry" for the younger of Chuck Berry (90) and Prince (57) were
shown as verified (window sessions)."""

from __future__ import annotations

import re

from ..index.table_keys import cell_separator
from ..types import EvidenceUnit
from .table_rows import answered_table, header_and_rows, rows_most_about, shown_row
from .text import content_stems, terms

# A question asking for the row with the most or least of something ("In which year was fossil-fuel
# net generation highest?"). "most" and "least" are left out: "the most common", "at least".
_HIGHEST = re.compile(r"\b(?:highest|largest|biggest|greatest|maximum|peak)\b", re.IGNORECASE)
_LOWEST = re.compile(r"\b(?:lowest|smallest|fewest|minimum)\b", re.IGNORECASE)
_NUMBER_CELL = re.compile(r"-?\d+(?:\.\d+)?")


def not_the_extreme(answer: str, unit: EvidenceUnit, question: str) -> str:
    """What the gate says when a question asking for the row with the highest (or lowest) value is
    answered from a row of a table passage when another row of the same passage, about the same
    thing, has a higher (lower) value in the column asked about: "2006" for the year fossil-fuel
    net generation was highest, cited from rows that show 2010 higher (a window session; every
    cell is the passage's own word, so no other check can refuse it). The rows compared are those
    holding the question's words that the answer's row holds ("Fossil Fuels"); the column is the
    numeric one the question names ("net generation" for net_generation), else the answer's own
    numeric cell's, else the only numeric column. "" when the question asks for no extreme, the
    passage is no table, or no single column can be told."""
    high, low = _HIGHEST.search(question), _LOWEST.search(question)
    if bool(high) == bool(low) or not unit.context:
        return ""
    read = answered_table(answer, unit, question)
    if read is None:
        return ""
    text, (header, spans), found = read
    separator = cell_separator(header)
    names = [name.strip() for name in header.split(separator)]
    cells = {span: [cell.strip() for cell in text[slice(*span)].split(separator)] for span in spans}
    # Of the rows holding the answer, those about what the question names ("2006" stands in the
    # fossil fuels row and the renewables row; the question is about fossil fuels).
    found = rows_most_about(found, text, question)
    asked = terms(question) - set(content_stems(header.replace("_", " ")))
    shared = asked & set.intersection(*(terms(text[slice(*span)]) for span in found))
    compared = [span for span in spans if shared <= terms(text[slice(*span)])]
    numeric = [
        j
        for j in range(len(names))
        if all(j < len(cells[span]) and _NUMBER_CELL.fullmatch(cells[span][j]) for span in compared)
    ]
    named = [j for j in numeric if (words := terms(names[j].replace("_", " "))) and words <= terms(question)]
    said = terms(answer)
    own = [j for j in numeric if any(terms(cells[span][j]) & said for span in found)]
    others = [j for j in numeric if j not in own]
    column = next((c[0] for c in (named, own, others) if len(c) == 1), None)
    if column is None:
        return ""
    sign = 1.0 if high else -1.0
    value = {span: sign * float(cells[span][column]) for span in compared}
    mine = max(value[span] for span in found)  # the answer's rows are among those compared
    beyond = max((span for span in compared if span not in found), key=lambda span: value[span], default=None)
    if beyond is None or value[beyond] <= mine:
        return ""
    word = (high or low).group(0).lower()  # type: ignore[union-attr]
    return (
        f"table extreme: the question asks for the {word} {names[column]!r}; the passage shows "
        f"{shown_row(text[slice(*beyond)])!r}, beyond the answer's row {shown_row(text[slice(*found[0])])!r}"
    )


# A comparison of two named rows by one column: the comparative, the words of the column it measures
# (none: the column the question names, "more deaths"), and whether the larger value answers.
_COMPARATIVES: dict[str, tuple[frozenset[str], bool]] = {
    "older": (frozenset({"age"}), True),
    "younger": (frozenset({"age"}), False),
    "taller": (frozenset({"height"}), True),
    "heavier": (frozenset({"weight", "mass"}), True),
    "lighter": (frozenset({"weight", "mass"}), False),
    "longer": (frozenset({"length", "duration"}), True),
    "more": (frozenset(), True),
    "higher": (frozenset(), True),
    "larger": (frozenset(), True),
    "bigger": (frozenset(), True),
    "greater": (frozenset(), True),
    "fewer": (frozenset(), False),
    "less": (frozenset(), False),
    "lower": (frozenset(), False),
    "smaller": (frozenset(), False),
}
_COMPARATIVE = re.compile(rf"\b(?:{'|'.join(_COMPARATIVES)})\b", re.IGNORECASE)
# The two options: "..., Chuck Berry or Prince?", "Who died older: Chuck Berry or Prince?".
_TWO_OPTIONS = re.compile(
    r"(?:^|[,:;]|\b(?:between|of)\b)\s*([^,:;?]+?)\s+or\s+([^,:;?]+?)\s*\??\s*$", re.IGNORECASE
)


def not_the_compared(answer: str, unit: EvidenceUnit, question: str) -> str:
    """What the gate says when a question asks which of two rows of a table has more (or less) of
    something ("Who was younger when they died, Chuck Berry or Prince?") and the answer names the
    option whose row holds the smaller (larger) value in the column compared: readxl's deaths.xlsx
    gave "Chuck Berry" both for "older" and for "younger", the verifier reading either option of
    the question as an answer (a window session). The column is the numeric one the comparative
    measures ("age" for "older") or the question names ("more deaths"). "" when the question names
    no comparative and two options, either option stands in no row or in several of the passage, or
    no single column can be told."""
    found = _COMPARATIVE.search(question)
    options = _TWO_OPTIONS.search(question)
    table = header_and_rows(unit.index_text)
    if found is None or options is None or table is None:
        return ""
    text, (header, spans) = unit.index_text, table
    separator = cell_separator(header)
    names = [name.strip() for name in header.split(separator)]
    measured, more = _COMPARATIVES[found.group(0).lower()]
    rows = {}
    for option in options.groups():
        wanted = set(content_stems(option))
        holding = [span for span in spans if wanted and wanted <= terms(text[slice(*span)])]
        if len(holding) != 1:
            return ""
        rows[option] = [cell.strip() for cell in text[slice(*holding[0])].split(separator)]
    said = set(content_stems(answer))
    chosen = [option for option in rows if said and said <= set(content_stems(option))]
    if len(chosen) != 1:
        return ""
    asked = measured or terms(question)
    numeric = [
        j
        for j, name in enumerate(names)
        if terms(name.replace("_", " ")) & asked
        and all(j < len(cells) and _NUMBER_CELL.fullmatch(cells[j]) for cells in rows.values())
    ]
    if len(numeric) != 1:
        return ""
    column = numeric[0]
    (mine,) = chosen
    (other,) = [option for option in rows if option != mine]
    value, against = float(rows[mine][column]), float(rows[other][column])
    if value == against or (value > against) == more:
        return ""
    return (
        f"table comparison: the question asks who is {found.group(0).lower()} by {names[column]!r}; the "
        f"passage gives {other} {rows[other][column]} against {mine} {rows[mine][column]}"
    )
