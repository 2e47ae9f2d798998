"""The OCR recogniser: RapidOCR's PP-OCRv4 (text detection, recognition and line orientation), ONNX
models shipped inside the `rapidocr-onnxruntime` wheel and loaded from there: nothing is downloaded.
It reads English and Chinese."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import ExtractionError
from ..types import OcrLine, OcrWord

LANGUAGES = ("English", "Chinese")  # what the packaged recogniser reads


class RapidRecogniser:
    """RapidOCR with its packaged models, loaded on first use (about 0.3 s), on `threads` threads.

    Lines are found on the picture scaled down to `detect_side` pixels on its longer side and read at
    the picture's own resolution: finding lines needs little detail and costs with every pixel (11.9 s
    for a 300-dpi page, 4.2 s at 200 dpi), while reading them gains from it (fewer words run together:
    see docs/evaluation.md, OCR). RapidOCR 1.4.4's own steps are called one by one for that; its
    version is pinned in the Makefile.
    """

    def __init__(self, threads: int = 0, detect_side: int = 2000) -> None:
        self._threads = threads
        self._detect_side = detect_side
        self._engine: Any = None

    def _load(self) -> Any:
        if self._engine is None:
            try:
                from rapidocr_onnxruntime import RapidOCR
            except ImportError as exc:  # installed by `make`; a bare `pip install citedesk` lacks it
                raise ExtractionError(
                    "this file needs OCR (its pages are pictures of text), and the OCR engine is not "
                    "installed: run `make setup` in CiteDesk's folder, or turn OCR off in Settings"
                ) from exc
            options: dict[str, object] = {}
            if self._threads > 0:
                options |= {"intra_op_num_threads": self._threads, "inter_op_num_threads": 1}
            self._engine = RapidOCR(**options)
        return self._engine

    def read(self, image: np.ndarray) -> list[OcrLine]:
        engine = self._load()
        bgr = np.ascontiguousarray(image[:, :, ::-1])  # OpenCV's channel order
        lines, upside_down = self._read(engine, bgr)
        if not upside_down:
            return lines
        # Most lines read upside down: the page is, so it is turned and read again, and its boxes
        # are turned back onto the page as it is shown (their slope of half a turn puts the lines in
        # reading order: ingest/ocr.py turns boxes upright by it).
        height, width = bgr.shape[:2]
        turned, _ = self._read(engine, np.ascontiguousarray(bgr[::-1, ::-1]))
        return [
            OcrLine(
                tuple(
                    OcrWord(w.text, width - w.x1, height - w.y1, width - w.x0, height - w.y0)
                    for w in line.words
                ),
                line.confidence,
                line.angle + math.pi,
            )
            for line in turned
        ]

    def _read(self, engine: Any, bgr: np.ndarray) -> tuple[list[OcrLine], bool]:
        """The lines of the picture, and whether most of them are upside down.

        The orientation classifier is asked about every line, but its answer is taken for the page as
        a whole, never line by line: it calls one line in fifty or so of an upright page upside down
        (the first line of a reference, in bold and italics), and reading that line turned gives
        nonsense in its place.
        """
        import cv2

        height, width = bgr.shape[:2]
        scale = min(1.0, self._detect_side / max(height, width, 1))
        small = (
            bgr
            if scale == 1.0
            else cv2.resize(
                bgr,
                (max(1, round(width * scale)), max(1, round(height * scale))),
                interpolation=cv2.INTER_AREA,
            )
        )
        # A short, wide picture (one line) is padded above and below before detection, as RapidOCR does.
        small, record = engine.maybe_add_letterbox(small, {})
        top = record["padding_1"]["top"]
        found, _ = engine.text_det(small)
        if found is None or len(found) == 0:
            return [], False
        boxes = []
        for box in engine.sorted_boxes(found):
            points = (np.asarray(box, dtype=np.float32) - np.array([0, top], dtype=np.float32)) / scale
            points[:, 0] = points[:, 0].clip(0, width - 1)
            points[:, 1] = points[:, 1].clip(0, height - 1)
            boxes.append(points)
        crops = engine.get_crop_img_list(bgr, boxes)
        _, orientations, _ = engine.text_cls(crops)
        turned = sum(
            1 for label, score in orientations if "180" in label and score > engine.text_cls.cls_thresh
        )
        read, _ = engine.text_rec(crops, True)
        read = engine.cal_rec_boxes(crops, boxes, read)
        lines = [
            line
            for box, (text, score, *words) in zip(boxes, read, strict=True)
            if float(score) >= engine.text_score
            if (line := _line([box.tolist(), text, score, *words])) is not None
        ]
        return lines, turned > len(crops) / 2


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
    (left, top), (right, top_right) = box[0], box[1]  # type: ignore[index]
    angle = math.atan2(float(top_right) - float(top), max(1.0, float(right) - float(left)))
    return OcrLine(tuple(words), score, angle) if words else None


def _word(text: str, points: Sequence[Sequence[float]]) -> OcrWord:
    xs = [float(p[0]) for p in points]
    ys = [float(p[1]) for p in points]
    return OcrWord(text, min(xs), min(ys), max(xs), max(ys))
