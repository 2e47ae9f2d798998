"""Seams for pluggable parts. Real implementations live in `models/`, fakes in `testing.py`."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from .types import GeneratedToken, Mention, OcrLine, Span


class Embedder(Protocol):
    """Turns passages into L2-normalised float32 vectors of a fixed dimension."""

    @property
    def name(self) -> str:
        """Identifies the model; a library refuses vectors of another model."""
        ...

    @property
    def dimension(self) -> int: ...

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """One normalised row per passage, in order."""
        ...

    def embed_queries(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        """One normalised row per question, in order: the same as `embed` for a symmetric model; a
        model trained with a query prefix (E5) adds it here."""
        ...


class Generator(Protocol):
    """Writes text from a chat prompt at temperature 0, streaming pieces through `on_token`."""

    def generate(
        self,
        messages: Sequence[dict[str, str]],
        *,
        max_tokens: int,
        on_token: Callable[[str], None] | None = None,
        cancel: threading.Event | None = None,
    ) -> str: ...


@runtime_checkable
class ReportsTokens(Protocol):
    """A generator that can say how sure its model was of each token of its last text (the local
    llama.cpp model can; a server need not)."""

    def last_tokens(self) -> Sequence[GeneratedToken]:
        """The tokens of the last `generate`, in order (empty before the first or when unknown)."""
        ...


class ClaimJudge(Protocol):
    """Reads evidence and a claim (judged as the answer to `question` when one is given) and says how
    likely the evidence supports it: a probability in [0, 1]."""

    def supported(self, evidence: str, claim: str, question: str = "") -> float: ...


class SpanReader(Protocol):
    """Reads a question and a passage and gives the passage's likeliest answer spans, best first,
    each with its share of the reader's belief."""

    def spans(self, question: str, passage: str, k: int = 20) -> Sequence[Span]: ...


class Recogniser(Protocol):
    """OCR: finds and reads the lines of text in a picture (models/recogniser.py)."""

    def read(self, image: np.ndarray) -> list[OcrLine]:
        """The lines in an RGB picture (height x width x 3, uint8), boxes in its pixels, any order."""
        ...


class MentionReader(Protocol):
    """Finds the named entities and key noun phrases of passages (models/spacy_mentions.py)."""

    @property
    def name(self) -> str: ...

    def read(self, texts: Sequence[str]) -> list[list[Mention]]:
        """The mentions of each text, in order."""
        ...

    def keys(self, text: str) -> list[tuple[str, str]]:
        """(key, label) of every phrase of a question that could name a node: its mentions, and each
        run of up to five of its words, keyed as mentions are."""
        ...
