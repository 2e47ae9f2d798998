"""Extractors: bytes of one file to an ExtractedDocument, chosen by file extension."""

from __future__ import annotations

from collections.abc import Callable

from ...config import IngestConfig
from ...errors import ExtractionError
from ..ocr import OcrJob
from .base import ExtractedDocument, Segment, StructureNode, WordBox
from .html import extract_html
from .image import IMAGE_EXTENSIONS, extract_image
from .markdown import extract_markdown
from .office import extract_docx, extract_pptx, extract_xlsx
from .pdf import PageProgress, TextLayers, extract_pdf
from .text import extract_code, extract_csv, extract_plain

__all__ = [
    "ExtractedDocument",
    "PageProgress",
    "Segment",
    "StructureNode",
    "WordBox",
    "extract",
    "is_supported",
]

_PLAIN = {".txt", ".text", ".rst", ".log", ".org", ".tex", ".adoc"}
_CODE = {
    ".py",
    ".pyi",
    ".js",
    ".mjs",
    ".ts",
    ".tsx",
    ".jsx",
    ".java",
    ".kt",
    ".scala",
    ".c",
    ".h",
    ".cpp",
    ".hpp",
    ".cc",
    ".cs",
    ".go",
    ".rs",
    ".rb",
    ".php",
    ".swift",
    ".m",
    ".r",
    ".jl",
    ".lua",
    ".pl",
    ".sh",
    ".bash",
    ".zsh",
    ".ps1",
    ".sql",
    ".json",
    ".yaml",
    ".yml",
    ".toml",
    ".ini",
    ".cfg",
    ".xml",
    ".css",
    ".scss",
    ".vue",
    ".svelte",
    ".dart",
    ".hs",
    ".ex",
    ".exs",
    ".erl",
    ".clj",
    ".el",
    ".vim",
}
_OLD_OFFICE = {".doc": ".docx", ".xls": ".xlsx", ".ppt": ".pptx"}
SUPPORTED = frozenset(
    {
        ".pdf",
        ".docx",
        ".pptx",
        ".xlsx",
        ".xlsm",
        ".html",
        ".htm",
        ".xhtml",
        ".md",
        ".markdown",
        ".csv",
        ".tsv",
    }
    | _PLAIN
    | _CODE
    | IMAGE_EXTENSIONS
)


def is_supported(extension: str) -> bool:
    return extension.lower() in SUPPORTED


def is_paged(extension: str) -> bool:
    """Whether such a file is shown as pages with the passage's boxes on them (PDF, pictures)."""
    return extension.lower() == ".pdf" or extension.lower() in IMAGE_EXTENSIONS


def keeps_lines(extension: str) -> bool:
    """Whether the stored text of such a file is the file's own text, line for line (text, code, CSV),
    so a position in it is a line number the user finds in their editor."""
    return extension.lower() in _PLAIN | _CODE | {".csv", ".tsv"}


def extract(
    data: bytes,
    extension: str,
    config: IngestConfig,
    ocr: OcrJob | None = None,
    pdf_layers: Callable[[bytes, int, int], TextLayers] | None = None,
    pdf_progress: PageProgress | None = None,
) -> ExtractedDocument:
    """Extract the text of one file; every failure is an ExtractionError with a plain-words reason.
    `ocr` reads pictures and PDF pages without a usable text layer; without it they have no text.
    `pdf_layers` reads a PDF's text layers elsewhere (pdf_worker.py); `pdf_progress` hears of the
    pages read and may cancel between them."""
    ext = extension.lower()
    limits = (config.max_unzipped_mb * 1_000_000, config.max_zip_ratio)
    if ext == ".pdf":
        return extract_pdf(data, ocr, pdf_layers, pdf_progress)
    if ext in IMAGE_EXTENSIONS:
        return extract_image(data, ext, ocr)
    if ext == ".docx":
        return extract_docx(data, limits)
    if ext == ".pptx":
        return extract_pptx(data, limits)
    if ext in (".xlsx", ".xlsm"):
        return extract_xlsx(data, limits)
    if ext in (".html", ".htm", ".xhtml"):
        return extract_html(data, ext)
    if ext in (".md", ".markdown"):
        return extract_markdown(data, ext)
    if ext in (".csv", ".tsv"):
        return extract_csv(data, ext)
    if ext in _PLAIN:
        return extract_plain(data, ext)
    if ext in _CODE:
        return extract_code(data, ext)
    if ext in _OLD_OFFICE:
        raise ExtractionError(
            f"the old binary Office format {ext} is not supported: save it as {_OLD_OFFICE[ext]} and add that"
        )
    raise ExtractionError(
        f"unsupported file type '{extension or '(no extension)'}': CiteDesk reads PDF, Word (.docx), "
        "PowerPoint (.pptx), Excel (.xlsx), HTML, Markdown, text, CSV, source code and pictures (PNG, "
        "JPEG, TIFF, BMP, GIF, WebP)"
    )
