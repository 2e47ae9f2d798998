"""PyMuPDF 2.0 imports its layout analyser whenever it is installed (pymupdf requires it) and loads its
ONNX model then: 0.22 s and 56 MB in every process that reads a PDF (the window's, each worker's).
Imported first by the package, this blocks that import; pymupdf's own import catches the error and
goes on without it. The analyser is loaded when it is needed: to find a page's tables
(`load_layout`, called by the PDF extractor for a page with rules drawn across it)."""

from __future__ import annotations

import sys

sys.modules.setdefault("pymupdf.layout", None)  # type: ignore[assignment]


def load_layout() -> bool:
    """Load PyMuPDF's layout analyser, once; whether it is there (False when it cannot be loaded)."""
    import pymupdf

    if callable(getattr(pymupdf, "_get_layout", None)):
        return True
    if "pymupdf.layout" in sys.modules and sys.modules["pymupdf.layout"] is None:
        del sys.modules["pymupdf.layout"]
    try:
        import pymupdf.layout  # noqa: F401 (activates itself: sets pymupdf._get_layout)
    except Exception:  # not installed, or its model cannot load: tables are read as text
        sys.modules.setdefault("pymupdf.layout", None)  # type: ignore[assignment]
        return False
    pymupdf.no_recommend_layout()
    return callable(getattr(pymupdf, "_get_layout", None))
