"""Export a trained reader run as the shipped folder (fp16 safetensors) and check it against fp32.

    python training/reader/export.py [--run main] [--which last|best]
    python training/reader/export.py --sums-only      # rewrite SHA256SUMS (after editing README.md)

Writes resources/models/reader/: config.json (dtype float32, so loading upcasts the fp16 weights),
tokenizer files, model.safetensors (fp16), SHA256SUMS. README.md (the model card) is kept.
Then prints the sha256 of model.safetensors, for READER_SHA256 in models/registry.py.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "reranker"))
from citedesk_engine.models.reader import best_spans  # noqa: E402
from common import DATA, REPO, RUNS, SEED, read_jsonl, write_sums  # noqa: E402

OUT = REPO / "resources" / "models" / "reader"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", default="main")
    ap.add_argument("--which", default="last", choices=["best", "last"])
    ap.add_argument("--sums-only", action="store_true")
    ap.add_argument("--check", type=int, default=60)
    args = ap.parse_args()
    if args.sums_only:
        write_sums(OUT)
        return
    from safetensors.torch import load_file, save_file
    from transformers import AutoModelForQuestionAnswering, AutoTokenizer

    torch.set_num_threads(2)
    src = RUNS / "reader" / args.run / args.which
    if args.which == "last" and not src.exists():
        # the checkpoint's weights (train.py keeps the best by validation exact match as "best")
        state = torch.load(RUNS / "reader" / args.run / "checkpoint.pt", weights_only=False)
        model = AutoModelForQuestionAnswering.from_pretrained(str(src.parent / "best"))
        model.load_state_dict(state["model"])
        model.save_pretrained(src)
        AutoTokenizer.from_pretrained(str(src.parent / "best")).save_pretrained(src)
    OUT.mkdir(parents=True, exist_ok=True)
    for p in OUT.iterdir():
        if p.is_file() and p.name != "README.md":
            p.unlink()
    for p in sorted(src.iterdir()):
        if p.is_file() and p.name not in ("model.safetensors", "README.md", "training_args.bin"):
            shutil.copy2(p, OUT / p.name)
    cfg = json.loads((OUT / "config.json").read_text())
    cfg["dtype"] = "float32"
    (OUT / "config.json").write_text(json.dumps(cfg, indent=2) + "\n")
    state = load_file(str(src / "model.safetensors"))
    half = {k: v.to(torch.float16).contiguous() for k, v in state.items()}
    save_file(half, str(OUT / "model.safetensors"), metadata={"format": "pt"})
    write_sums(OUT)

    # fp32 run against the shipped fp16 (widened on load): the same best span on our validation rows
    tok = AutoTokenizer.from_pretrained(str(OUT))
    a = AutoModelForQuestionAnswering.from_pretrained(str(src), dtype=torch.float32).eval()
    b = AutoModelForQuestionAnswering.from_pretrained(str(OUT), dtype=torch.float32).eval()
    rows = read_jsonl(DATA / "reader" / "val.jsonl")
    random.Random(SEED).shuffle(rows)
    same = 0
    for r in rows[: args.check]:
        x = best_spans(a, tok, r["question"], r["context"], 1)
        y = best_spans(b, tok, r["question"], r["context"], 1)
        same += bool(x and y) and x[0].text == y[0].text
    print(f"same best span fp32 vs fp16: {same}/{args.check}")


if __name__ == "__main__":
    main()
