"""The key cell of each row of a table unit, and the keys a question may name a row by.

A table's rows rarely hold the words of a question about them: "What is the codename of Debian 12?"
is answered by the row "12,Bookworm,bookworm,2021-08-14,..." of a release table, whose only word in
common with the question is "12", and that "12" stands in most rows' dates too; the embedder does not
place a row of numbers near a question either. In a 261-page manual beside it, the table's units ranked
below the manual's table-of-contents pages and were never read by the answer model. A row is named by
its first cell (a version, a name, a year, an identifier): the library keeps each table row's first
cell, normalised, so a question that writes it finds the unit holding that row
(retrieve/retrievers.py, `TableRowRetriever`).

A table unit is one with a `context` (its header row, which every extractor of tables sets); its cells
are split as the header's are: " | " (HTML, Word, PowerPoint, spreadsheets), tabs, or commas (CSV).
"""

from __future__ import annotations

import re

from ..types import EvidenceUnit

# An empty cell before a row's first written one. Left out, it moved the row's cells a column to the
# left: a header with an empty corner cell ("", "median", "Kaplan-Meier", ...) named each column of
# its rows by the next column's name, and the gate refused crq's right Kaplan-Meier value as being
# from the column "Nelson-Aalen" (a window session). Empty cells between written ones are "".
EMPTY_CELL = "–"
_MAX_KEY = 60  # characters: a longer first cell is prose, not a key
_MAX_WORDS = 3  # a question's phrases looked up as keys: words, and runs of two and three
_WORD = re.compile(r"[^\W_]+(?:[.,'’-][^\W_]+)*", re.UNICODE)
_POSSESSIVE = re.compile(r"['’]s$")
_NUMBER = re.compile(r"[-+]?\d+(?:,\d{3})*(?:\.\d+)?")
# Words that never name a row alone (a first cell "the" or "of" is no key for a question's "the").
_STOP = frozenset(
    """a an and are as at be by can did do does for from has have how in into is it its of on or that
    the their there these this to was were what when where which who whom whose why will with""".split()
)


def normal_key(text: str) -> str:
    """A cell or a phrase as a key: lower case, spaces collapsed, a number without its thousands
    commas or trailing zeros ("6.0" is 6, "1,200" is 1200), a date as year-month-day ("2013/03/03",
    "March 3, 2013" and "3 March 2013" are "2013-03-03": a weather table keyed by its dates was
    not found by a question writing the date in words)."""
    key = " ".join(text.lower().split())
    if _NUMBER.fullmatch(key):
        key = key.replace(",", "").lstrip("+")
        if "." in key:
            key = key.rstrip("0").rstrip(".")
    return _date_key(key) or key


# Keys made before dates were read as dates (version 1) are made again when a library is opened.
KEYS_VERSION = "2"
# The months by their first three letters, as dates write them ("Dec", "December"); table_rows reads
# a question's dates with the same names.
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH_NUMBER = {name: i for i, name in enumerate(MONTHS, 1)}
_NUMERIC_DATE = re.compile(r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})")
_MONTH_FIRST = re.compile(r"([a-z]{3,9})\.? (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})")
_DAY_FIRST = re.compile(r"(\d{1,2})(?:st|nd|rd|th)? ([a-z]{3,9})\.?,? (\d{4})")


def _date_key(key: str) -> str:
    """A key that is a date, written year-month-day with two-digit month and day; "" for another."""
    if found := _NUMERIC_DATE.fullmatch(key):
        year, month, day = int(found.group(1)), int(found.group(2)), int(found.group(3))
    elif (found := _MONTH_FIRST.fullmatch(key)) and found.group(1)[:3] in _MONTH_NUMBER:
        year, month, day = int(found.group(3)), _MONTH_NUMBER[found.group(1)[:3]], int(found.group(2))
    elif (found := _DAY_FIRST.fullmatch(key)) and found.group(2)[:3] in _MONTH_NUMBER:
        year, month, day = int(found.group(3)), _MONTH_NUMBER[found.group(2)[:3]], int(found.group(1))
    else:
        return ""
    return f"{year:04d}-{month:02d}-{day:02d}" if 1 <= month <= 12 and 1 <= day <= 31 else ""


def cell_separator(header: str) -> str:
    """What splits a table's rows into cells, as its header row shows."""
    if " | " in header:
        return " | "
    if "\t" in header:
        return "\t"
    return ","


def row_keys(unit: EvidenceUnit) -> set[str]:
    """The first cells of the data rows of a table unit (none for another unit)."""
    keys = set()
    for cells in _data_rows(unit):
        key = normal_key(cells[0].strip().strip('"'))
        if key and len(key) <= _MAX_KEY and key not in _STOP:
            keys.add(key)
    return keys


def _data_rows(unit: EvidenceUnit) -> list[list[str]]:
    """The cells of each data row of a table unit (its lines but the header); none for another."""
    if not unit.context:
        return []
    header = unit.context.strip()
    separator = cell_separator(header)
    lines = (line.strip() for line in unit.passage.splitlines())
    return [line.split(separator) for line in lines if line and line != header and separator in line]


def question_keys(question: str) -> set[str]:
    """The words and runs of up to three words of a question, as keys ("Debian 12" gives "debian",
    "12" and "debian 12")."""
    tokens = [_POSSESSIVE.sub("", t) for t in _WORD.findall(question)]  # "IBM's price": IBM
    keys = set()
    for size in range(1, _MAX_WORDS + 1):
        for i in range(len(tokens) - size + 1):
            run = tokens[i : i + size]
            if size == 1 and run[0].lower() in _STOP:
                continue
            keys.add(normal_key(" ".join(run)))
    return keys


def row_match(unit: EvidenceUnit, question: str) -> int:
    """How many of the question's words (less stop words) the data row of a table unit that holds
    most of them holds, each cell read as its own words ("IBM,Dec 1 2009,130.32" holds "ibm", "dec",
    "1" and "2009" of "What was IBM's price on Dec 1 2009?"); 0 for another unit. A long table keyed
    by a column that repeats (560 rows of five stock symbols) has many units holding a row that its
    first cell keys; the one holding the row the question names should come first."""
    asked = {key for key in question_keys(question) if " " not in key}
    held = ({normal_key(t) for cell in cells for t in _WORD.findall(cell)} for cells in _data_rows(unit))
    return max((len(asked & words) for words in held), default=0)


_FIRST = frozenset({"first", "top", "1st"})
_LAST = frozenset({"last", "final", "bottom"})


def positions(question: str) -> set[str]:
    """The ends of a table a question asks about by position ("the first earthquake listed"):
    "first", "last", or both."""
    said = {w.lower() for w in _WORD.findall(question)}
    return ({"first"} if said & _FIRST else set()) | ({"last"} if said & _LAST else set())
