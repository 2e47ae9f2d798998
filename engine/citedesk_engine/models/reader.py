"""The answer reader: which span of a passage answers a question (training/reader), shared by training
and use.

An extractive reader (BERT with a start/end head, MiniLM-L6) reads the question and the passage in
windows of MAX_LENGTH word pieces with a stride and scores every span of at most MAX_ANSWER_TOKENS:
start logit + end logit. `spans` returns the best spans of all windows with their share of the
probability mass of those candidates (a softmax over their scores), so a caller can ask how much
of the reader's belief falls on a given answer.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..types import Span
from .offline import forbid_hub
from .registry import ModelRegistry

MAX_LENGTH = 256  # word pieces of question + passage window
STRIDE = 96  # word pieces shared by two windows
MAX_ANSWER_TOKENS = 30
TOP = 20  # start and end candidates per window
PACKAGED = "packaged"  # [models] reader = "packaged": the reader in resources/models/reader


def features(tokenizer: Any, question: str, passage: str) -> list[dict]:
    """The windows of a (question, passage) pair: ids, token types, and each token's character span in
    the passage (None for the question and special tokens)."""
    enc = tokenizer(
        question,
        passage,
        truncation="only_second",
        max_length=MAX_LENGTH,
        stride=STRIDE,
        return_overflowing_tokens=True,
        return_offsets_mapping=True,
    )
    windows = []
    for i, ids in enumerate(enc["input_ids"]):
        seq = enc.sequence_ids(i)
        offsets = [tuple(o) if s == 1 else None for o, s in zip(enc["offset_mapping"][i], seq, strict=True)]
        windows.append({"ids": ids, "types": enc["token_type_ids"][i], "offsets": offsets})
    return windows


def decode(windows: list[dict], starts: Any, ends: Any, passage: str, k: int) -> list[Span]:
    """The k best spans over all windows (one per distinct character span), from start/end logits."""
    import numpy as np

    scored: dict[tuple[int, int], float] = {}
    for w, s_logits, e_logits in zip(windows, starts, ends, strict=True):
        offs = w["offsets"]
        n = len(offs)
        s_logits, e_logits = np.asarray(s_logits[:n]), np.asarray(e_logits[:n])
        for si in np.argsort(-s_logits)[:TOP]:
            if offs[si] is None:
                continue
            for ei in np.argsort(-e_logits)[:TOP]:
                if offs[ei] is None or ei < si or ei - si + 1 > MAX_ANSWER_TOKENS:
                    continue
                key = (offs[si][0], offs[ei][1])
                score = float(s_logits[si] + e_logits[ei])
                if score > scored.get(key, -1e9):
                    scored[key] = score
    if not scored:
        return []
    keys = list(scored)
    values = np.array([scored[key] for key in keys])
    probs = np.exp(values - values.max())
    probs /= probs.sum()
    order = np.argsort(-probs)[:k]
    return [Span(passage[keys[i][0] : keys[i][1]], keys[i][0], keys[i][1], float(probs[i])) for i in order]


def padded(windows: list[dict]) -> dict[str, Any]:
    """Windows (or training items with "ids" and "types") as one padded batch of model inputs."""
    import torch

    n = max(len(w["ids"]) for w in windows)
    ids = torch.zeros(len(windows), n, dtype=torch.long)
    types = torch.zeros(len(windows), n, dtype=torch.long)
    mask = torch.zeros(len(windows), n, dtype=torch.long)
    for i, w in enumerate(windows):
        ids[i, : len(w["ids"])] = torch.tensor(w["ids"])
        types[i, : len(w["types"])] = torch.tensor(w["types"])
        mask[i, : len(w["ids"])] = 1
    return {"input_ids": ids, "token_type_ids": types, "attention_mask": mask}


def best_spans(model: Any, tokenizer: Any, question: str, passage: str, k: int = 20) -> list[Span]:
    """Run `model` (a transformers question-answering model) on the pair; the k best spans."""
    import torch

    windows = features(tokenizer, question, passage)
    with torch.inference_mode():
        out = model(**padded(windows))
    return decode(windows, out.start_logits.float().numpy(), out.end_logits.float().numpy(), passage, k)


class AnswerReader:
    """The packaged answer reader, loaded on first use, on the CPU, in float32."""

    def __init__(self, folder: Path, threads: int = 0) -> None:
        self._folder = folder
        self._threads = threads or (os.cpu_count() or 1)
        self._loaded: tuple[Any, Any] | None = None
        self._lock = threading.Lock()

    def spans(self, question: str, passage: str, k: int = 20) -> list[Span]:
        model, tokenizer = self._load()
        import torch

        if torch.get_num_threads() != self._threads:
            torch.set_num_threads(self._threads)
        return best_spans(model, tokenizer, question, " ".join(passage.split()), k)

    def _load(self) -> tuple[Any, Any]:
        with self._lock:
            if self._loaded is None:
                forbid_hub()
                import torch
                from transformers import AutoModelForQuestionAnswering, AutoTokenizer

                tokenizer = AutoTokenizer.from_pretrained(str(self._folder), local_files_only=True)
                model = AutoModelForQuestionAnswering.from_pretrained(
                    str(self._folder), local_files_only=True, dtype=torch.float32
                )
                model.eval()
                self._loaded = (model, tokenizer)
            return self._loaded


def build_answer_reader(registry: ModelRegistry) -> AnswerReader | None:
    """The answer reader the settings choose: the packaged one (checked by sha256) or none."""
    kind = registry.config.reader
    if kind in ("", "none"):
        return None
    if kind != PACKAGED:
        raise ConfigError(f"Unknown reader {kind!r}: choose packaged or none in [models].")
    return AnswerReader(registry.reader_path())
