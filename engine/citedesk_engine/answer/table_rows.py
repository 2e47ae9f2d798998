"""Which row of a table an answer comes from, and whether it is the row the question is about.

A table unit is a header row and data rows, one per line, their cells separated by " | " (tables of
HTML, Word, PowerPoint and spreadsheets) or by commas and tabs (CSV). Every cell of every row is the
passage's own word, so the word checks of the gate pass any cell: "What is the numeric value of the
WARNING level?" was answered "40", the ERROR row's value, and the verifier read it as the passage's
answer (0.97). A question that names a row (a word of the question stands in some data rows and not
in others, and is not a column name) is answered from that row: an answer found only in other rows
is from the wrong row, and so is one from a row lacking a figure or date the question names (the
year 2009, December). A question that compares or orders rows ("after", "the highest", "more than")
is about more than one row and is not checked. A table cited for a name no cell, header or title of
it writes ("Portland" in Seattle's weather) answers for something else (`name_in_no_row`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..identifiers import identifiers
from ..index.table_keys import EMPTY_CELL, MONTHS, cell_separator, positions, question_keys
from ..types import EvidenceUnit
from .text import DATE_OR_TIME, STOPWORDS, content_stems, numbers, shorten, stem, terms, tokens, words

# A line is a row of cells split by " | ", by tabs, or by commas with no space after them (prose puts
# a space after its commas; "1,200" has one such comma, a row of three cells two).
_CSV_COMMA = re.compile(r",(?! )")
_ROW_TESTS = (
    lambda line: " | " in line,
    lambda line: "\t" in line,
    lambda line: len(_CSV_COMMA.findall(line)) >= 2,
)
_MIN_ROWS = 2  # data rows under the header: one row is a record, not a choice between rows
# Words that make a question about the order or comparison of rows, not about one row.
_ACROSS_ROWS = re.compile(
    r"\b(?:after|before|next|previous|preceding|following|than|first|last|latest|earliest|oldest|"
    r"newest|most|least|highest|lowest|largest|smallest|biggest|maximum|minimum|total|sum|average|"
    r"mean|how many|which rows?|all|every|each|between)\b|\w+est\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class WrongRow:
    named: str  # the row the question names, as written
    found: str  # a row the answer is taken from; "" when its values stand in no single row


def wrong_row(answer: str, passage: str, question: str) -> WrongRow | None:
    """The row the question names and the row `answer` was taken from, when they differ; None when
    the passage is not a table, the question names no row or compares rows, or the answer is found
    in a named row (or in no single row)."""
    table = _about_one_row(passage, question)
    if table is None:
        return None
    header, rows = table
    by_name = _by_name(answer, question, rows)
    if by_name is not None:
        return by_name
    header_stems = set(content_stems(header))
    row_stems = [terms(row) for row in rows]
    wanted = _added(answer, question, header_stems)
    if not wanted:
        return None
    holding = [i for i, stems in enumerate(row_stems) if wanted <= stems]
    if not holding:
        return _gathered(answer, question, header, rows)
    picking, missing = _picking_figures(question, header, rows, holding)
    if missing:
        having = [i for i, row in enumerate(rows) if picking <= _figures(row)]
        shown = (
            rows[having[0]]
            if having
            else f"{', '.join(sorted(picking))} (no row of this passage holds them all)"
        )
        return WrongRow(named=shown, found=rows[holding[0]])
    named = _named_rows(question, rows, header_stems)
    if named is None or any(i in named for i in holding):
        return None
    return WrongRow(named=rows[named[0]], found=rows[holding[0]])


def _gathered(answer: str, question: str, header: str, rows: list[str]) -> WrongRow | None:
    """An answer of several figures that no row holds together, for a question naming a row by a
    figure: values gathered from several rows. A window session asked a spreadsheet "What were the
    weight, waist and pulse of subject 14?" and was shown "162, 35, 50" as verified: subject 4's
    weight and waist, and a pulse of 50 (subject 14's row reads 247, 46, 50)."""
    wanted = _figures(answer) - _figures(question)
    picking, _ = _picking_figures(question, header, rows, [])
    if len(wanted) < 2 or not picking:
        return None
    named = [i for i, row in enumerate(rows) if picking <= _figures(row)]
    if not named or any(wanted <= _figures(rows[i]) for i in named):
        return None
    # The row the figure names is the one it opens ("14 | 1 | 50 ...", not "13 | 14 | 215 ..."):
    keyed = [i for i in named if _figures(rows[i].split(cell_separator(header))[0]) & picking]
    return WrongRow(named=rows[(keyed or named)[0]], found="")


def _by_name(answer: str, question: str, rows: list[str]) -> WrongRow | None:
    """An answer written whole in other rows than the row a question names by a name written with
    symbols ("(1 | g1/g2)": the words "g1" and "g2" stand in other rows too, so no word of the
    question names its row). lme4's table of formulas gave the next row's formula, "(1 | g1) + (1 |
    g2)", for the alternative of "(1 | g1/g2)", its words all the question's."""
    names = [name for name in identifiers(question) if name[:1].isalpha()]  # not a date, a version
    whole = " ".join(answer.lower().split()).strip(" .")
    if not names or not whole:
        return None
    flat = [" ".join(row.lower().split()) for row in rows]
    named = [i for i, row in enumerate(flat) if any(name in row for name in names)]
    holding = [i for i, row in enumerate(flat) if whole in row]
    if not named or len(named) == len(rows) or not holding or set(named) & set(holding):
        return None
    return WrongRow(named=rows[named[0]], found=rows[holding[0]])


_YEAR = re.compile(r"[12]\d{3}")


def _picking_figures(
    question: str, header: str, rows: list[str], holding: list[int]
) -> tuple[set[str], set[str]]:
    """The question's figures that pick a row, and those of them that no row holding the answer
    holds. A figure picks a row when it stands in some data row of the passage ("2009" and "dec" of
    "IBM's price on Dec 1 2009"), or when it is part of a date and the rows hold that part of dates
    (the row of that year or month may be in another passage of the table: `_date_part`). The rows
    holding most of the question's words (`_named_rows`) can all miss one of them: of a block of the
    stocks table ending in September 2009, "IBM,Dec 1 2007,103.7" held as many as any row, and its
    price was given, cited and shown as verified for December 2009. A column name's figure does not
    count."""
    row_figures = [_figures(row) for row in rows]
    asked = _figures(question) - _figures(header)
    held_kinds = {_date_part(n) for figures in row_figures for n in figures} - {""}
    picking = {
        n
        for n in asked
        if any(n in figures for figures in row_figures) or (_date_part(n) and _date_part(n) in held_kinds)
    }
    return picking, {n for n in picking if not any(n in row_figures[i] for i in holding)}


def _date_part(figure: str) -> str:
    """What part of a date a figure is (a year, a month, a day, a whole date), or "" for another: a
    date the question names picks a row even where no row of the passage holds it, if the rows hold
    dates ("January 2006" against a block of us-employment.csv starting in March 2006)."""
    if _YEAR.fullmatch(figure):
        return "year"
    if figure in MONTHS:
        return "month"
    return figure.split(" ", 1)[0] if figure.startswith(("day ", "date ")) else ""


def _figures(text: str) -> set[str]:
    """The numbers of a row or a question, for telling rows apart. A date's parts are read as such:
    a date or time written with digits whole and its year alone ("1993-08-16" is no 16 of "Debian
    16"); a day as a day ("Dec 1 2009", "1 December", "2019-07-06"'s 6), never as the plain number;
    a month named in a date by its first three letters ("dec"). Leading zeros are dropped."""
    found: set[str] = set()
    for date in DATE_OR_TIME.findall(text):
        found.add(date)
        found |= {part for part in re.split(r"[-:/]", date) if _YEAR.fullmatch(part)}
        iso = _ISO_DATE.fullmatch(date)
        if iso and 1 <= int(iso.group(2)) <= 12:  # "2019-07-06" (or 2019/07/06) is 6 July 2019
            year, month, day = iso.group(1), int(iso.group(2)), _bare(iso.group(3))
            found |= {MONTHS[month - 1], f"day {day}", f"date {year}-{month}-{day}"}
        month_of = _YEAR_MONTH.fullmatch(date)
        if month_of and 1 <= int(month_of.group(2)) <= 12:  # "2009-06" is June 2009
            found.add(MONTHS[int(month_of.group(2)) - 1])
    text = DATE_OR_TIME.sub(" ", text)
    for named in _DAY_AND_MONTH.finditer(text):
        month, day = (named.group(1), named.group(2)) if named.group(1) else (named.group(4), named.group(3))
        found |= {month[:3].lower(), f"day {_bare(day)}"}
    text = _DAY_AND_MONTH.sub(" ", text)
    found |= {m.group(1)[:3].lower() for m in _MONTH_AND_YEAR.finditer(text)}
    return found | {_bare(n) for n in numbers(text)}


_YEAR_MONTH = re.compile(r"(\d{4})[-/](\d{1,2})")
_ISO_DATE = re.compile(r"(\d{4})[-/](\d{1,2})[-/](\d{1,2})")
_MONTH_NAME = (
    r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
# "Dec 1", "December 1st", "1 December" (the year, when written, stays a number); "March 2005". A
# month is only read beside a number: "may" alone is a verb.
_DAY_AND_MONTH = re.compile(
    rf"\b{_MONTH_NAME}\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?![.:/-]?\d)|\b(\d{{1,2}})(?:st|nd|rd|th)?\s+{_MONTH_NAME}\b",
    re.IGNORECASE,
)
_MONTH_AND_YEAR = re.compile(rf"\b{_MONTH_NAME}\.?,?\s+(?=\d{{4}}\b)", re.IGNORECASE)


def _bare(number: str) -> str:
    return number.lstrip("0") or "0"


def _named_rows(question: str, rows: list[str], header_stems: set[str]) -> list[int] | None:
    """The rows the question names (those holding most of its words that pick rows: words in some
    data rows but not all, and no column name), or None when it names none."""
    row_keys = [_keys(row) for row in rows]
    keys = {
        s
        for s in _keys(question)
        if s not in header_stems and 0 < sum(s in found for found in row_keys) < len(rows)
    }
    if not keys:
        return None
    hits = [len(keys & found) for found in row_keys]
    return [i for i, hit in enumerate(hits) if hit == max(hits)]


@dataclass(frozen=True, slots=True)
class WrongColumn:
    asked: str  # the column the question names
    found: str  # the column the answer's cell is in


def wrong_column(answer: str, passage: str, question: str) -> WrongColumn | None:
    """The column the question asks for and the column `answer` was taken from, when they differ:
    "When was Debian 10 released?" answered with the row's `created` date, not its `release` one.
    The question asks for a column when every word of its name is the question's ("released" names
    `release`) and no cell of that column is in the question (then the column picks a row instead:
    "Which version was released on 2019-07-06?"); exactly one column must be asked for. The
    answer's cells are looked for in the rows the question names (all rows when it names none); None
    when the answer is in no cell, or in a cell of the column asked for."""
    table = _about_one_row(passage, question)
    if table is None:
        return None
    header, rows = table
    separator = cell_separator(header)
    columns = [c.strip() for c in header.split(separator)]
    cells = [[c.strip().strip('"') for c in row.split(separator)] for row in rows]
    asked_terms = terms(question)
    asked = _asked_columns(columns, cells, question)
    if len(asked) != 1:
        return None
    # An answer that is also a column's name is a cell too: "1" in a table with columns "1" to "5".
    wanted = terms(answer) - asked_terms
    wanted = wanted - set(content_stems(header)) or wanted
    if not wanted:
        return None
    named = _named_rows(question, rows, set(content_stems(header))) or range(len(rows))
    holding = {i for r in named for i, cell in enumerate(cells[r]) if cell and wanted <= terms(cell)}
    if not holding or asked[0] in holding:
        return None
    return WrongColumn(
        asked=columns[asked[0]], found=columns[min(holding)] if min(holding) < len(columns) else ""
    )


def _asked_columns(columns: list[str], cells: list[list[str]], question: str) -> list[int]:
    """The columns a question asks for: every word of the name is the question's ("released" names
    `release`, "end of life" names `eol`: `_initials`), and no cell of the column is in the question
    (then the column picks a row instead)."""
    asked_terms = terms(question) | _initials(question)
    return [
        i
        for i, name in enumerate(columns)
        if content_stems(name)
        and set(content_stems(name)) <= asked_terms
        and not any(i < len(row) and row[i] and terms(row[i]) <= asked_terms for row in cells)
    ]


def _initials(question: str) -> set[str]:
    """The initials of three to five words in a row of the question ("end of life": "eol", "miles per
    gallon": "mpg"): a column is often named by them. "When will Debian 14 Forky reach end of life?"
    was answered with Forky's `created` date and shown as verified: the column asked for, `eol`, was
    not seen as asked."""
    spoken = [w for w in words(question) if w.isalpha()]
    return {
        "".join(w[0] for w in spoken[i : i + size])
        for size in range(3, 6)
        for i in range(len(spoken) - size + 1)
    }


def _other_column(answer: str, header: str, row: str, question: str) -> str:
    """What the gate says when `answer` gives a cell of `row` from a column the question does not ask
    for, where it asks for some ("the petal length and petal width of the first flower" answered
    "5.1, 1.4": 5.1 is its sepal length); "" otherwise. A cell counts when its whole value stands in
    the answer; one that stands in an asked column too is not held against it. An answer giving more
    values than the columns seen asked for is not checked: the question names the others in words of
    its own ("the depth and magnitude": `depth` is seen, `mag` is not)."""
    separator = cell_separator(header)
    columns = [c.strip() for c in header.split(separator)]
    cells = [c.strip().strip('"') for c in row.split(separator)]
    asked = set(_asked_columns(columns, [cells], question))
    if not asked:
        return ""
    given: dict[str, set[int]] = {}
    for i, cell in enumerate(cells[: len(columns)]):
        if cell and cell.lower() not in question.lower() and _whole(cell).search(answer):
            given.setdefault(cell.lower(), set()).add(i)
    if len(given) > len(asked):
        return ""  # more values than columns seen asked for: the question names others its own way
    for cell, found in given.items():
        if not found & asked:
            names = ", ".join(repr(columns[i]) for i in sorted(asked))
            return (
                f"table column: {cell} is the column {columns[min(found)]!r}, the question asks for {names}"
            )
    return ""


def _whole(cell: str) -> re.Pattern[str]:
    """A cell's value standing whole in a text: "5.1" in "5.1, 1.4", not in "15.1" or "5.12"."""
    return re.compile(rf"(?<![\w.]){re.escape(cell)}(?![\w]|\.\d)", re.IGNORECASE)


def wrong_cell(answer: str, passage: str, question: str) -> str:
    """What the gate says when `answer` is a cell of another row or column of the table than the one
    the question asks about ("table row: ...", "table column: ..."); "" otherwise."""
    row = wrong_row(answer, passage, question)
    if row is not None and not row.found:
        return (
            f"table row: the question is about {shorten(row.named, 60)!r}, "
            "and no row holds all the answer's values"
        )
    if row is not None:
        return (
            f"table row: the question is about {shorten(row.named, 60)!r}, "
            f"the answer is from {shorten(row.found, 60)!r}"
        )
    column = wrong_column(answer, passage, question)
    if column is not None:
        return (
            f"table column: the value is from the column {column.found!r}, "
            f"the question asks for {column.asked!r}"
        )
    return ""


# "the first country to ratify", "the first release with systemd": the first of the rows meeting a
# condition, which may be any row; only "the first chick (in chickwts)" means the table's first row.
_CONDITIONED = re.compile(
    r"\b(?:first|top|1st)\s+(?:[\w.-]+\s+){0,3}?(?:with|without|that|which|who|whose|where|to|after|"
    r"before|since|having|containing|above|below|over|under|exceeding|in which)\b",
    re.IGNORECASE,
)


def wrong_position(answer: str, unit: EvidenceUnit, question: str) -> str:
    """What the gate says when a question about the first row of a table it names ("the first chick
    in the chickwts sheet") is answered from another row: from a later part of the table (a unit that
    does not start with the header row), or from another row of its first part; or from the first
    row's cell of a column the question does not ask for (`_other_column`). The gate's words
    cannot tell: every row's cells are the passage's own words. "" when the question asks for no
    table's first row, when the answer is from it or from no single row, or when a word of the
    question stands in the answer's row and not in the first ("the first chick fed linseed": the
    question's condition picks that row)."""
    if (
        positions(question) != {"first"}
        or not unit.context
        or unit.section.lower() not in question_keys(question)
        or _CONDITIONED.search(question)
    ):
        return ""
    read = answered_table(answer, unit, question)
    if read is None:
        return ""
    text, table, rows = read
    start = unit.passage.startswith(unit.context)
    first, found = (text[slice(*table[1][0])] if start else ""), text[slice(*rows[0])]
    picked = terms(question) - set(content_stems(unit.context)) - terms(unit.section)
    if picked & (terms(found) - terms(first)):
        return ""
    if not start:
        return (
            f"table position: the question asks for the first row of {unit.section!r}, "
            f"the answer is from a later part of it, {shown_row(found)!r}"
        )
    if table[1][0] in rows:
        return _other_column(answer, table[0], first, question)
    return (
        f"table position: the question asks for the first row, {shown_row(first)!r}, "
        f"the answer is from {shown_row(found)!r}"
    )


def rows_most_about(rows: list[tuple[int, int]], text: str, question: str) -> list[tuple[int, int]]:
    """Of `rows` (offsets into `text`), those holding most of the question's words, or all of them
    when none holds any: the row a question names among the rows holding its answer ("2019-07-06" is
    Buster's release day and the day Bullseye's row was created; the question names Buster)."""
    asked = terms(question)
    held = [len(asked & terms(text[a:b])) for a, b in rows]
    most = max(held, default=0)
    return [row for row, count in zip(rows, held, strict=True) if count == most] if most else rows


def answered_table(
    answer: str, unit: EvidenceUnit, question: str
) -> tuple[str, tuple[str, list[tuple[int, int]]], list[tuple[int, int]]] | None:
    """A table unit's text as the gate reads it (the header row first), its header and rows, and the
    rows holding the answer; None when it is no table or no single row holds the answer."""
    text = unit.index_text
    table = header_and_rows(text)
    rows = answer_rows(answer, text, question)
    return (text, table, rows) if table is not None and rows else None


def shown_row(row: str) -> str:
    """A row as a reason shows it: a spreadsheet's tabs as " | ", at most 60 characters."""
    return shorten(row.replace("\t", " | "), 60)


def name_in_no_row(question: str, passage: str) -> str:
    """What the gate says when a table passage is cited for a question naming something (a
    capitalised word past the first, or a word in capitals) that neither its rows nor its header nor
    its title write: "the maximum temperature in Portland on 2012-01-05" was answered with Seattle's,
    from seattle-weather.csv, and "the IATA code of London Heathrow" with London-Corbin's (a
    Kentucky airport), both shown as verified. Every cell is the passage's own word, and a short
    answer names nothing of the question, so no other check sees it. A row stands for what its cells
    write; a name they do not write ("Amazon" for the symbol AMZN) is not theirs to answer for. A
    month or a weekday is a date's word, not a name. "" when the passage is no table or writes every
    name of the question."""
    if not question or header_and_rows(passage) is None:
        return ""
    written = {stem(word) for word in words(passage)}
    missing = []
    for position, token in enumerate(tokens(question)):
        word = token.lower().removesuffix("'s").removesuffix("’s")
        if not (token.isupper() and len(token) > 1) and (position == 0 or not token[:1].isupper()):
            continue
        if word in STOPWORDS or word[:3] in _CALENDAR and _CALENDAR_WORD.fullmatch(word):
            continue
        found = stem(word)
        if found not in written and not any(len(found) >= 5 and w.startswith(found) for w in written):
            missing.append(token.removesuffix("'s").removesuffix("’s"))
    if not missing:
        return ""
    named = ", ".join(dict.fromkeys(missing))
    return f"the question names {named}; no row of the table cited does"


_CALENDAR = frozenset(MONTHS) | frozenset("mon tue wed thu fri sat sun".split())
_CALENDAR_WORD = re.compile(
    rf"{_MONTH_NAME}|sept|(?:mon|tues|wednes|thurs|fri|satur|sun)(?:day)?|tue|wed|thu|sat",
    re.IGNORECASE,
)


def compares_rows(question: str, columns: str = "", rows: list[str] | None = None) -> bool:
    """Whether a question compares or orders the rows of a table ("after", "the highest", "how
    many") rather than asking about one row. A word that names a column is no comparison: the
    "maximum temperature" of a day is the column `temp_max` (`columns`: the header row). Nor is "how
    many" beside a date, a year or a month, or where the question names one of the `rows` (its
    words pick out one row): "How many worked in construction in January 2006?" asks for the figure
    of January 2006's row, and was answered from March's; "How many votes did Coderre get in
    district 101-Bois-de-Liesse?" was answered with district 122's; both shown as verified."""
    named = {w for w in re.findall(r"[a-z]{3,}", columns.lower())}
    across = [
        found.group(0).lower()
        for found in _ACROSS_ROWS.finditer(question)
        if not any(found.group(0).lower().startswith(word) for word in named)
    ]
    if not across or any(word != "how many" for word in across):
        return bool(across)
    if any(_date_part(figure) for figure in _figures(question) - _figures(columns)):
        return False
    picked = _named_rows(question, rows, set(content_stems(columns))) if rows else None
    return picked is None or len(picked) != 1


def _about_one_row(passage: str, question: str) -> tuple[str, list[str]] | None:
    """The header and data rows of a table passage, for a question about one row of it; None when
    the passage is no table or the question compares or orders rows."""
    table = header_and_rows(passage) if question else None
    if table is None:
        return None
    header, spans = table
    rows = [passage[a:b] for a, b in spans]
    if compares_rows(question, header, rows):
        return None
    return header, rows


def answer_rows(answer: str, passage: str, question: str = "") -> list[tuple[int, int]] | None:
    """Where in `passage` (offsets into it) the data rows that hold `answer` stand: every word the
    answer adds to the question and the column names, of those in the table's rows, is in the row
    ("The first chick got horsebean and weighed 179": 179 and horsebean, not "got"). None when the
    passage is not a table; an empty list when no single row holds the answer."""
    table = header_and_rows(passage)
    if table is None:
        return None
    header, spans = table
    rows = [terms(passage[a:b]) for a, b in spans]
    wanted = _added(answer, question, set(content_stems(header))) & set().union(*rows)
    if not wanted:
        return []
    return [span for span, row in zip(spans, rows, strict=True) if wanted <= row]


def row_lines(passage: str) -> frozenset[str]:
    """The lines of `passage` that are a table's header and rows (stripped); empty for prose."""
    table = header_and_rows(passage)
    if table is None:
        return frozenset()
    header, spans = table
    return frozenset([header.strip()] + [passage[a:b].strip() for a, b in spans])


def is_table(passage: str) -> bool:
    """Whether `passage` is a table: a header row and data rows (see `header_and_rows`)."""
    return header_and_rows(passage) is not None


def _keys(text: str) -> set[str]:
    """The words of a row or question that can name a row: its content words and its figures, a date
    read as a date (`_figures`: "Debian 16" is not sid's row for the 16 of its date 1993-08-16, and
    "6 July 2019" names the row of 2019-07-06, not version 6's)."""
    return set(content_stems(_NOT_WORDS.sub(" ", text))) | _figures(text)


# What `_figures` reads: numbers and dates, and the months named in dates.
_NOT_WORDS = re.compile(
    rf"\d[\d.,:/-]*|\b{_MONTH_NAME}\b\.?(?=,?\s*\d)|(?<=\d\s){_MONTH_NAME}\b", re.IGNORECASE
)


def _added(answer: str, question: str, header_stems: set[str]) -> set[str]:
    """What the answer adds to the question, less column names ("the level's value is 40": 40). An
    answer that is only a column's name is a cell too: "Joly" won district 102, in the `winner`
    column of a table with a `Joly` column (its row was not found, and the whole block was marked)."""
    added = terms(answer) - terms(question)
    return added - header_stems or added


def header_and_rows(passage: str) -> tuple[str, list[tuple[int, int]]] | None:
    """The header and the data rows (offsets into the passage) of a passage that is a table, or
    None. A table: at least three lines that one separator splits into cells, and nearly every line
    does (a table's title, the line before its header, does not; rows may leave trailing cells out)."""
    lines, offset = [], 0
    for line in passage.splitlines(keepends=True):
        text = line.strip()
        if text:
            start = offset + line.index(text)
            lines.append((start, start + len(text)))
        offset += len(line)
    for is_row in _ROW_TESTS:
        cells = [(a, b) for a, b in lines if is_row(passage[a:b])]
        if len(cells) >= _MIN_ROWS + 1 and len(cells) >= 0.8 * len(lines) - 1:
            (a, b), *rows = cells
            if len(rows) > _MIN_ROWS and 2 * _written(passage[a:b]) <= _written(passage[slice(*rows[0])]):
                (a, b), *rows = rows  # a label over the columns, the column names under it
            return passage[a:b], rows
    return None


def _written(line: str) -> int:
    """How many cells of a row write something (not "" nor EMPTY_CELL). A row writing at most half as
    many cells as the next is a label over the columns ("– | – | Least—Most bitter" over "Temperature
    | Contact | 1 | 2 | 3 | 4 | 5" in ordinal's Table 4): read as the header, it left the columns
    unnamed, and "1", the cell of column 2, was shown as verified for column 4 of the row asked about."""
    separator = cell_separator(line)
    return sum(1 for cell in line.split(separator) if cell.strip() not in ("", EMPTY_CELL))
