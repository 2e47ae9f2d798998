"""A thing the question names by a number ("Debian 16"), and a passage or table that speaks of others."""

from __future__ import annotations

import pytest
from citedesk_engine.answer.named_numbers import mentioned, named_numbers, unmentioned
from factories import believing_gate

# The last rows of Debian's release table (distro-info-data's debian.csv, ISC), as a table unit: its
# header as context, then the rows.
RELEASES = (
    "version,codename,series,created,release,eol,eol-lts,eol-elts\n"
    "1.1,Buzz,buzz,1993-08-16,1996-06-17,1997-06-05\n"
    "12,Bookworm,bookworm,2021-08-14,2023-06-10,2026-07-11,2028-06-30,2033-06-30\n"
    "13,Trixie,trixie,2023-06-10,2025-08-09,2028-08-09,2030-06-30,2035-06-30\n"
    "14,Forky,forky,2025-08-09\n"
    "15,Duke,duke,2027-08-01"
)
# Python's logging HOWTO (PSF-2.0), the section that answers for "Python 3.2+".
LAST_RESORT = (
    "For versions of Python prior to 3.2, the behaviour is as follows: If logging.raiseExceptions is "
    "False (production mode), the event is silently dropped. In Python 3.2 and later, the behaviour is "
    "as follows: The event is output using a ‘handler of last resort’, stored in logging.lastResort."
)
# The last page of Debian's reference manual: a date, and no Debian version.
COLOPHON = "Debian Reference. Generated on 2023-02-04 11:59:01 UTC from the DocBook sources."


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("What is the codename of Debian 16?", {"16": "Debian"}),
        ("What happens to a logged event in Python 3.2+ when no handlers are set?", {"3.2": "Python"}),
        ("Who contributed to the LibreOffice 4.0 Math Guide?", {"4": "LibreOffice"}),  # as passages read
        ("How has the surveillance package been used for COVID-19 case counts?", {"19": "COVID"}),
        ("When was Ubuntu 22.04 released?", {"22.04": "Ubuntu"}),
        # counts, measures, years and the question's first word name nothing
        ("Which 3 methods does the paper compare?", {}),
        ("Name 3 rivers of France.", {}),
        ("What do unstable 6-carbon molecules become?", {}),
        ("How tall is a tree of over 30 metres?", {}),
        ("What caused the alarms flagged at the end of 2011 in the S. Newport series?", {}),
        ("The 2005 documentary The Aristocrats was dedicated to which comedian?", {}),
        ("Which channel did Virgin Media carry from November 2006 to July 2009?", {}),
    ],
)
def test_the_numbers_a_question_names_a_thing_by(question: str, named: dict[str, str]) -> None:
    assert named_numbers(question) == named


def test_a_number_is_mentioned_alone_or_as_a_version_start_never_as_a_dates_part() -> None:
    assert mentioned("12", RELEASES)
    assert mentioned("3.2", LAST_RESORT)
    assert mentioned("12", "Debian 12.5 was released in February 2024.")  # a point release of 12
    assert mentioned("3", "the three methods")  # however it is written
    assert not mentioned("16", RELEASES)  # 1993-08-16 is a date, not 16
    assert not mentioned("1", "Debian 12 was released.")
    assert not mentioned("10", COLOPHON)


def test_unmentioned_needs_a_table_or_the_name_written() -> None:
    assert unmentioned("What is the codename of Debian 16?", RELEASES) == (
        "the question asks about Debian 16; the rows cited hold none for it"
    )
    assert unmentioned("When was Debian 10 released?", COLOPHON) == (
        "the question asks about Debian 10; the passage never mentions it"
    )
    assert unmentioned("What is the codename of Debian 12?", RELEASES) == ""
    assert unmentioned("What is the codename of Debian?", RELEASES) == ""
    # a passage that never writes the name may identify the thing otherwise (HaluEval's multi-hop
    # questions): "flight" in lower case is not the name "Flight"
    airport = "It was a repositioning flight to Minneapolis-Saint Paul International Airport."
    assert (
        unmentioned("In which county is the airport Pinnacle Airlines Flight 3701 was bound for?", airport)
        == ""
    )


@pytest.mark.parametrize(
    ("claim", "passage", "question"),
    [
        # the real cases (benchmarks/realdocs): Debian 15's codename for 16, a colophon's date
        ("Duke", RELEASES, "What is the codename of Debian 16?"),
        ("2023-02-04 11:59:01 UTC", COLOPHON, "When was Debian 10 released?"),
        # a sentence too: it answers about another version
        ("Forky is the codename.", RELEASES, "What is the codename of Debian 16?"),
    ],
)
def test_the_gate_refuses_an_answer_from_a_passage_that_speaks_of_other_numbers(
    claim: str, passage: str, question: str
) -> None:
    verdict = believing_gate().check(claim, [passage], question)
    assert not verdict.supported
    assert verdict.check == "guard: named number"
    assert "the question asks about Debian" in verdict.method


@pytest.mark.parametrize(
    ("claim", "passage", "question"),
    [
        ("Bookworm", RELEASES, "What is the codename of Debian 12?"),
        (
            "logging.lastResort",
            LAST_RESORT,
            "What happens to a logged event in Python 3.2+ when no handlers exist?",
        ),
        ("Forky", RELEASES, "Which codename does the table give after Trixie?"),  # names no number
    ],
)
def test_the_guard_lets_an_answer_from_a_passage_that_mentions_it_through(
    claim: str, passage: str, question: str
) -> None:
    verdict = believing_gate().check(claim, [passage], question)
    assert verdict.check != "guard: named number"


def test_without_a_question_the_guard_does_not_run() -> None:
    verdict = believing_gate().check("Debian 16 is codenamed Duke.", [RELEASES])
    assert verdict.check != "guard: named number"
