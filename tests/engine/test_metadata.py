"""A document's title, authors and year: read from the file's own properties, cleaned, kept in the
library, written by the user (and kept when the file is read again), and used to cite it."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import factories
import pymupdf
import pytest
from citedesk_engine import Engine, cli
from citedesk_engine.errors import ConfigError
from citedesk_engine.export import answer_markdown, bibliography, conversation_markdown, place
from citedesk_engine.ingest.extract.base import file_meta
from citedesk_engine.serialize import answer_from_plain, plain
from citedesk_engine.testing import HashEmbedder
from citedesk_engine.types import Answer, Claim, Decision, DocumentMeta, SourceRef


@pytest.mark.parametrize(
    ("title", "authors", "year", "expected"),
    [
        # real PDFs' fields: a file name for a title, an e-mail address for the second author
        ("vader_icwsm2014", "C.J. Hutto;gilbert@cc.gatech.edu", None, ("", ("C.J. Hutto",), None)),
        (
            "Monitoring Count Time Series in R",
            "Maëlle Salmon, Dirk Schumacher, Michael Höhle",
            None,
            (
                "Monitoring Count Time Series in R",
                ("Maëlle Salmon", "Dirk Schumacher", "Michael Höhle"),
                None,
            ),
        ),
        (
            "Microsoft Word - draft3.docx",
            "Hutto, C. J.; Gilbert, E.",
            "2014-05-01",
            ("", ("Hutto, C. J.", "Gilbert, E."), 2014),
        ),
        (
            "  A   Title ",
            "A. Smith & B. Jones and C. Wu",
            "May 1999",
            ("A Title", ("A. Smith", "B. Jones", "C. Wu"), 1999),
        ),
        ("untitled", "", "D:20140501", ("", (), None)),
    ],
)
def test_the_files_own_fields_are_cleaned(
    title: str, authors: str, year: str | None, expected: tuple
) -> None:
    meta = file_meta(title, authors, year)
    assert (meta.title, meta.authors, meta.year) == expected
    assert meta.source == ("file" if any(expected) else "")


def test_a_short_citation_names_the_authors_and_the_year() -> None:
    assert DocumentMeta(authors=("C. J. Hutto", "Eric Gilbert"), year=2014).label == "Hutto and Gilbert 2014"
    assert (
        DocumentMeta(authors=("Eddelbuettel, Dirk", "Balamuta, J.", "Smith")).label == "Eddelbuettel et al."
    )
    assert DocumentMeta(authors=("Osamu Aoki",)).label == "Aoki"
    assert DocumentMeta(title="Only a title").label == ""
    assert DocumentMeta(authors=("Ludwig van Beethoven",)).label == "Beethoven"


@pytest.mark.parametrize(
    "author", ["zoo Development Team", "R Core Team", "The Debian Project", "World Health Organization"]
)
def test_a_body_that_wrote_the_document_is_cited_by_its_whole_name(author: str) -> None:
    # zoo's FAQ (r-cran-zoo) has the author "zoo Development Team"; its citations read "Team, page 9".
    assert DocumentMeta(authors=(author,), year=2022).label == f"{author} 2022"


def test_a_person_and_their_affiliation_in_one_property_is_cited_by_the_persons_name() -> None:
    # crq's vignette (r-cran-quantreg): its author property holds the affiliation too, and each of
    # its citations read "Roger Koenker University of Illinois at Urbana-Champaign, page 16".
    koenker = DocumentMeta(authors=("Roger Koenker University of Illinois at Urbana-Champaign",), year=2008)
    assert koenker.label == "Koenker 2008"
    for body in ("University of Illinois", "Institute for Fiscal Studies", "Jane Doe Stanford University"):
        assert DocumentMeta(authors=(body,)).label == body  # no person before it: named whole


def _described_pdf(path: Path, title: str, author: str) -> Path:
    factories.pdf(path, ["The lexicon was rated by ten independent human raters."])
    document = pymupdf.open(path)
    document.set_metadata({"title": title, "author": author})
    document.saveIncr()
    document.close()
    return path


def test_pdf_word_and_html_properties_are_read_kept_edited_and_cited(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    pdf = _described_pdf(docs / "paper.pdf", "VADER: A Rule-based Model", "C.J. Hutto;gilbert@cc.gatech.edu")
    import docx as python_docx

    word = python_docx.Document()
    word.add_paragraph("Minutes of the board meeting.")
    word.core_properties.title = "Board minutes"
    word.core_properties.author = "Ada Lovelace"
    word.save(docs / "minutes.docx")
    (docs / "page.html").write_text(
        "<html><head><title>Site title</title><meta name='citation_title' content='Harbour history'>"
        "<meta name='citation_author' content='Grace Hopper'><meta name='citation_author' content='Alan Kay'>"
        "<meta name='citation_publication_date' content='2001/05/04'></head>"
        "<body><p>The harbour opened in 1880.</p></body></html>",
        encoding="utf-8",
    )
    (docs / "plain.txt").write_text("No properties here.", encoding="utf-8")
    with Engine.open(tmp_path / "lib", embedder=HashEmbedder()) as engine:
        engine.ingest([docs])
        known = {Path(d).name: m for d, m in engine.metadata().items()}
        assert known["paper.pdf"] == DocumentMeta("VADER: A Rule-based Model", ("C.J. Hutto",), None, "file")
        assert known["minutes.docx"] == DocumentMeta("Board minutes", ("Ada Lovelace",), None, "file")
        assert known["page.html"] == DocumentMeta(
            "Harbour history", ("Grace Hopper", "Alan Kay"), 2001, "file"
        )
        assert "plain.txt" not in known
        # the user's words replace the file's, and stay when the file is read again
        edited = engine.describe(pdf, authors=["C. J. Hutto", "Eric Gilbert"], year=2014)
        assert edited == DocumentMeta(
            "VADER: A Rule-based Model", ("C. J. Hutto", "Eric Gilbert"), 2014, "you"
        )
        engine.ingest([pdf], force=True)
        assert engine.metadata()[str(pdf)] == edited
        assert engine.describe(pdf, year=0).year is None  # 0 clears it
        with pytest.raises(ConfigError, match="14 is not a year"):
            engine.describe(pdf, year=14)
        # removed with its document
        engine.delete(docs / "minutes.docx")
        assert str(docs / "minutes.docx") not in engine.metadata()


def test_citations_and_the_bibliography_use_what_is_known() -> None:
    about = DocumentMeta("VADER: A Rule-based Model", ("C. J. Hutto", "Eric Gilbert"), 2014, "you")
    source = SourceRef(
        "u1", "/d/paper.pdf", "/d/paper.pdf", 5, (), 0, 20, "ten independent raters", about=about
    )
    claim = Claim("ten", True, ("u1",), "verifier", 0.9)
    answer = Answer("How many raters?", Decision.ANSWERED, "ten [1]", (claim,), (source,), (), ())
    assert place(source) == "Hutto and Gilbert 2014, p. 5"
    assert "> — Hutto and Gilbert 2014, p. 5" in answer_markdown(answer)
    (item,) = bibliography([answer])
    assert item["title"] == "VADER: A Rule-based Model" and item["issued"] == {"date-parts": [[2014]]}
    assert item["author"] == [{"literal": "C. J. Hutto"}, {"literal": "Eric Gilbert"}]
    assert "- C. J. Hutto, Eric Gilbert (2014). VADER: A Rule-based Model, page 5 (/d/paper.pdf)" in (
        conversation_markdown("Raters", [answer])
    )
    assert answer_from_plain(plain(answer)).sources[0].about == about  # stored with the turn
    unknown = replace(source, about=DocumentMeta())
    assert (
        place(unknown) == "paper.pdf, p. 5"
        and bibliography([replace(answer, sources=(unknown,))])[0]["title"] == "paper.pdf"
    )


def test_citedesk_describe_reads_and_writes(tmp_path: Path, capsys) -> None:
    pdf = _described_pdf(tmp_path / "paper.pdf", "A Study of Raters", "Jane Doe")
    library = str(tmp_path / "lib")
    with Engine.open(Path(library), embedder=HashEmbedder()) as engine:
        engine.ingest([pdf])
    assert cli.main(["describe", str(pdf), "--library", library, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "document": str(pdf),
        "title": "A Study of Raters",
        "authors": ["Jane Doe"],
        "year": None,
        "source": "file",
    }
    assert (
        cli.main(
            [
                "describe",
                str(pdf),
                "--library",
                library,
                "--authors",
                "Jane Doe",
                "Rui Costa",
                "--year",
                "2019",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "as you wrote it" in out and "cited as: Doe and Costa 2019" in out
    assert cli.main(["describe", str(tmp_path / "other.pdf"), "--library", library]) == 1
    assert "other.pdf is not in the library" in capsys.readouterr().err


def test_a_pdf_without_a_title_in_its_metadata_is_titled_by_its_first_pages_largest_type(
    tmp_path: Path,
) -> None:
    from citedesk_engine.ingest.extract.pdf import _pdf_meta

    document = pymupdf.open()
    page = document.new_page(width=595, height=842)
    page.insert_text((50, 80), "Extending R with C++:", fontsize=24)
    page.insert_text((50, 110), "A Brief Introduction to Rcpp", fontsize=24)
    page.insert_textbox(pymupdf.Rect(50, 150, 545, 800), factories.LOREM * 3, fontsize=10)
    document.set_metadata({"title": "vader_icwsm2014", "author": "Dirk Eddelbuettel"})
    assert _pdf_meta(document) == DocumentMeta(
        "Extending R with C++: A Brief Introduction to Rcpp", ("Dirk Eddelbuettel",), None, "file"
    )
    plain = pymupdf.open(factories.pdf(tmp_path / "plain.pdf", ["One size of type. " + factories.LOREM]))
    assert _pdf_meta(plain) == DocumentMeta()  # nothing stands out: no title is made up
