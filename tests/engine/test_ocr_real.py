"""OCR on the real packaged recogniser (PP-OCRv4 from the rapidocr-onnxruntime wheel): what it reads,
where its words are, that it never reaches the network, and a question answered from a scanned page
through Engine.ask with every real model, cited and boxed on the scan."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import factories
import pymupdf
import pytest
from citedesk_engine import Engine, FileStatus
from citedesk_engine.config import IngestConfig
from citedesk_engine.ingest.extract import extract
from citedesk_engine.ingest.ocr import OcrJob
from citedesk_engine.models.recogniser import RapidRecogniser
from citedesk_engine.types import Decision

pytestmark = pytest.mark.models

SCANNED = [
    "The harbour museum was founded in 1887 by the",
    "merchants of the town. Its oldest exhibit is a",
    "wooden compass from a Dutch ship.",
]
TYPED = "A born-digital page: the museum shop sells maps of the old quay."


@pytest.fixture(scope="module")
def recogniser() -> RapidRecogniser:
    return RapidRecogniser(threads=2)


def test_the_recogniser_reads_a_rendered_page_and_boxes_its_words(tmp_path: Path, recogniser) -> None:
    path = factories.image_only_pdf(tmp_path / "scan.pdf", [SCANNED])
    doc = extract(path.read_bytes(), ".pdf", IngestConfig(), OcrJob(recogniser))
    assert doc.ocr_pages == (1,)
    assert " ".join(doc.text.split()) == " ".join(SCANNED)
    # Each word's box lies where the word was drawn before the page became a picture.
    source = pymupdf.open()
    page = source.new_page(width=420, height=40 + 28 * len(SCANNED))
    for i, line in enumerate(SCANNED):
        page.insert_text((20, 30 + 28 * i), line, fontsize=14)
    drawn = page.get_text("words")
    for (x0, y0, x1, y1, word, *_), box in zip(drawn, doc.words, strict=True):
        assert doc.text[box.start : box.end] == word
        assert abs(box.x0 - x0) < 4 and abs(box.x1 - x1) < 4 and abs((box.y0 + box.y1) - (y0 + y1)) < 6
        assert 0.8 < box.confidence <= 1.0


def test_an_upside_down_page_is_read_upright_with_its_boxes_on_the_page_as_shown(
    tmp_path: Path, recogniser
) -> None:
    upright = factories.rendered_text(SCANNED)
    path = tmp_path / "turned.pdf"
    with pymupdf.open() as document:
        page = document.new_page(width=upright.width * 72 / 200, height=upright.height * 72 / 200)
        page.insert_image(page.rect, pixmap=upright, rotate=180)
        document.save(path)
    doc = extract(path.read_bytes(), ".pdf", IngestConfig(), OcrJob(recogniser))
    assert " ".join(doc.text.split()) == " ".join(SCANNED)
    first, last = doc.words[0], doc.words[-1]
    assert first.y0 > last.y1 and first.x0 > last.x1  # "The" is at the bottom right, as the page shows it


NO_NETWORK = textwrap.dedent(
    """
    import socket, sys, json
    def refuse(*args, **kwargs):
        raise OSError("network access attempted: " + repr(args[:2]))
    socket.socket.connect = refuse
    socket.socket.connect_ex = refuse
    socket.create_connection = refuse
    socket.getaddrinfo = refuse
    from pathlib import Path
    from citedesk_engine.config import IngestConfig
    from citedesk_engine.ingest.extract import extract
    from citedesk_engine.ingest.ocr import OcrJob
    from citedesk_engine.models.recogniser import RapidRecogniser
    data = Path(sys.argv[1]).read_bytes()
    doc = extract(data, ".png", IngestConfig(), OcrJob(RapidRecogniser(threads=1)))
    print(json.dumps({"text": doc.text}))
    """
)


def test_ocr_loads_its_models_from_the_wheel_with_sockets_disabled(tmp_path: Path) -> None:
    picture = factories.picture(tmp_path / "note.png", ["Offline reading works."])
    result = subprocess.run(
        [sys.executable, "-c", NO_NETWORK, str(picture)], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert json.loads(result.stdout.splitlines()[-1])["text"] == "Offline reading works."


def test_a_question_answered_only_on_a_scanned_page_is_cited_on_the_scan(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    path = factories.image_only_pdf(docs / "museum.pdf", [TYPED, SCANNED])
    factories.picture(docs / "notice.png", ["The reading room closes at four on Fridays."])
    with Engine.open(tmp_path / "library") as engine:
        report = engine.ingest([docs])
        assert all(f.status is FileStatus.INGESTED for f in report.files), [f.reason for f in report.files]
        answer = engine.ask("When was the harbour museum founded?")
        assert answer.decision is Decision.ANSWERED, answer.refusal
        assert "1887" in answer.text
        (source,) = answer.sources
        assert source.path == str(path) and source.page == 2 and source.boxes
        assert source.ocr_confidence is not None and source.ocr_confidence > 0.8
        assert all(b.page == 2 and b.confidence > 0 for b in source.boxes)
        # the claim's sentence is marked on the scan: its boxes hold the year
        (claim,) = [c for c in answer.claims if c.supported]
        unit, start, end = claim.evidence[0]
        text = engine.text(source.document)
        assert unit == source.unit_id and "1887" in text[start:end]
        picture = engine.ask("When does the reading room close on Fridays?")
        assert picture.decision is Decision.ANSWERED, picture.refusal
        assert ("four" in picture.text.lower() or "4" in picture.text) and "Friday" in picture.text
        assert picture.sources[0].path.endswith("notice.png") and picture.sources[0].ocr_confidence
