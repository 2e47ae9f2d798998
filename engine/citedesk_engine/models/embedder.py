"""The sentence-transformers embedder, loaded lazily from a local folder; never touches the network."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import ModelError
from .offline import forbid_hub

log = logging.getLogger(__name__)


class SentenceTransformerEmbedder:
    """all-MiniLM-L6-v2 by default; any sentence-transformers folder works."""

    def __init__(self, folder: Path, *, name: str, batch_size: int = 32, threads: int = 0) -> None:
        self._folder = folder
        self._name = name
        self._threads = threads or (os.cpu_count() or 1)
        self._batch_size = batch_size
        self._model: Any = None
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return self._name

    @property
    def dimension(self) -> int:
        return int(self._load().get_embedding_dimension())

    def embed(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        model = self._load()
        # A question or two: one thread. With every core, a query took ~500 ms instead of ~15 ms as
        # soon as another process wanted a core (measured on 2 cores); batches still use them all.
        import torch

        threads = 1 if len(texts) <= 4 else self._threads
        if torch.get_num_threads() != threads:
            torch.set_num_threads(threads)
        vectors = model.encode(
            list(texts),
            batch_size=self._batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vectors, dtype=np.float32)

    def embed_queries(self, texts: Sequence[str]) -> npt.NDArray[np.float32]:
        return self.embed(texts)

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                forbid_hub()
                from sentence_transformers import SentenceTransformer

                log.info("loading embedder from %s", self._folder)
                try:
                    self._model = SentenceTransformer(str(self._folder), device="cpu", local_files_only=True)
                except Exception as exc:
                    raise ModelError(f"Cannot load the embedder from {self._folder}: {exc}") from exc
            return self._model
