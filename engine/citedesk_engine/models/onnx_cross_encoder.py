"""A cross-encoder run by onnxruntime from an exported ONNX file (models/onnx_export.py), read with the
folder's own tokenizer.json: the same word pieces, truncation and head as the sentence-transformers path."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ModelError
from .onnx_export import INPUTS

SIGMOID = "torch.nn.modules.activation.Sigmoid"
IDENTITY = "torch.nn.modules.linear.Identity"


class OnnxCrossEncoder:
    """Pairs -> the model's scores as sentence-transformers' CrossEncoder.predict gives them: its
    activation (sigmoid for our reranker, none for the verifier), then softmax where asked."""

    def __init__(self, folder: Path, onnx_file: Path, *, max_length: int, threads: int) -> None:
        import onnxruntime
        from tokenizers import Tokenizer

        self._activation = _activation(folder)
        try:
            tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        except Exception as exc:
            raise ModelError(f"Cannot read the tokenizer of {folder}: {exc}") from exc
        # [CLS] question [SEP] passage [SEP], the longer of the two cut first, as the CrossEncoder does.
        tokenizer.enable_truncation(max_length, strategy="longest_first")
        tokenizer.no_padding()
        self._tokenizer = tokenizer
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        # Threads that spin after a run keep a core from the generator that runs right after the rerank.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        options.log_severity_level = 3
        self._session = onnxruntime.InferenceSession(
            str(onnx_file), options, providers=["CPUExecutionProvider"]
        )
        self._feeds = [i.name for i in self._session.get_inputs()]

    def predict(
        self, pairs: Sequence[tuple[str, str]], *, batch_size: int, apply_softmax: bool
    ) -> np.ndarray:
        """One score (a single-output model) or one row of label scores per pair, in the pairs' order."""
        encodings = self._tokenizer.encode_batch([(q, p) for q, p in pairs])
        # Sorted by length and batched, as sentence-transformers does: less padding, same scores.
        order = sorted(range(len(encodings)), key=lambda i: (-len(encodings[i].ids), i))
        rows: list[np.ndarray] = [np.empty(0)] * len(encodings)
        for start in range(0, len(order), max(1, batch_size)):
            batch = order[start : start + max(1, batch_size)]
            logits = self._run([encodings[i] for i in batch])
            for i, row in zip(batch, logits, strict=True):
                rows[i] = row
        scores = np.stack(rows).astype(np.float32)
        if self._activation == SIGMOID:
            scores = 1.0 / (1.0 + np.exp(-scores))
        if scores.shape[1] == 1:
            return scores[:, 0]
        if apply_softmax:
            shifted = np.exp(scores - scores.max(axis=1, keepdims=True))
            scores = shifted / shifted.sum(axis=1, keepdims=True)
        return scores

    def _run(self, encodings: Sequence[Any]) -> np.ndarray:
        width = max(len(e.ids) for e in encodings)
        arrays = {name: np.zeros((len(encodings), width), dtype=np.int64) for name in INPUTS}
        for row, e in enumerate(encodings):
            n = len(e.ids)
            arrays["input_ids"][row, :n] = e.ids
            arrays["attention_mask"][row, :n] = e.attention_mask
            arrays["token_type_ids"][row, :n] = e.type_ids
        return self._session.run(["logits"], {name: arrays[name] for name in self._feeds})[0]


def _activation(folder: Path) -> str:
    """The activation sentence-transformers applies to this folder's logits; another one is not run here."""
    try:
        config = json.loads((folder / "config_sentence_transformers.json").read_text(encoding="utf-8"))
        labels = len(json.loads((folder / "config.json").read_text(encoding="utf-8")).get("id2label", [0]))
    except (OSError, ValueError) as exc:
        raise ModelError(f"Cannot read the cross-encoder configuration in {folder}: {exc}") from exc
    default = SIGMOID if labels == 1 else IDENTITY
    activation = config.get("activation_fn", default) if isinstance(config, dict) else default
    if activation not in (SIGMOID, IDENTITY):
        raise ModelError(f"The cross-encoder in {folder} uses {activation}, which the ONNX path lacks.")
    return activation
