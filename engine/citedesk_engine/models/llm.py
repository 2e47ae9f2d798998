"""The local GGUF model through llama.cpp: loaded once, lazily, with a thread count that suits few cores."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import Cancelled, ModelError
from ..types import GeneratedToken

log = logging.getLogger(__name__)


class LocalLLM:
    """Owns one llama.cpp context. Not thread-safe by itself: the engine's worker thread uses it."""

    def __init__(
        self, path: Path, *, threads: int, batch_threads: int | None = None, context: int = 4096
    ) -> None:
        self._path = path
        self._threads = threads
        self._batch_threads = batch_threads or threads
        self._context = context
        self._model: Any = None
        self._lock = threading.Lock()

    def model(self) -> Any:
        with self._lock:
            if self._model is None:
                # With OpenMP spinning, n_threads == cores collapses to < 1 token/s when any other
                # thread wants a core (DESIGN.md); passive waiting must be set before the import.
                os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
                import llama_cpp

                log.info("loading %s with %d threads", self._path, self._threads)
                try:
                    self._model = llama_cpp.Llama(
                        model_path=str(self._path),
                        n_ctx=self._context,
                        n_threads=self._threads,
                        n_threads_batch=self._batch_threads,
                        verbose=False,
                    )
                except Exception as exc:
                    raise ModelError(f"Cannot load the model {self._path}: {exc}") from exc
            return self._model

    def tokenize(self, text: str) -> list[int]:
        return list(self.model().tokenize(text.encode("utf-8"), add_bos=False, special=True))

    def next_token_logits(self, tokens: list[int]) -> np.ndarray:
        """Evaluate `tokens` from a fresh state and return the logits of the next token."""
        model = self.model()
        model.reset()
        model.eval(tokens)
        # llama-cpp-python keeps no logits unless logits_all=True (a n_ctx x vocab array, ~300 MB
        # here); the last row is read straight from the context instead.
        pointer = model._ctx.get_logits_ith(-1)
        return np.ctypeslib.as_array(pointer, shape=(model.n_vocab(),)).copy()


class LocalGenerator:
    """Chat completion on the local model at temperature 0, streamed, cancellable between tokens."""

    def __init__(self, llm: LocalLLM) -> None:
        self._llm = llm
        self._tokens: list[GeneratedToken] = []

    def last_tokens(self) -> Sequence[GeneratedToken]:
        return list(self._tokens)

    def generate(
        self,
        messages: Sequence[dict[str, str]],
        *,
        max_tokens: int,
        on_token: Callable[[str], None] | None = None,
        cancel: threading.Event | None = None,
    ) -> str:
        model = self._llm.model()
        from llama_cpp import LogitsProcessorList  # loaded with the model

        self._start_from_system_prompt(model, messages)
        pieces: list[str] = []
        chosen: list[tuple[int, float]] = []

        def record(_: Any, logits: np.ndarray) -> np.ndarray:
            # Read, not changed: the token greedy decoding takes and the model's probability for it.
            top = int(np.argmax(logits))
            chosen.append((top, 1.0 / float(np.sum(np.exp(logits - logits[top])))))
            return logits

        self._tokens = []
        stream = model.create_chat_completion(
            messages=list(messages),
            temperature=0.0,
            top_k=1,
            max_tokens=max_tokens,
            stream=True,
            seed=0,
            logits_processor=LogitsProcessorList([record]),
        )
        for chunk in stream:
            if cancel is not None and cancel.is_set():
                raise Cancelled("generation cancelled")
            piece = chunk["choices"][0]["delta"].get("content") or ""
            if piece:
                pieces.append(piece)
                if on_token is not None:
                    on_token(piece)
        # The end-of-turn token detokenizes to nothing and is left out.
        written = ((model.detokenize([token]).decode("utf-8", "replace"), p) for token, p in chosen)
        self._tokens = [GeneratedToken(text, p) for text, p in written if text]
        return "".join(pieces)

    def _start_from_system_prompt(self, model: Any, messages: Sequence[dict[str, str]]) -> None:
        """Leave the context holding the system prompt alone, read on its own from a fresh state, so
        that the rest of every prompt is read from the same point in the same batches: the same prompt
        gives the same answer whatever was asked before. llama.cpp reuses the longest prefix shared
        with the last prompt; reused up to wherever two prompts parted, the rest was read in other
        batches, and the small differences in its sums changed greedy answers (the real-document set's
        q020: "Eigen decomposition" after q019, "Cholesky decomposition" asked again). The system
        prompt, the same for every question, is still read once (without reuse an ask took about 0.7
        s more on squad-dev, 2 s at the median of the real-document set)."""
        first = messages[0] if messages else {}
        system = first.get("content") if first.get("role") == "system" else None
        prefix = self._llm.tokenize(f"<|im_start|>system\n{system}<|im_end|>\n") if system else []
        held = [int(t) for t in model.input_ids[: min(model.n_tokens, len(prefix))]]
        if prefix and held == prefix:
            model.n_tokens = len(prefix)  # what followed it is read again from here
            return
        model.reset()
        if prefix:
            model.eval(prefix)


class GgufYesNoReranker:
    """Pointwise relevance: P(yes) of the local instruct model asked whether a passage answers the query."""

    name = "gguf"
    _PROMPT = (
        "<|im_start|>system\nYou judge search results. Answer with yes or no only.<|im_end|>\n"
        "<|im_start|>user\nQuestion: {query}\n\nPassage: {passage}\n\n"
        "Does the passage contain the answer to the question?<|im_end|>\n<|im_start|>assistant\n"
    )

    def __init__(self, llm: LocalLLM, max_passage_chars: int = 1500) -> None:
        self._llm = llm
        self._max = max_passage_chars
        self._answer_ids: tuple[list[int], list[int]] | None = None

    def score(self, query: str, passages: list[Any]) -> list[float]:
        yes_ids, no_ids = self._answers()
        scores = []
        for passage in passages:
            prompt = self._PROMPT.format(query=query, passage=passage.text[: self._max])
            logits = self._llm.next_token_logits(self._llm.tokenize(prompt))
            yes = np.logaddexp.reduce(logits[yes_ids])
            no = np.logaddexp.reduce(logits[no_ids])
            scores.append(float(1.0 / (1.0 + np.exp(no - yes))))
        return scores

    def _answers(self) -> tuple[list[int], list[int]]:
        if self._answer_ids is None:
            yes = {self._llm.tokenize(w)[0] for w in ("yes", "Yes", " yes", " Yes")}
            no = {self._llm.tokenize(w)[0] for w in ("no", "No", " no", " No")}
            self._answer_ids = (sorted(yes), sorted(no))
        return self._answer_ids
