"""Pictures as documents (PNG, JPEG, TIFF with its pages, BMP, GIF, WebP): read by OCR, one page per
frame, shown in the viewer as the picture with the passage's boxes (pdf.py does both)."""

from __future__ import annotations

import io

import pymupdf

from ...errors import Cancelled, ExtractionError
from ..ocr import OcrJob
from . import pdf
from .base import ExtractedDocument

IMAGE_EXTENSIONS = frozenset({".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".gif", ".webp"})
_MAX_PIXELS = 200_000_000  # of one frame: a 14,000 x 14,000 scan; more is a decompression bomb
_MAGIC = {
    b"\x89PNG": "png",
    b"\xff\xd8\xff": "jpeg",
    b"II*\x00": "tiff",
    b"MM\x00*": "tiff",
    b"BM": "bmp",
    b"GIF8": "gif",
}


def open_picture(data: bytes) -> pymupdf.Document:
    """The picture as a PyMuPDF document, one page per frame; a WebP (MuPDF does not read it) is
    decoded by Pillow first. Raises ExtractionError, in the user's words, when it is no picture."""
    kind = next((k for magic, k in _MAGIC.items() if data.startswith(magic)), None)
    if kind is None and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        data, kind = _webp_as_png(data), "png"
    if kind is None:
        raise ExtractionError(
            "not a readable picture (the file is damaged, or not a PNG, JPEG, TIFF, BMP, GIF or WebP)"
        )
    try:
        document = pymupdf.open(stream=data, filetype=kind)
        for page in document:
            for info in page.get_image_info():
                if info["width"] * info["height"] > _MAX_PIXELS:
                    raise ExtractionError(
                        f"refused: the picture is {info['width']:,} x {info['height']:,} pixels, more than "
                        "CiteDesk reads (200 megapixels a page)"
                    )
    except ExtractionError:
        raise
    except Exception as exc:  # MuPDF raises FileDataError, RuntimeError on a damaged picture
        raise ExtractionError(f"the picture is damaged and cannot be read: {exc}") from exc
    if document.page_count == 0:
        raise ExtractionError("the picture has no frames")
    return document


def _webp_as_png(data: bytes) -> bytes:
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as picture:
            if picture.width * picture.height > _MAX_PIXELS:
                raise ExtractionError("refused: the picture has more than 200 megapixels")
            out = io.BytesIO()
            picture.convert("RGB").save(out, "PNG")
            return out.getvalue()
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        raise ExtractionError(f"the WebP picture is damaged and cannot be read: {exc}") from exc


def extract_image(data: bytes, extension: str, ocr: OcrJob | None) -> ExtractedDocument:
    if not data.strip():
        raise ExtractionError("the file is empty: there is no picture to read")
    with open_picture(data) as document:
        try:
            return pdf.extract_pages(document, ocr, kind="image")
        except (ExtractionError, Cancelled):
            raise
        except Exception as exc:
            raise ExtractionError(f"the picture cannot be read: {exc}") from exc
