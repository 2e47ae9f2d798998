"""Evaluate the shipped reranker folder exactly as the app loads it (CrossEncoder, fp16 file -> fp32).

    python training/reranker/evaluate.py [--model resources/models/reranker] [--threads 2]
    python training/reranker/evaluate.py --runtime onnx-int8 --skip squad speed --out training/reranker/results-onnx-int8.json

`--runtime` sentence-transformers (the default: CrossEncoder in float32, no autocast) or one of the
app's own CrossEncoderScorer runtimes: torch (float32 under bfloat16 autocast where the CPU has it
natively, as the app runs it), onnx-int8 or onnx-fp32 (exported into a temporary cache folder).

1. our own validation split (prepared/val.jsonl): BM25 top-20 (+ gold appended when BM25 missed it),
   MRR / Recall@1 of BM25 order vs reranked order, per source and overall.
2. squad-dev (read-only evaluation, never used for training or tuning): BM25 top-50 over the
   paragraphs of the 12 corpus articles for the 400 questions with gold; hit = the paragraph equals or
   contains the gold passage (or is >= half of it and inside it). Recall@1/@5, MRR; BM25 alone vs BM25 + rerank.
3. speed: one question + 50 passages of ~200 word pieces, CrossEncoder.predict(batch_size=16),
   median of 5, torch threads 2 and 1.
Writes training/reranker/results.json.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import BM25, OUT_MODEL, PREPARED, SHARED_EVAL, TRAINING, fmt, rank_metrics, read_jsonl  # noqa: E402


class AppScorer:
    """The app's CrossEncoderScorer behind the two CrossEncoder calls used here."""

    def __init__(self, model: str, runtime: str, threads: int, cache: Path) -> None:
        from citedesk_engine.models.cross_encoder import CrossEncoderScorer
        from transformers import AutoTokenizer

        self.tokenizer = AutoTokenizer.from_pretrained(model, local_files_only=True)
        self.max_seq_length = 256
        self.scorer = CrossEncoderScorer(Path(model), threads=threads, runtime=runtime, cache_dir=cache)
        self.runtime = self.scorer.load()

    def predict(self, pairs, batch_size: int = 16, show_progress_bar: bool = False) -> np.ndarray:
        return np.asarray(self.scorer.score(pairs), dtype=np.float64)


def score_all(ce, pairs: list[tuple[str, str]], batch: int = 16) -> np.ndarray:
    """CrossEncoder.predict over many pairs, length-sorted to waste less padding (scores are unchanged)."""
    tok = ce.tokenizer
    lens = [len(x) for x in tok([q for q, _ in pairs], [p for _, p in pairs], truncation="longest_first", max_length=ce.max_seq_length)["input_ids"]]
    order = sorted(range(len(pairs)), key=lambda i: (lens[i], i))
    out = np.empty(len(pairs), dtype=np.float64)
    sc = ce.predict([pairs[i] for i in order], batch_size=batch, show_progress_bar=False)
    out[order] = np.asarray(sc, dtype=np.float64)
    return out


def first_rank(order: list[int], relevant: set[int]) -> int | None:
    for r, i in enumerate(order, 1):
        if i in relevant:
            return r
    return None


def eval_own_val(ce) -> dict:
    passages = {p.stem[len("passages_") :]: [r["text"] for r in read_jsonl(p)] for p in sorted(PREPARED.glob("passages_*.jsonl"))}
    rows = read_jsonl(PREPARED / "val.jsonl")
    pairs, spans = [], []
    for r in rows:
        start = len(pairs)
        pairs += [(r["question"], passages[r["source"]][i]) for i in r["cands"]]
        spans.append((start, len(pairs)))
    scores = score_all(ce, pairs)
    per: dict[str, dict[str, list]] = {}
    for r, (a, b) in zip(rows, spans):
        s = scores[a:b]
        idx = sorted(range(b - a), key=lambda j: (-s[j], j))
        g = r["cands"].index(r["gold"])
        d = per.setdefault(r["source"], {"bm25": [], "rerank": [], "added": 0})
        d["bm25"].append(g + 1 if r["gold_in_bm25_top20"] else None)  # BM25 missed it: no hit in its top 20
        d["rerank"].append(idx.index(g) + 1)
        d["added"] += int(not r["gold_in_bm25_top20"])
    out = {}
    allb, allr, added = [], [], 0
    for src in sorted(per):
        d = per[src]
        out[src] = {"bm25": rank_metrics(d["bm25"]), "rerank": rank_metrics(d["rerank"]), "gold_added": d["added"]}
        allb += d["bm25"]
        allr += d["rerank"]
        added += d["added"]
        print(f"  val {src:10s} BM25 {fmt(out[src]['bm25'])}\n  val {src:10s} +RR  {fmt(out[src]['rerank'])} (gold added {d['added']})")
    out["all"] = {"bm25": rank_metrics(allb), "rerank": rank_metrics(allr), "gold_added": added}
    print(f"  val ALL        BM25 {fmt(out['all']['bm25'])}\n  val ALL        +RR  {fmt(out['all']['rerank'])} (gold added {added})")
    return out


def _norm(t: str) -> str:
    return " ".join(t.split())


def squad_paragraphs() -> list[tuple[str, str]]:
    paras = []
    for path in sorted((SHARED_EVAL / "squad-dev" / "corpus").glob("*.txt")):
        for para in re.split(r"\n\s*\n", path.read_text(encoding="utf-8")):
            if para.strip():
                paras.append((path.name, para.strip()))
    return paras


def is_hit(para: str, gold: str) -> bool:
    a, b = _norm(para), _norm(gold)
    # a paragraph inside the gold counts only when it is most of it (each file starts with a title line,
    # which is contained in many gold passages and must not count as a hit)
    return a == b or b in a or (a in b and len(a) >= 0.5 * len(b))


def eval_squad_dev(ce, depth: int = 50) -> dict:
    paras = squad_paragraphs()
    bm25 = BM25([p for _, p in paras])
    qs = [q for q in read_jsonl(SHARED_EVAL / "squad-dev" / "questions.jsonl") if q.get("gold")]
    pairs, items = [], []
    for q in qs:
        top = [i for i, _ in bm25.top(q["question"], depth)]
        rel = {i for i in top if is_hit(paras[i][1], q["gold"]["passage"])}
        start = len(pairs)
        pairs += [(q["question"], paras[i][1]) for i in top]
        items.append((top, rel, start))
    scores = score_all(ce, pairs)
    bm_r, rr_r, in_head = [], [], 0
    for top, rel, start in items:
        s = scores[start : start + len(top)]
        order = [top[j] for j in sorted(range(len(top)), key=lambda j: (-s[j], j))]
        bm_r.append(first_rank(top, rel))
        rr_r.append(first_rank(order, rel))
        in_head += int(bool(rel))
    out = {
        "questions": len(qs),
        "paragraphs": len(paras),
        "depth": depth,
        "gold_in_bm25_head": in_head,
        "bm25": rank_metrics(bm_r, ks=(1, 5, 10)),
        "bm25+rerank": rank_metrics(rr_r, ks=(1, 5, 10)),
    }
    print(f"  squad-dev BM25        {fmt(out['bm25'])}\n  squad-dev BM25+rerank {fmt(out['bm25+rerank'])}  (gold in BM25 top-{depth}: {in_head}/{len(qs)})")
    return out


def speed(ce) -> dict:
    tok = ce.tokenizer
    paras = [p for _, p in squad_paragraphs()]
    # 50 passages of ~200 word pieces: take the paragraphs in corpus order, cut or join to 200 pieces
    words = " ".join(paras).split()
    passages, pos = [], 0
    while len(passages) < 50:
        chunk = words[pos : pos + 150]
        pos += 150
        ids = tok(" ".join(chunk), add_special_tokens=False)["input_ids"][:200]
        passages.append(tok.decode(ids))
    question = "Which dynasty did Kublai Khan found, and where was its capital?"
    pairs = [(question, p) for p in passages]
    plen = statistics.mean(len(tok(p, add_special_tokens=False)["input_ids"]) for p in passages)
    out = {"passages": 50, "mean_passage_word_pieces": round(plen, 1), "batch_size": 16, "loadavg_before": os.getloadavg()[0]}
    for threads in (2, 1):
        torch.set_num_threads(threads)
        ce.predict(pairs[:16], batch_size=16, show_progress_bar=False)  # warm-up
        ts = []
        for _ in range(5):
            t = time.perf_counter()
            ce.predict(pairs, batch_size=16, show_progress_bar=False)
            ts.append(time.perf_counter() - t)
        out[f"threads_{threads}_median_s"] = round(statistics.median(ts), 3)
        out[f"threads_{threads}_all_s"] = [round(x, 3) for x in ts]
        print(f"  speed: 50 passages, threads={threads}: median {statistics.median(ts):.3f} s ({[round(x, 2) for x in ts]})")
    out["loadavg_after"] = os.getloadavg()[0]
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default=str(OUT_MODEL))
    ap.add_argument("--threads", type=int, default=2, help="torch threads for the accuracy runs")
    ap.add_argument("--skip", nargs="*", default=[], choices=["val", "squad", "speed"])
    ap.add_argument("--out", default=str(TRAINING / "reranker" / "results.json"))
    ap.add_argument("--runtime", default="sentence-transformers", choices=["sentence-transformers", "torch", "onnx-int8", "onnx-fp32"])
    args = ap.parse_args()
    from sentence_transformers import CrossEncoder

    torch.set_num_threads(args.threads)
    if args.runtime == "sentence-transformers":
        ce = CrossEncoder(args.model, device="cpu", local_files_only=True)
        res = {"model": args.model, "loaded_dtype": str(next(ce.parameters()).dtype), "max_length": ce.max_seq_length}
    else:
        if "speed" not in args.skip:
            raise SystemExit("--runtime: time it with benchmarks/rerank_speed.py (add --skip speed)")
        cache = Path(tempfile.mkdtemp(prefix="citedesk-eval-"))
        ce = AppScorer(args.model, args.runtime, args.threads, cache)
        res = {"model": args.model, "runtime": ce.runtime, "max_length": ce.max_seq_length}
    out_path = Path(args.out)
    if out_path.exists():
        res = json.loads(out_path.read_text()) | res
    t = time.time()
    if "val" not in args.skip:
        print("own validation split (BM25 top-20 + gold if missing):")
        res["own_val"] = eval_own_val(ce)
        res["own_val_seconds"] = round(time.time() - t, 1)
        out_path.write_text(json.dumps(res, indent=1))
    t = time.time()
    if "squad" not in args.skip:
        print("squad-dev (evaluation only):")
        res["squad_dev"] = eval_squad_dev(ce)
        res["squad_dev_seconds"] = round(time.time() - t, 1)
        out_path.write_text(json.dumps(res, indent=1))
    if "speed" not in args.skip:
        res["speed"] = speed(ce)
    out_path.write_text(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
