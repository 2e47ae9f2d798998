"""An answer taken from another row of a table than the one the question names is refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from citedesk_engine import Engine
from citedesk_engine.answer.evidence_spans import supporting_spans
from citedesk_engine.answer.flow import AnswerFlow
from citedesk_engine.answer.row_comparisons import not_the_compared, not_the_extreme
from citedesk_engine.answer.table_rows import (
    answer_rows,
    compares_rows,
    header_and_rows,
    name_in_no_row,
    wrong_cell,
    wrong_column,
    wrong_position,
    wrong_row,
)
from citedesk_engine.answer.verify import ClaimVerifier
from citedesk_engine.config import AnswerConfig, VerifyConfig
from citedesk_engine.testing import HashEmbedder
from citedesk_engine.types import Candidate, EvidenceUnit, Retrieval

# us-employment.csv (vega_datasets 0.9.0): a block starting in March 2006.
EMPLOYMENT = (
    "us-employment.csv\nmonth,nonfarm,private,construction\n"
    "2006-03-01,136059,114156,7689\n2006-04-01,136227,114308,7726\n2006-05-01,136258,114350,7738"
)
# plotly's election.csv (Montreal's 2013 mayoral election): four districts.
ELECTION = (
    "election.csv\ndistrict,Coderre,Bergeron,Joly,total,winner,result,district_id\n"
    "101-Bois-de-Liesse,2481,1829,3024,7334,Joly,plurality,101\n"
    "102-Cap-Saint-Jacques,2525,1163,2675,6363,Joly,plurality,102\n"
    "122-Pointe-aux-Trembles,4734,1879,2852,9465,Coderre,majority,122\n"
    "182-Saint-Jacques,1741,1149,2282,6357,Joly,plurality,182"
)

# The Python logging HOWTO's table (a Sphinx HTML table, as the HTML extractor writes it, with its
# title line from the unit's section).
LEVELS = (
    "Logging Levels\n"
    "Level | Numeric value\n"
    "logging.CRITICAL | 50\n"
    "logging.ERROR | 40\n"
    "logging.WARNING | 30\n"
    "logging.INFO | 20\n"
    "logging.DEBUG | 10\n"
    "logging.NOTSET | 0"
)
# Debian's release table (distro-info-data), as a CSV unit with its header as context.
RELEASES = (
    "debian.csv\n"
    "version,codename,series,created,release,eol\n"
    "10,Buster,buster,2017-06-17,2019-07-06,2022-09-10\n"
    '11,Bullseye,bullseye,2019-07-06,2021-08-14,"2024-08-14"\n'
    "12,Bookworm,bookworm,2021-08-14,2023-06-10,"
)


class AcceptingJudge:
    def supported(self, evidence: str, claim: str, question: str = "") -> float:
        return 1.0


def gate() -> ClaimVerifier:
    judge = AcceptingJudge()
    return ClaimVerifier(VerifyConfig(), None, lambda: judge)


def test_a_value_of_the_next_row_is_refused_and_the_named_rows_value_accepted() -> None:
    question = "What is the numeric value of the WARNING level?"
    row = wrong_row("40", LEVELS, question)
    assert row is not None
    assert row.named == "logging.WARNING | 30" and row.found == "logging.ERROR | 40"
    assert wrong_row("30", LEVELS, question) is None
    assert wrong_row("The WARNING level has the numeric value 30.", LEVELS, question) is None
    wrong = gate().check("40", [LEVELS], question)
    assert not wrong.supported and wrong.check == "guard: table row"
    assert "logging.WARNING | 30" in wrong.method
    assert gate().check("30", [LEVELS], question).supported


FORMULAS = (
    "Formula\tAlternative\tMeaning\n"
    "(1 | g)\t1 + (1 | g)\tRandom intercept with fixed mean.\n"
    "(1 | g1/g2)\t(1 | g1)+(1 | g1:g2)\tIntercept varying among g1 and g2 within g1.\n"
    "(1 | g1) + (1 | g2)\t1 + (1 | g1) + (1 | g2)\tIntercept varying among g1 and g2."
)


def test_a_row_named_by_a_name_written_with_symbols_is_the_row_asked_about() -> None:
    # lme4's table of formulas (a window session): the words of "(1 | g1/g2)" stand in other rows.
    question = "What is the alternative way to write the random-effects formula (1 | g1/g2)?"
    row = wrong_row("(1 | g1) + (1 | g2)", FORMULAS, question)
    assert (
        row is not None
        and row.named.startswith("(1 | g1/g2)")
        and row.found.startswith("(1 | g1) + (1 | g2)")
    )
    assert wrong_row("(1 | g1)+(1 | g1:g2)", FORMULAS, question) is None


def test_a_sentence_answer_from_the_wrong_row_is_refused_too() -> None:
    verdict = gate().check(
        "The WARNING level has the numeric value 40.", [LEVELS], "What numeric value does WARNING have?"
    )
    assert not verdict.supported and verdict.check == "guard: table row"


def test_a_csv_row_is_named_by_a_number_of_the_question() -> None:
    question = "What is the codename of Debian 12?"
    row = wrong_row("Bullseye", RELEASES, question)
    assert row is not None and row.named.startswith("12,Bookworm")
    assert wrong_row("Bookworm", RELEASES, question) is None


def test_rows_that_leave_trailing_cells_out_are_rows() -> None:
    # debian.csv's rows of releases not yet out have four cells of eight; Forky has no end of life,
    # and Trixie's was given for it.
    releases = (
        "debian.csv\n"
        "version,codename,series,created,release,eol,eol-lts,eol-elts\n"
        "13,Trixie,trixie,2023-06-10,2025-08-09,2028-08-09,2030-06-30,2035-06-30\n"
        "14,Forky,forky,2025-08-09\n"
        "15,Duke,duke,2027-08-01\n"
        ",Sid,sid,1993-08-16"
    )
    row = wrong_row("2030-06-30", releases, "When will Debian 14 Forky reach end of life?")
    assert row is not None and row.named == "14,Forky,forky,2025-08-09"


@pytest.mark.parametrize(
    ("answer", "question"),
    [
        # Comparing or ordering rows: the answer is rightly from another row than the one named.
        ("logging.ERROR", "Which level comes after logging.WARNING in severity?"),
        ("logging.CRITICAL", "Which level has the highest numeric value?"),
        ("logging.ERROR", "Which level is more severe than logging.WARNING?"),
        # The question names no row (its words are column names or in every row).
        ("Numeric value", "What does the table give for each level?"),
        # The question names the row by the answer's own cell.
        ("logging.ERROR", "Which level has the numeric value 40?"),
    ],
)
def test_questions_about_more_than_one_row_or_none_are_not_checked(answer: str, question: str) -> None:
    assert wrong_row(answer, LEVELS, question) is None


def test_prose_is_not_a_table() -> None:
    prose = (
        "The buyer, in all cases, shall pay\n"
        "the seller, the agent, and the bank\n"
        "within thirty days, or, if not, the\n"
        "interest accrues, at five percent."
    )
    assert wrong_row("the agent", prose, "Whom must the buyer pay within thirty days?") is None
    assert wrong_row("40", "One level is ERROR | 40 and another is WARNING | 30.", "WARNING?") is None


def test_an_answer_in_no_single_row_or_in_the_header_is_not_checked() -> None:
    question = "What is the numeric value of the WARNING level?"
    assert wrong_row("30 or 40", LEVELS, question) is None
    assert wrong_row("Numeric value", LEVELS, question) is None
    assert wrong_row("40", LEVELS, "") is None


def test_a_number_of_the_question_names_a_row_by_a_cell_not_by_part_of_a_date() -> None:
    # "What is the codename of Debian 16?" (no such row) was answered "sid": the 16 of sid's date
    # 1993-08-16 made it the row asked about.
    releases = (
        "debian.csv\n"
        "version,codename,series,created\n"
        "14,Forky,forky,2025-08-09\n"
        "15,Duke,duke,2027-08-01\n"
        ",Sid,sid,1993-08-16\n"
        ",Experimental,experimental,1993-08-16"
    )
    assert wrong_row("sid", releases, "What is the codename of Debian 16?") is None  # names no row
    row = wrong_row("Duke", releases, "What is the codename of Debian 14?")
    assert row is not None and row.named.startswith("14,Forky")
    # A whole date names its row.
    row = wrong_row("Forky", releases, "Which release was created on 2027-08-01?")
    assert row is not None and row.named.startswith("15,Duke")


# The window session's case: "When was Debian 10 released?" answered with row 10's `created` date,
# which is also row 9's `release` date, and shown as verified (verifier 0.83).
FOUR = (
    "debian.csv\n"
    "version,codename,series,created,release,eol\n"
    "8,Jessie,jessie,2013-05-04,2015-04-26,2018-06-17\n"
    "9,Stretch,stretch,2015-04-26,2017-06-17,2020-07-18\n"
    "10,Buster,buster,2017-06-17,2019-07-06,2022-09-10\n"
    "11,Bullseye,bullseye,2019-07-06,2021-08-14,2024-08-14"
)


def test_a_value_of_another_column_of_the_named_row_is_refused() -> None:
    question = "When was Debian 10 released?"
    column = wrong_column("2017-06-17", FOUR, question)
    assert column is not None and (column.asked, column.found) == ("release", "created")
    assert wrong_column("2019-07-06", FOUR, question) is None
    verdict = gate().check("2017-06-17", [FOUR], question)
    assert not verdict.supported and verdict.check == "guard: table column"
    assert "'created'" in verdict.method and "'release'" in verdict.method
    assert gate().check("2019-07-06", [FOUR], question).supported


@pytest.mark.parametrize(
    ("answer", "question"),
    [
        # the column picks the row (one of its cells is in the question): the answer is another column's
        ("10", "Which Debian version was released on 2019-07-06?"),
        # no column named, or two
        ("Buster", "What is Debian 10 called?"),
        ("30", "What is the numeric value of the WARNING level?"),
        # the column asked for holds the answer (codename and series hold the same word)
        ("Buster", "What is the codename of Debian 10?"),
        # rows compared: not one row's cell
        ("2019-07-06", "Which release came after 2017-06-17?"),
    ],
)
def test_columns_that_pick_rows_or_are_not_asked_for_are_not_checked(answer: str, question: str) -> None:
    table = LEVELS if "WARNING" in question else FOUR
    assert wrong_column(answer, table, question) is None


# readxl's datasets.xlsx, the chickwts sheet's first rows, as the spreadsheet extractor writes them.
CHICKS = "weight | feed\n179 | horsebean\n160 | horsebean\n136 | horsebean\n227 | horsebean"
FIRST_CHICK = "In the chickwts sheet, what feed did the first chick get and how much did it weigh?"


def chick_unit(passage: str) -> EvidenceUnit:
    return EvidenceUnit(
        "v-00001",
        "/docs/datasets.xlsx",
        "v",
        1,
        passage,
        0,
        len(passage),
        section="chickwts",
        context="weight | feed",
    )


def test_the_first_row_of_a_named_table_is_the_one_asked_for_by_position() -> None:
    first = chick_unit(CHICKS)
    # row 2's values, each the passage's own words: the gate's words cannot tell (issue 21)
    wrong = wrong_position("The first chick got horsebean and weighed 160.", first, FIRST_CHICK)
    assert wrong.startswith("table position:")
    assert "'179 | horsebean'" in wrong and "'160 | horsebean'" in wrong
    assert wrong_position("The first chick got horsebean and weighed 179.", first, FIRST_CHICK) == ""
    # a block further down the sheet, without the header row, is not the table's start
    later = chick_unit("148 | linseed\n169 | linseed\n213 | linseed")
    assert "later part" in wrong_position("It got linseed and weighed 148.", later, FIRST_CHICK)


@pytest.mark.parametrize(
    "question",
    [
        "What feed did the first chick get and how much did it weigh?",  # no table named
        "In the chickwts sheet, which was the first chick with a weight over 150?",
        "In the chickwts sheet, what did the first and the last chick weigh?",  # both ends
        "In the chickwts sheet, what did the second chick weigh?",
    ],
)
def test_questions_not_about_a_named_tables_first_row_are_not_checked(question: str) -> None:
    assert wrong_position("It weighed 160.", chick_unit(CHICKS), question) == ""
    later = chick_unit("148 | linseed\n169 | linseed\n213 | linseed")
    assert wrong_position("It weighed 148.", later, question) == ""


def test_a_condition_of_the_question_in_the_answers_row_picks_that_row() -> None:
    later = chick_unit("148 | linseed\n169 | linseed\n213 | linseed")
    question = "In the chickwts sheet, what is the weight of the first chick fed linseed?"
    assert wrong_position("It weighed 148.", later, question) == ""
    # a row the condition does not pick, in the table's first part, is still not the one asked for
    assert wrong_position("It weighed 160.", chick_unit(CHICKS), question) != ""


def test_only_an_ingested_tables_first_unit_holds_its_header(tmp_path: Path) -> None:
    # debian.csv as the ingest cuts it: its first unit starts with the header; no later one holds it.
    docs = tmp_path / "docs"
    docs.mkdir()
    rows = [f"{n}.0,Name{n},name{n},20{n:02d}-01-01,20{n:02d}-06-01,20{n:02d}-12-31" for n in range(1, 90)]
    (docs / "debian.csv").write_text(
        "version,codename,series,created,release,eol\n" + "\n".join(rows), "utf-8"
    )
    with Engine.open(tmp_path / "lib", embedder=HashEmbedder()) as engine:
        engine.ingest([docs])
        (document,) = engine.documents()
        units = [u for u in engine.units(document.document) if u.context]
    assert len(units) > 1
    question = "Which release is first in debian.csv?"
    assert wrong_position("Name1, version 1.0", units[0], question) == ""
    assert "Name2" in wrong_position("Name2, version 2.0", units[0], question)
    for unit in units[1:]:
        assert "later part" in wrong_position("Name80, version 80.0", unit, question)


class Replies:
    def __init__(self, reply: str) -> None:
        self.reply = reply

    def generate(self, messages, *, max_tokens, on_token=None, cancel=None):  # type: ignore[no-untyped-def]
        return self.reply


@pytest.mark.parametrize(("weight", "supported"), [("160", False), ("179", True)])
def test_an_answer_from_another_row_than_the_first_asked_for_is_refused_by_the_flow(
    weight: str, supported: bool
) -> None:
    unit = chick_unit(CHICKS)
    embedder = HashEmbedder()
    vector = embedder.embed([unit.passage])[0]
    flow = AnswerFlow(
        retrieve=lambda query, k, asked, variants: Retrieval(query, (Candidate(unit, {}, {}, 1.0, 0.9),), ()),
        embed_query=lambda text: embedder.embed([text])[0],
        stored_vectors=lambda ids: {unit.unit_id: vector},
        generator=lambda: Replies(f"horsebean / {weight} [1]"),  # what the packaged model wrote
        verifier=gate(),
        config=AnswerConfig(),
        tiers=dict,
        paths=dict,
        library_empty=lambda: False,
        calibrated_rerank=True,
    )
    (claim,) = flow.ask(FIRST_CHICK, k=1).claims
    assert claim.supported is supported
    if not supported:
        assert claim.method.startswith("guard: table position: the question asks for the first row")


# readxl's datasets.xlsx: the iris and quakes sheets' first rows, as the spreadsheet extractor writes them.
IRIS = (
    "Sepal.Length | Sepal.Width | Petal.Length | Petal.Width | Species\n5.1 | 3.5 | 1.4 | 0.2 | setosa\n"
    "4.9 | 3 | 1.4 | 0.2 | setosa\n4.7 | 3.2 | 1.3 | 0.2 | setosa"
)
QUAKES = (
    "lat | long | depth | mag | stations\n-20.42 | 181.62 | 562 | 4.8 | 41\n-20.62 | 181.03 | 650 | 4.2 | 15"
)


def sheet_unit(passage: str, section: str) -> EvidenceUnit:
    header = passage.split("\n", 1)[0]
    return EvidenceUnit(
        "v-1", "/docs/datasets.xlsx", "v", 1, passage, 0, len(passage), section=section, context=header
    )


def test_a_first_rows_cell_of_a_column_not_asked_for_is_refused() -> None:
    iris = sheet_unit(IRIS, "iris")
    question = "What are the petal length and petal width of the first flower in the iris sheet?"
    wrong = wrong_position("5.1, 1.4", iris, question)  # what the packaged model wrote: 5.1 is a sepal's
    assert wrong.startswith("table column: 5.1 is the column 'Sepal.Length'")
    assert wrong_position("1.4, 0.2", iris, question) == ""
    assert wrong_position("The petal length is 1.4 and the petal width 0.2.", iris, question) == ""
    # the question names a column its own way ("magnitude" for `mag`, "weigh" for `weight`): not checked
    quakes = sheet_unit(QUAKES, "quakes")
    asked = "What were the depth and magnitude of the first earthquake listed in the quakes sheet?"
    assert wrong_position("562, 4.8", quakes, asked) == ""
    assert wrong_position("horsebean / 179", chick_unit(CHICKS), FIRST_CHICK) == ""


# --- the highest or lowest row (a window session: "2006" verified from rows showing 2010 higher) ------

IOWA_HEADER = "year,source,net_generation"
IOWA = (
    "2005-01-01,Fossil Fuels,36883\n2006-01-01,Fossil Fuels,37014\n2007-01-01,Fossil Fuels,41389\n"
    "2010-01-01,Fossil Fuels,42750\n2011-01-01,Fossil Fuels,39361\n2010-01-01,Renewables,10000\n"
    "2006-01-01,Renewables,50000"
)


def table_unit(path: str, section: str, header: str, rows: str) -> EvidenceUnit:
    """A table's block as the index holds it: its header row, then its rows, under its title."""
    passage = f"{header}\n{rows}"
    return EvidenceUnit("t-0", path, "t", 0, passage, 0, len(passage), section=section, context=header)


def iowa_unit(rows: str = IOWA) -> EvidenceUnit:
    return table_unit("/d/iowa.csv", "iowa.csv", IOWA_HEADER, rows)


def test_an_answer_to_the_highest_is_refused_when_its_passage_shows_a_higher_row() -> None:
    asked = "In which year was fossil-fuel net generation highest?"
    wrong = not_the_extreme("2006", iowa_unit(), asked)
    assert wrong.startswith("table extreme: the question asks for the highest 'net_generation'")
    assert "2010-01-01,Fossil Fuels,42750" in wrong and "2006-01-01,Fossil Fuels,37014" in wrong
    # the right row, and a sentence naming it, stand; the renewables rows are not compared
    assert not_the_extreme("2010", iowa_unit(), asked) == ""
    assert not_the_extreme("It was highest in 2010.", iowa_unit(), asked) == ""
    # the lowest, and the value itself asked for
    assert "lowest" in not_the_extreme("2006", iowa_unit(), "When was fossil-fuel generation lowest?")
    assert not_the_extreme("2005", iowa_unit(), "When was fossil-fuel generation lowest?") == ""
    assert "42750" in not_the_extreme(
        "41389", iowa_unit(), "What was the highest fossil-fuel net generation?"
    )


@pytest.mark.parametrize(
    "answer, question",
    [
        ("2006", "In which year was fossil-fuel net generation high?"),  # no extreme asked
        ("2006", "Which year had the highest and the lowest fossil-fuel generation?"),  # both
        ("2006", "In which year was the most coal burnt?"),  # "most": too loose a word
    ],
)
def test_questions_not_asking_for_one_extreme_are_not_checked(answer: str, question: str) -> None:
    assert not_the_extreme(answer, iowa_unit(), question) == ""


def test_no_extreme_is_told_where_no_single_numeric_column_is() -> None:
    header = "name | height | weight"
    passage = f"{header}\nAnna | 170 | 60\nBen | 180 | 90\nCarl | 175 | 70"
    unit = EvidenceUnit(
        "p-0", "/d/p.xlsx", "p", 0, passage, 0, len(passage), section="people", context=header
    )
    assert not_the_extreme("Anna", unit, "Who is the biggest?") == ""  # height or weight?
    assert "'Ben | 180 | 90'" in not_the_extreme("Anna", unit, "Who has the greatest height?")
    assert not_the_extreme("Ben", unit, "Who has the greatest height?") == ""
    prose = EvidenceUnit("p-1", "/d/p.txt", "p", 1, "Ben is the tallest; Anna is 170 cm.", 0, 35)
    assert not_the_extreme("Anna", prose, "Who has the greatest height?") == ""


DEATHS_HEADER = "Name | Profession | Age | Has kids | Date of birth | Date of death"
DEATHS = (
    "David Bowie | musician | 69 | True | 1947-01-08 | 2016-01-10\n"
    "Chuck Berry | musician | 90 | True | 1926-10-18 | 2017-03-18\n"
    "Prince | musician | 57 | True | 1958-06-07 | 2016-04-21\n"
    "Harper Lee | author | 89 | False | 1926-04-28 | 2016-02-19"
)


def deaths_unit() -> EvidenceUnit:
    return table_unit("/d/deaths.xlsx", "arts", DEATHS_HEADER, DEATHS)


def test_the_other_of_two_rows_compared_is_the_answer_when_its_value_says_so() -> None:
    # readxl's deaths.xlsx in a window session: "Chuck Berry" for both "older" and "younger"
    younger = "Who was younger when they died, Chuck Berry or Prince?"
    wrong = not_the_compared("Chuck Berry", deaths_unit(), younger)
    assert wrong == (
        "table comparison: the question asks who is younger by 'Age'; the passage gives Prince 57 "
        "against Chuck Berry 90"
    )
    assert not_the_compared("Prince", deaths_unit(), younger) == ""
    older = "Who was older when they died, Chuck Berry or Prince?"
    assert not_the_compared("Chuck Berry", deaths_unit(), older) == ""
    assert "Chuck Berry 90 against Prince 57" in not_the_compared("Prince", deaths_unit(), older)
    # a column the question names, after "more"
    unit = table_unit("/d/v.csv", "v", "district | votes | turnout", "North | 5200 | 61\nSouth | 4100 | 66")
    assert "'votes'" in not_the_compared("South", unit, "Which district got more votes, North or South?")
    assert not_the_compared("North", unit, "Which district got more votes, North or South?") == ""


@pytest.mark.parametrize(
    "answer, question",
    [
        ("Chuck Berry", "Who was a musician, Chuck Berry or Harper Lee?"),  # no comparative
        ("Chuck Berry", "Who was younger when they died, Chuck Berry or Elvis Presley?"),  # no row
        ("Chuck Berry", "Who was younger, Chuck Berry or a musician?"),  # an option in several rows
        ("Chuck Berry", "Who had more fans, Chuck Berry or Prince?"),  # no column of fans
        ("Both", "Who was younger when they died, Chuck Berry or Prince?"),  # no option named
    ],
)
def test_comparisons_the_table_cannot_settle_are_not_checked(answer: str, question: str) -> None:
    assert not_the_compared(answer, deaths_unit(), question) == ""


# A block of vega's stocks.csv (symbol,date,price; 560 rows) that ends before December 2009, with its
# header as the gate reads it.
IBM_2007_2009 = (
    "stocks.csv\n"
    "symbol,date,price\n"
    "IBM,Nov 1 2007,105.18\n"
    "IBM,Dec 1 2007,103.7\n"
    "IBM,Jan 1 2008,102.75\n"
    "IBM,Dec 1 2008,82.15\n"
    "IBM,Jan 1 2009,89.46\n"
    "IBM,Sep 1 2009,118.55"
)
IBM_2009 = (
    "stocks.csv\nsymbol,date,price\nIBM,Nov 1 2009,125.79\nIBM,Dec 1 2009,130.32\nIBM,Jan 1 2010,121.85"
)


def test_a_row_holding_only_some_of_the_figures_the_question_names_is_the_wrong_row() -> None:
    # "What was IBM's price on Dec 1 2009?" was answered "103.7 / symbol: IBM; date: Dec 1 2007"
    # from this block and shown as verified: no row of it is December 2009.
    question = "What was IBM's price on Dec 1 2009?"
    row = wrong_row("103.7", IBM_2007_2009, question)
    assert row is not None and row.found == "IBM,Dec 1 2007,103.7" and "2009" in row.named
    verdict = gate().check("103.7 / symbol: IBM; date: Dec 1 2007", [IBM_2007_2009], question)
    assert not verdict.supported and verdict.check == "guard: table row"
    assert wrong_row("130.32", IBM_2009, question) is None
    assert wrong_row("130.32", IBM_2009, "What did IBM trade at on December 1, 2009?") is None
    assert gate().check("130.32", [IBM_2009], question).supported
    # The row the question names, when the passage holds it, is the one shown.
    row = wrong_row("125.79", IBM_2009, question)
    assert row is not None and row.named == "IBM,Dec 1 2009,130.32"


def test_a_year_the_rows_do_not_write_picks_no_row() -> None:
    quakes = (
        "quakes\nlat,long,depth,mag,stations\n"
        "-20.42,181.62,562,4.8,41\n-20.62,181.03,650,4.2,15\n-26,184.1,42,5.4,43"
    )
    assert (
        wrong_row("562", quakes, "In the quakes data of 1973, how deep was the quake of magnitude 4.8?")
        is None
    )


def test_a_block_without_the_named_date_supports_no_row_of_it() -> None:
    # Then "116.34 / symbol: IBM; date: Dec 1 2009": July 2009's price, from the block that ends in
    # September 2009, said to be December's.
    question = "What was IBM's price on Dec 1 2009?"
    row = wrong_row(
        "116.34 / symbol: IBM; date: Dec 1 2009", IBM_2007_2009 + "\nIBM,Jul 1 2009,116.34", question
    )
    assert row is not None and row.found == "IBM,Jul 1 2009,116.34"
    assert "no row of this passage" in row.named


@pytest.mark.parametrize(
    ("answer", "question"),
    [
        ("Buster", "Which Debian release came out on 6 July 2019?"),  # 2019-07-06, not version 6
        ("Buster", "Which Debian release came out on July 6th, 2019?"),
        ("2019-07-06", "When was Debian 10 released?"),
    ],
)
def test_a_date_written_in_words_names_the_row_of_its_iso_date(answer: str, question: str) -> None:
    releases = (
        "debian.csv\nversion,codename,series,created,release,eol\n"
        "6,Squeeze,squeeze,2009-02-14,2011-02-06,2014-05-31\n"
        "10,Buster,buster,2017-06-17,2019-07-06,2022-09-10\n"
        "11,Bullseye,bullseye,2019-07-06,2021-08-14,2024-08-14"
    )
    assert wrong_row(answer, releases, question) is None


def test_a_column_named_like_a_comparison_is_a_column_and_dates_match_across_separators() -> None:
    # vega's seattle-weather.csv: "maximum" asks for the column temp_max, it compares no rows; the
    # question writes 2012-01-05, the row 2012/01/05.
    weather = (
        "seattle-weather.csv\ndate,precipitation,temp_max,temp_min,wind,weather\n"
        "2012/01/04,20.3,12.2,5.6,4.7,rain\n2012/01/05,1.3,8.9,2.8,6.1,rain\n2012/01/06,2.5,4.4,2.2,2.2,rain"
    )
    question = "What was the maximum temperature in Seattle on 2012-01-05?"
    assert wrong_row("8.9", weather, question) is None
    row = wrong_row("12.2", weather, question)
    assert row is not None and row.named.startswith("2012/01/05") and row.found.startswith("2012/01/04")
    assert wrong_row("4.4", weather, "Which day had the highest maximum temperature?") is None  # compares


AIRPORTS = (
    "airports.csv\niata,name,city,state,country,latitude,longitude\n"
    "LOZ,London-Corbin Magee,London,KY,USA,37.08727778,-84.07677778\n"
    "LAX,Los Angeles International,Los Angeles,CA,USA,33.94253611,-118.4080744\n"
    "BFI,Boeing Field/King County Intl,Seattle,WA,USA,47.52998917,-122.3019561"
)
WEATHER = (
    "seattle-weather.csv\ndate,precipitation,temp_max,temp_min,wind,weather\n"
    "2012/01/04,20.3,12.2,5.6,4.7,rain\n2012/01/05,1.3,8.9,2.8,6.1,rain\n2012/01/06,2.5,4.4,2.2,2.2,rain"
)


@pytest.mark.parametrize(
    ("table", "question", "answer", "named"),
    [
        # Both answered and shown as verified in a window session: Seattle's figure, a Kentucky airport.
        (WEATHER, "What was the maximum temperature in Portland on 2012-01-05?", "8.9", "Portland"),
        (AIRPORTS, "What is the IATA code of London Heathrow?", "LOZ", "Heathrow"),
        (IBM_2009, "What did Amazon trade at on Dec 1 2009?", "130.32", "Amazon"),
    ],
)
def test_a_table_cited_for_a_name_it_never_writes_is_refused(
    table: str, question: str, answer: str, named: str
) -> None:
    assert name_in_no_row(question, table) == f"the question names {named}; no row of the table cited does"
    verdict = gate().check(answer, [table], question)
    assert not verdict.supported and verdict.check == "guard: named row"


@pytest.mark.parametrize(
    ("table", "question"),
    [
        (WEATHER, "What was the maximum temperature in Seattle on 2012-01-05?"),  # the table's title
        (WEATHER, "What was the wind speed in Seattle on Thursday, January 5, 2012?"),  # dates' words
        (AIRPORTS, "Which city is the airport with IATA code BFI in?"),  # a column name
        (AIRPORTS, "What is the latitude of LAX?"),
        (IBM_2009, "What was IBM's price on Dec 1 2009?"),  # a possessive
        (LEVELS, "What is the numeric value of the WARNING level?"),
        (RELEASES, "What is the codename of Debian 12?"),
    ],
)
def test_a_table_writing_every_name_of_the_question_is_not_held_to_it(table: str, question: str) -> None:
    assert name_in_no_row(question, table) == ""
    assert (
        name_in_no_row("What was the temperature in Portland?", "Portland is not named here, Seattle is.")
        == ""
    )


def test_a_column_named_by_the_initials_of_the_question_is_asked_for() -> None:
    # "When will Debian 14 Forky reach end of life?" was answered with Forky's created date (the
    # model read Forky's row alone) and shown as verified: `eol` was not seen as the column asked for.
    releases = (
        "debian.csv\nversion,codename,series,created,release,eol,eol-lts,eol-elts\n"
        "13,Trixie,trixie,2023-06-10,2025-08-09,2028-08-09,2030-06-30,2035-06-30\n"
        "14,Forky,forky,2025-08-09\n15,Duke,duke,2027-08-01"
    )
    column = wrong_column("2025-08-09", releases, "When will Debian 14 Forky reach end of life?")
    assert column is not None and column.asked == "eol" and column.found == "created"
    assert wrong_column("2028-08-09", releases, "When will Debian 13 Trixie reach end of life?") is None


def test_a_month_no_row_of_the_block_holds_picks_no_row_of_it() -> None:
    # us-employment.csv: "January 2006" was answered with March 2006's figure, from a block that
    # starts in March, and shown as verified.
    block = EMPLOYMENT
    row = wrong_row("136059", block, "What was nonfarm employment in January 2006?")
    assert row is not None and row.found.startswith("2006-03-01")
    assert wrong_row("136227", block, "What was nonfarm employment in April 2006?") is None
    # "the month 2009-06" names June: a row of March 2009 is not it
    assert wrong_row(
        "7689", block.replace("2006-03", "2009-03"), "What was construction in the month 2009-06?"
    )


def test_how_many_beside_a_date_asks_for_one_row() -> None:
    # "How many worked in construction in January 2006?" asks for January's figure: answered with
    # March's from a block starting in March, it was shown as verified ("how many" read as a count).
    block = EMPLOYMENT
    question = "How many people were employed in construction in January 2006?"
    assert not compares_rows("How many people were employed in April 2006?", block.splitlines()[1])
    row = wrong_row("7689", block, question)
    assert row is not None and row.found.startswith("2006-03-01")
    assert wrong_row("7726", block, "How many people worked in construction in April 2006?") is None
    # Without a date "how many" counts rows, and the rows are not checked.
    assert compares_rows("How many months had more than 7700 construction workers?")
    assert wrong_row("2", block, "How many months are listed?") is None


def test_how_many_for_a_row_the_question_names_asks_for_that_row() -> None:
    # plotly's election.csv (Montreal, 2013): "4734", district 122's votes, was shown as verified for
    # district 101 (a window session).
    block = ELECTION
    question = "How many votes did Coderre get in district 101-Bois-de-Liesse?"
    row = wrong_row("4734", block, question)
    assert row is not None and row.named.startswith("101-") and row.found.startswith("122-")
    assert wrong_row("2481", block, question) is None
    # A count over rows that several rows answer is still a count: not checked.
    assert wrong_row("2", block, "How many districts did Joly win?") is None


def test_an_answer_named_like_a_column_is_found_in_its_row() -> None:
    # election.csv: "Joly" is a candidate's column and the winner of district 102; the row was not
    # found and the whole block was marked as evidence. A winner from another row is the wrong row.
    block = ELECTION
    question = "Who won the district 102-Cap-Saint-Jacques?"
    rows = answer_rows("Joly", block, question)
    assert rows and len(rows) == 3
    assert supporting_spans("Joly", block, question) == (rows[1],)
    assert wrong_row("Joly", block, question) is None
    row = wrong_row("Coderre", block, question)
    assert row is not None and row.found.startswith("122-")


def test_a_pdf_tables_caption_names_what_its_rows_do_not() -> None:
    """crq's "In Table 1, what is the scaled MSE of the Kaplan-Meier median for n = 200?": the rows
    write neither "Table" nor "MSE"; the caption, the table's title above its header, writes both."""
    rows = (
        "– | median | Kaplan-Meier | Nelson-Aalen | Powell\n"
        "n = 50 | 1.602 | 1.972 | 2.040 | 2.037\n"
        "n = 200 | 1.581 | 1.924 | 1.930 | 2.110"
    )
    question = "In Table 1, what is the scaled MSE of the Kaplan-Meier median for n = 200?"
    titled = "Table 1: Scaled MSE for Several Estimators of the Median\n" + rows
    assert name_in_no_row(question, titled) == ""
    assert "Table, MSE" in name_in_no_row(question, rows)
    assert wrong_cell("1.924", titled, question) == ""
    assert "table row" in wrong_cell("1.972", titled, question)  # n = 50's


def test_a_label_over_the_columns_is_not_the_header_and_numbered_columns_are_asked_for() -> None:
    """ordinal's Table 4 (a window session): counts under a label "Least—Most bitter" over columns
    named 1 to 5. Read as the header, the label left the columns unnamed, and "1", the cell of
    column 2 of the row asked about, was shown as verified for category 4 (7 is right)."""
    table = (
        "– | – | Least—Most bitter\n"
        "Temperature | Contact | 1 | 2 | 3 | 4 | 5\n"
        "cold | no | 4 | 9 | 5 | 0 | 0\n"
        "cold | yes | 1 | 7 | 8 | 2 | 0\n"
        "warm | no | 0 | 5 | 8 | 3 | 2\n"
        "warm | yes | 0 | 1 | 5 | 7 | 5"
    )
    header, rows = header_and_rows(table) or ("", [])
    assert header.startswith("Temperature | Contact") and len(rows) == 4
    question = "How many ratings were in bitterness category 4 at warm temperature with contact yes?"
    assert wrong_cell("7", table, question) == ""
    assert "the column '2', the question asks for '4'" in wrong_cell("1", table, question)
    assert "table row" in wrong_cell("8", table, question)  # cold and yes, category 3
    # A row writing as many cells as the next is a header, its first cell left empty or not.
    crq = "– | median | Kaplan-Meier\nn = 50 | 1.602 | 1.972\nn = 200 | 1.581 | 1.924"
    assert (header_and_rows(crq) or ("",))[0].startswith("– | median")


LINNERUD = (
    "Subject | Chins | Situps | Jumps | Weight | Waist | Pulse\n"
    "4 | 12 | 105 | 37 | 162 | 35 | 62\n"
    "5 | 13 | 155 | 58 | 189 | 35 | 46\n"
    "13 | 14 | 215 | 105 | 154 | 34 | 64\n"
    "14 | 1 | 50 | 50 | 247 | 46 | 50"
)


def test_values_gathered_from_several_rows_are_refused_for_a_question_naming_one() -> None:
    """A window session on a spreadsheet: "162, 35, 50" (subject 4's weight and waist, a pulse of 50)
    was shown as verified for subject 14, whose row reads 247, 46, 50."""
    question = "What were the weight, waist and pulse of subject 14 in the Linnerud data?"
    reason = wrong_cell("162, 35, 50", LINNERUD, question)
    assert reason.startswith("table row: the question is about '14 | 1 | 50") and "no row holds all" in reason
    assert wrong_cell("247, 46, 50", LINNERUD, question) == ""
    assert wrong_cell("247 pounds, 46 inches and 50 beats", LINNERUD, question) == ""
    # Two rows asked for: their values come from two rows.
    assert wrong_cell("162, 247", LINNERUD, "What were the weights of subjects 4 and 14?") == ""
