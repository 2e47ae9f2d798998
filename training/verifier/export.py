"""Export a trained verifier run as the shipped CrossEncoder folder (fp16 safetensors), checked against fp32.

    python training/verifier/export.py [--run main] [--which best|last]
    python training/verifier/export.py --sums-only      # rewrite SHA256SUMS (after editing README.md)

Writes resources/models/verifier/ (the model card README.md there is kept) and SHA256SUMS.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "reranker"))
from common import VERIFIER_OUT_MODEL as OUT_MODEL  # noqa: E402
from common import VERIFIER_PREPARED as PREPARED  # noqa: E402
from common import VERIFIER_RUNS as RUNS  # noqa: E402
from common import export_cross_encoder, read_jsonl, write_sums  # noqa: E402

from citedesk_engine.models.claim_model import MAX_LENGTH, verifier_pair  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", default="main")
    ap.add_argument("--which", default="best", choices=["best", "last"])
    ap.add_argument("--sums-only", action="store_true")
    ap.add_argument("--check-rows", type=int, default=300)
    args = ap.parse_args()
    if args.sums_only:
        write_sums(OUT_MODEL)
        return
    from sentence_transformers import CrossEncoder

    torch.set_num_threads(2)
    src = RUNS / args.run / args.which
    state = export_cross_encoder(src, OUT_MODEL)

    # fp32 vs shipped fp16 on rows of our own validation split
    rows = read_jsonl(PREPARED / "val.jsonl")
    rows = rows[:: max(1, len(rows) // args.check_rows)][: args.check_rows]
    pairs = [verifier_pair(r["evidence"], r["claim"], r["question"]) for r in rows]
    ce32 = CrossEncoder(str(src), device="cpu", max_length=MAX_LENGTH, local_files_only=True)
    ce16 = CrossEncoder(str(OUT_MODEL), device="cpu", max_length=MAX_LENGTH, local_files_only=True)
    a = ce32.predict(pairs, batch_size=16, show_progress_bar=False, apply_softmax=True)
    b = ce16.predict(pairs, batch_size=16, show_progress_bar=False, apply_softmax=True)
    check = {
        "rows": len(rows),
        "max_abs_prob_diff": float(np.abs(a - b).max()),
        "same_label": int((a.argmax(1) == b.argmax(1)).sum()),
        "loaded_dtype": str(next(ce16.parameters()).dtype),
        "labels": ce16.model.config.id2label,
        "source": str(src),
        "train_state_step": state.get("step"),
    }
    print(json.dumps(check, indent=1))
    (RUNS / args.run / "export_check.json").write_text(json.dumps(check, indent=1))
    write_sums(OUT_MODEL)


if __name__ == "__main__":
    main()
