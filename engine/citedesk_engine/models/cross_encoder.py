"""A sentence-transformers CrossEncoder from a local folder: text pairs -> relevance in (0, 1), or label
probabilities for a classifier (the claim verifier); run by PyTorch or, exported on first use, by
onnxruntime at int8 (models/onnx_export.py)."""

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

TORCH = "torch"
ONNX_INT8 = "onnx-int8"
ONNX_FP32 = "onnx-fp32"  # measured beside the others (benchmarks/rerank_speed.py); not a setting
AUTO = "auto"
RUNTIMES = (AUTO, TORCH, ONNX_INT8, ONNX_FP32)


class CrossEncoderScorer:
    """Loaded on first use, on the CPU, reading at most `max_length` word pieces of each pair (ours was
    trained at 256).

    `runtime` torch: float32 (fp16 weights are widened: CPU matmuls in fp16 are slow), under bfloat16
    autocast where the CPU computes bfloat16 natively (AMX or AVX512-BF16): a 50-passage head took
    0.60 s instead of 1.85 s on 2 cores, scores within 0.001. onnx-int8: the folder exported to ONNX
    and dynamically quantised to int8 in `cache_dir` on first use; if it cannot be exported, PyTorch
    scores instead, with a warning in the log. auto: torch where the CPU computes bfloat16 natively,
    else onnx-int8 (resources/models/reranker/README.md, "int8 ONNX", has the figures)."""

    def __init__(
        self,
        folder: Path,
        *,
        batch_size: int = 16,
        max_length: int = 256,
        threads: int = 0,
        runtime: str = TORCH,
        cache_dir: Path | None = None,
    ) -> None:
        if runtime not in RUNTIMES:
            raise ValueError(f"unknown cross-encoder runtime {runtime!r}")
        if runtime != TORCH and cache_dir is None:
            raise ValueError("an ONNX runtime needs the cache folder to export into")
        self._folder = folder
        self._batch_size = batch_size
        self._max_length = max_length
        self._threads = threads or (os.cpu_count() or 1)
        self._runtime = runtime
        self._cache_dir = cache_dir
        self._model: Any = None
        self._onnx: Any = None
        self._lock = threading.Lock()

    @property
    def runtime(self) -> str:
        """What scores (after loading): torch, onnx-int8 or onnx-fp32; the runtime asked for before."""
        with self._lock:
            if self._onnx is not None:
                return self._onnx[0]
            return TORCH if self._model is not None else self._runtime

    def score(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """One relevance in (0, 1) per pair (a single-output model, sigmoid)."""
        return [float(s) for s in self._predict(pairs, apply_softmax=False)]

    def probabilities(self, pairs: Sequence[tuple[str, str]]) -> list[list[float]]:
        """One probability per label per pair (a classifier, softmax), in the model's label order."""
        return [[float(p) for p in row] for row in self._predict(pairs, apply_softmax=True)]

    def load(self) -> str:
        """Load (exporting first if needed) now rather than at the first pair; returns the runtime."""
        self._backend()
        return self.runtime

    def _predict(self, pairs: Sequence[tuple[str, str]], *, apply_softmax: bool) -> Any:
        if not pairs:
            return []
        backend = self._backend()
        if backend is not None:
            # int8: one pair a run. The activations are quantised with one scale per tensor, so in a
            # batch one passage's outliers coarsen its neighbours' scores (and a score would depend
            # on its neighbours); alone, each pair has its own scale and there is no padding.
            batch = 1 if self.runtime == ONNX_INT8 else self._batch_size
            return backend.predict(list(pairs), batch_size=batch, apply_softmax=apply_softmax)
        model = self._torch_model()
        import torch

        if torch.get_num_threads() != self._threads:  # a 50-passage head is a batch: every core
            torch.set_num_threads(self._threads)
        with torch.inference_mode(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=_native_bf16()):
            return model.predict(
                list(pairs), batch_size=self._batch_size, show_progress_bar=False, apply_softmax=apply_softmax
            )

    def _backend(self) -> Any:
        """The onnxruntime model, or None when PyTorch scores (asked for, or the export failed)."""
        with self._lock:
            if self._onnx is not None:
                return self._onnx[1]
            if self._model is not None:
                return None
            runtime = resolve_runtime(self._runtime)
            if runtime != TORCH:
                assert self._cache_dir is not None
                try:
                    self._onnx = (runtime, self._load_onnx(runtime, self._cache_dir))
                    return self._onnx[1]
                except ModelError as exc:
                    log.warning("%s; the cross-encoder %s runs on PyTorch instead", exc, self._folder)
            self._model = self._load_torch()
            return None

    def _torch_model(self) -> Any:
        with self._lock:
            if self._model is None:
                self._model = self._load_torch()
            return self._model

    def _load_onnx(self, runtime: str, cache_dir: Path) -> Any:
        from .onnx_cross_encoder import OnnxCrossEncoder
        from .onnx_export import FP32, INT8, cached_onnx, stamp_of

        precision = INT8 if runtime == ONNX_INT8 else FP32
        log.info("loading cross-encoder from %s as %s ONNX", self._folder, precision)
        for attempt in (1, 2):
            onnx_file = cached_onnx(self._folder, cache_dir, precision)
            try:
                return OnnxCrossEncoder(
                    self._folder, onnx_file, max_length=self._max_length, threads=self._threads
                )
            except ModelError:
                raise
            except Exception as exc:  # a file that matched its stamp yet does not load: make it again
                stamp_of(onnx_file).unlink(missing_ok=True)
                if attempt == 2:
                    raise ModelError(f"onnxruntime cannot load {onnx_file}: {exc}") from exc
                log.warning("onnxruntime cannot load %s (%s): exporting it again", onnx_file, exc)
        raise AssertionError("unreachable")

    def _load_torch(self) -> Any:
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
        return model


def resolve_runtime(runtime: str) -> str:
    """auto: PyTorch under bfloat16 autocast where the CPU has it natively, else int8 ONNX."""
    if runtime != AUTO:
        return runtime
    return TORCH if _native_bf16() else ONNX_INT8


def _native_bf16() -> bool:
    import torch

    checks = ("_is_amx_tile_supported", "_is_avx512_bf16_supported")
    return any(getattr(torch.cpu, name, lambda: False)() for name in checks)
