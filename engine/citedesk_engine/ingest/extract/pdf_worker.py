"""PDF text layers read in a worker process, for an engine behind a window.

MuPDF holds Python's interpreter lock in every call (a page's text, its words, its pictures: up to
20 ms each, back to back for hundreds of pages), so a window whose engine thread reads a long PDF
stutters while it does (benchmarks/ui_stall.py). Read in a worker, the engine thread waits without
the lock. One worker, started at the first PDF and kept; should it fail, the layers are read here.
"""

from __future__ import annotations

import logging
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from .pdf import TextLayers, read_text_layers

log = logging.getLogger(__name__)


class PdfLayerWorker:
    """Callable as `extract_pdf`'s `read_layers`; safe to call from one thread at a time."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._failed = False

    def __call__(self, data: bytes, first: int, last: int) -> TextLayers:
        """The text layers of pages first..last-1 of the PDF `data`."""
        if not self._failed:
            try:
                if self._pool is None:
                    self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
                return self._pool.submit(read_text_layers, data, first, last).result()
            except (OSError, BrokenProcessPool) as exc:
                log.warning("PDF reader: the worker process failed (%s); reading in this process", exc)
                self.close()
                self._failed = True
        return read_text_layers(data, first, last)

    def close(self) -> None:
        """Stop the worker (it starts again at the next PDF)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
