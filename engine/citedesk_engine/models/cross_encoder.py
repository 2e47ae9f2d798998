"""A sentence-transformers CrossEncoder from a local folder: text pairs -> relevance in (0, 1), or label
probabilities for a classifier (the claim verifier)."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import ModelError
from .offline import forbid_hub

log = logging.getLogger(__name__)


class CrossEncoderScorer:
    """Loaded on first use, on the CPU, in float32 (fp16 weights are widened: CPU matmuls in fp16 are
    slow), reading at most `max_length` word pieces of each pair (ours was trained at 256).

    Where the CPU computes bfloat16 natively (AMX or AVX512-BF16), scoring runs under bfloat16
    autocast: a 50-passage head took 0.60 s instead of 1.85 s on 2 cores, scores within 0.001."""

    def __init__(
        self, folder: Path, *, batch_size: int = 16, max_length: int = 256, threads: int = 0
    ) -> None:
        self._folder = folder
        self._batch_size = batch_size
        self._max_length = max_length
        self._threads = threads or (os.cpu_count() or 1)
        self._model: Any = None
        self._lock = threading.Lock()

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """One relevance in (0, 1) per pair (a single-output model, sigmoid)."""
        return [float(s) for s in self._predict(pairs, apply_softmax=False)]

    def probabilities(self, pairs: Sequence[tuple[str, str]]) -> list[list[float]]:
        """One probability per label per pair (a classifier, softmax), in the model's label order."""
        return [[float(p) for p in row] for row in self._predict(pairs, apply_softmax=True)]

    def _predict(self, pairs: Sequence[tuple[str, str]], *, apply_softmax: bool) -> Any:
        if not pairs:
            return []
        model = self._load()
        import torch

        if torch.get_num_threads() != self._threads:  # a 50-passage head is a batch: every core
            torch.set_num_threads(self._threads)
        with torch.inference_mode(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=_native_bf16()):
            return model.predict(
                list(pairs), batch_size=self._batch_size, show_progress_bar=False, apply_softmax=apply_softmax
            )

    def _load(self) -> Any:
        with self._lock:
            if self._model is None:
                forbid_hub()
                import torch
                from sentence_transformers import CrossEncoder

                log.info("loading cross-encoder from %s", self._folder)
                try:
                    model = CrossEncoder(
                        str(self._folder), device="cpu", local_files_only=True, max_length=self._max_length
                    )
                    model.model.to(torch.float32)
                except Exception as exc:
                    raise ModelError(f"Cannot load the cross-encoder from {self._folder}: {exc}") from exc
                self._model = model
            return self._model


def _native_bf16() -> bool:
    import torch

    checks = ("_is_amx_tile_supported", "_is_avx512_bf16_supported")
    return any(getattr(torch.cpu, name, lambda: False)() for name in checks)
