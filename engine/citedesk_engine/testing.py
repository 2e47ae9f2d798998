"""Fakes for unit tests of single modules. Integration tests use the real models instead."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

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


class ScriptedGenerator:
    """Returns a fixed answer, streamed word by word; records the prompts it was given."""

    def __init__(self, answer: str) -> None:
        self.answer = answer
        self.prompts: list[list[dict[str, str]]] = []

    def generate(self, messages, *, max_tokens, on_token=None, cancel=None):  # type: ignore[no-untyped-def]
        self.prompts.append(list(messages))
        for piece in self.answer.split(" "):
            if cancel is not None and cancel.is_set():
                from .errors import Cancelled

                raise Cancelled("generation cancelled")
            if on_token is not None:
                on_token(piece + " ")
        return self.answer
