"""Fakes for unit tests of single modules. Integration tests use the real models instead."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from .types import GeneratedToken, Mention, OcrLine, OcrWord

_WORD = re.compile(r"\w+", re.UNICODE)


class HashEmbedder:
    """Bag-of-words hashed into a fixed number of buckets: deterministic, fast, model-free."""

    def __init__(self, dimension: int = 64) -> None:
        self._dimension = dimension
        self.calls = 0

    @property
    def name(self) -> str:
        return f"hash-{self._dimension}"

    @property
    def dimension(self) -> int:
        return self._dimension

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        self.calls += 1
        out = np.zeros((len(texts), self._dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in _WORD.findall(text.lower()):
                bucket = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=4).digest(), "big")
                out[row, bucket % self._dimension] += 1.0
            norm = float(np.linalg.norm(out[row]))
            out[row] = out[row] / norm if norm else out[row]
            if not norm:
                out[row, 0] = 1.0
        return out

    def embed_queries(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return self.embed(texts)


class ScriptedGenerator:
    """Returns a fixed answer, streamed word by word; records the prompts it was given. Given `sure`
    (a word's probability, by word, 1.0 for the others), it also says how sure it was of each word
    (`last_tokens`), as the local model does."""

    def __init__(self, answer: str, sure: dict[str, float] | None = None) -> None:
        self.answer = answer
        self.sure = sure
        self.prompts: list[list[dict[str, str]]] = []

    def last_tokens(self) -> list[GeneratedToken]:
        if self.sure is None or not self.prompts:
            return []
        pieces = self.answer.split(" ")
        return [
            GeneratedToken(piece if n == 0 else " " + piece, self.sure.get(piece, 1.0))
            for n, piece in enumerate(pieces)
        ]

    def generate(self, messages, *, max_tokens, on_token=None, cancel=None):  # type: ignore[no-untyped-def]
        self.prompts.append(list(messages))
        for piece in self.answer.split(" "):
            if cancel is not None and cancel.is_set():
                from .errors import Cancelled

                raise Cancelled("generation cancelled")
            if on_token is not None:
                on_token(piece + " ")
        return self.answer


class ScriptedRecogniser:
    """OCR that finds the lines it is given on every picture (boxes as fractions of the picture's
    width and height, so they land at the same place whatever the resolution), or nothing; it keeps
    the size of each picture it was shown."""

    def __init__(self, lines: Sequence[tuple[str, float, float, float, float]] = (), confidence: float = 0.9):
        self.lines = list(lines)  # text, x0, y0, x1, y1 as fractions
        self.confidence = confidence
        self.pictures: list[tuple[int, int]] = []  # height, width

    def read(self, image: np.ndarray) -> list[OcrLine]:
        height, width = image.shape[:2]
        self.pictures.append((height, width))
        found = []
        for text, x0, y0, x1, y1 in self.lines:
            words = text.split()
            step = (x1 - x0) / max(1, len(words))
            boxes = [
                OcrWord(w, (x0 + i * step) * width, y0 * height, (x0 + (i + 1) * step) * width, y1 * height)
                for i, w in enumerate(words)
            ]
            found.append(OcrLine(tuple(boxes), self.confidence))
        return found


class CapitalisedMentionReader:
    """Mentions are runs of capitalised words (a sentence's first word only with another after it),
    kind PERSON for two words, ORG otherwise; sentences end at '. '. `read_texts` keeps what it read."""

    name = "capitalised-words"

    def __init__(self) -> None:
        self.read_texts: list[str] = []

    def read(self, texts: Sequence[str]) -> list[list[Mention]]:
        self.read_texts += texts
        return [self._mentions(text) for text in texts]

    def keys(self, text: str) -> list[tuple[str, str]]:
        return [(m.node, m.label) for m in self._mentions(text)]

    @staticmethod
    def _mentions(text: str) -> list[Mention]:
        found = []
        for number, sentence in enumerate(re.split(r"(?<=[.?!])\s+", text)):
            for run in re.finditer(r"[A-Z][\w-]*(?:\s+(?:of\s+|on\s+)?[A-Z][\w-]*)*", sentence):
                words = run.group().split()
                if run.start() == 0 and len(words) == 1 and words[0].lower() in _SENTENCE_OPENERS:
                    continue
                kind = "PERSON" if len(words) == 2 else "ORG"
                found.append(Mention(run.group().lower(), run.group(), kind, number))
        return found


_SENTENCE_OPENERS = frozenset({"the", "a", "an", "it", "he", "she", "they", "this", "which", "who", "where"})
