"""Train the answer reader: (question, passage) -> start and end of the answer span.

    python training/reader/train.py [--steps 1400] [--run main]

An extractive reader (BertForQuestionAnswering) whose encoder starts from our packaged reranker
(resources/models/reranker, itself all-MiniLM-L6-v2 trained on question/passage relevance), so it
already reads a question against a passage; the span head is new. Standard SQuAD recipe: windows of
MAX_LENGTH word pieces with a stride, the label a window's start and end tokens of the answer (the
first annotator's; the [CLS] token where the window does not hold it). Checkpoints and the best run
by validation exact match go to training/data/runs/reader/<run>/; resumable (--run picks it up).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "reranker"))
from citedesk_engine.models.reader import MAX_LENGTH, STRIDE, best_spans, features, padded  # noqa: E402
from common import DATA, OUT_MODEL, RUNS, SEED, read_jsonl, seed_everything  # noqa: E402

PREPARED = DATA / "reader"
READER_RUNS = RUNS / "reader"


def labelled(tokenizer, rows: list[dict]) -> list[dict]:
    """One training item per window: input ids and the answer's start/end tokens (0: not in it)."""
    items = []
    for row in rows:
        answer = row["answers"][0]
        a_start, a_end = answer["start"], answer["start"] + len(answer["text"])
        for f in features(tokenizer, row["question"], row["context"]):
            start = end = 0
            offs = f["offsets"]
            inside = [i for i, o in enumerate(offs) if o is not None]
            if inside and offs[inside[0]][0] <= a_start and offs[inside[-1]][1] >= a_end:
                start = next(i for i in inside if offs[i][1] > a_start)
                end = next(i for i in reversed(inside) if offs[i][0] < a_end)
            items.append({"ids": f["ids"], "types": f["types"], "start": start, "end": end})
    return items


def batches(items: list[dict], size: int, rng: random.Random):
    order = list(range(len(items)))
    while True:
        rng.shuffle(order)
        for i in range(0, len(order) - size + 1, size):
            yield [items[j] for j in order[i : i + size]]


def collate(batch: list[dict]) -> dict[str, torch.Tensor]:
    return padded(batch) | {
        "start_positions": torch.tensor([b["start"] for b in batch]),
        "end_positions": torch.tensor([b["end"] for b in batch]),
    }


def exact_match(model, tokenizer, rows: list[dict]) -> float:
    model.eval()
    hits = 0
    with torch.no_grad():
        for row in rows:
            found = best_spans(model, tokenizer, row["question"], row["context"], k=1)
            gold = {" ".join(a["text"].lower().split()) for a in row["answers"]}
            hits += bool(found) and " ".join(found[0].text.lower().split()) in gold
    model.train()
    return hits / max(1, len(rows))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", default="main")
    ap.add_argument("--steps", type=int, default=1400)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--lr", type=float, default=1e-4)
    ap.add_argument("--warmup", type=float, default=0.1)
    ap.add_argument("--eval-every", type=int, default=200)
    ap.add_argument("--eval-rows", type=int, default=300)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument(
        "--freeze",
        type=int,
        default=3,
        help="lower encoder layers kept as the reranker's (and the embeddings)",
    )
    args = ap.parse_args()
    from transformers import AutoModelForQuestionAnswering, AutoTokenizer

    torch.set_num_threads(args.threads)
    seed_everything(SEED)
    out = READER_RUNS / args.run
    out.mkdir(parents=True, exist_ok=True)
    tokenizer = AutoTokenizer.from_pretrained(str(OUT_MODEL))
    model = AutoModelForQuestionAnswering.from_pretrained(str(OUT_MODEL), dtype=torch.float32, num_labels=2)
    # On 2 cores a full step of 32 windows takes 10 s; the embeddings and lower layers are kept as
    # the reranker trained them (they already read a question against a passage), which halves it.
    frozen = [model.bert.embeddings] + list(model.bert.encoder.layer[: args.freeze])
    for module in frozen:
        for p in module.parameters():
            p.requires_grad = False
    train = labelled(tokenizer, read_jsonl(PREPARED / "train.jsonl"))
    val_rows = read_jsonl(PREPARED / "val.jsonl")
    random.Random(SEED).shuffle(val_rows)
    val_rows = val_rows[: args.eval_rows]
    print(f"{len(train)} training windows (MAX_LENGTH {MAX_LENGTH}, stride {STRIDE})", flush=True)
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=args.lr, weight_decay=0.01)
    warm = max(1, int(args.warmup * args.steps))
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min((s + 1) / warm, max(0.0, (args.steps - s) / max(1, args.steps - warm)))
    )
    step, best, history = 0, -1.0, []
    ckpt = out / "checkpoint.pt"
    if ckpt.exists():
        state = torch.load(ckpt, weights_only=False)
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["opt"])
        sched.load_state_dict(state["sched"])
        step, best, history = state["step"], state["best"], state["history"]
        print(f"resumed at step {step}", flush=True)
    rng = random.Random(SEED + step)
    model.train()
    started, losses = time.time(), []
    for batch in batches(train, args.batch, rng):
        if step >= args.steps:
            break
        loss = model(**collate(batch)).loss
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        opt.zero_grad()
        step += 1
        losses.append(loss.item())
        if step % 20 == 0:
            print(
                f"step {step} loss {np.mean(losses[-20:]):.3f}"
                f" {(time.time() - started) / len(losses):.2f} s/step",
                flush=True,
            )
        if step % args.eval_every == 0 or step == args.steps:
            em = exact_match(model, tokenizer, val_rows)
            history.append(
                {
                    "step": step,
                    "val_exact_match": round(em, 4),
                    "loss": round(float(np.mean(losses[-args.eval_every :])), 4),
                }
            )
            print(json.dumps(history[-1]), flush=True)
            if em > best:
                best = em
                model.save_pretrained(out / "best")
                tokenizer.save_pretrained(out / "best")
            torch.save(
                {
                    "model": model.state_dict(),
                    "opt": opt.state_dict(),
                    "sched": sched.state_dict(),
                    "step": step,
                    "best": best,
                    "history": history,
                },
                ckpt,
            )
            (out / "history.json").write_text(json.dumps(history, indent=1))


if __name__ == "__main__":
    main()
