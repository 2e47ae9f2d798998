"""Every extractor on real files made by the libraries that write these formats, and every bad input."""

from __future__ import annotations

import codecs
from pathlib import Path
from types import SimpleNamespace

import factories
import pymupdf
import pytest
from citedesk_engine.config import IngestConfig
from citedesk_engine.errors import ExtractionError
from citedesk_engine.ingest.extract import extract, is_supported, pdf_lines, pdf_tables

CONFIG = IngestConfig()
FRENCH = (
    "Quand il est rentré chez lui, la fenêtre était grande ouverte et le café avait refroidi. "
    "Ce n'était pas la première fois que sa soeur oubliait de fermer la porte à clé."
)
RUSSIAN = (
    "Работник не должен раскрывать конфиденциальную информацию третьим лицам без письменного "
    "согласия работодателя, даже после окончания срока действия договора."
)


def run(path: Path, config: IngestConfig = CONFIG):
    return extract(path.read_bytes(), path.suffix, config)


def test_pdf_keeps_pages_words_and_bookmarks(tmp_path: Path) -> None:
    path = factories.pdf(
        tmp_path / "a.pdf",
        ["Alpha beta gamma.\nSecond line here.", "Delta on page two."],
        toc=[(1, "Intro", 1), (1, "Second", 2)],
    )
    doc = run(path)
    assert doc.kind == "pdf" and doc.pages == 2
    assert [s.page for s in doc.segments] == [1, 2]
    assert "Alpha beta gamma." in doc.text[doc.segments[0].start : doc.segments[0].end]
    assert doc.text[doc.segments[1].start : doc.segments[1].end] == "Delta on page two."
    delta = next(w for w in doc.words if doc.text[w.start : w.end] == "Delta")
    assert delta.page == 2 and 40 < delta.x0 < delta.x1 and delta.y0 < delta.y1
    for word in doc.words:  # every box points at a real word of the text
        assert doc.text[word.start : word.end].strip() == doc.text[word.start : word.end]
    assert [(n.label, n.page) for n in doc.structure] == [("Intro", 1), ("Second", 2)]
    assert doc.structure[0].end <= doc.structure[1].start


def test_a_bookmarks_heading_starts_where_its_title_stands_on_its_page(tmp_path: Path) -> None:
    # A bookmark names a page only: taken from the page's start, the text above a heading printed
    # halfway down was put under it (a window session: the /proc passage under "tmpfs").
    path = factories.pdf(
        tmp_path / "a.pdf",
        ["Backups matter.\nDo not back up /proc.\nBackup utility suites\nUse bacula or borg."],
        toc=[(1, "Backup policy", 1), (1, "Backup utility suites", 1), (1, "Not on its page", 1)],
    )
    doc = run(path)
    nodes = {n.label: n for n in doc.structure}
    suites = nodes["Backup utility suites"]
    assert doc.text[suites.start :].startswith("Backup utility suites")
    proc = doc.text.index("Do not back up")
    assert nodes["Backup policy"].start <= proc < nodes["Backup policy"].end == suites.start
    assert not suites.start <= proc < suites.end
    assert nodes["Not on its page"].start == doc.segments[0].start  # its title is not there: the page


def test_pdf_running_headers_and_footers_stay_out_of_the_text(tmp_path: Path) -> None:
    body = [
        ["Results of the trial on page {n}.".replace("{n}", str(n)), "Eight healthy subjects took part."]
        for n in range(1, 5)
    ]
    path = factories.paper_pdf(
        tmp_path / "paper.pdf",
        body,
        header="De Marchis et al. Journal of Tests Page {page} of {pages}",
        footer="{page}",
    )
    doc = run(path)
    assert "De Marchis" not in doc.text and "Page 2 of 4" not in doc.text
    assert "Results of the trial on page 3." in doc.text
    page_three = doc.text[doc.segments[2].start : doc.segments[2].end]
    assert page_three.startswith("Results of the trial on page 3.") and page_three.endswith("took part.")


def test_running_headers_that_reach_below_the_top_tenth_alternating_by_page_stay_out(tmp_path: Path) -> None:
    """Journal of Statistical Software: the header line starts 76 pt down an 842 pt page and ends at
    87, past the top tenth (84.2); odd pages carry the journal's name, even ones the title."""
    path = tmp_path / "jss.pdf"
    with pymupdf.open() as document:
        for number in range(1, 7):
            page = document.new_page(width=595, height=842)
            running = "Journal of Statistical Software" if number % 2 else "metafor: Meta-Analyses in R"
            page.insert_text((72, 85), f"{running}   {number}", fontsize=10)
            page.insert_text((72, 130), f"Body text of page {number} about the model.", fontsize=11)
        document.save(path)
    doc = run(path)
    assert "Journal of Statistical Software" not in doc.text and "metafor: Meta" not in doc.text
    assert doc.text.count("Body text of page") == 6


def test_a_printed_tables_cells_drawn_apart_on_one_line_stay_one_line(tmp_path: Path) -> None:
    """R's printout of vcd's piston-rings table came out a cell a line ("C4", "14", "7", "28"), and a
    window session was shown C4's North count for its South one: the row is read as drawn."""
    path = tmp_path / "printout.pdf"
    with pymupdf.open() as document:
        page = document.new_page(width=595, height=842)
        page.insert_text((72, 100), "The failures of each compressor in each leg:", fontsize=11)
        page.insert_text((72, 130), "compressor North Centre South", fontname="cour", fontsize=10)
        for row, cells in enumerate([("C1", "17", "17", "12"), ("C4", "14", "7", "28")]):
            for column, cell in enumerate(cells):
                page.insert_text((127 + 40 * column, 145 + 14 * row), cell, fontname="cour", fontsize=10)
        page.insert_text((72, 200), "There is no significant deviation from independence.", fontsize=11)
        document.save(path)
    text = run(path).text
    assert "C1 17 17 12\nC4 14 7 28" in text
    assert "independence." in text and "C4 14 7 28 There" not in text


def test_a_short_pdf_keeps_a_line_that_repeats_on_its_two_pages(tmp_path: Path) -> None:
    path = factories.paper_pdf(tmp_path / "two.pdf", [["Body one."], ["Body two."]], header="Minutes")
    assert run(path).text.count("Minutes") == 2  # two pages are too few to call a line page furniture


def test_pdf_joins_words_broken_over_lines_and_keeps_their_boxes(tmp_path: Path) -> None:
    lines = [
        "The method was applied automatic-",
        "ally to every sample, and its effective-",
        "ness was measured over the long-",
        "term. A long-term study followed. The Kaplan-Meier and Nelson-",
        "Aalen estimators were compared.",
    ]
    doc = run(factories.paper_pdf(tmp_path / "hyphens.pdf", [lines]))
    assert "applied automatically to every sample" in doc.text
    assert "The Kaplan-Meier and Nelson-Aalen estimators" in doc.text  # not "Nelson- Aalen"
    assert "its effectiveness was measured" in doc.text
    assert "over the long-term. A long-term study" in doc.text  # written hyphenated elsewhere: kept
    start = doc.text.index("automatically")
    parts = [w for w in doc.words if start <= w.start < start + len("automatically")]
    assert [doc.text[w.start : w.end] for w in parts] == ["automatic", "ally"]
    assert parts[0].y0 < parts[1].y0  # one box on each drawn line, for the highlight


TABLE = [
    (112, ["Module", "R function", "Description"]),
    (132, ["Formula module", "lFormula", "Accepts a mixed-model formula,"]),
    (144, ["", "", "data and other user inputs"]),
    (160, ["Objective module", "mkLmerDevfun", "Returns a deviance function"]),
    (176, ["Output module", "mkMerMod", "Packages the results"]),
]


def test_a_pdf_table_is_read_row_by_row_as_a_table_segment(tmp_path: Path) -> None:
    # Read as text, its cells came one per line, a column away from each other: lme4's Table 1 put
    # each R function apart from what it does, and a wrong one was shown as verified.
    path = factories.ruled_table_pdf(
        tmp_path / "table.pdf",
        TABLE,
        columns=[72, 200, 320],
        before="Table 1: The modules of the fitting code.",
        after="The text under the table goes on in prose and says nothing of rows.",
    )
    doc = run(path)
    kinds = [(s.kind, doc.text[s.start : s.end]) for s in doc.segments]
    assert [kind for kind, _ in kinds] == ["text", "table", "text"]
    assert kinds[0][1] == "Table 1: The modules of the fitting code."
    assert kinds[1][1] == (
        "Module | R function | Description\n"
        "Formula module | lFormula | Accepts a mixed-model formula, data and other user inputs\n"
        "Objective module | mkLmerDevfun | Returns a deviance function\n"
        "Output module | mkMerMod | Packages the results"
    )
    assert doc.segments[1].header == "Module | R function | Description"
    # its caption is its title (crq's "In Table 1, what is the scaled MSE ...?" found rows that write
    # neither "Table" nor "MSE": the right cell was refused), the prose under it none
    assert doc.segments[1].label == "Table 1: The modules of the fitting code."
    assert kinds[2][1].startswith("The text under the table")
    for word in doc.words:  # every box points at a real word of the text
        assert doc.text[word.start : word.end].strip() == doc.text[word.start : word.end]
    data = next(w for w in doc.words if doc.text[w.start : w.end] == "data")
    accepts = next(w for w in doc.words if doc.text[w.start : w.end] == "Accepts")
    assert data.page == 1 and abs(data.x0 - accepts.x0) < 1 and data.y0 > accepts.y0 + 8  # a line below it


def test_a_pdf_table_whose_cells_write_bars_splits_its_cells_by_tabs(tmp_path: Path) -> None:
    # lme4's table of formulas: "(1 | g)" split at " | " gave the model and the row checks one cell
    # too many, and "(1 | g1) + (1 | g2)" was shown as verified for another row's alternative.
    rows = [
        (112, ["Formula", "Alternative", "Meaning"]),
        (132, ["(1 | g)", "1 + (1 | g)", "Random intercept"]),
    ]
    rows.append((148, ["(1 | g1/g2)", "(1 | g1)+(1 | g1:g2)", "Nested intercepts"]))
    doc = run(
        factories.ruled_table_pdf(tmp_path / "f.pdf", rows, [72, 200, 350], "Table 2: formulas.", "Prose.")
    )
    table = next(s for s in doc.segments if s.kind == "table")
    assert doc.text[table.start : table.end].splitlines() == [
        "Formula\tAlternative\tMeaning",
        "(1 | g)\t1 + (1 | g)\tRandom intercept",
        "(1 | g1/g2)\t(1 | g1)+(1 | g1:g2)\tNested intercepts",
    ]
    assert table.header == "Formula\tAlternative\tMeaning"


def _table_of(rows: list[list[tuple[float, float, float, float] | None]]) -> SimpleNamespace:
    boxes = [box for row in rows for box in row if box]
    bbox = (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )
    return SimpleNamespace(rows=[SimpleNamespace(cells=row) for row in rows], bbox=bbox)


def _line(block: int, *words: tuple[str, float, float]) -> pdf_lines.Line:
    return pdf_lines.Line(block, tuple((text, x, y, x + 8 * len(text), y + 10) for text, x, y in words))


def test_table_rows_join_a_row_broken_over_lines_and_not_rows_of_figures() -> None:
    columns = [(0.0, 100.0), (100.0, 200.0), (200.0, 300.0)]
    table = _table_of([[(a, y, b, y + 14) for a, b in columns] for y in (0, 14, 28, 42, 56)])
    lines = [
        _line(0, ("Group", 2, 2), ("Item", 102, 2), ("Note", 202, 2)),
        _line(0, ("Alpha", 2, 16), ("x", 102, 16), ("Starts", 202, 16)),
        _line(0, ("goes", 202, 30), ("on", 240, 30)),  # the Note broken over a second line
        _line(0, ("y", 102, 44), ("2", 202, 44)),  # a row of its own under the same group
        _line(0, ("Beta", 2, 58), ("z", 102, 58), ("Ends", 202, 58)),
    ]
    rows = pdf_tables._table_rows(table, lines)
    text = [[" ".join(pdf_tables._word(lines, spot) for spot in cell) for cell in row] for row in rows]
    assert text == [
        ["Group", "Item", "Note"],
        ["Alpha", "x", "Starts goes on"],
        ["", "y", "2"],
        ["Beta", "z", "Ends"],
    ]


def test_a_band_between_two_rules_is_read_a_drawn_line_a_row() -> None:
    # lme4's list of methods and pscl's: ruled above and below only, so the finder gives one band of
    # 30 lines; read as one row it read column by column, as text did.
    table = _table_of([[(0, 0, 100, 14), (100, 0, 300, 14)], [(0, 14, 100, 100), (100, 14, 300, 100)]])
    lines = [_line(0, ("Generic", 2, 2), ("Description", 102, 2))]
    lines += [_line(1, ("anova", 2, 16), ("Decomposition", 102, 16), ("of", 210, 16), ("effects", 230, 16))]
    lines += [_line(1, ("or", 102, 28), ("model", 125, 28), ("comparison", 170, 28))]  # wrapped: joins
    lines += [_line(1, ("coef", 2, 40), ("Coefficients", 102, 40))]
    lines += [_line(1, ("T", 2, 52), ("Template", 102, 52)), _line(2, ("i", 10, 55))]  # a subscript
    rows = pdf_tables._table_rows(table, lines)
    text = [[" ".join(pdf_tables._word(lines, spot) for spot in cell) for cell in row] for row in rows]
    assert text == [
        ["Generic", "Description"],
        ["anova", "Decomposition of effects or model comparison"],
        ["coef", "Coefficients"],
        ["T i", "Template"],
    ]


def test_rules_drawn_down_the_columns_a_segment_a_row_give_the_rows() -> None:
    # pscl's list of methods: one band between two horizontal rules holds two rows, and the first
    # row's description wraps over two lines; its "|" columns are drawn a segment per row, so their
    # ends say where each row starts. Debian's tables too, a short name set level with the middle of
    # a description of two lines.
    table = _table_of([[(0, 0, 100, 14), (100, 0, 300, 14)], [(0, 14, 100, 50), (100, 14, 300, 50)]])
    rules = [
        pymupdf.Rect(x, top, x + 0.4, bottom)
        for x in (0, 100, 300)
        for top, bottom in ((0, 14), (14, 38), (38, 50))
    ]
    lines = [
        _line(0, ("Function", 2, 2), ("Description", 102, 2)),
        _line(1, ("Standard", 102, 16), ("regression", 160, 16)),
        _line(1, ("summary()", 2, 22)),  # level with the middle of its two-line description
        _line(1, ("Output,", 102, 28), ("returned", 160, 28)),
        _line(1, ("coef()", 2, 40), ("Coefficients", 102, 40)),
    ]
    rows = pdf_tables._table_rows(table, lines, rules)
    text = [[" ".join(pdf_tables._word(lines, spot) for spot in cell) for cell in row] for row in rows]
    assert text == [
        ["Function", "Description"],
        ["summary()", "Standard regression Output, returned"],
        ["coef()", "Coefficients"],
    ]


def test_part_of_a_table_found_by_its_ruled_columns_is_no_table() -> None:
    # Debian's package tables: the grid finder found the ruled "popcon | size" columns alone, the
    # package names just left of them and the descriptions just right.
    table = _table_of([[(100, y, 160, y + 14), (160, y, 200, y + 14)] for y in (0, 14, 28)])
    lines = [
        _line(0, ("package", 40, 2), ("popcon", 102, 2), ("size", 162, 2), ("description", 205, 2)),
        _line(0, ("knockd", 40, 16), ("V:0,", 102, 16), ("109", 162, 16), ("daemon", 205, 16)),
        _line(0, ("fail2ban", 40, 30), ("V:111,", 102, 30), ("2127", 162, 30), ("ban", 205, 30)),
    ]
    assert pdf_tables._is_partial(pymupdf.Rect(table.bbox), lines)
    whole = _table_of(
        [
            [(0, y, 100, y + 14), (100, y, 160, y + 14), (160, y, 200, y + 14), (200, y, 300, y + 14)]
            for y in (0, 14, 28)
        ]
    )
    assert not pdf_tables._is_partial(pymupdf.Rect(whole.bbox), lines)
    assert len(pdf_tables._table_rows(whole, lines)) == 3


def test_a_framed_block_of_code_and_a_table_of_contents_found_as_tables_stay_text() -> None:
    # Debian's reference manual frames its shell sessions ("$ | man | man" as a table) and sets its
    # contents in ruled rows; the contents are left out of the index only as text.
    box = pymupdf.Rect(0, 0, 300, 60)
    code = [(pymupdf.Rect(10, 10, 200, 20), 30, True), (pymupdf.Rect(10, 30, 200, 40), 28, True)]
    assert pdf_tables._is_code(box, code)
    packages = [(pymupdf.Rect(10, 10, 60, 20), 8, True), (pymupdf.Rect(80, 10, 290, 20), 40, False)]
    assert not pdf_tables._is_code(box, packages)
    lines = [
        _line(
            0,
            ("1.3.1", 2, 2),
            ("Customization", 40, 2),
            *[(".", 150 + 6 * i, 2) for i in range(8)],
            ("17", 250, 2),
        ),
        _line(
            0,
            ("1.3.2", 2, 16),
            ("Starting", 40, 16),
            *[(".", 150 + 6 * i, 16) for i in range(8)],
            ("18", 250, 16),
        ),
    ]
    rows = [[[(n, 0)], [(n, p) for p in range(1, 10)], [(n, 10)]] for n in range(2)]
    assert pdf_tables._is_contents(rows, lines)
    assert not pdf_tables._is_contents([[[(n, 0)], [(n, 1)]] for n in range(2)], lines)


def test_pdf_ligatures_are_spelt_out(tmp_path: Path) -> None:
    path = factories.paper_pdf(tmp_path / "lig.pdf", [["The \ufb01xed and \ufb02oating models."]], font="cjk")
    assert "The fixed and floating models." in run(path).text


def test_encrypted_pdf_is_refused_with_advice(tmp_path: Path) -> None:
    with pytest.raises(ExtractionError, match="password-protected"):
        run(factories.encrypted_pdf(tmp_path / "locked.pdf"))


def test_scanned_pdf_with_ocr_off_says_to_turn_it_on(tmp_path: Path) -> None:
    with pytest.raises(ExtractionError, match="no extractable text.*OCR is off: turn OCR on in Settings"):
        run(factories.scanned_pdf(tmp_path / "scan.pdf"))


def test_corrupt_pdf(tmp_path: Path) -> None:
    good = factories.pdf(tmp_path / "good.pdf", ["Some text."]).read_bytes()
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(good[:40] + b"\x00garbage" * 50)
    with pytest.raises(ExtractionError, match="PDF"):
        run(broken)
    junk = tmp_path / "junk.pdf"
    junk.write_bytes(b"this is not a pdf at all")
    with pytest.raises(ExtractionError, match="not a readable PDF"):
        run(junk)


def test_a_truncated_pdf_is_called_damaged_not_empty_or_scanned(tmp_path: Path) -> None:
    """A download cut short: MuPDF rebuilds what is left, pages without their text."""
    good = factories.pdf(
        tmp_path / "whole.pdf", [f"Page {n} of the annual report." for n in range(3)]
    ).read_bytes()
    cut = tmp_path / "cut.pdf"
    cut.write_bytes(good[: len(good) * 3 // 10])
    with pytest.raises(ExtractionError, match="damaged or incomplete"):
        run(cut)


def test_docx_headings_paragraphs_and_table_header(tmp_path: Path) -> None:
    doc = run(factories.docx(tmp_path / "r.docx"))
    assert "Quarterly report" in doc.text and "Grace | Admiral" in doc.text
    labels = [(n.kind, n.label, n.level) for n in doc.structure]
    assert ("heading", "Quarterly report", 1) in labels and ("heading", "Staff", 2) in labels
    staff = next(n for n in doc.structure if n.label == "Staff")
    assert "Ada | Engineer" in doc.text[staff.start : staff.end]
    table = next(s for s in doc.segments if s.kind == "table")
    assert table.header == "Name | Role" and table.label == "Staff"


def test_pptx_slides_titles_tables_and_notes(tmp_path: Path) -> None:
    doc = run(factories.pptx(tmp_path / "d.pptx"))
    assert doc.pages == 2
    slides = [(n.kind, n.label) for n in doc.structure if n.kind == "slide"]
    assert slides == [("slide", "Roadmap"), ("slide", "Risks")]
    risks = next(s for s in doc.segments if s.page == 2)
    assert "The parser may be slow." in doc.text[risks.start : risks.end]
    assert "Speaker notes about risks." in doc.text


def test_xlsx_sheets_as_tables_with_header(tmp_path: Path) -> None:
    doc = run(factories.xlsx(tmp_path / "b.xlsx"))
    assert [n.label for n in doc.structure if n.kind == "sheet"] == ["Budget", "Notes"]
    budget = next(s for s in doc.segments if s.label == "Budget")
    assert budget.kind == "table" and budget.header == "Item | Amount | Owner"
    assert "Item 3 | 103 | Finance" in doc.text


def test_xlsx_notes_above_and_below_a_table_are_paragraphs_not_its_header(tmp_path: Path) -> None:
    """readxl's deaths.xlsx: notes spread over the cells above and below a table of people; the first
    note was the table's header, and its dates were written "1947-01-08T00:00:00"."""
    import datetime as dt

    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "arts"
    sheet.append(["Lots of people"])
    sheet.append(["at", "the", "top", None, "of their spreadsheets"])
    sheet.append(["Name", "Profession", "Age", "Date of birth", "Date of death"])
    sheet.append(["David Bowie", "musician", 69, dt.datetime(1947, 1, 8), dt.datetime(2016, 1, 10)])
    sheet.append(["Prince", None, 57, dt.datetime(1958, 6, 7), dt.datetime(2016, 4, 21, 11, 30)])
    sheet.append(["Some notes", "at the bottom"])
    # a second header row and a row of text only are the table's
    other = book.create_sheet("weights")
    other.append(["name", "species", "weight"])
    other.append(["(at birth)", "(office supply type)", "(in grams)"])
    other.append(["Clippy", "paperclip", 0.9])
    book.save(tmp_path / "deaths.xlsx")
    doc = run(tmp_path / "deaths.xlsx")
    arts = [s for s in doc.segments if s.label == "arts"]
    assert [s.kind for s in arts] == ["text", "table", "text"]
    assert arts[1].header == "Name | Profession | Age | Date of birth | Date of death"
    assert doc.text[arts[0].start : arts[0].end] == "Lots of people\nat the top of their spreadsheets"
    assert "David Bowie | musician | 69 | 1947-01-08 | 2016-01-10" in doc.text
    assert "Prince |  | 57 | 1958-06-07 | 2016-04-21 11:30:00" in doc.text  # a blank cell stays one
    assert doc.text[arts[2].start : arts[2].end].strip() == "Some notes at the bottom"
    (weights,) = [s for s in doc.segments if s.label == "weights"]
    assert weights.kind == "table" and weights.header == "name | species | weight"


def test_xlsx_numbers_are_written_to_excels_fifteen_digits(tmp_path: Path) -> None:
    """openpyxl's mtcars pivot (r-cran-openxlsx's loadExample.xlsx) in a window session: a mean of
    the mpg column was answered "15.161538461538463", sums "27.299999999999997" and "4.1000000000000005"."""
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["cyl", "mean mpg", "sum", "tiny", "huge"])
    sheet.append([8, 15.161538461538463, 27.299999999999997, 1.5e-7, 6.02214076e23])
    book.save(tmp_path / "pivot.xlsx")
    doc = run(tmp_path / "pivot.xlsx")
    assert "8 | 15.1615384615385 | 27.3 | 1.5e-07 | 6.02214076e+23" in doc.text, doc.text


def test_xlsx_whose_dimension_record_is_wrong_is_read_whole(tmp_path: Path) -> None:
    """Writers other than Excel (R's writexl, Debian's r-cran-readxl example) leave <dimension ref="A1">:
    read-only openpyxl then yielded the first cell of each sheet and nothing else."""
    import re
    import zipfile

    good = factories.xlsx(tmp_path / "good.xlsx")
    bad = tmp_path / "bad-dimension.xlsx"
    with zipfile.ZipFile(good) as source, zipfile.ZipFile(bad, "w") as target:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename.startswith("xl/worksheets/sheet"):
                data = re.sub(rb'<dimension ref="[^"]*"/>', b'<dimension ref="A1"/>', data)
            target.writestr(item, data)
    doc = run(bad)
    assert "Item | Amount | Owner" in doc.text and "Item 4 | 104 | Finance" in doc.text
    assert "Approved by the board" in doc.text


def test_xhtml_with_an_xml_declaration_is_read(tmp_path: Path) -> None:
    """DocBook chapters (Debian's manuals) open with an XML declaration naming their encoding."""
    page = tmp_path / "ch01.xhtml"
    page.write_bytes(
        b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
        b'<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd">'
        b'<html xmlns="http://www.w3.org/1999/xhtml"><head><title>GNU/Linux tutorials</title></head>'
        b"<body><h1>Chapter 1. GNU/Linux tutorials</h1><p>Caf\xc3\xa9 users learn the shell first.</p>"
        b"</body></html>"
    )
    for name in ("ch01.xhtml", "ch01.html"):
        page.rename(tmp_path / name) if name != page.name else None
        page = tmp_path / name
        doc = run(page)
        assert "Café users learn the shell first." in doc.text
        assert [n.label for n in doc.structure] == ["Chapter 1. GNU/Linux tutorials"]


def test_html_drops_scripts_keeps_headings_and_tables(tmp_path: Path) -> None:
    page = tmp_path / "p.html"
    page.write_text(
        "<html><head><style>p{}</style><script>alert('x')</script></head><body>"
        "<h1>Ports</h1><p>Lisbon has a <b>deep</b> harbour.</p><ul><li>One</li><li>Two</li></ul>"
        "<table><tr><th>City</th><th>Pop</th></tr><tr><td>Porto</td><td>232000</td></tr></table>"
        "Loose text.</body></html>",
        encoding="utf-8",
    )
    doc = run(page)
    assert "alert" not in doc.text and "p{}" not in doc.text
    assert "Lisbon has a deep harbour." in doc.text and "Porto | 232000" in doc.text
    assert "Loose text." in doc.text
    assert [n.label for n in doc.structure] == ["Ports"]


def test_a_block_holding_blocks_is_read_block_by_block(tmp_path: Path) -> None:
    # Sphinx's reference pages: a class's <dd> holds each method's <dl>; read as one paragraph, a
    # method's signature ran into the last sentence of the method before it, and that was quoted.
    page = tmp_path / "logging.html"
    page.write_text(
        "<html><body><dl class='py class'><dt>class logging.Logger</dt><dd>"
        "<p>Loggers have the following methods.</p>"
        "<dl class='py method'><dt>log(level, msg)</dt><dd><p>Logs a message with integer level "
        "<em>level</em>. The other arguments are interpreted as for <code>debug()</code>.</p></dd></dl>"
        "<dl class='py method'><dt>exception(msg)</dt><dd><p>Logs a message with level ERROR.</p></dd></dl>"
        "</dd></dl><ul><li>Item with <a href='#'>a link</a> and more<ul><li>Nested item</li></ul></li></ul>"
        "</body></html>",
        encoding="utf-8",
    )
    text = run(page).text
    assert "for debug().\n\nexception(msg)\n\nLogs a message with level ERROR." in text
    assert "Logs a message with integer level level. The other arguments" in text  # inline stays inline
    assert "Item with a link and more\n\nNested item" in text


def test_an_api_definition_is_a_section_named_by_its_signature(tmp_path: Path) -> None:
    """Python's json reference: json.loads's description began a passage that did not name
    json.loads, and "What exception does json.loads raise?" was refused. A signature heads its
    description; a class's methods stay inside the class; the text after a definition is its
    section's again."""
    page = tmp_path / "json.html"
    page.write_text(
        "<html><body><h2>Basic Usage</h2>"
        "<dl class='py function'><dt class='sig sig-object py' id='json.loads'>json.loads(s, *, cls=None)"
        "<a class='headerlink' href='#json.loads'>\u00b6</a></dt><dd><p>Deserialize <em>s</em> to a Python "
        "object.</p><p>If the data being deserialized is not a valid JSON document, a JSONDecodeError "
        "will be raised.</p></dd></dl>"
        "<dl class='py class'><dt class='sig sig-object py'>class json.JSONDecoder(*, strict=True)</dt>"
        "<dd><p>Simple JSON decoder.</p><dl class='py method'>"
        "<dt class='sig sig-object py' id='json.JSONDecoder.decode'>decode(s)</dt>"
        "<dd><p>Return the Python representation of s.</p></dd></dl></dd></dl>"
        "<dl class='py data'><dt class='sig sig-object py' id='json.MAX'>json.MAX</dt>"
        "<dd><p>A constant.</p></dd></dl>"
        "<p>The module never executes the text it reads.</p></body></html>",
        encoding="utf-8",
    )
    doc = run(page)

    def under(label: str) -> str:
        return " ".join(doc.text[s.start : s.end] for s in doc.segments if s.label == label)

    loads = "json.loads"
    assert "json.loads(s, *, cls=None)\n\nDeserialize" in doc.text
    assert "a JSONDecodeError will be raised." in under(loads)
    assert "Deserialize s to a Python object." in under(loads)
    assert "\u00b6" not in doc.text
    decoder = "class json.JSONDecoder(*, strict=True)"  # no id: the signature is the label
    assert "Simple JSON decoder." in under(decoder)
    # a method is a section within its class's, named by its full name
    assert "Return the Python representation of s." in under("json.JSONDecoder.decode")
    nodes = {n.label: n for n in doc.structure}
    method, cls = nodes["json.JSONDecoder.decode"], nodes[decoder]
    assert cls.start < method.start < method.end <= cls.end and method.level == cls.level + 1
    assert "A constant." in under("json.MAX")  # a module's data: Flask's configuration keys
    assert "The module never executes the text it reads." in under("Basic Usage")
    assert {"Basic Usage", loads, decoder} <= {n.label for n in doc.structure}


def test_html_navigation_is_not_the_pages_text(tmp_path: Path) -> None:
    """The Debian FAQ's table of contents was a passage, offered as the closest to a question its
    section answers (a window session); Sphinx's sidebar repeats a page's headings."""
    page = tmp_path / "pkg-basics.en.html"
    page.write_text(
        "<html><body><div class='navheader'><table><tr><td><a href='ch6.html'>Prev</a></td>"
        "<th>Chapter 7. Basics</th></tr></table></div>"
        "<div class='chapter'><h2>Chapter 7. Basics</h2><div class='toc'><p><strong>Table of Contents"
        "</strong></p><dl class='toc'><dt><a href='#hold'>7.12. How do I put a package on hold?</a></dt>"
        "</dl></div><h3 id='hold'>7.12. How do I put a package on hold?</h3>"
        "<p>Use apt-mark hold with the package's name.</p></div>"
        "<nav><a href='index.html'>index</a></nav><div role='navigation'>next | previous</div>"
        "<div class='sphinxsidebar'><h3>Table of Contents</h3><ul><li>Basics</li></ul></div>"
        "<div class='navfooter'>The Debian GNU/Linux FAQ | Chapter 8</div></body></html>",
        encoding="utf-8",
    )
    doc = run(page)
    held = "7.12. How do I put a package on hold?"
    assert doc.text == f"Chapter 7. Basics\n\n{held}\n\nUse apt-mark hold with the package's name."
    assert sorted(n.label for n in doc.structure) == [held, "Chapter 7. Basics"]


def test_markdown_keeps_source_and_sections(tmp_path: Path) -> None:
    source = "# Guide\n\nIntro.\n\n## Install\n\nRun make.\n\n## Use\n\nClick.\n"
    path = tmp_path / "g.md"
    path.write_text(source, encoding="utf-8")
    doc = run(path)
    assert doc.text == source
    nodes = {n.label: n for n in doc.structure}
    assert doc.text[nodes["Install"].start : nodes["Install"].end].strip() == "## Install\n\nRun make."
    assert nodes["Guide"].end == len(source)
    assert [s.label for s in doc.segments] == ["Guide", "Install", "Use"]


def test_markdown_headings_with_nothing_under_them_open_the_next_section_named_with_its_path(
    tmp_path: Path,
) -> None:
    # httpx's CHANGELOG.md: a version's heading is followed at once by "### Removed"; it was a passage
    # of its own, and "Removed" one without the version (a window session).
    source = (
        "# Changelog\n\nAll notable changes.\n\n## Unreleased\n\n"
        "## 0.25.0 (11th September, 2023)\n\n### Removed\n\n* Drop support for Python 3.7.\n\n"
        "### Added\n\n* Support HTTPS proxies.\n"
    )
    path = tmp_path / "CHANGELOG.md"
    path.write_text(source, encoding="utf-8")
    doc = run(path)
    sections = [(s.label, doc.text[s.start : s.end].strip()) for s in doc.segments]
    assert sections == [
        ("Changelog", "# Changelog\n\nAll notable changes."),
        (
            "0.25.0 (11th September, 2023) › Removed",
            "## Unreleased\n\n## 0.25.0 (11th September, 2023)\n\n### Removed\n\n"
            "* Drop support for Python 3.7.",
        ),
        ("0.25.0 (11th September, 2023) › Added", "### Added\n\n* Support HTTPS proxies."),
    ]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (FRENCH.encode("latin-1"), "la fenêtre était grande ouverte"),
        (("Quotes “like this” cost €5. " + FRENCH).encode("cp1252"), "Quotes “like this” cost €5"),
        (RUSSIAN.encode("cp1251"), "Работник не должен раскрывать"),
        (RUSSIAN.encode("koi8-r"), "Работник не должен раскрывать"),
        (codecs.BOM_UTF16_LE + "Grüße aus Köln".encode("utf-16-le"), "Grüße aus Köln"),
        (codecs.BOM_UTF8 + "naïve".encode(), "naïve"),
        (b"Windows\r\nline endings\r\n", "Windows\nline endings\n"),
    ],
)
def test_text_encodings_are_detected(tmp_path: Path, raw: bytes, expected: str) -> None:
    path = tmp_path / "t.txt"
    path.write_bytes(raw)
    doc = run(path)
    assert expected in doc.text


def test_csv_is_a_table_with_its_header(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text("city,population\nLisbon,545000\n", encoding="utf-8")
    doc = run(path)
    assert doc.segments[0].kind == "table" and doc.segments[0].header == "city,population"


def test_code_symbols_become_structure(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_text("import os\n\ndef load(p):\n    return p\n\nclass Store:\n    pass\n")
    doc = run(path)
    assert [(n.kind, n.label) for n in doc.structure] == [("symbol", "load"), ("symbol", "Store")]
    assert all(s.kind == "code" for s in doc.segments)


@pytest.mark.parametrize("name", ["empty.txt", "empty.pdf", "empty.docx", "empty.md", "blank.txt"])
def test_empty_files(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(b"   \n\n" if name == "blank.txt" else b"")
    with pytest.raises(ExtractionError, match="empty"):
        run(path)


def test_binary_content_with_a_text_extension(tmp_path: Path) -> None:
    path = tmp_path / "data.txt"
    path.write_bytes(bytes(range(256)) * 20)
    with pytest.raises(ExtractionError, match="binary data"):
        run(path)
    disguised = tmp_path / "report.txt"
    disguised.write_bytes(factories.pdf(tmp_path / "real.pdf", ["x"]).read_bytes())
    with pytest.raises(ExtractionError, match="holds PDF"):
        run(disguised)


def test_unsupported_and_old_office_extensions(tmp_path: Path) -> None:
    image = tmp_path / "photo.heic"
    image.write_bytes(b"\0\0\0\x18ftypheic" + b"\0" * 100)
    with pytest.raises(ExtractionError, match=r"unsupported file type '\.heic'.*pictures"):
        run(image)
    old = tmp_path / "old.doc"
    old.write_bytes(b"\xd0\xcf\x11\xe0" + b"\0" * 100)
    with pytest.raises(ExtractionError, match=r"save it as \.docx"):
        run(old)
    assert is_supported(".PDF") and not is_supported(".exe")


@pytest.mark.parametrize("name", ["bomb.docx", "bomb.xlsx", "bomb.pptx"])
def test_zip_bomb_is_refused_before_inflating(tmp_path: Path, name: str) -> None:
    path = factories.zip_bomb(tmp_path / name, megabytes=60)
    assert path.stat().st_size < 1_000_000
    with pytest.raises(ExtractionError, match="zip bomb"):
        run(path)
    # A tighter absolute limit catches a bomb with a modest ratio too.
    with pytest.raises(ExtractionError, match="zip bomb"):
        run(path, IngestConfig(max_unzipped_mb=10))


@pytest.mark.parametrize("name", ["bad.docx", "bad.xlsx", "bad.pptx"])
def test_corrupt_office_files(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(b"PK\x03\x04 this is not really a zip")
    with pytest.raises(ExtractionError, match="not a readable"):
        run(path)
    inner = factories.zip_bomb(tmp_path / ("z" + name), member="unrelated.txt", megabytes=1)
    with pytest.raises(ExtractionError, match="not a readable"):
        run(inner)


def test_a_title_in_dingbats_is_no_title() -> None:
    """lme4's PLSvGLS.pdf draws its text in a font without a usable character map; its title read
    "P❡♥❛❧✐③❡❞❧❡❛st sq✉❛r❡s ..." in the evidence pane (the page itself is read by OCR)."""
    from citedesk_engine.ingest.extract.pdf import legible

    assert not legible("P❡♥❛❧✐③❡❞❧❡❛st sq✉❛r❡s ✈❡rs✉s ❣❡♥❡r❛❧✐③❡❞ ❧❡❛st sq✉❛r❡s")
    assert legible("Extending R with C++: A Brief Introduction to Rcpp")
    assert legible("Мультиязычный поиск: δ-функции и 検索")  # other scripts are words too
    assert not legible("  ")


def test_a_title_pages_affiliation_marks_leave_the_names_and_tex_accents_join_their_letters(
    tmp_path: Path,
) -> None:
    """coin's vignette, as read before: "Torsten Hothorn1, Kurt Hornik2" (no question writes
    "Hothorn1": "Who wrote this paper?" was refused), "1Institut f¨ur Medizininformatik",
    "Universit¨at Erlangen-N¨urnberg" (a search for Nürnberg found nothing)."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)

    def write(x: float, y: float, text: str, size: float = 11) -> float:
        page.insert_text((x, y), text, fontsize=size, fontname="helv")
        return x + pymupdf.get_text_length(text, fontname="helv", fontsize=size)

    x = write(72, 100, "Torsten Hothorn")
    x = write(x, 96, "1", 7)  # an affiliation mark: smaller, raised, glued to the name
    x = write(x, 100, ", Kurt Hornik")
    write(x, 96, "2", 7)
    x = write(72, 130, "1", 7)
    write(x, 134, "Institut f\u00a8ur Medizininformatik, Universit\u00a8at Erlangen-N\u00a8urnberg")
    write(72, 160, "The area is 12 m2 and the gas is CO2; the stimulus is x1 \u00b4ecole fran\u00e7aise.")
    x = write(72, 190, "The link is Cauchy")
    x = write(x, 186, "c", 7)  # a footnote's letter, raised (ordinal's Table 3)
    x = write(x, 190, " and the index of temp")
    x = write(x, 193, "i", 7)  # an index, set lower: no mark
    write(x, 190, " by Fran\u00b8cois.")
    doc.save(tmp_path / "title.pdf")
    doc.close()

    text = run(tmp_path / "title.pdf").text
    assert "Torsten Hothorn, Kurt Hornik\n" in text  # the marks left out, as a reader skips them
    assert "\nInstitut für Medizininformatik, Universität Erlangen-Nürnberg" in text
    # Set on the line, not raised: numbers of the text, whole; an accent before its letter joins it.
    assert "12 m2 and the gas is CO2; the stimulus is x1 école française." in text
    assert "The link is Cauchy and the index of tempi by François." in text
    assert pdf_lines.composed("c\u00b8a ma\u02c7cka \u00b4\u0131") == "ça mačka í"
    assert pdf_lines.composed("`date` and ~/x^2") == "`date` and ~/x^2"  # code's ASCII marks stay


def test_a_tables_empty_corner_cell_keeps_every_column_under_its_name(tmp_path: Path) -> None:
    """crq's Table 1 heads its row labels ("n = 200") with an empty cell: left out, "median" named the
    labels' column and each value sat under the next column's name, so the gate refused the right
    Kaplan-Meier value as being from "Nelson-Aalen". So it was in every format's tables."""
    from citedesk_engine.index.table_keys import EMPTY_CELL
    from citedesk_engine.ingest.extract.base import table_lines

    assert table_lines([["", "", "median", "Kaplan-Meier", ""], ["", "n = 200", "1.581", "1.924", ""]]) == [
        f"{EMPTY_CELL} | median | Kaplan-Meier",
        "n = 200 | 1.581 | 1.924",
    ]
    html = tmp_path / "sim.html"
    html.write_text(
        "<table><tr><th></th><th>median</th><th>Kaplan-Meier</th></tr>"
        "<tr><td>n = 200</td><td>1.581</td><td>1.924</td></tr></table>",
        encoding="utf-8",
    )
    assert f"{EMPTY_CELL} | median | Kaplan-Meier\nn = 200 | 1.581 | 1.924" in run(html).text
    rows = [(112, ["", "median", "Kaplan-Meier"]), (132, ["n = 200", "1.581", "1.924"])]
    rows.append((148, ["n = 500", "1.666", "2.016"]))
    pdf = factories.ruled_table_pdf(
        tmp_path / "sim.pdf", rows, [72, 200, 320], "Table 1: Scaled MSE.", "Prose."
    )
    table = next(s for s in run(pdf).segments if s.kind == "table")
    assert table.header == f"{EMPTY_CELL} | median | Kaplan-Meier" and table.label == "Table 1: Scaled MSE."


def test_a_column_the_table_finder_merged_is_split_where_every_row_says_so() -> None:
    """ordinal's Table 4 came out "3 4" over "8 2": the answer for bitterness category 3 was taken
    from the wrong cell and shown as verified. Short values one under the other in every row of a
    column, header included, are that many columns; words of a description are one cell."""
    Line = pdf_lines.Line

    def line(y: float, cells: list[list[tuple[str, float]]]) -> tuple[Line, list[list[tuple[int, int]]]]:
        words = [(text, x, y, x + 6 * len(text), y + 10) for cell in cells for text, x in cell]
        return Line(0, tuple(words)), cells

    table = [
        [[("Contact", 72)], [("3", 200), ("4", 240)], [("Note", 300)]],
        [[("no", 72)], [("5", 200), ("0", 240)], [("cold", 300)]],
        [[("yes", 72)], [("8", 200), ("2", 240)], [("warm", 300), ("room", 330)]],
    ]
    lines = [line(100 + 20 * i, cells)[0] for i, cells in enumerate(table)]
    rows = [
        [
            [(i, p) for p in range(sum(len(c) for c in cells[:j]), sum(len(c) for c in cells[: j + 1]))]
            for j in range(3)
        ]
        for i, cells in enumerate(table)
    ]
    split = pdf_tables._split_merged(rows, lines)
    assert [[[lines[n].words[p][0] for n, p in cell] for cell in row] for row in split] == [
        [["Contact"], ["3"], ["4"], ["Note"]],
        [["no"], ["5"], ["0"], ["cold"]],
        [["yes"], ["8"], ["2"], ["warm", "room"]],
    ]
    # values not under each other (a cell of two words wrapped differently per row): left whole
    table[1][1] = [("5", 200), ("0", 270)]
    lines = [line(100 + 20 * i, cells)[0] for i, cells in enumerate(table)]
    assert pdf_tables._split_merged(rows, lines) == rows


def test_a_label_over_a_tables_columns_is_not_its_header() -> None:
    """ordinal's Table 4: "Least—Most bitter" over "Temperature | Contact | 1 | 2 | 3 | 4 | 5" was taken
    for the header, the columns went unnamed, and a wrong cell was shown as verified."""
    Line = pdf_lines.Line

    def row(*cells: str) -> Line:
        words, starts = [], []
        for cell in cells:
            starts.append(len(words))
            words += [(w, 0.0, 0.0, 1.0, 1.0) for w in cell.split()]
        return Line(-1, tuple(words), cells=tuple(starts))

    label = row("", "", "Least—Most bitter", "", "")
    names = row("Temperature", "Contact", "1", "2", "3")
    data = row("cold", "yes", "1", "7", "8")
    assert pdf_tables.header_line([label, names, data]) is names
    assert pdf_tables.header_line([names, data, data]) is names
    assert pdf_tables.header_line([row("Name", "Role"), row("Ada", "Analyst"), data]).words[0][0] == "Name"


def test_a_sentence_running_on_over_a_page_break_is_one_passage(tmp_path: Path) -> None:
    """quantreg's crq vignette named its third estimator on the next page: no passage held the
    sentence whole, and the third value of the list was never read (a window session)."""
    from citedesk_engine.ingest.chunk import chunk
    from citedesk_engine.ingest.units import build_units

    pages = [
        ["We compare the estimators of Kaplan-Meier, Nelson-Aalen and the", "method of Powell, as imple-"],
        ["mented in crq. The results follow in Table 1.", "Each estimator was run 500 times."],
        ["A new section starts here on page three."],
    ]
    doc = run(factories.paper_pdf(tmp_path / "crq.pdf", pages, header="Journal {page}"))
    assert "of Powell, as implemented in crq." in doc.text  # a word broken over the pages too
    assert "500 times.\n\nA new section" in doc.text  # a sentence that ends on its page ends there
    texts = [s for s in doc.segments if s.kind == "text"]
    assert [s.page for s in texts] == [1, 3]
    units = build_units("crq.pdf", "v1", doc.text, chunk(doc.text, doc.segments, 200, 20), doc.words)
    first = units[0]
    assert "Nelson-Aalen and the method of Powell, as implemented in crq." in " ".join(first.passage.split())
    assert first.page == 1 and {box.page for box in first.boxes} == {1, 2}
    # A passage of the run-on segment starting on the second page is on that page.
    small = build_units("crq.pdf", "v1", doc.text, chunk(doc.text, doc.segments, 12, 0), doc.words)
    late = next(u for u in small if u.passage.startswith("Each estimator"))
    assert late.page == 2 and {box.page for box in late.boxes} == {2}


def test_a_page_number_or_a_front_matter_page_does_not_run_on() -> None:
    """Debian's reference manual numbers its contents pages "ii", "iv", ...; Rcpp's article ends its
    first page with the page range "1–8": neither is a sentence going on over the page break."""

    def line(text: str) -> pdf_lines.Line:
        return pdf_lines.Line(0, tuple((word, 0.0, 0.0, 1.0, 1.0) for word in text.split()))

    assert pdf_lines.runs_on([line("the estimators of Kaplan-Meier and the")], [line("method of Powell.")])
    assert not pdf_lines.runs_on([line("Configuring MC . . . . . 16")], [line("xiv Contents")])
    assert not pdf_lines.runs_on([line("beyond the scope of this pa-"), line("1–8")], [line("per. However,")])
    assert not pdf_lines.runs_on([line("the entries follow in order")], [line("iv")])
    assert not pdf_lines.runs_on([line("The run ended.")], [line("then the next one")])
    # A full-page figure's last label: the sentence goes on after the figure, not from it.
    assert not pdf_lines.runs_on([line("−2 −1 0 1 2"), line("x2")], [line("x1:x2 interaction, the linear")])
