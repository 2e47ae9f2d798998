"""Table rows found by their first cell: the keys kept at the commit, and the retriever that reads them."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from citedesk_engine import Engine
from citedesk_engine.index.table_keys import normal_key, question_keys, row_keys, row_match
from citedesk_engine.retrieve.retrievers import TableRowRetriever
from citedesk_engine.testing import HashEmbedder
from citedesk_engine.types import EvidenceUnit

# Debian's release table (distro-info-data 0.58+deb12u7, ISC), whole: 24 rows, several units.
RELEASES = """version,codename,series,created,release,eol,eol-lts,eol-elts
1.1,Buzz,buzz,1993-08-16,1996-06-17,1997-06-05
1.2,Rex,rex,1996-06-17,1996-12-12,1998-06-05
1.3,Bo,bo,1996-12-12,1997-06-05,1999-03-09
2.0,Hamm,hamm,1997-06-05,1998-07-24,2000-03-09
2.1,Slink,slink,1998-07-24,1999-03-09,2000-10-30
2.2,Potato,potato,1999-03-09,2000-08-15,2003-06-30
3.0,Woody,woody,2000-08-15,2002-07-19,2006-06-30
3.1,Sarge,sarge,2002-07-19,2005-06-06,2008-03-31
4.0,Etch,etch,2005-06-06,2007-04-08,2010-02-15
5.0,Lenny,lenny,2007-04-08,2009-02-14,2012-02-06
6.0,Squeeze,squeeze,2009-02-14,2011-02-06,2014-05-31,2016-02-29
7,Wheezy,wheezy,2011-02-06,2013-05-04,2016-04-25,2018-05-31,2020-06-30
8,Jessie,jessie,2013-05-04,2015-04-26,2018-06-17,2020-06-30,2025-06-30
9,Stretch,stretch,2015-04-26,2017-06-17,2020-07-18,2022-06-30,2027-06-30
10,Buster,buster,2017-06-17,2019-07-06,2022-09-10,2024-06-30,2029-06-30
11,Bullseye,bullseye,2019-07-06,2021-08-14,2024-08-14,2026-08-31,2031-06-30
12,Bookworm,bookworm,2021-08-14,2023-06-10,2026-07-11,2028-06-30,2033-06-30
13,Trixie,trixie,2023-06-10,2025-08-09,2028-08-09,2030-06-30,2035-06-30
14,Forky,forky,2025-08-09
15,Duke,duke,2027-08-01
,Sid,sid,1993-08-16
,Experimental,experimental,1993-08-16"""
# A manual's page that shares the question's words ("codename", "Debian", "12") but holds no answer.
MANUAL = (
    "Debian Reference, chapter 12. The codename of a Debian release is a Toy Story character; the "
    "codename is used in sources.list. Section 12.7 covers the web and 12.9 making a Debian package. "
    "Debian releases keep their codename after they become oldstable. " * 3
)
QUESTION = "What is the codename of Debian 12?"


def table_unit(passage: str, header: str) -> EvidenceUnit:
    return EvidenceUnit("v-0", "doc", "v", 0, passage, 0, len(passage), context=header)


def test_row_keys_are_the_first_cells_of_the_data_rows() -> None:
    header = "version,codename,series,created"
    unit = table_unit(f"{header}\n6.0,Squeeze,squeeze,2009-02-14\n12,Bookworm,bookworm,2021-08-14\n", header)
    assert row_keys(unit) == {"6", "12"}  # the header is no row; "6.0" is the number 6
    piped = table_unit("Mazda RX4 | 21 | 6\nValiant | 18.1 | 6", "model | mpg | cyl")
    assert row_keys(piped) == {"mazda rx4", "valiant"}
    tabbed = table_unit("1,200\tlarge\nthe\tstopword", "count\tsize")
    assert row_keys(tabbed) == {"1200"}  # a stopword names no row
    assert row_keys(EvidenceUnit("v-1", "doc", "v", 0, "12, then 13, then 14", 0, 20)) == set()  # prose


def test_question_keys_are_words_and_runs_of_words() -> None:
    keys = question_keys("How much horsepower does the Mazda RX4 have in Debian 6.0?")
    assert {"mazda rx4", "rx4", "mazda", "horsepower", "6", "debian 6.0"} <= keys
    assert "the" not in keys and "does" not in keys
    assert normal_key(" 1,200 ") == "1200" and normal_key("3.10") == "3.1" and normal_key("Sid") == "sid"


def test_a_possessive_keys_its_name_and_the_row_holding_most_of_the_question_matches_most() -> None:
    assert {"ibm", "2009-12-01"} <= question_keys("What was IBM's price on Dec 1 2009?")
    header = "symbol,date,price"
    block = table_unit("IBM,Jul 1 2009,116.34\nIBM,Dec 1 2009,130.32\nGOOG,Aug 1 2004,102.37", header)
    earlier = table_unit("IBM,Dec 1 2007,103.7\nIBM,Jan 1 2009,89.46", header)
    question = "What was IBM's price on Dec 1 2009?"
    assert row_match(block, question) == 4  # ibm, dec, 1, 2009, each cell read as its own words
    assert row_match(earlier, question) == 3
    assert row_match(EvidenceUnit("v-1", "doc", "v", 0, "IBM, Dec 1 2009", 0, 15), question) == 0  # prose


def test_among_blocks_keyed_alike_the_one_holding_the_named_row_comes_first(tmp_path: Path) -> None:
    # vega's stocks.csv: 560 rows, five symbols; "IBM" keys every block of IBM's prices.
    months = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
    rows = [f"IBM,{m} 1 {y},{100 + i}.5" for y in range(2000, 2010) for i, m in enumerate(months)]
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "stocks.csv").write_text("symbol,date,price\n" + "\n".join(rows), encoding="utf-8")
    with Engine.open(tmp_path / "lib", embedder=HashEmbedder()) as engine:
        engine.ingest([docs])
        assert len(engine.units(engine.documents()[0].document)) > 3
        found = TableRowRetriever(engine.library).search("What was IBM's price on Dec 1 2009?", 3)
        first = engine.library.manifest.units_by_id([found[0][0]])[found[0][0]]
        assert "IBM,Dec 1 2009," in first.passage and found[0][1] > found[1][1]


@pytest.fixture
def releases(tmp_path: Path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "debian.csv").write_text(RELEASES, encoding="utf-8")
    (docs / "manual.txt").write_text(MANUAL, encoding="utf-8")
    engine = Engine.open(tmp_path / "lib", embedder=HashEmbedder())
    engine.ingest([docs])
    yield engine, docs
    engine.close()


def test_the_row_a_question_names_by_its_key_is_found(releases) -> None:  # type: ignore[no-untyped-def]
    engine, _ = releases
    assert len([u for d in engine.documents() for u in engine.units(d.document) if u.context]) > 1
    rows = engine.retrieve(QUESTION, k=5, signals=["rows"]).candidates
    assert len(rows) == 1 and "12,Bookworm" in rows[0].unit.passage
    # among the passages the answer model reads, found by the row retriever first of all
    found = {c.unit.unit_id: c for c in engine.retrieve(QUESTION, k=3).candidates}
    assert found[rows[0].unit.unit_id].ranks["rows"] == 0
    # a question that names no row's key finds nothing there
    assert (
        engine.retrieve("Which release came with a Toy Story character?", signals=["rows"]).candidates == ()
    )


def test_changed_and_removed_tables_leave_no_keys(releases, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    engine, docs = releases
    (docs / "debian.csv").write_text(RELEASES.replace("12,Bookworm", "twelve,Bookworm"), encoding="utf-8")
    engine.ingest([docs / "debian.csv"])
    assert engine.retrieve(QUESTION, signals=["rows"]).candidates == ()
    assert engine.retrieve("What is the codename of Debian twelve?", signals=["rows"]).candidates
    engine.delete(docs / "debian.csv")
    assert engine.retrieve("What is the codename of Debian twelve?", signals=["rows"]).candidates == ()


def test_a_scoped_question_finds_rows_only_in_its_documents(releases) -> None:  # type: ignore[no-untyped-def]
    engine, docs = releases
    assert engine.retrieve(QUESTION, signals=["rows"], documents=[docs / "manual.txt"]).candidates == ()
    assert engine.retrieve(QUESTION, signals=["rows"], documents=[docs / "debian.csv"]).candidates


def test_a_library_made_before_the_row_keys_gets_them_at_open(releases, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    engine, _ = releases
    engine.close()
    with sqlite3.connect(tmp_path / "lib" / "library.sqlite") as db:
        db.execute("DROP TABLE row_keys")
    with Engine.open(tmp_path / "lib", embedder=HashEmbedder()) as reopened:
        rows = reopened.retrieve(QUESTION, signals=["rows"]).candidates
        assert len(rows) == 1 and "12,Bookworm" in rows[0].unit.passage


def test_a_date_is_one_key_however_it_is_written(tmp_path: Path) -> None:
    # vega's seattle-weather.csv is keyed by dates written 2013/03/03; the question wrote "March 3, 2013".
    assert (
        normal_key("2013/03/03")
        == normal_key("March 3, 2013")
        == normal_key("3rd March 2013")
        == "2013-03-03"
    )
    assert normal_key("Sept. 3, 2001") == "2001-09-03" and normal_key("13/45/2020") == "13/45/2020"
    assert "2013-03-03" in question_keys("What was the wind speed in Seattle on March 3, 2013?")
    docs = tmp_path / "docs"
    docs.mkdir()
    days = [f"2013/{m:02d}/{d:02d},0.0,11.1,2.2,{(m * d) % 7}.8,sun" for m in (2, 3) for d in range(1, 29)]
    (docs / "weather.csv").write_text("date,precipitation,temp_max,temp_min,wind,weather\n" + "\n".join(days))
    with Engine.open(tmp_path / "lib", embedder=HashEmbedder()) as engine:
        engine.ingest([docs])
        found = TableRowRetriever(engine.library).search("What was the wind in Seattle on March 3, 2013?", 3)
        assert (
            found and "2013/03/03," in engine.library.manifest.units_by_id([found[0][0]])[found[0][0]].passage
        )
    # A library whose keys were made before dates were keys gets them made again when it is opened.
    with sqlite3.connect(tmp_path / "lib" / "library.sqlite") as db:
        db.execute("UPDATE row_keys SET key = '2013/03/03' WHERE key = '2013-03-03'")
        db.execute("DELETE FROM meta WHERE key = 'row_keys_version'")
    with Engine.open(tmp_path / "lib", embedder=HashEmbedder()) as reopened:
        assert TableRowRetriever(reopened.library).search("What was the wind on March 3, 2013?", 3)


def test_a_question_naming_a_table_and_a_position_finds_its_first_or_last_rows(releases) -> None:  # type: ignore[no-untyped-def]
    engine, _ = releases
    units = [u for d in engine.documents() for u in engine.units(d.document) if u.context]
    first = engine.retrieve("Which release is first in debian.csv?", k=5, signals=["rows"]).candidates
    assert [c.unit.unit_id for c in first] == [units[0].unit_id] and "1.1,Buzz" in first[0].unit.passage
    last = engine.retrieve("What is the last release listed in debian.csv?", k=5, signals=["rows"]).candidates
    assert last[0].unit.unit_id == units[-1].unit_id and "Experimental" in last[0].unit.passage
    # first of all the passages the answer model reads, though none of the question's words is in it
    found = {
        c.unit.unit_id: c for c in engine.retrieve("Which release is first in debian.csv?", k=3).candidates
    }
    assert found[units[0].unit_id].ranks["rows"] == 0
    # a position without a table's name, or a name without a position, finds no end
    assert engine.retrieve("Which release came first?", signals=["rows"]).candidates == ()
    assert engine.retrieve("Which releases does debian.csv hold?", signals=["rows"]).candidates == ()
