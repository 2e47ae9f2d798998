"""OCR in ingest, with a scripted recogniser: which pages are read, reading order, boxes in page points,
provenance, progress, cancel, the time bound, pictures as documents and their bad inputs. The real
recogniser is in test_ocr_real.py."""

from __future__ import annotations

import math
from pathlib import Path

import factories
import pymupdf
import pytest
from citedesk_engine import Engine, FileStatus
from citedesk_engine.config import IngestConfig, load_config
from citedesk_engine.errors import Cancelled, ConfigError, ExtractionError
from citedesk_engine.events import Progress
from citedesk_engine.ingest.extract import extract, image, is_paged
from citedesk_engine.ingest.ocr import OcrJob, reading_order, text_layer_problem
from citedesk_engine.models.recogniser import _line
from citedesk_engine.testing import HashEmbedder, ScriptedRecogniser
from citedesk_engine.types import OcrLine, OcrWord

CONFIG = IngestConfig()
LINE = ("The archive holds 412 letters of the mayor.", 0.05, 0.2, 0.9, 0.3)


def line(text: str, x0: float, y0: float, x1: float, y1: float, confidence: float = 0.9) -> OcrLine:
    words = text.split()
    step = (x1 - x0) / len(words)
    return OcrLine(
        tuple(OcrWord(w, x0 + i * step, y0, x0 + (i + 1) * step, y1) for i, w in enumerate(words)), confidence
    )


# --- reading order ---------------------------------------------------------------------------------


def test_two_columns_read_column_by_column_under_a_title_across_both() -> None:
    title = line("A study of two columns across the page", 100, 10, 900, 40)
    left = [
        line(f"left column line {i} of the prose that fills it", 50, 100 + 40 * i, 480, 130 + 40 * i)
        for i in range(5)
    ]
    right = [
        line(f"right column line {i} of the prose that fills it", 520, 100 + 40 * i, 950, 130 + 40 * i)
        for i in range(5)
    ]
    shuffled = [right[2], left[4], title, *right[:2], *left[:4], *right[3:]]
    order = [row.text for block in reading_order(shuffled) for row in block]
    assert order == [title.text] + [x.text for x in left] + [x.text for x in right]


def test_a_narrow_gutter_still_parts_two_columns_but_a_wide_word_space_does_not() -> None:
    """A 10-point gutter is less than the recogniser's line box is high (30 here)."""
    prose = "column line {} of the prose that fills it"
    left = [line("left " + prose.format(i), 50, 100 + 40 * i, 480, 130 + 40 * i) for i in range(4)]
    right = [line("right " + prose.format(i), 505, 100 + 40 * i, 935, 130 + 40 * i) for i in range(4)]
    order = [row.text for block in reading_order(right + left) for row in block]
    assert order == [x.text for x in left] + [x.text for x in right]
    # a line cut in two at a wide space (8 px, under the 18 a gutter needs) stays one line
    halves = [
        line("the first half of a line", 50, 100, 300, 130),
        line("and its second half", 308, 100, 500, 130),
    ]
    assert [row.text for block in reading_order(halves) for row in block] == [
        "the first half of a line and its second half"
    ]


def test_two_columns_of_a_skewed_scan_still_read_column_by_column() -> None:
    """Turned by 2 degrees, 30 lines a column: the left column's last lines reach past where the
    right column's first lines begin, so only the upright boxes leave a gutter."""
    angle = math.radians(2)

    def turned(text: str, x0: float, y0: float) -> OcrLine:
        words, step = text.split(), 430 / len(text.split())
        placed = []
        for i, w in enumerate(words):
            x, y = x0 + i * step, y0
            u, v = x * math.cos(angle) - y * math.sin(angle), x * math.sin(angle) + y * math.cos(angle)
            placed.append(OcrWord(w, u, v, u + step - 6, v + 28 + step * math.sin(angle)))
        return OcrLine(tuple(placed), 0.9, angle)

    left = [turned(f"left column line {i} of the prose that fills it", 50, 100 + 40 * i) for i in range(30)]
    right = [
        turned(f"right column line {i} of the prose that fills it", 540, 100 + 40 * i) for i in range(30)
    ]
    order = [row.text for block in reading_order(right + left) for row in block]
    assert order == [x.text for x in left] + [x.text for x in right]


def test_table_cells_side_by_side_read_row_by_row_as_one_line() -> None:
    cells = [
        line(text, x, 100 + 40 * row, x + 120, 130 + 40 * row)
        for row, texts in enumerate([("Release", "Codename"), ("12", "bookworm"), ("11", "bullseye")])
        for text, x in zip(texts, (50, 400), strict=True)
    ]
    rows = [row.text for block in reading_order(cells[::-1]) for row in block]
    assert rows == ["Release Codename", "12 bookworm", "11 bullseye"]


def test_reading_order_of_nothing_and_of_one_line() -> None:
    assert reading_order([]) == []
    only = line("Just one line here", 10, 10, 300, 40)
    assert reading_order([only]) == [[only]]


def test_recogniser_result_becomes_words_with_their_character_boxes() -> None:
    chars = list("to be")
    boxes = [[[x, 0], [x + 9, 0], [x + 9, 20], [x, 20]] for x in (0, 10, 20, 30, 40)]
    result = [[[0, 0], [50, 0], [50, 20], [0, 20]], "to be", 0.93, boxes, chars, [0.9] * 5]
    parsed = _line(result)
    assert parsed is not None and parsed.confidence == pytest.approx(0.93)
    assert [(w.text, w.x0, w.x1) for w in parsed.words] == [("to", 0, 19), ("be", 30, 49)]
    # no character boxes: the words share the line's box
    bare = _line([[[0, 0], [50, 0], [50, 20], [0, 20]], "to be", 0.5])
    assert bare is not None and [w.text for w in bare.words] == ["to", "be"]


# --- which pages need OCR --------------------------------------------------------------------------


def test_text_layer_problems() -> None:
    assert text_layer_problem([], picture_share=0.0, drawn=False) == ""  # a blank page
    assert "no text layer" in text_layer_problem([], picture_share=0.9, drawn=False)
    assert "no text layer" in text_layer_problem([], picture_share=0.0, drawn=True)  # outlined glyphs
    assert "unknown characters" in text_layer_problem(["\ufffd\ufffd\ufffd", "ab"], 0.0, False)
    assert "unknown characters" in text_layer_problem(["\x19\x12"], 0.0, False)  # a Type 3 font's codes
    assert "symbols" in text_layer_problem(['"7+%-'], 0.0, False)  # a TrueType font without a map
    assert "single letters" in text_layer_problem(list("thequickbrownfoxjumpsoverit"), 0.0, False)
    assert "little text" in text_layer_problem(["Downloaded", "2019"], 0.95, False)
    prose = "The council met on Tuesday and approved the budget for the coming year in full".split()
    assert text_layer_problem(prose * 2, 0.95, False) == ""  # a scan with its OCR layer
    assert text_layer_problem(prose, 0.1, False) == ""


# --- the PDF extractor with OCR --------------------------------------------------------------------


def job(recogniser: ScriptedRecogniser, **kwargs) -> OcrJob:
    return OcrJob(recogniser, **kwargs)


def test_a_mixed_pdf_is_read_by_ocr_only_where_a_page_has_no_text(tmp_path: Path) -> None:
    path = factories.image_only_pdf(
        tmp_path / "mixed.pdf", ["A born-digital page about the harbour.", ["scanned page"]]
    )
    recogniser = ScriptedRecogniser([LINE], confidence=0.8)
    pages: list[tuple[int, int]] = []
    doc = extract(
        path.read_bytes(), ".pdf", CONFIG, job(recogniser, dpi=200, on_page=lambda d, t: pages.append((d, t)))
    )
    assert len(recogniser.pictures) == 1  # the text page was not OCR'd
    assert doc.ocr_pages == (2,) and pages == [(0, 1), (1, 1)]
    assert "born-digital page about the harbour" in doc.text and LINE[0] in doc.text
    scanned = [w for w in doc.words if w.page == 2]
    assert [doc.text[w.start : w.end] for w in scanned] == LINE[0].split()
    assert all(w.confidence == pytest.approx(0.8) for w in scanned)
    assert all(w.confidence == -1.0 for w in doc.words if w.page == 1)
    # boxes in page points: the scripted line spans 5%..90% of the page's width
    page = pymupdf.open(path)[1].rect
    assert scanned[0].x0 == pytest.approx(0.05 * page.width, abs=1) and scanned[-1].x1 == pytest.approx(
        0.9 * page.width, abs=1
    )
    height = recogniser.pictures[0][0]
    assert height == pytest.approx(page.height * 200 / 72, abs=2)  # rendered at the job's dpi


def test_without_ocr_a_mixed_pdf_warns_of_its_unsearchable_pages(tmp_path: Path) -> None:
    path = factories.image_only_pdf(tmp_path / "mixed.pdf", ["Text page.", ["scan"], ["scan"]])
    doc = extract(path.read_bytes(), ".pdf", CONFIG)
    (warning,) = doc.warnings
    assert warning.startswith("pages 2, 3 have no text layer and OCR is off")
    assert doc.ocr_pages == ()


def test_a_scan_finer_than_the_dpi_is_read_at_its_own_resolution(tmp_path: Path) -> None:
    path = factories.image_only_pdf(tmp_path / "fine.pdf", [["fine scan"]], dpi=300)
    recogniser = ScriptedRecogniser([LINE])
    extract(path.read_bytes(), ".pdf", CONFIG, job(recogniser, dpi=150))
    page = pymupdf.open(path)[0].rect
    assert recogniser.pictures[0][0] == pytest.approx(page.height * 300 / 72, abs=2)
    capped = ScriptedRecogniser([LINE])
    extract(path.read_bytes(), ".pdf", CONFIG, job(capped, max_side=500))
    assert max(capped.pictures[0]) <= 500


def test_cancel_between_pages_and_the_time_bound(tmp_path: Path) -> None:
    path = factories.image_only_pdf(tmp_path / "scans.pdf", [["one"], ["two"], ["three"]])
    recogniser = ScriptedRecogniser([LINE])
    with pytest.raises(Cancelled):
        extract(
            path.read_bytes(),
            ".pdf",
            CONFIG,
            job(recogniser, cancelled=lambda: len(recogniser.pictures) >= 1),
        )
    assert len(recogniser.pictures) == 1
    doc = extract(path.read_bytes(), ".pdf", CONFIG, job(ScriptedRecogniser([LINE]), max_seconds=0.0))
    assert any("pages 2, 3 have not been read by OCR" in w and "ocr_max_minutes" in w for w in doc.warnings)
    assert doc.ocr_pages == (1,)


def test_ocr_that_finds_nothing_is_said_so_and_a_blank_pdf_is_called_blank(tmp_path: Path) -> None:
    path = factories.image_only_pdf(tmp_path / "blank.pdf", [["x"]])
    with pytest.raises(ExtractionError, match="OCR recognised no text"):
        extract(path.read_bytes(), ".pdf", CONFIG, job(ScriptedRecogniser()))
    empty = tmp_path / "empty.pdf"
    with pymupdf.open() as document:
        document.new_page()
        document.save(empty)
    recogniser = ScriptedRecogniser([LINE])
    with pytest.raises(ExtractionError, match="pages are blank"):
        extract(empty.read_bytes(), ".pdf", CONFIG, job(recogniser))
    assert recogniser.pictures == []  # nothing to read: OCR did not run


def test_glyphs_drawn_without_characters_are_read_by_ocr_not_called_blank(tmp_path: Path) -> None:
    """ocrmypdf's type3_font_nomapping.pdf was refused as blank: its text layer is control codes."""
    path = factories.glyphs_without_characters_pdf(tmp_path / "type3.pdf")
    with pymupdf.open(path) as document:
        assert not document[0].get_text("words")  # no word to read in its text layer
    recogniser = ScriptedRecogniser([LINE])
    doc = extract(path.read_bytes(), ".pdf", CONFIG, job(recogniser))
    assert doc.text == LINE[0] and doc.ocr_pages == (1,) and len(recogniser.pictures) == 1
    with pytest.raises(ExtractionError, match="OCR is off"):
        extract(path.read_bytes(), ".pdf", CONFIG, None)


# --- pictures as documents -------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".png", ".jpg", ".tiff", ".bmp", ".webp", ".gif"])
def test_pictures_are_documents_read_by_ocr(tmp_path: Path, suffix: str) -> None:
    path = factories.picture(tmp_path / f"note{suffix}", ["a note"])
    recogniser = ScriptedRecogniser([LINE], confidence=0.7)
    doc = extract(path.read_bytes(), suffix, CONFIG, job(recogniser))
    assert doc.kind == "image" and doc.text == LINE[0] and doc.pages == 1 and doc.ocr_pages == (1,)
    assert is_paged(suffix) and all(w.page == 1 and w.confidence == pytest.approx(0.7) for w in doc.words)
    with image.open_picture(path.read_bytes()) as opened:  # what the viewer renders
        assert opened.page_count == 1


def test_a_multi_page_tiff_is_a_page_per_frame(tmp_path: Path) -> None:
    from PIL import Image

    frames = [Image.new("RGB", (300, 200), "white") for _ in range(3)]
    path = tmp_path / "fax.tiff"
    frames[0].save(path, save_all=True, append_images=frames[1:])
    doc = extract(path.read_bytes(), ".tiff", CONFIG, job(ScriptedRecogniser([LINE])))
    assert doc.pages == 3 and doc.ocr_pages == (1, 2, 3) and doc.text.count(LINE[0]) == 3


def test_bad_pictures_are_refused_in_plain_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ocr = job(ScriptedRecogniser([LINE]))
    with pytest.raises(ExtractionError, match="empty"):
        extract(b"", ".png", CONFIG, ocr)
    with pytest.raises(ExtractionError, match="damaged"):
        extract(b"\x89PNG\r\n\x1a\n" + b"\0" * 64, ".png", CONFIG, ocr)
    with pytest.raises(ExtractionError, match="not a readable picture"):
        extract(b"%PDF-1.4 this is a PDF named .jpg", ".jpg", CONFIG, ocr)
    with pytest.raises(ExtractionError, match="WebP picture is damaged"):
        extract(b"RIFF\x10\0\0\0WEBPVP8 " + b"\0" * 20, ".webp", CONFIG, ocr)
    good = factories.picture(tmp_path / "big.png", ["big"]).read_bytes()
    monkeypatch.setattr(image, "_MAX_PIXELS", 1000)
    with pytest.raises(ExtractionError, match="more than CiteDesk reads"):
        extract(good, ".png", CONFIG, ocr)
    monkeypatch.undo()
    with pytest.raises(ExtractionError, match="OCR is off: turn it on in Settings"):
        extract(good, ".png", CONFIG, None)
    with pytest.raises(ExtractionError, match="no text was recognised"):
        extract(good, ".png", CONFIG, job(ScriptedRecogniser()))


# --- the pipeline ----------------------------------------------------------------------------------


def test_ingest_reports_ocr_pages_and_keeps_provenance_on_units(tmp_path: Path) -> None:
    path = factories.image_only_pdf(tmp_path / "scan.pdf", [["one"], ["two"]])
    events: list[object] = []
    recogniser = ScriptedRecogniser([LINE], confidence=0.85)
    with Engine.open(tmp_path / "lib", embedder=HashEmbedder(), recogniser=recogniser) as engine:
        (result,) = engine.ingest([path], on_event=events.append).files
        assert result.status is FileStatus.INGESTED and result.pages == 2
        units = engine.units(str(path))
        assert units and all(u.ocr_confidence == pytest.approx(0.85) for u in units)
        assert all(b.confidence == pytest.approx(0.85) for u in units for b in u.boxes)
    ocr = [(e.done, e.total) for e in events if isinstance(e, Progress) and e.stage == "ocr"]
    assert ocr == [(0, 2), (1, 2), (2, 2)]
    work = [e.done for e in events if isinstance(e, Progress) and e.stage == "work"]
    assert work == sorted(work)  # the bar never goes back when embedding follows OCR


def test_ingest_cancelled_during_ocr_writes_nothing(tmp_path: Path) -> None:
    import threading

    path = factories.image_only_pdf(tmp_path / "scan.pdf", [["one"], ["two"]])
    cancel = threading.Event()

    class Cancelling(ScriptedRecogniser):
        def read(self, image):  # noqa: ANN001, ANN202
            cancel.set()
            return super().read(image)

    with Engine.open(tmp_path / "lib", embedder=HashEmbedder(), recogniser=Cancelling([LINE])) as engine:
        (result,) = engine.ingest([path], cancel=cancel).files
        assert result.status is FileStatus.CANCELLED
        assert engine.documents() == []


def test_ocr_off_in_the_config(tmp_path: Path) -> None:
    folder = tmp_path / "lib"
    folder.mkdir()
    (folder / "config.toml").write_text('[ingest]\nocr = "off"\n')
    path = factories.picture(tmp_path / "note.png", ["a note"])
    with Engine.open(folder, embedder=HashEmbedder(), recogniser=ScriptedRecogniser([LINE])) as engine:
        (result,) = engine.ingest([path]).files
    assert result.status is FileStatus.FAILED and "OCR is off" in result.reason
    (folder / "config.toml").write_text('[ingest]\nocr = "sometimes"\n')
    with pytest.raises(ConfigError, match='ocr must be "auto" or "off"'):
        load_config(folder / "config.toml")


def test_ask_json_and_the_trace_say_a_source_was_read_by_ocr(tmp_path: Path) -> None:
    from citedesk_engine.cli import answer_json
    from citedesk_engine.config import Config, ModelsConfig
    from citedesk_engine.testing import ScriptedGenerator

    path = factories.image_only_pdf(tmp_path / "scan.pdf", [["one"]])
    config = Config(models=ModelsConfig(reranker="none", verifier="none"))
    generator = ScriptedGenerator("The archive holds 412 letters of the mayor [1].")
    recogniser = ScriptedRecogniser([LINE])
    with Engine.open(
        tmp_path / "lib", config, embedder=HashEmbedder(), generator=generator, recogniser=recogniser
    ) as engine:
        engine.ingest([path])
        answer = engine.ask("How many letters of the mayor does the archive hold?")
    data = answer_json(answer)
    assert data["sources"], answer
    assert data["sources"][0]["ocr_confidence"] == pytest.approx(0.9)
    assert data["sources"][0]["boxes"][0][7] == pytest.approx(0.9)
    generate = next(t for t in answer.trace if t.stage == "generate")
    assert generate.details["read_by_ocr"][0]["confidence"] == pytest.approx(0.9)
