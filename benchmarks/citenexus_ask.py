"""Time to answer a question: CiteNexus 0.13.1's ask() against CiteDesk's, side by side in one run.

Both sides answer with the same generator (CiteDesk's packaged default, Qwen2.5-Coder-1.5B-Instruct Q4_K_M
GGUF, or `--generator small`, the 0.5B one, through llama-cpp-python: temperature 0, the same context
size, answer-token limit and thread counts), embed with the same all-MiniLM-L6-v2, and read the same
squad-dev corpus and questions: the first 60 answerable questions of
../shared/eval/squad-dev/questions.jsonl ("gold" set) and the first 20 unanswerable ones ("gold": null,
where the right outcome is a refusal).

CiteNexus keeps its own defaults: its own prompt (OpenAICompatibleGenerator's, whose Transport seam is
answered in process by llama.cpp, so no socket is opened), its own gates, all six of its retrieval signals
(--citenexus-signals embedding text narrows them, as citenexus_side.py does) and top_k 5; only the chunk
sizes are ours (as in citenexus_side.py), so both libraries hold comparable numbers of units.
CiteDesk runs with its default Config (packaged reranker and claim verifier).

Each side ingests once (not timed), answers one warm-up question outside the set (the next answerable
one), then every question is timed on both sides in turn, the side that goes first alternating from
one question to the next, so machine noise hits both alike.

Setup (CiteNexus is a benchmark-only dependency, in its own environment; see citenexus_side.py):

    .venv/bin/python -m venv --system-site-packages benchmarks/.venv-citenexus
    echo "import site; site.addsitedir('$PWD/.venv/lib/python3.11/site-packages')" \
        > benchmarks/.venv-citenexus/lib/python3.11/site-packages/zz_citedesk_project_venv.pth
    benchmarks/.venv-citenexus/bin/pip install citenexus==0.13.1

Run by hand (not a test), from the repository root, on an otherwise idle machine:

    benchmarks/.venv-citenexus/bin/python benchmarks/citenexus_ask.py --out /tmp/citenexus_ask.jsonl
    # smoke test: --answerable 2 --unanswerable 1

Prints, per side: median and p95 seconds per ask, how many questions were answered, partly answered
and refused, how many answers to the answerable questions contain one of their reference answers
(`citedesk eval`'s own match: SQuAD normalisation, substring), how many unanswerable ones were refused;
then the ratio of medians (CiteDesk / CiteNexus), CiteNexus's mean generator calls per ask (it tries up to
five passages in turn) and the run's wall time. --out receives one JSON line per question with both
sides' seconds, decision, answer text, refusal reason and correctness.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from citedesk_engine import Config, Engine
from citedesk_engine.config import IngestConfig, ModelsConfig, batch_thread_count, cache_dir, thread_count
from citedesk_engine.evaluate.questions import answer_matches, percentiles
from citedesk_engine.models.registry import ModelRegistry
from citenexus import CiteNexus, OpenAICompatibleGenerator
from citenexus_side import MiniLMForCiteNexus

SQUAD_DEV = Path(__file__).resolve().parents[2] / "shared" / "eval" / "squad-dev"


class LlamaTransport:
    """CiteNexus's Transport seam, (url, JSON body, headers) -> response bytes, answered by llama.cpp in
    this process: CiteNexus's generator builds its own prompt and request, and reads the
    OpenAI-shaped completion llama-cpp-python returns."""

    def __init__(self, gguf: Path, models: ModelsConfig, context: int) -> None:
        # With OpenMP spin-waiting, llama.cpp collapses on 2 cores (DESIGN.md); set before the import.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        import llama_cpp

        # The thread counts CiteDesk's LocalLLM uses: decoding on cores - 1, the prompt on every core.
        self._model = llama_cpp.Llama(
            model_path=str(gguf),
            n_ctx=context,
            n_threads=thread_count(models),
            n_threads_batch=batch_thread_count(models),
            verbose=False,
        )
        self.calls = 0

    def __call__(self, url: str, body: bytes, headers: dict[str, str]) -> bytes:
        self.calls += 1
        request = json.loads(body)
        completion = self._model.create_chat_completion(
            messages=request["messages"],
            temperature=request["temperature"],
            max_tokens=request.get("max_tokens"),
            top_k=1,
            seed=0,
        )
        return json.dumps(completion).encode("utf-8")


class CiteNexusSide:
    name = "CiteNexus 0.13.1"

    def __init__(self, folder: Path, config: Config, signals: list[str] | None) -> None:
        gguf = ModelRegistry(config.models, cache_dir()).generator_path()
        self._llama = LlamaTransport(gguf, config.models, config.answer.context_tokens)
        generator = OpenAICompatibleGenerator(
            base_url="llama-cpp://in-process",  # never contacted: the transport answers
            model=gguf.name,
            temperature=0.0,
            max_tokens=config.answer.max_answer_tokens,
            transport=self._llama,
        )
        chunking = IngestConfig()
        self._rag = CiteNexus(
            folder,
            signals=signals,  # None: CiteNexus's default, every signal
            embedder=MiniLMForCiteNexus(),
            generator=generator,
            chunk_max_tokens=chunking.chunk_tokens,
            chunk_overlap=chunking.overlap_tokens,
        )

    def ingest(self, corpus: Path) -> str:
        files = sorted(corpus.glob("*.txt"))
        units = sum(self._rag.ingest(path, document_id=path.name).n_units for path in files)
        return f"{units} units from {len(files)} files"

    def ask(self, question: str) -> dict[str, Any]:
        calls = self._llama.calls
        result = self._rag.ask(question)
        return {
            "decision": result.evidence.decision.value,
            "text": result.answer,
            "reason": "; ".join(result.missing_evidence),
            "generator_calls": self._llama.calls - calls,  # up to 5 passages tried in turn
        }


class CiteDeskSide:
    name = "CiteDesk"

    def __init__(self, folder: Path, config: Config) -> None:
        self._engine = Engine.open(folder, config)

    def ingest(self, corpus: Path) -> str:
        report = self._engine.ingest([corpus])
        return f"{report.units} units from {len(report.files)} files"

    def ask(self, question: str) -> dict[str, Any]:
        answer = self._engine.ask(question)
        reason = f"{answer.refusal.stage.value}: {answer.refusal.reason}" if answer.refusal else ""
        return {"decision": answer.decision.value, "text": answer.text, "reason": reason}


def load_questions(path: Path, answerable: int, unanswerable: int) -> tuple[list[dict[str, Any]], str]:
    """The first `answerable` questions with a gold passage, the first `unanswerable` without one,
    and a warm-up question outside both (the next answerable one)."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    gold = [row for row in rows if row.get("gold") is not None]
    off_corpus = [row for row in rows if row.get("gold") is None]
    return gold[:answerable] + off_corpus[:unanswerable], gold[answerable]["question"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="JSONL file for the per-question rows")
    parser.add_argument("--answerable", type=int, default=60)
    parser.add_argument("--unanswerable", type=int, default=20)
    parser.add_argument("--squad-dev", type=Path, default=SQUAD_DEV)
    parser.add_argument("--generator", default="default", help="default | small | a .gguf path (both sides)")
    parser.add_argument(
        "--citenexus-signals", nargs="+", help="e.g. embedding text (default: CiteNexus's own, all six)"
    )
    args = parser.parse_args()

    started = time.perf_counter()
    questions_file, corpus = args.squad_dev / "questions.jsonl", args.squad_dev / "corpus"
    questions, warm_up = load_questions(questions_file, args.answerable, args.unanswerable)
    config = Config()
    config = dataclasses.replace(config, models=dataclasses.replace(config.models, generator=args.generator))
    with tempfile.TemporaryDirectory(prefix="citenexus-ask-") as tmp:
        sides = [
            CiteNexusSide(Path(tmp) / "citenexus", config, args.citenexus_signals),
            CiteDeskSide(Path(tmp) / "citedesk", config),
        ]
        for side in sides:
            ingest_started = time.perf_counter()
            summary = side.ingest(corpus)
            print(f"{side.name}: ingested {summary} in {time.perf_counter() - ingest_started:.0f} s")
            warm_started = time.perf_counter()
            side.ask(warm_up)
            print(f"{side.name}: warm-up ask {time.perf_counter() - warm_started:.1f} s")

        rows = []
        for index, item in enumerate(questions):
            row: dict[str, Any] = {
                "id": item["id"],
                "question": item["question"],
                "answerable": item.get("gold") is not None,
                "answers": item.get("answers") or [],
            }
            measured = {}
            for side in sides if index % 2 == 0 else sides[::-1]:
                ask_started = time.perf_counter()
                result = side.ask(item["question"])
                seconds = time.perf_counter() - ask_started
                answered = result["decision"] != "refused"
                correct = answered and answer_matches(result["text"], row["answers"])
                measured[side.name] = {"seconds": round(seconds, 3), **result, "correct": correct}
            row |= {side.name: measured[side.name] for side in sides}  # the same key order on every row
            rows.append(row)
            times = "  ".join(f"{side.name} {row[side.name]['seconds']:5.1f} s" for side in sides)
            print(f"[{index + 1}/{len(questions)}] {times}  {item['question'][:60]}", flush=True)

    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")

    n_answerable = sum(row["answerable"] for row in rows)
    n_off = len(rows) - n_answerable
    print()
    print(
        f"{'side':<18}{'median s':>9}{'p95 s':>8}{'answered':>10}{'partial':>9}{'refused':>9}"
        f"{f'correct/{n_answerable}':>12}{f'refused/{n_off} off-corpus':>22}"
    )
    medians = {}
    for side in sides:
        results = [row[side.name] for row in rows]
        spread = percentiles([r["seconds"] for r in results])
        medians[side.name] = spread["p50"]
        decisions = [r["decision"] for r in results]
        correct = sum(r["correct"] for r, row in zip(results, rows, strict=True) if row["answerable"])
        refused_off = sum(
            r["decision"] == "refused" for r, row in zip(results, rows, strict=True) if not row["answerable"]
        )
        print(
            f"{side.name:<18}{spread['p50']:>9.2f}{spread['p95']:>8.2f}{decisions.count('answered'):>10}"
            f"{decisions.count('partial'):>9}{decisions.count('refused'):>9}{correct:>12}{refused_off:>22}"
        )
    ratio = medians[CiteDeskSide.name] / medians[CiteNexusSide.name]
    print(f"\nratio of medians (CiteDesk / CiteNexus): {ratio:.2f}")
    calls = [row[CiteNexusSide.name]["generator_calls"] for row in rows]
    print(f"CiteNexus generator calls per ask: mean {statistics.mean(calls):.2f}, max {max(calls)}")
    print(f"wall time {time.perf_counter() - started:.0f} s; per-question rows in {args.out}")


if __name__ == "__main__":
    main()
