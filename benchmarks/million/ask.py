#!/usr/bin/env python3
"""Asking a million-unit library: retrieval stage by stage, the whole retrieve with and without the
reranker, peak memory, and (with --answers) whole answers with the packaged generator.

    .venv/bin/python benchmarks/million/ask.py [--library DIR] [--rounds 3] [--answers 3] [--heads 6 8]

The library is benchmarks/million/build.py's unless given, opened with the default configuration
(approximate vector search once it holds `ann_min_units` units). The questions are twenty a user of
these manuals would ask (Python, Linux, PostgreSQL, Git, Django, pandas, SciPy, SQLAlchemy, Perl,
Node.js, Octave, R, Debian), written before any was run. Each round asks all twenty; the first round
warms caches and is left out. Times are the engine's own (`Engine.retrieve`); the question's embedding is
measured once on its own: the engine keeps a question's embedding, so the retrieve rows are without it
(as the issue's figures, taken with a model-free embedder). Peak memory is the process's high-water
mark while asking (/proc/self/clear_refs), with the embedder and the reranker loaded. `--heads` also
times the retrieve with the reranker reading other numbers of fused candidates (what that costs in
quality: benchmarks/fusion_study.py heldout --heads).
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from citedesk_engine import Engine

HERE = Path(__file__).resolve().parent
QUESTIONS = (
    "How do I create a virtual environment with the venv module?",
    "What does the PostgreSQL VACUUM command do?",
    "How do I undo the last git commit?",
    "What is the default value of shared_buffers in PostgreSQL?",
    "How does Django protect forms against cross site request forgery?",
    "What does the out of memory killer do in the Linux kernel?",
    "How do I read a CSV file into a pandas DataFrame?",
    "What does scipy.optimize.minimize return?",
    "How do I define a relationship between two tables in SQLAlchemy?",
    "What is the global interpreter lock?",
    "How does local differ from my in Perl?",
    "How do I rebase a branch onto another branch?",
    "What does Debian policy say about files in /usr/local?",
    "How does Node.js handle an uncaught exception?",
    "How do I solve a system of linear equations in Octave?",
    "What kind of model does R's lm function fit?",
    "What is the debian/changelog file used for?",
    "How do I write a systemd unit file for a service?",
    "What does the memory controller of cgroups limit?",
    "How do I set up a streaming replication standby server in PostgreSQL?",
)


def peak_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def reset_peak() -> None:
    Path("/proc/self/clear_refs").write_text("5")


def times_of(call: Callable[[str], object], rounds: int) -> list[float]:
    out = []
    for round_number in range(rounds):
        for question in QUESTIONS:
            started = time.perf_counter()
            call(question)
            if round_number:
                out.append((time.perf_counter() - started) * 1000)
    return out


def line(name: str, values: list[float]) -> str:
    return f"{name:<34} p50 {statistics.median(values):7.1f} ms   p95 {np.percentile(values, 95):7.1f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--library", type=Path, default=HERE.parent / "data" / "million" / "library")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--answers", type=int, default=0, help="also answer this many questions")
    parser.add_argument("--heads", nargs="+", type=int, default=[], help="also time these rerank heads")
    args = parser.parse_args()
    rounds = args.rounds + 1
    started = time.perf_counter()
    engine = Engine.open(args.library)
    opened = time.perf_counter() - started
    try:
        documents = engine.documents()
        units = sum(d.units for d in documents)
        store = engine.library.vectors
        print(
            f"{len(documents):,} documents, {units:,} units; opened in {opened:.2f} s; vector search "
            f"{'approximate (ANN index)' if store.approximate else 'exact (in-memory matrix)'}"
        )
        started = time.perf_counter()
        engine.retrieve(QUESTIONS[0], k=5)
        first = time.perf_counter() - started
        print(f"first retrieve (loads the embedder, the reranker and the indexes): {first:.1f} s")
        reset_peak()
        embedder = engine.embedder()
        embedded = times_of(lambda q: embedder.embed([q]), rounds)
        print(line("embed the question", embedded))
        vectors = {q: engine.embed_query(q) for q in QUESTIONS}  # kept by the engine from here on
        print(line("vector search (top 50)", times_of(lambda q: store.search(vectors[q], 50), rounds)))
        lexical = engine.library.lexical
        print(line("lexical search (top 50)", times_of(lambda q: lexical.search(q, 50), rounds)))
        plain = times_of(lambda q: engine.retrieve(q, k=5, rerank=False), rounds)
        print(line("retrieve without rerank", plain))
        reranked = times_of(lambda q: engine.retrieve(q, k=5), rounds)
        print(line(f"retrieve with the default rerank ({engine.config.retrieval.rerank_head})", reranked))
        configured = engine.config
        for head in args.heads:
            retrieval = dataclasses.replace(configured.retrieval, rerank_head=head)
            engine.config = dataclasses.replace(configured, retrieval=retrieval)
            print(
                line(
                    f"retrieve with a rerank head of {head}",
                    times_of(lambda q: engine.retrieve(q, k=5), rounds),
                )
            )
        engine.config = configured
        print(f"peak memory while retrieving: {peak_mb():,.0f} MB (resident now {rss_mb():,.0f} MB)")
        if args.answers:
            engine.load_generator()
            reset_peak()
            for question in QUESTIONS[: args.answers]:
                started = time.perf_counter()
                answer = engine.ask(question)
                total = time.perf_counter() - started
                stages = ", ".join(f"{s.stage} {s.ms:.0f}" for s in answer.trace)
                print(f"\nask {question!r}: {total:.1f} s, {answer.decision.value}\n  {answer.text[:160]!r}")
                print(f"  stages (ms): {stages}")
            print(f"peak memory while answering (generator loaded): {peak_mb():,.0f} MB")
    finally:
        engine.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
