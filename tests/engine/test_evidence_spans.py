"""Where in a cited passage a claim stands: the sentence or table row the viewer marks strongly."""

from __future__ import annotations

from citedesk_engine.answer.evidence_spans import supporting_spans, unit_spans
from citedesk_engine.types import EvidenceUnit

CATS = (
    "Cats sleep 15 hours a day. A tabby is a domestic cat with a striped coat. The first cat show was "
    "held in London in 1871, thousands of years after cats were first tamed in 7500 BC."
)


def spanned(claim: str, passage: str, question: str = "") -> list[str]:
    return [passage[a:b] for a, b in supporting_spans(claim, passage, question)]


def test_a_short_answer_stands_in_the_sentence_that_holds_it() -> None:
    assert spanned("1871", CATS, "When was the first cat show held?") == [
        "The first cat show was held in London in 1871, thousands of years after cats were first tamed "
        "in 7500 BC."
    ]
    assert spanned("15 hours a day", CATS, "How long do cats sleep?") == ["Cats sleep 15 hours a day."]


def test_a_sentence_claim_spans_the_sentences_that_carry_its_words() -> None:
    assert spanned("A tabby is a domestic cat with a striped coat.", CATS) == [
        "A tabby is a domestic cat with a striped coat."
    ]
    both = spanned("Cats sleep 15 hours a day, and a tabby has a striped coat.", CATS)
    assert both == ["Cats sleep 15 hours a day. A tabby is a domestic cat with a striped coat."]


def test_a_paragraph_break_before_a_capital_ends_a_sentence_without_a_mark() -> None:
    # Debian FAQ 11.5 (HTML): a <pre> command between two paragraphs; and zoo's FAQ (PDF, page 3): a
    # printed table before a sentence. Each was quoted run into the sentence after it.
    boot = (
        "To display the default target, run the command\n\nsystemctl get-default\n\nDuring boot-up, "
        "systemd starts the services listed in the default target file."
    )
    assert spanned("systemctl get-default", boot, "What command shows the default systemd target?") == [
        "To display the default target, run the command\n\nsystemctl get-default"
    ]
    zoo = (
        "value volume\n18:15:05 1100 217\n18:15:06 80 201\n\nIf the data is stored in long format "
        "then use read.zoo (particularly the split argument) to convert it to wide format."
    )
    assert spanned("split", zoo, "Which read.zoo argument converts long data to wide format?") == [
        zoo[zoo.index("If") :]
    ]


def test_a_list_item_is_quoted_alone() -> None:
    # httpx's CHANGELOG.md: one bullet answers; its neighbours were quoted with it.
    added = (
        "### Added\n\n* Support HTTPS proxies. (#2845)\n* Add `socket_options` argument. (#2716)\n"
        "* The `Response.raise_for_status()` method now returns the response instance. (#2776)\n"
        "1. Numbered items too.\n- And dashes."
    )
    question = "What does Response.raise_for_status() return?"
    assert spanned("the response instance", added, question) == [
        "* The `Response.raise_for_status()` method now returns the response instance. (#2776)"
    ]
    assert spanned("Numbered items", added) == ["Numbered items too."]  # "1." ends a sentence before it
    assert spanned("dashes", added) == ["- And dashes."]


def test_no_span_when_no_sentence_holds_the_claims_words() -> None:
    assert spanned("Dogs bark at night.", CATS) == []
    assert spanned("", CATS) == []


def test_a_table_answer_stands_in_its_row_even_in_a_block_without_the_header() -> None:
    # A block of a table's rows further down: the header is the unit's context, not its passage.
    text = "Level | Numeric value\nCRITICAL | 50\nERROR | 40\nWARNING | 30\nINFO | 20\nDEBUG | 10"
    passage = "WARNING | 30\nINFO | 20\nDEBUG | 10"
    start = text.index(passage)
    unit = EvidenceUnit(
        "v-00003",
        "/docs/howto.html",
        "v",
        3,
        passage,
        start,
        start + len(passage),
        section="Logging Levels",
        context="Level | Numeric value",
    )
    ((a, b),) = unit_spans("30", unit, "What is the numeric value of the WARNING level?")
    assert text[a:b] == "WARNING | 30"
    ((a, b),) = unit_spans("20", unit, "What is the numeric value of the INFO level?")
    assert text[a:b] == "INFO | 20"
    # An answer no single row holds: the unit is marked alone.
    assert unit_spans("30 and 20", unit, "What are the values of WARNING and INFO?") == ()


def test_a_question_by_position_marks_the_first_or_last_row_holding_the_answer() -> None:
    # The iris sheet's first rows (readxl's datasets.xlsx): "1.4, 0.2" stands in three of them.
    iris = (
        "Sepal.Length | Sepal.Width | Petal.Length | Petal.Width | Species\n5.1 | 3.5 | 1.4 | 0.2 | setosa\n"
        "4.9 | 3 | 1.4 | 0.2 | setosa\n4.7 | 3.2 | 1.3 | 0.2 | setosa\n5 | 3.6 | 1.4 | 0.2 | setosa"
    )
    rows = [
        iris[a:b]
        for a, b in supporting_spans("1.4, 0.2", iris, "What are the petal sizes of the first flower?")
    ]
    assert rows == ["5.1 | 3.5 | 1.4 | 0.2 | setosa"]
    rows = [
        iris[a:b]
        for a, b in supporting_spans("1.4, 0.2", iris, "What are the petal sizes of the last flower?")
    ]
    assert rows == ["5 | 3.6 | 1.4 | 0.2 | setosa"]
    assert len(supporting_spans("1.4, 0.2", iris, "Which flowers have these petal sizes?")) == 3


def test_of_rows_holding_an_answer_the_one_the_question_names_is_marked() -> None:
    # debian.csv: Buster's release day is also the day Bullseye's row was created
    releases = (
        "version,codename,series,created,release,eol\n"
        "9,Stretch,stretch,2015-04-26,2017-06-17,2020-07-18\n"
        "10,Buster,buster,2017-06-17,2019-07-06,2022-09-10\n"
        "11,Bullseye,bullseye,2019-07-06,2021-08-14,2024-08-14"
    )
    asked = "Which Debian release is called Buster and when was it released?"
    assert spanned("buster 2019-07-06", releases, asked) == [
        "10,Buster,buster,2017-06-17,2019-07-06,2022-09-10"
    ]
    # a question naming no row keeps every row holding the answer
    assert len(spanned("2019-07-06", releases, "What happened on that day?")) == 2


def test_of_sentences_holding_as_much_of_a_claim_the_one_most_about_it_is_marked() -> None:
    # Python's logging HOWTO (PSF-2.0): both of the last two sentences hold "library", "handlers" and
    # "loggers"; the gate reads the second (verify.py), and so does the viewer.
    passage = (
        "Logging to the root logger will make it difficult or impossible for the application developer "
        "to configure the logging verbosity or handlers of your library as they wish. Note It is strongly "
        "advised that you do not add any handlers other than NullHandler to your library’s loggers."
    )
    ((a, b),) = supporting_spans("A library should not attach its own handlers to its loggers.", passage)
    assert passage[a:b].startswith("Note It is strongly advised that you do not add any handlers")


def test_a_reference_entry_is_quoted_with_its_description() -> None:
    # Python 3.11's sqlite3 reference (PSF-2.0): "executemany()" was quoted as the end of execute()'s
    # description run into executemany's signature; the sentence that answers was left unmarked.
    cursor = (
        "If isolation_level is not None, sql is an INSERT, UPDATE, DELETE, or REPLACE statement, and "
        "there is no open transaction, a transaction is implicitly opened before executing sql.\n\n"
        "executemany(sql, parameters, /)\n\n"
        "Execute parameterized SQL statement sql against all parameter sequences or mappings found in "
        "the sequence parameters. It is also possible to use an iterator yielding parameters instead of "
        "a sequence."
    )
    question = "Which method executes an SQL statement against all parameter sequences?"
    assert spanned("executemany()", cursor, question) == [
        "executemany(sql, parameters, /)\n\nExecute parameterized SQL statement sql against all parameter "
        "sequences or mappings found in the sequence parameters."
    ]


def test_an_answer_sharing_a_stem_with_the_question_is_marked_where_it_is_written() -> None:
    # Python's sqlite3 reference, a window session: "Connection" and "sqlite3.connect" share a stem,
    # and the auditing line naming sqlite3.connect was marked instead of the return type.
    passage = (
        "sqlite3.connect(database, timeout=5.0)\n\nOpen a connection to an SQLite database.\n\n"
        "Return type:\n\nConnection\n\nRaises an auditing event sqlite3.connect with argument database."
        "\n\nRaises an auditing event sqlite3.connect/handle with argument connection_handle."
    )
    assert spanned("Connection", passage, "What does sqlite3.connect return?") == ["Connection"]


def test_a_value_without_words_is_marked_where_it_is_written() -> None:
    # Flask's configuration reference: "None" was marked as the whole passage.
    passage = (
        "MAX_CONTENT_LENGTH\n\nDon't read more than this many bytes from the incoming request data. If not "
        "set, no data will be read for security.\n\nDefault: None"
    )
    assert spanned("None", passage, "What is the default value of MAX_CONTENT_LENGTH?") == ["Default: None"]
    assert spanned("none", passage, "What is the default value of MAX_CONTENT_LENGTH?") == []


def test_an_answer_naming_one_of_the_questions_options_stands_in_that_options_row() -> None:
    # readxl's deaths.xlsx in a window session: "Prince" marked the whole table.
    table = (
        "Name | Profession | Age\nDavid Bowie | musician | 69\nCarrie Fisher | actor | 60\n"
        "Prince | musician | 57"
    )
    question = "Who was younger when they died, David Bowie or Prince?"
    ((start, end),) = supporting_spans("Prince", table, question)
    assert table[start:end] == "Prince | musician | 57"


def test_a_list_answer_stands_on_its_items_set_a_line_each() -> None:
    """rpart's vignette (a window session): "yval, dev, wt, ylevel, digits" was marked on the print
    function's sentence naming three of them, not on the summary function's five items."""
    passage = (
        "The summary function will be called with arguments which are\n\n"
        "• yval= the response value for the node\n\n• dev = the deviance for the node\n\n"
        "• wt = the sum of weights at the node (number of observations)\n\n"
        "• ylevel = the levels of y, if y is categorical\n\n• digits = the current setting for digits\n\n"
        "It should return a character vector.\n\n"
        "The print function is called only with yval, ylevels, and digits."
    )
    question = "With which arguments is the summary function of an rpart user-written split method called?"
    (span,) = spanned("yval, dev, wt, ylevel, digits", passage, question)
    assert span.startswith("• yval=") and span.endswith("setting for digits")
    # A sentence with commas is no list: it stands where its words do, in as few sentences as hold them.
    assert spanned("Cats sleep 15 hours a day, and a tabby has a striped coat.", CATS) == [
        "Cats sleep 15 hours a day. A tabby is a domestic cat with a striped coat."
    ]
