"""`citedesk --self-test`: prove that this installation works, end to end, on this machine.

Loads each model slot, ingests the bundled sample documents into a temporary library, asks one
question that must be answered (with a citation) and one that must be refused (at a named stage),
prints every step with its stages and times, and exits 0 only when all of it worked. It runs the
same in a source checkout and in a frozen build (packaging/), and writes nothing outside a
temporary folder except the assembled generator model in the user cache.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from . import __version__
from .api import Engine
from .config import Config, cache_dir
from .errors import EngineError
from .models.registry import ModelRegistry
from .resources import samples_dir
from .types import Answer, Decision, FileStatus

ANSWERABLE = ("How many containers did the harbour handle in 2023?", "4.2 million")
UNANSWERABLE = "What does the report say about gamma-ray bursts?"


def run(out: Callable[[str], None] = print) -> bool:
    """Every check in order; a failing check is reported and the next ones still run where they can."""
    out(f"CiteDesk {__version__} self-test (Python {sys.version.split()[0]}, {sys.platform})")
    ok = _check_models(out)
    samples = samples_dir()
    if not samples.is_dir():
        out(f"FAIL samples: {samples} is missing")
        return False
    with tempfile.TemporaryDirectory(prefix="citedesk-selftest-") as folder:
        try:
            with Engine.open(Path(folder) / "library", Config()) as engine:
                ok = _check_ingest(engine, samples, out) and ok
                ok = _check_answer(engine, out) and ok
                ok = _check_refusal(engine, out) and ok
        except EngineError as exc:
            out(f"FAIL {type(exc).__name__}: {exc}")
            ok = False
    out("self-test passed" if ok else "self-test FAILED")
    return ok


def main() -> int:
    return 0 if run() else 1


def _check_models(out: Callable[[str], None]) -> bool:
    started = time.perf_counter()
    ok = True
    for info in ModelRegistry(Config().models, cache_dir()).describe(verify=True):
        mark = "ok  " if info.verified else "FAIL"
        ok = ok and info.verified
        out(f"{mark} model {info.slot}: {info.source}, {info.size_bytes / 1e6:,.0f} MB, {info.detail}")
        if info.path:
            out(f"       {info.path}")
    out(f"     models checked in {time.perf_counter() - started:.1f} s")
    return ok


def _check_ingest(engine: Engine, samples: Path, out: Callable[[str], None]) -> bool:
    started = time.perf_counter()
    report = engine.ingest([samples])
    for result in report.files:
        detail = f"{result.units} units" if result.status is FileStatus.INGESTED else result.reason
        out(f"     {result.status.value:<9} {Path(result.path).name}: {detail}")
    ok = bool(report.files) and report.count(FileStatus.INGESTED) == len(report.files)
    out(
        f"{'ok  ' if ok else 'FAIL'} ingest: {report.count(FileStatus.INGESTED)} of {len(report.files)} "
        f"sample documents, {report.units} units, {time.perf_counter() - started:.1f} s"
    )
    return ok


def _check_answer(engine: Engine, out: Callable[[str], None]) -> bool:
    question, expected = ANSWERABLE
    answer = _ask(engine, question, out)
    ok = answer.decision is not Decision.REFUSED and expected in answer.text and bool(answer.sources)
    if answer.refusal is not None:
        out(f"     refused at {answer.refusal.stage.value}: {answer.refusal.reason}")
    else:
        out(f"     answer: {answer.text}")
        for number, source in enumerate(answer.sources, 1):
            out(f"     [{number}] {Path(source.path).name}, page {source.page or '-'}")
    out(f"{'ok  ' if ok else 'FAIL'} answer: must contain {expected!r} with a citation")
    return ok


def _check_refusal(engine: Engine, out: Callable[[str], None]) -> bool:
    answer = _ask(engine, UNANSWERABLE, out)
    ok = answer.refusal is not None
    if answer.refusal is not None:
        out(f"     refused at {answer.refusal.stage.value}: {answer.refusal.reason}")
    else:
        out(f"     answered instead: {answer.text}")
    out(f"{'ok  ' if ok else 'FAIL'} refusal: an off-topic question must be refused")
    return ok


def _ask(engine: Engine, question: str, out: Callable[[str], None]) -> Answer:
    started = time.perf_counter()
    out(f"     asking: {question}")
    answer = engine.ask(question)
    for stage in answer.trace:
        flow = f"{stage.candidates_in:>3} -> {stage.candidates_out:<3}"
        out(f"       {stage.stage:<20} {flow} {stage.ms:8.1f} ms")
    out(f"     {answer.decision.value} in {time.perf_counter() - started:.1f} s")
    return answer
