"""How long the packaged reranker takes over a head of 10 and of 50 passages, run each way that
models/cross_encoder.py can run it; the one-off ONNX export; the memory each way takes. Run by hand:

    .venv/bin/python benchmarks/rerank_speed.py [--runs 30] [--heads 10 50] [--threads 1 2]

Ways: `torch` is the app's PyTorch path (float32, under bfloat16 autocast where the CPU computes
bfloat16 natively: AMX or AVX512-BF16, see the line printed first); `torch-fp32` the same without
autocast (what a CPU without native bfloat16 runs); `onnx-fp32` and `onnx-int8` the exported model on
onnxruntime. Passages: one question and 200-word-piece passages cut from the squad-dev corpus
(../shared/eval/squad-dev/corpus), as training/reranker/evaluate.py times them; synthetic text of the
same length where that folder is absent (the line printed says which). Every way scores the same
pairs in turn, run after run, so that a busy machine slows them alike: median and p90 of `--runs`
after three warm-up runs each. Memory: resident set growth of a fresh process loading the scorer
from a cached export and scoring one pair, after importing its libraries (the libraries' own growth
beside it). Export: a fresh process with an empty cache folder, export and load together.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "eval" / "squad-dev" / "corpus"
QUESTION = "Which dynasty did Kublai Khan found, and where was its capital?"
WAYS = ("torch", "torch-fp32", "onnx-fp32", "onnx-int8")
PIECES = 200


def folder() -> Path:
    from citedesk_engine.models.registry import packaged_reranker_folder

    return packaged_reranker_folder()


def passages(count: int) -> tuple[list[str], str]:
    """`count` passages of about 200 word pieces each, and where they came from."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(folder() / "tokenizer.json"))
    tokenizer.no_truncation()
    if CORPUS.is_dir():
        text = " ".join(p.read_text(encoding="utf-8") for p in sorted(CORPUS.glob("*.txt")))
        source = f"squad-dev corpus ({CORPUS})"
    else:
        rng = random.Random(7)
        vocabulary = re.findall(r"[a-z]{4,}", (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8"))
        text = " ".join(rng.choice(vocabulary) for _ in range(200 * count))
        source = "synthetic text (no squad-dev corpus here)"
    words, out, at = text.split(), [], 0
    while len(out) < count:
        ids = tokenizer.encode(" ".join(words[at : at + 170]), add_special_tokens=False).ids[:PIECES]
        out.append(tokenizer.decode(ids))
        at += 170
    return out, source


def scorer_for(way: str, threads: int, cache: Path) -> Callable[[Sequence[tuple[str, str]]], object]:
    from citedesk_engine.models.cross_encoder import TORCH, CrossEncoderScorer

    runtime = TORCH if way.startswith("torch") else way
    scorer = CrossEncoderScorer(folder(), threads=threads, runtime=runtime, cache_dir=cache)
    scorer.load()
    if way != "torch-fp32":
        return scorer.score
    import torch

    model = scorer._torch_model()

    def fp32(pairs: Sequence[tuple[str, str]]) -> object:
        torch.set_num_threads(threads)
        with torch.inference_mode():
            return model.predict(list(pairs), batch_size=16, show_progress_bar=False)

    return fp32


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def child(way: str, cache: Path) -> None:
    """In a fresh process: the libraries' and the model's memory, the load (and export) time."""
    before = rss_mb()
    if way.startswith("torch"):
        import sentence_transformers  # noqa: F401
        import torch  # noqa: F401
    else:
        import onnxruntime  # noqa: F401
        import tokenizers  # noqa: F401
    libraries = rss_mb()
    started = time.perf_counter()
    score = scorer_for(way, 2, cache)
    score([(QUESTION, "Kublai Khan founded the Yuan dynasty; its capital was Khanbaliq.")])
    loaded = time.perf_counter() - started
    print(
        json.dumps({"libraries_mb": libraries - before, "model_mb": rss_mb() - libraries, "load_s": loaded})
    )


def run_child(way: str, cache: Path) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, __file__, "--child", way, "--cache", str(cache)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--heads", type=int, nargs="+", default=[10, 50])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--ways", nargs="+", choices=WAYS, default=list(WAYS))
    parser.add_argument("--child", choices=WAYS, help=argparse.SUPPRESS)
    parser.add_argument("--cache", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.cache)
        return
    from citedesk_engine.models.cross_encoder import _native_bf16

    print(f"cores {os.cpu_count()}, load average {os.getloadavg()[0]:.2f}; native bfloat16: {_native_bf16()}")
    texts, source = passages(max(args.heads))
    print(f"passages: {source}, {PIECES} word pieces each; question: {QUESTION!r}")
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "cache"
        print("\nway          one-off export+load   load (cached)   libraries   model (RSS growth)")
        for way in args.ways:
            first = run_child(way, cache)  # the ONNX ways export here, into the empty cache
            again = run_child(way, cache)
            export = f"{first['load_s']:.1f} s" if way.startswith("onnx") else "-"
            print(
                f"{way:12s} {export:>20s} {again['load_s']:>13.1f} s {again['libraries_mb']:>8.0f} MB"
                f" {again['model_mb']:>12.0f} MB"
            )
        scorers = {(w, t): scorer_for(w, t, cache) for w in args.ways for t in args.threads}
        print(f"\n{'ms per head (median / p90)':28s}" + "".join(f"{f'{w} t{t}':>20s}" for w, t in scorers))
        for head in args.heads:
            pairs = [(QUESTION, p) for p in texts[:head]]
            times: dict[tuple[str, int], list[float]] = {key: [] for key in scorers}
            for score in scorers.values():
                for _ in range(3):
                    score(pairs)
            for _ in range(args.runs):
                for key, score in scorers.items():
                    started = time.perf_counter()
                    score(pairs)
                    times[key].append(1000 * (time.perf_counter() - started))
            cells = [f"{statistics.median(t):.0f} / {percentile(t, 0.9):.0f}" for t in times.values()]
            print(f"{f'head of {head}':28s}" + "".join(f"{c:>20s}" for c in cells))
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
