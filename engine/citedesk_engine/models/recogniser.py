"""The OCR recogniser: RapidOCR's PP-OCRv4 (text detection, recognition and line orientation), ONNX
models shipped inside the `rapidocr-onnxruntime` wheel and loaded from there: nothing is downloaded.
It reads English and Chinese."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..errors import ExtractionError
from ..types import OcrLine, OcrWord

LANGUAGES = ("English", "Chinese")  # what the packaged recogniser reads


class RapidRecogniser:
    """RapidOCR with its packaged models, loaded on first use (about 0.3 s), on `threads` threads."""

    def __init__(self, threads: int = 0, max_side: int = 4000) -> None:
        self._threads = threads
        self._max_side = max_side
        self._engine: object | None = None

    def _load(self) -> object:
        if self._engine is None:
            try:
                from rapidocr_onnxruntime import RapidOCR
            except ImportError as exc:  # installed by `make`; a bare `pip install citedesk` lacks it
                raise ExtractionError(
                    "this file needs OCR (its pages are pictures of text), and the OCR engine is not "
                    "installed: run `make setup` in CiteDesk's folder, or turn OCR off in Settings"
                ) from exc
            options: dict[str, object] = {"max_side_len": self._max_side}
            if self._threads > 0:
                options |= {"intra_op_num_threads": self._threads, "inter_op_num_threads": 1}
            self._engine = RapidOCR(**options)
        return self._engine

    def read(self, image: np.ndarray) -> list[OcrLine]:
        engine = self._load()
        bgr = np.ascontiguousarray(image[:, :, ::-1])  # OpenCV's channel order
        result, _ = engine(bgr, return_word_box=True)  # type: ignore[operator]
        return [line for line in (_line(item) for item in result or ()) if line is not None]


def _line(item: Sequence[object]) -> OcrLine | None:
    """One RapidOCR result, [box, text, score, char boxes, chars, char scores], as a line of words."""
    box, text, score = item[0], str(item[1]), float(item[2])  # type: ignore[arg-type]
    chars = list(item[4]) if len(item) > 4 and item[4] else []  # type: ignore[arg-type]
    char_boxes = list(item[3]) if len(item) > 3 and item[3] else []  # type: ignore[arg-type]
    words: list[OcrWord] = []
    if chars and len(chars) == len(char_boxes):
        current: list[tuple[str, Sequence[Sequence[float]]]] = []
        for char, points in [*zip(chars, char_boxes, strict=True), (" ", None)]:
            if str(char).isspace() or points is None:
                if current:
                    words.append(_word("".join(c for c, _ in current), [p for _, b in current for p in b]))
                current = []
            else:
                current.append((str(char), points))
    if not words:  # no character boxes: the line's words share its box
        points = [tuple(p) for p in box]  # type: ignore[union-attr]
        words = [_word(w, points) for w in text.split()]
    return OcrLine(tuple(words), score) if words else None


def _word(text: str, points: Sequence[Sequence[float]]) -> OcrWord:
    xs = [float(p[0]) for p in points]
    ys = [float(p[1]) for p in points]
    return OcrWord(text, min(xs), min(ys), max(xs), max(ys))
