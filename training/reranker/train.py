"""Train the CiteDesk cross-encoder reranker from all-MiniLM-L6-v2 (plain PyTorch loop, CPU).

    python training/reranker/train.py --steps 700            # the shipped run
    python training/reranker/train.py --steps 10 --run probe  # throughput probe

Each step: Q questions x (1 gold + 7 BM25 hard negatives). Loss: listwise softmax cross-entropy over the
group of 8 + 0.5 x pointwise BCE (pos_weight 7), so sigmoid(score) also reads as a relevance probability.
bf16 autocast on CPU (AMX) for speed; master weights, optimizer and loss in fp32.
Checkpoints every --ckpt-every steps (resumable with --resume); a small validation subset of our own
split (never shared eval) is scored every --eval-every steps and the best one is kept in runs/<run>/best.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import MAX_LENGTH, PREPARED, RUNS, SEED, base_model_dir, first_per_source, optimizer_and_schedule, rank_metrics, read_jsonl, resume, seed_everything  # noqa: E402

# share of training questions drawn from each source (SQuAD-Shifts wiki is closest to our use)
MIX = {"ss_wiki": 0.34, "ss_amazon": 0.12, "ss_reddit": 0.12, "boolq": 0.20, "halueval": 0.16, "pubmedqa": 0.06}
GROUP = 8  # 1 positive + 7 negatives
MINIVAL_PER_SOURCE = 15


def load_passages() -> dict[str, list[str]]:
    out = {}
    for path in sorted(PREPARED.glob("passages_*.jsonl")):
        out[path.stem[len("passages_") :]] = [r["text"] for r in read_jsonl(path)]
    return out


def schedule(train_rows: list[dict], total: int) -> list[dict]:
    """A deterministic, source-weighted order of `total` training questions (sources cycle if exhausted)."""
    by_src: dict[str, list[dict]] = {}
    for r in train_rows:
        by_src.setdefault(r["source"], []).append(r)
    rng = random.Random(SEED)
    pools = {}
    for s in sorted(by_src):
        rows = sorted(by_src[s], key=lambda r: r["qid"])
        rng.shuffle(rows)
        pools[s] = rows
    names = sorted(pools)
    weights = [MIX[n] for n in names]
    pos = {n: 0 for n in names}
    out = []
    for _ in range(total):
        n = rng.choices(names, weights)[0]
        rows = pools[n]
        out.append(rows[pos[n] % len(rows)])
        pos[n] += 1
    return out


def make_group(row: dict, passages: dict[str, list[str]], key: str) -> list[str]:
    rng = random.Random(f"{SEED}:{key}")
    negs = row["negs"]
    hard, rest = negs[:8], negs[8:]
    picked = rng.sample(hard, min(3, len(hard)))
    pool = [n for n in rest if n not in picked] or [n for n in hard if n not in picked]
    picked += rng.sample(pool, min(GROUP - 1 - len(picked), len(pool)))
    texts = passages[row["source"]]
    return [texts[row["pos"]]] + [texts[i] for i in picked]


@torch.inference_mode()
def score_pairs(model, tok, query: str, texts: list[str], batch: int = 32, bf16: bool = True) -> list[float]:
    out = []
    for i in range(0, len(texts), batch):
        chunk = texts[i : i + batch]
        enc = tok([query] * len(chunk), chunk, truncation="longest_first", max_length=MAX_LENGTH, padding=True, return_tensors="pt")
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
            logits = model(**enc).logits.squeeze(-1)
        out += logits.float().tolist()
    return out


def evaluate_rows(model, tok, rows: list[dict], passages, bf16: bool = True) -> dict:
    model.eval()
    bm_ranks, rr_ranks = [], []
    for r in rows:
        cands = r["cands"]
        texts = [passages[r["source"]][i] for i in cands]
        s = score_pairs(model, tok, r["question"], texts, bf16=bf16)
        order = sorted(range(len(cands)), key=lambda j: (-s[j], j))
        bm_ranks.append(cands.index(r["gold"]) + 1)
        rr_ranks.append(order.index(cands.index(r["gold"])) + 1)
    model.train()
    return {"bm25": rank_metrics(bm_ranks), "rerank": rank_metrics(rr_ranks)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, required=True)
    ap.add_argument("--questions-per-step", type=int, default=8)
    ap.add_argument("--lr", type=float, default=5e-5)
    ap.add_argument("--head-lr", type=float, default=5e-4)
    ap.add_argument("--warmup", type=float, default=0.06)
    ap.add_argument("--weight-decay", type=float, default=0.01)
    ap.add_argument("--bce-weight", type=float, default=0.5)
    ap.add_argument("--eval-every", type=int, default=0, help="0: at 1/3, 2/3 and the end")
    ap.add_argument("--ckpt-every", type=int, default=50)
    ap.add_argument("--run", default="main")
    ap.add_argument("--resume", action="store_true")
    ap.add_argument("--threads", type=int, default=0, help="torch threads; 0 = adapt between 1 and 2")
    ap.add_argument("--micro-batch", type=int, default=16)
    ap.add_argument("--no-bf16", action="store_true")
    args = ap.parse_args()

    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    torch.set_num_threads(args.threads or 2)
    seed_everything(SEED)
    torch.use_deterministic_algorithms(True, warn_only=True)
    bf16 = not args.no_bf16
    run_dir = RUNS / args.run
    run_dir.mkdir(parents=True, exist_ok=True)

    passages = load_passages()
    train_rows = read_jsonl(PREPARED / "train.jsonl")
    val_rows = read_jsonl(PREPARED / "val.jsonl")
    mini = first_per_source(val_rows, MINIVAL_PER_SOURCE)
    Q = args.questions_per_step
    order = schedule(train_rows, args.steps * Q)

    base = base_model_dir()
    tok = AutoTokenizer.from_pretrained(base)
    model = AutoModelForSequenceClassification.from_pretrained(base, num_labels=1)
    model.train()
    opt, sched = optimizer_and_schedule(model, args)
    ckpt_path = run_dir / "ckpt.pt"
    start, best, history = resume(ckpt_path, model, opt, sched) if args.resume else (0, -1.0, [])
    eval_at = (
        set(range(args.eval_every, args.steps + 1, args.eval_every)) | {args.steps}
        if args.eval_every
        else {args.steps // 3, 2 * args.steps // 3, args.steps}
    )
    json.dump(vars(args) | {"mix": MIX, "group": GROUP, "max_length": MAX_LENGTH, "seed": SEED, "base": str(base)}, open(run_dir / "args.json", "w"), indent=1)

    bce = torch.nn.BCEWithLogitsLoss(pos_weight=torch.tensor(float(GROUP - 1)))
    labels = torch.zeros(Q, GROUP)
    labels[:, 0] = 1.0
    t0 = time.time()
    train_time = 0.0
    log = open(run_dir / "log.jsonl", "a")
    # Another process shares the 2 cores at times; then 1 torch thread beats 2 (no barrier stalls).
    # --threads 0 adapts: it measures tokens/s under each setting and explores the other every 10 steps.
    speed = {1: None, 2: None}
    for step in range(start, args.steps):
        if args.threads == 0:
            known = {k: v for k, v in speed.items() if v}
            if len(known) < 2:
                nt = 1 if speed[1] is None else 2
            elif step % 10 == 0:
                nt = min(known, key=known.get)  # explore the slower one now and then
            else:
                nt = max(known, key=known.get)
            torch.set_num_threads(nt)
        ts = time.time()
        rows = order[step * Q : (step + 1) * Q]
        queries, texts = [], []
        for k, r in enumerate(rows):
            g = make_group(r, passages, f"{step}:{k}:{r['qid']}")
            queries += [r["question"]] * GROUP
            texts += g
        # length-sorted micro-batches (less padding); the loss needs every group's logits, so keep graphs
        lens = [len(x) for x in tok(queries, texts, truncation="longest_first", max_length=MAX_LENGTH)["input_ids"]]
        idx = sorted(range(len(texts)), key=lambda j: (lens[j], j))
        parts = []
        for c in range(0, len(idx), args.micro_batch):
            sel = idx[c : c + args.micro_batch]
            enc = tok([queries[j] for j in sel], [texts[j] for j in sel], truncation="longest_first", max_length=MAX_LENGTH, padding=True, return_tensors="pt")
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
                parts.append(model(**enc).logits.squeeze(-1).float())
        flat = torch.cat(parts).index_select(0, torch.argsort(torch.tensor(idx)))
        logits = flat.view(Q, GROUP)
        ce = torch.nn.functional.cross_entropy(logits, torch.zeros(Q, dtype=torch.long))
        loss = ce + args.bce_weight * bce(logits, labels)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        opt.zero_grad(set_to_none=True)
        dt = time.time() - ts
        train_time += dt
        if args.threads == 0:
            nt = torch.get_num_threads()
            rate = sum(lens) / dt
            speed[nt] = rate if speed[nt] is None else 0.6 * speed[nt] + 0.4 * rate
        done = step + 1
        acc = (logits.argmax(1) == 0).float().mean().item()
        rec = {"step": done, "loss": round(loss.item(), 4), "ce": round(ce.item(), 4), "acc": acc, "tokens": sum(lens), "sec": round(dt, 2), "lr": sched.get_last_lr()[0], "threads": torch.get_num_threads()}
        log.write(json.dumps(rec) + "\n")
        if done % 10 == 0 or done <= 3:
            el = time.time() - t0
            print(f"step {done}/{args.steps} loss {loss.item():.4f} ce {ce.item():.4f} acc {acc:.2f} tok {rec['tokens']} {dt:.2f}s/step thr {torch.get_num_threads()} elapsed {el/60:.1f} min, eta {(args.steps-done)*el/max(1,done-start)/60:.1f} min", flush=True)
        if done in eval_at:
            te = time.time()
            m = evaluate_rows(model, tok, mini, passages, bf16=bf16)
            history.append({"step": done, "minival": m})
            print(f"[minival @ {done}] bm25 {m['bm25']['mrr']:.4f} rerank mrr {m['rerank']['mrr']:.4f} r@1 {m['rerank']['recall@1']:.4f} ({time.time()-te:.0f}s)", flush=True)
            if m["rerank"]["mrr"] > best:
                best = m["rerank"]["mrr"]
                model.save_pretrained(run_dir / "best")
                tok.save_pretrained(run_dir / "best")
                (run_dir / "best" / "train_state.json").write_text(json.dumps({"step": done, "minival": m}, indent=1))
        if done % args.ckpt_every == 0 or done == args.steps:
            torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict(), "step": done, "best": best, "history": history}, ckpt_path)
            model.save_pretrained(run_dir / "last")
            tok.save_pretrained(run_dir / "last")
    summary = {"steps": args.steps, "questions": args.steps * Q, "pairs": args.steps * Q * GROUP, "train_seconds_this_process": round(train_time, 1), "wall_seconds_this_process": round(time.time() - t0, 1), "history": history}
    (run_dir / "summary.json").write_text(json.dumps(summary, indent=1))
    print(json.dumps({k: v for k, v in summary.items() if k != "history"}), flush=True)


if __name__ == "__main__":
    main()
