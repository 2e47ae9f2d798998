"""A code name the question asks about ("getHandlerByName()"), and a passage that never writes it."""

from __future__ import annotations

import pytest
from citedesk_engine.answer.code_names import code_names, under_its_name, unwritten
from citedesk_engine.types import EvidenceUnit
from factories import believing_gate

# Python 3.11's logging HOWTO (PSF-2.0): the section the answer "3.2" came from, which never names
# getHandlerByName (added in 3.12).
LAST_RESORT = (
    "What happens if no configuration is provided If no logging configuration is provided, it is "
    "possible to have a situation where a logging event needs to be output, but no handlers can be "
    "found to output the event. For versions of Python prior to 3.2, the behaviour is as follows: If "
    "logging.raiseExceptions is False (production mode), the event is silently dropped. In Python 3.2 "
    "and later, the behaviour is as follows: The event is output using a ‘handler of last resort’, "
    "stored in logging.lastResort."
)


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("Which Python version added logging.getHandlerByName()?", ["getHandlerByName"]),
        ("What does evalCpp() do?", ["evalCpp"]),
        ("What should raiseExceptions be set to in production?", ["raiseExceptions"]),
        ("What is the max_iter option for?", ["max_iter"]),
        ("How do I use Rcpp.package.skeleton?", ["Rcpp.package.skeleton"]),  # its last part is English
        ("What is the Sepal.Length of the first flower?", ["Sepal.Length"]),
        ("What does print() do?", ["print"]),
        ("How do I read an Excel .xlsx file?", [".xlsx"]),  # a file type by its extension
        ("Can it open .tar.gz archives?", []),
        ("Tell me how to edit .bashrc.", [".bashrc"]),  # a double extension is left alone
        ("What is in config.toml?", ["config.toml"]),
        # English, names, abbreviations and paths are no code names
        ("Which file holds the hostname, e.g. on a laptop?", []),
        ("What is the U.S. capital?", []),
        ("Can I run it on an iPhone or on eBay?", []),
        ("Where are the encrypted passwords kept, /etc/shadow?", []),
        ("What happens in Python 3.2+ when no handlers are set?", []),
        ("Does the Rcpp version need PROTECT and UNPROTECT calls?", []),
    ],
)
def test_the_code_names_a_question_asks_about(question: str, named: list[str]) -> None:
    assert code_names(question) == named


def test_unwritten_reads_the_name_as_written() -> None:
    question = "Which Python version added logging.getHandlerByName()?"
    assert unwritten(question, LAST_RESORT) == (
        "the question asks about getHandlerByName; the passage never mentions it"
    )
    assert unwritten(question, "logging.getHandlerByName() was added in 3.12.") == ""
    assert unwritten("What should raiseExceptions be set to?", LAST_RESORT) == ""  # logging.raiseExceptions
    # code is case-sensitive, and a longer name is another name
    assert unwritten("What does evalCpp() do?", "EVALCPP evaluates") != ""
    assert unwritten("What does evalCpp() do?", "evalCppFile() compiles a file") != ""
    assert unwritten("Who wrote the HOWTO?", LAST_RESORT) == ""


def test_the_gate_refuses_an_answer_from_a_passage_that_never_names_the_function() -> None:
    verdict = believing_gate().check(
        "3.2", [LAST_RESORT], "Which Python version added logging.getHandlerByName()?"
    )
    assert not verdict.supported
    assert verdict.check == "guard: code name"
    assert "getHandlerByName" in verdict.method


def test_the_gate_lets_an_answer_about_a_written_name_through() -> None:
    verdict = believing_gate().check(
        "False", [LAST_RESORT], "What should logging.raiseExceptions be set to in production?"
    )
    assert verdict.check != "guard: code name"
    assert verdict.supported


def test_a_file_type_the_passage_never_mentions_is_unwritten() -> None:
    # Python's csv reference (PSF-2.0) answered a question about Excel workbooks with csv.reader.
    csv_reader = (
        "csv.reader(csvfile, dialect='excel', **fmtparams) Return a reader object that will process "
        "lines from the given csvfile. Microsoft Excel can read and write CSV files."
    )
    question = "How do I read an Excel .xlsx file?"
    assert unwritten(question, csv_reader) == "the question asks about .xlsx; the passage never mentions it"
    assert unwritten(question, "Workbooks saved as XLSX files are read with openpyxl.") == ""
    assert unwritten(question, "Save it with the .xlsx extension.") == ""
    assert unwritten(question, "xlsxwriter writes workbooks.") != ""  # another word


def test_a_method_written_as_a_call_in_its_classs_section_is_the_questions_dotted_name() -> None:
    # Python's sqlite3 reference, a window session: "What does Connection.commit do?" was refused,
    # though the passage under sqlite3.Connection says what commit() does.
    passage = "commit()\n\nCommit any pending transaction to the database."
    unit = EvidenceUnit(
        "v-00001", "sqlite3.html", "v", 1, passage, 0, len(passage), section="sqlite3.Connection"
    )
    read = under_its_name(unit)
    assert read == f"sqlite3.Connection\n{passage}"
    question = "What does Connection.commit do?"
    assert unwritten(question, read) == ""
    assert unwritten(question, passage)  # alone, the passage does not say whose commit it is
    # under another class, or naming the class without the call, it is not written
    assert unwritten(question, f"sqlite3.Cursor\n{passage}")
    assert unwritten(question, "sqlite3.Connection\nEach open database is a Connection; commit changes.")
    # a section that is no API name, or one the passage opens with, is left as it is
    for section, text in (
        ("Transaction control", passage),
        ("sqlite3.connect", "sqlite3.connect(database)\n\nOpen."),
    ):
        other = EvidenceUnit("v-00002", "sqlite3.html", "v", 2, text, 0, len(text), section=section)
        assert under_its_name(other) == text
