"""PyMuPDF 2.0 imports its layout analyser whenever it is installed (pymupdf requires it) and loads its
ONNX model then: 0.22 s and 56 MB in every process that reads a PDF (the window's, each worker's), for
`Page.get_layout`, which CiteDesk never calls. Imported first by the package, this blocks that import;
pymupdf's own import catches the error and goes on without it."""

from __future__ import annotations

import sys

sys.modules.setdefault("pymupdf.layout", None)  # type: ignore[assignment]
