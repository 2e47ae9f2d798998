"""Build real documents of every supported kind for tests (with the same libraries users' tools use)."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from contextlib import contextmanager
from pathlib import Path

import pymupdf

LOREM = (
    "The committee met on Tuesday to review the annual budget. Revenue grew by twelve percent, "
    "while operating costs fell slightly. The chair thanked the auditors for their careful work. "
)


def pdf(path: Path, pages: Sequence[str], toc: Sequence[tuple[int, str, int]] = ()) -> Path:
    """A text PDF, one string per page (lines split on newlines), with optional bookmarks."""
    doc = pymupdf.open()
    for text in pages:
        page = doc.new_page(width=595, height=842)
        page.insert_textbox(pymupdf.Rect(50, 50, 545, 800), text, fontsize=11, fontname="helv")
    if toc:
        doc.set_toc([list(entry) for entry in toc])
    doc.save(path)
    doc.close()
    return path


def paper_pdf(
    path: Path, pages: Sequence[Sequence[str]], header: str = "", footer: str = "", font: str = "helv"
) -> Path:
    """A PDF laid out like an article: one line of text per string, a running header and footer on
    every page ("{page}" and "{pages}" filled in), lines set one by one so a line ending in a
    hyphen stays a drawn line break. `font="cjk"` embeds PyMuPDF's own Unicode font (it draws
    ligature characters such as "ﬁ", which the base-14 fonts cannot)."""
    doc = pymupdf.open()
    for number, lines in enumerate(pages, start=1):
        page = doc.new_page(width=595, height=842)
        if font != "helv":
            page.insert_font(fontname=font, fontbuffer=pymupdf.Font(font).buffer)
        fill = {"page": number, "pages": len(pages)}
        if header:
            page.insert_text((50, 40), header.format(**fill), fontsize=9, fontname="helv")
        for row, line in enumerate(lines):
            page.insert_text((50, 120 + 16 * row), line, fontsize=11, fontname=font)
        if footer:
            page.insert_text((280, 815), footer.format(**fill), fontsize=9, fontname="helv")
    doc.save(path)
    doc.close()
    return path


def ruled_table_pdf(
    path: Path, rows: Sequence[tuple[float, Sequence[str]]], columns: Sequence[float], before: str, after: str
) -> Path:
    """A page with a table set as LaTeX's booktabs sets one: rules above, under the header and below,
    no lines between columns, each cell's text at (its column's x, its row's y); a line of prose
    above the table and one below it."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    top, bottom = rows[0][0] - 12, rows[-1][0] + 14
    page.insert_text((72, top - 20), before, fontsize=10)
    for y in (top, rows[0][0] + 6, bottom):
        page.draw_line((72, y), (520, y), width=0.6)
    for y, cells in rows:
        for x, cell in zip(columns, cells, strict=True):
            if cell:
                page.insert_text((x, y), cell, fontsize=10)
    page.insert_text((72, bottom + 40), after, fontsize=10)
    doc.save(path)
    doc.close()
    return path


def encrypted_pdf(path: Path) -> Path:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "Secret minutes of the board.")
    doc.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, owner_pw="owner", user_pw="user")
    doc.close()
    return path


def scanned_pdf(path: Path) -> Path:
    """A PDF whose only page is an image of text: nothing to extract without OCR."""
    source = pymupdf.open()
    source.new_page(width=300, height=100).insert_text((20, 50), "Scanned text", fontsize=20)
    pixmap = source[0].get_pixmap(dpi=72)
    doc = pymupdf.open()
    doc.new_page(width=300, height=100).insert_image(pymupdf.Rect(0, 0, 300, 100), pixmap=pixmap)
    doc.save(path)
    return path


def docx(path: Path) -> Path:
    import docx as python_docx

    document = python_docx.Document()
    document.add_heading("Quarterly report", level=1)
    document.add_paragraph("This report covers the third quarter. " + LOREM)
    document.add_heading("Staff", level=2)
    table = document.add_table(rows=3, cols=2)
    for r, (name, role) in enumerate([("Name", "Role"), ("Ada", "Engineer"), ("Grace", "Admiral")]):
        table.cell(r, 0).text = name
        table.cell(r, 1).text = role
    document.add_heading("Outlook", level=2)
    document.add_paragraph("Next quarter the team expects steady growth in Lisbon.")
    document.save(path)
    return path


def pptx(path: Path) -> Path:
    from pptx import Presentation

    deck = Presentation()
    for title, body in [("Roadmap", "Ship the viewer in March."), ("Risks", "The parser may be slow.")]:
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = title
        slide.placeholders[1].text = body
        slide.notes_slide.notes_text_frame.text = f"Speaker notes about {title.lower()}."
    deck.save(path)
    return path


def xlsx(path: Path, rows: int = 5) -> Path:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Budget"
    sheet.append(["Item", "Amount", "Owner"])
    for i in range(rows):
        sheet.append([f"Item {i}", 100 + i, "Finance"])
    second = book.create_sheet("Notes")
    second.append(["Remark"])
    second.append(["Approved by the board"])
    book.save(path)
    return path


def zip_bomb(path: Path, member: str = "word/document.xml", megabytes: int = 60) -> Path:
    """A small zip whose one member inflates to `megabytes` of zeros."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive, archive.open(member, "w") as handle:
        block = b"\0" * 1_000_000
        for _ in range(megabytes):
            handle.write(block)
    path.write_bytes(buffer.getvalue())
    return path


def mixed_folder(root: Path) -> dict[str, Path]:
    """A folder with one good file of every kind; returns name -> path."""
    root.mkdir(parents=True, exist_ok=True)
    files = {
        "report.pdf": pdf(
            root / "report.pdf", ["Page one talks about apples.\n" + LOREM, "Page two is on pears."]
        ),
        "minutes.docx": docx(root / "minutes.docx"),
        "deck.pptx": pptx(root / "deck.pptx"),
        "budget.xlsx": xlsx(root / "budget.xlsx"),
    }
    (root / "page.html").write_text(
        "<html><head><title>T</title><script>var x=1;</script></head><body><h1>Harbour</h1>"
        "<p>The harbour opened in 1880.</p></body></html>",
        encoding="utf-8",
    )
    (root / "notes.md").write_text("# Notes\n\nFirst note.\n\n## More\n\nSecond note.\n", encoding="utf-8")
    (root / "plain.txt").write_text("Plain text about the river Tagus.\n", encoding="utf-8")
    (root / "table.csv").write_text("city,population\nLisbon,545000\nPorto,232000\n", encoding="utf-8")
    (root / "tool.py").write_text("def add(a, b):\n    return a + b\n\n\nclass Box:\n    pass\n")
    for name in ("page.html", "notes.md", "plain.txt", "table.csv", "tool.py"):
        files[name] = root / name
    return files


def rendered_text(lines: Sequence[str], *, width: float = 420, fontsize: float = 14, dpi: int = 200):
    """A picture (PyMuPDF Pixmap, RGB) of a page holding `lines` of text, for OCR tests."""
    source = pymupdf.open()
    page = source.new_page(width=width, height=40 + 2 * fontsize * len(lines))
    for i, line in enumerate(lines):
        page.insert_text((20, 30 + 2 * fontsize * i), line, fontsize=fontsize)
    return page.get_pixmap(dpi=dpi, colorspace=pymupdf.csRGB, alpha=False)


def image_only_pdf(path: Path, pages: Sequence[Sequence[str] | str], dpi: int = 200) -> Path:
    """A PDF of scanned pages: each a picture of its lines, no text layer; a `str` page is a page of
    born-digital text instead (a mixed PDF)."""
    doc = pymupdf.open()
    for lines in pages:
        if isinstance(lines, str):
            doc.new_page(width=420, height=200).insert_text((20, 40), lines, fontsize=14)
            continue
        pixmap = rendered_text(lines, dpi=dpi)
        page = doc.new_page(width=pixmap.width * 72 / dpi, height=pixmap.height * 72 / dpi)
        page.insert_image(page.rect, pixmap=pixmap)
    doc.save(path)
    return path


def glyphs_without_characters_pdf(path: Path) -> Path:
    """A page whose text is drawn in a Type 3 font with no character map: four glyphs (black squares)
    whose character codes mean nothing, as in old TeX papers set in bitmap fonts. Written by hand:
    PyMuPDF does not write such fonts."""
    content = b"BT /F1 24 Tf 100 100 Td <191A1919> Tj ET"
    glyph = b"1000 0 0 0 800 800 d1 0 0 800 800 re f"
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 200] /Resources << /Font << /F1 4 0 R >> >> "
        b"/Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0] "
        b"/CharProcs << /g1 6 0 R >> /Encoding << /Type /Encoding /Differences [25 /g1 /g1] >> "
        b"/FirstChar 25 /LastChar 26 /Widths [1000 1000] /Resources << >> >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(glyph), glyph),
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    path.write_bytes(bytes(out))
    return path


def picture(path: Path, lines: Sequence[str], dpi: int = 200) -> Path:
    """A picture file of lines of text; its format from its extension (WebP and TIFF by Pillow)."""
    pixmap = rendered_text(lines, dpi=dpi)
    if path.suffix.lower() in (".png",):
        pixmap.save(str(path))
        return path
    from PIL import Image

    image = Image.frombytes("RGB", (pixmap.width, pixmap.height), pixmap.samples)
    image.save(path)
    return path


class BelievingJudge:
    """A claim verifier that reads every window as supporting the claim: only a guard can refuse."""

    def supported(self, evidence: str, claim: str, question: str = "") -> float:
        return 0.95


def believing_gate():  # type: ignore[no-untyped-def]
    """The per-claim gate with a verifier that believes everything (unit tests of one guard)."""
    from citedesk_engine.answer.verify import ClaimVerifier
    from citedesk_engine.config import VerifyConfig

    return ClaimVerifier(VerifyConfig(), judge=lambda: BelievingJudge())


@contextmanager
def hashed_window(qtbot, tmp_path: Path):  # type: ignore[no-untyped-def]
    """The main window on `tmp_path / "library"` with hashed embeddings and a generator that writes
    nothing, shown; closed and its engine thread stopped after."""
    from citedesk_desktop.main_window import MainWindow
    from citedesk_desktop.runner import EngineRunner
    from citedesk_engine import Engine
    from citedesk_engine.testing import HashEmbedder, ScriptedGenerator
    from PySide6.QtCore import QSettings

    runner = EngineRunner(
        lambda folder: Engine.open(folder, embedder=HashEmbedder(), generator=ScriptedGenerator(""))
    )
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(runner, tmp_path / "library", settings)
    qtbot.addWidget(window)
    window.show()
    try:
        yield window
    finally:
        window.close()
        runner.shutdown()
