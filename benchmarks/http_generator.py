"""The generator slot through an OpenAI-compatible server against the same model in process, side by side.

Starts llama-cpp-python's own server (`llama_cpp.server`) on 127.0.0.1 with the GGUF of the chosen
packaged generator, the engine's context and thread counts, and --logits_all false (the server's
default keeps every prompt token's logits: 2.5 GB at 4,096 tokens, and slower reading). Ingests two
realdocs PDFs into two libraries, one per generator, asks each of their questions in
benchmarks/realdocs/questions.jsonl of both, alternating which goes first, and prints the median and
p90 ask times, their ratio, and how many answers are the same word for word (temperature 0).

    .venv/bin/python benchmarks/http_generator.py [--generator small|default] [--questions 12]

Needs `python benchmarks/realdocs/fetch.py` first (the PDFs) and the test extra (llama_cpp.server).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from citedesk_engine import Config, Engine, ModelsConfig
from citedesk_engine.config import batch_thread_count, cache_dir, thread_count
from citedesk_engine.models.registry import ModelRegistry

HERE = Path(__file__).resolve().parent
DOCUMENTS = ("hutto2014-vader-icwsm.pdf", "eddelbuettel2018-rcpp-introduction.pdf")


def start_server(gguf: Path, models: ModelsConfig, context: int) -> tuple[subprocess.Popen, str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [
        sys.executable, "-m", "llama_cpp.server", "--model", str(gguf), "--model_alias", "bench",
        "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(context),
        "--n_threads", str(thread_count(models)), "--n_threads_batch", str(batch_thread_count(models)),
        "--logits_all", "false", "--verbose", "false",
    ]  # fmt: skip
    process = subprocess.Popen(command, env={**os.environ, "OMP_WAIT_POLICY": "PASSIVE"})
    url = f"http://127.0.0.1:{port}"
    for _ in range(360):
        try:
            with urllib.request.urlopen(url + "/v1/models", timeout=2):
                return process, url
        except OSError:
            time.sleep(0.5)
    process.kill()
    raise SystemExit("llama_cpp.server did not start")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--generator", default="small", choices=("small", "default"))
    parser.add_argument("--questions", type=int, default=12)
    args = parser.parse_args()
    folder = HERE / "data" / "realdocs"
    paths = [folder / name for name in DOCUMENTS]
    if not all(p.exists() for p in paths):
        raise SystemExit("Run `python benchmarks/realdocs/fetch.py` first.")
    rows = [json.loads(line) for line in (HERE / "realdocs" / "questions.jsonl").open(encoding="utf-8")]
    questions = [r["question"] for r in rows if r["document"] in DOCUMENTS][: args.questions]

    local_models = ModelsConfig(generator=args.generator)
    config = Config(models=local_models)
    gguf = ModelRegistry(local_models, cache_dir()).generator_path()
    process, url = start_server(gguf, local_models, config.answer.context_tokens)
    times: dict[str, list[float]] = {"in process": [], "server": []}
    same = 0
    try:
        with tempfile.TemporaryDirectory() as root:
            server_models = ModelsConfig(generator="http", generator_url=url, generator_model="bench")
            engines = {
                "in process": Engine.open(Path(root) / "a", config),
                "server": Engine.open(Path(root) / "b", Config(models=server_models)),
            }
            for engine in engines.values():
                engine.ingest(paths)
                engine.load_generator()
                engine.ask("What is this document about?")  # warm: models loaded, system prompt read
            for i, question in enumerate(questions):
                order = list(engines) if i % 2 == 0 else list(reversed(engines))
                texts = {}
                for name in order:
                    started = time.perf_counter()
                    answer = engines[name].ask(question)
                    times[name].append(time.perf_counter() - started)
                    texts[name] = answer.text
                same += texts["in process"] == texts["server"]
                local, served = times["in process"][-1], times["server"][-1]
                verdict = "same" if texts["in process"] == texts["server"] else "DIFFERENT"
                line = f"{i + 1:>2}  in process {local:6.2f} s  server {served:6.2f} s  {verdict}"
                print(f"{line}  {question[:50]}")
            for engine in engines.values():
                engine.close()
    finally:
        process.terminate()
        process.wait(10)
    print(f"\ngenerator {args.generator} ({gguf.name}), {len(questions)} questions, {os.cpu_count()} cores")
    for name, values in times.items():
        ordered = sorted(values)
        p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
        print(f"{name:<11} median {statistics.median(values):6.2f} s   p90 {p90:6.2f} s")
    ratio = statistics.median(times["server"]) / statistics.median(times["in process"])
    print(
        f"server / in process (medians): {ratio:.3f}; answers the same word for word: {same}/{len(questions)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
