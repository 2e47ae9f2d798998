"""Export a trained run as the shipped CrossEncoder folder (fp16 safetensors) and check it against fp32.

    python training/reranker/export.py [--run main] [--which best|last]
    python training/reranker/export.py --sums-only      # rewrite SHA256SUMS (after editing README.md)

Writes resources/models/reranker/: config.json (dtype float32, so loading upcasts the fp16 weights),
config_sentence_transformers.json, modules.json, sentence_bert_config.json, tokenizer files,
model.safetensors (fp16), SHA256SUMS. README.md (the model card) is kept if present.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import MAX_LENGTH, OUT_MODEL, PREPARED, RUNS, export_cross_encoder, read_jsonl, write_sums  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", default="main")
    ap.add_argument("--which", default="best", choices=["best", "last"])
    ap.add_argument("--sums-only", action="store_true")
    ap.add_argument("--check-queries", type=int, default=40)
    args = ap.parse_args()
    if args.sums_only:
        write_sums(OUT_MODEL)
        return

    from sentence_transformers import CrossEncoder

    torch.set_num_threads(2)
    src = RUNS / args.run / args.which
    state = export_cross_encoder(src, OUT_MODEL)
    ce32 = CrossEncoder(str(src), device="cpu", max_length=MAX_LENGTH, local_files_only=True)

    # fp32 vs shipped fp16: same ranking on a sample of our own validation questions
    ce16 = CrossEncoder(str(OUT_MODEL), device="cpu", local_files_only=True)
    dtype = next(ce16.parameters()).dtype
    passages = {p.stem[len("passages_") :]: [r["text"] for r in read_jsonl(p)] for p in sorted(PREPARED.glob("passages_*.jsonl"))}
    rows = read_jsonl(PREPARED / "val.jsonl")
    rows = rows[:: max(1, len(rows) // args.check_queries)][: args.check_queries]
    a_all, b_all, same_rank, same_top1 = [], [], 0, 0
    for r in rows:
        pairs = [(r["question"], passages[r["source"]][i]) for i in r["cands"]]
        a = ce32.predict(pairs, batch_size=16, show_progress_bar=False, activation_fn=torch.nn.Identity())
        b = ce16.predict(pairs, batch_size=16, show_progress_bar=False, activation_fn=torch.nn.Identity())
        a_all += list(a)
        b_all += list(b)
        same_rank += int(list(np.argsort(-a, kind="stable")) == list(np.argsort(-b, kind="stable")))
        same_top1 += int(np.argmax(a) == np.argmax(b))
    a_all, b_all = np.array(a_all), np.array(b_all)
    check = {
        "queries": len(rows),
        "pairs": len(a_all),
        "pearson_logits": float(np.corrcoef(a_all, b_all)[0, 1]),
        "max_abs_logit_diff": float(np.abs(a_all - b_all).max()),
        "identical_full_ranking": same_rank,
        "identical_top1": same_top1,
        "loaded_dtype": str(dtype),
        "source": str(src),
        "train_state": state,
    }
    print(json.dumps(check, indent=1))
    (RUNS / args.run / "export_check.json").write_text(json.dumps(check, indent=1))
    write_sums(OUT_MODEL)


if __name__ == "__main__":
    main()
