"""Ingest benchmark: one real ~260-page PDF through the real engine, stage by stage.

Run from the repository root:

    .venv/bin/python benchmarks/ingest.py                  # downloads the PDF on first use
    .venv/bin/python benchmarks/ingest.py --repeat 3       # three fresh libraries, medians reported
    .venv/bin/python benchmarks/ingest.py --pdf FILE.pdf   # any other PDF
    .venv/bin/python benchmarks/ingest.py --json           # one machine-readable line at the end

The document is the Debian Reference manual (`debian-reference-en`, prose, tables, code listings).
Without `--pdf` it is taken from benchmarks/data/ (gitignored); when missing, it is fetched with
`apt-get download debian-reference-en` and unpacked with `dpkg-deb -x` (Debian or Ubuntu only).

Each repeat ingests the PDF into a fresh temporary library with `Engine.ingest`, the model loaded
and warmed up beforehand so that only ingest work is timed. It then encodes the very passages that
were committed (their `index_text`) with `SentenceTransformer.encode` directly, the ceiling the
embed stage can reach. Two goals are checked:

  * the time outside the embed stage is at most 15% of the ingest wall time;
  * embed-stage throughput is at least 90% of the raw model throughput.

Wall times on a small machine are easily disturbed by other processes (a test run, a build). The
embed stage and the raw encode are therefore also measured in CPU seconds of this process, with the
CPU other processes used meanwhile ("other load", in cores, from /proc/stat on Linux); a figure taken
under other load is flagged. Use --repeat 3 or more on a busy machine: medians are reported.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from citedesk_engine import Engine, FileStatus, StageStarted
from citedesk_engine.events import Event
from citedesk_engine.protocols import Embedder

PACKAGE = "debian-reference-en"
PDF_NAME = "debian-reference.en.pdf"
DATA_DIR = Path(__file__).resolve().parent / "data"
STAGES = ("read", "extract", "chunk", "embed", "index", "commit")
RAW_BATCH = 32
BATCH_THREADS = os.cpu_count() or 1  # the engine embedder's torch threads for passage batches
MAX_NON_EMBED_SHARE = 0.15
MIN_EMBED_RATIO = 0.90
NOISY_LOAD = 0.10  # cores of other work beyond which a timing is flagged as disturbed


@dataclass
class RunResult:
    """The figures of one repeat."""

    pages: int
    units: int
    wall_s: float
    stages_s: dict[str, float]
    other_s: float  # wall time no stage accounts for (vector compaction after the files, events)
    non_embed_share: float
    embed_units_per_s: float
    raw_units_per_s: float
    raw_s: float
    embed_ratio: float
    embed_cpu_s: float | None  # CPU seconds of this process in the embed stage
    raw_cpu_s: float
    embed_ratio_cpu: float | None  # the ratio on CPU time: insensitive to other processes' load
    embed_other_load: float | None  # average cores used by other processes during the embed stage
    raw_other_load: float | None
    rss_before_mb: float | None
    rss_peak_during_mb: float | None


# --------------------------------------------------------------------------------------------------
# The document


def fetch_pdf(target_dir: Path) -> Path:
    """The cached manual, or download the Debian package and unpack its PDF into `target_dir`."""
    cached = target_dir / PDF_NAME
    if cached.is_file():
        return cached
    if shutil.which("apt-get") is None or shutil.which("dpkg-deb") is None:
        sys.exit(
            f"apt-get and dpkg-deb are needed to fetch the benchmark PDF ({PACKAGE}), and this system "
            f"has no apt. Pass any PDF with --pdf PATH, or copy {PDF_NAME} into {target_dir}/."
        )
    print(f"fetching {PACKAGE} with apt-get download ...", flush=True)
    with tempfile.TemporaryDirectory(prefix="citedesk-bench-deb-") as tmp:
        work = Path(tmp)
        done = subprocess.run(
            ["apt-get", "download", PACKAGE], cwd=work, capture_output=True, text=True, check=False
        )
        debs = sorted(work.glob(f"{PACKAGE}_*.deb"))
        if done.returncode != 0 or not debs:
            sys.exit(
                f"`apt-get download {PACKAGE}` failed:\n{done.stderr.strip()}\n"
                "If the package is unknown, the package lists are empty: run `sudo apt-get update` once, "
                "or pass a PDF with --pdf PATH."
            )
        unpacked = work / "unpacked"
        subprocess.run(["dpkg-deb", "-x", str(debs[0]), str(unpacked)], check=True)
        found = sorted(unpacked.rglob(PDF_NAME)) or sorted(unpacked.rglob("*.pdf"))
        if not found:
            sys.exit(f"{debs[0].name} holds no PDF; pass one with --pdf PATH.")
        target_dir.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(found[0], cached)
    print(f"cached {cached}", flush=True)
    return cached


# --------------------------------------------------------------------------------------------------
# Measuring


@dataclass(frozen=True)
class Clock:
    """Wall time, this process's CPU time, and (Linux) CPU time used by the whole machine."""

    wall: float
    cpu: float
    machine: float | None

    @staticmethod
    def now() -> Clock:
        return Clock(time.perf_counter(), time.process_time(), machine_busy_s())

    def other_load(self, later: Clock) -> float | None:
        """Average number of cores busy with other processes between this reading and `later`."""
        if self.machine is None or later.machine is None or later.wall <= self.wall:
            return None
        foreign = (later.machine - self.machine) - (later.cpu - self.cpu)
        return max(0.0, foreign) / (later.wall - self.wall)


def machine_busy_s() -> float | None:
    """Busy CPU seconds of the whole machine since boot (all but idle and iowait), or None."""
    try:
        with open("/proc/stat", encoding="ascii") as handle:
            fields = [int(v) for v in handle.readline().split()[1:9]]
    except (OSError, ValueError):
        return None
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


class StageClock:
    """An `on_event` callback: a Clock reading at every stage start of the ingest."""

    def __init__(self) -> None:
        self.marks: list[tuple[str, Clock]] = []

    def __call__(self, event: Event) -> None:
        if isinstance(event, StageStarted):
            self.marks.append((event.stage, Clock.now()))

    def span(self, stage: str, end: Clock) -> tuple[Clock, Clock] | None:
        """From the start of `stage` to the start of the next stage (or `end`)."""
        for i, (name, clock) in enumerate(self.marks):
            if name == stage:
                following = self.marks[i + 1][1] if i + 1 < len(self.marks) else end
                return clock, following
        return None


def maxrss_mb() -> float:
    """Peak resident set size of this process so far (ru_maxrss is KiB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


class RssSampler:
    """Samples this process's RSS with psutil every `interval` seconds (ru_maxrss cannot be reset)."""

    def __init__(self, interval: float = 0.05) -> None:
        try:
            import psutil
        except ImportError:
            self._process: Any = None
        else:
            self._process = psutil.Process()
        self._interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self.before_mb: float | None = None
        self.peak_mb: float | None = None

    def _rss_mb(self) -> float:
        return float(self._process.memory_info().rss) / (1024 * 1024)

    def _sample(self) -> None:
        while not self._stop.wait(self._interval):
            self.peak_mb = max(self.peak_mb or 0.0, self._rss_mb())

    def __enter__(self) -> RssSampler:
        if self._process is not None:
            self.before_mb = self.peak_mb = self._rss_mb()
            self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        if self._process is not None:
            self._stop.set()
            self._thread.join()
            self.peak_mb = max(self.peak_mb or 0.0, self._rss_mb())


def sentence_transformer(embedder: Embedder) -> Any:
    """The SentenceTransformer inside the engine's embedder (the very object the pipeline uses)."""
    load = getattr(embedder, "_load", None)
    if load is None:
        raise SystemExit(f"{type(embedder).__name__} is not the sentence-transformers embedder")
    return load()


def raw_encode(model: Any, texts: list[str]) -> tuple[Clock, Clock]:
    """Encode `texts` with the bare model, on as many torch threads as the engine uses for batches.

    The engine's embedder switches torch to one thread for calls of a few texts (queries) and back to
    every core for passage batches; the thread count is global, so it is set here explicitly.
    """
    import torch

    previous = torch.get_num_threads()
    torch.set_num_threads(BATCH_THREADS)
    try:
        started = Clock.now()
        model.encode(
            texts,
            batch_size=RAW_BATCH,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return started, Clock.now()
    finally:
        torch.set_num_threads(previous)


def run_once(pdf: Path, embedder: Embedder) -> RunResult:
    """Ingest `pdf` into a fresh library, then encode its committed passages with the bare model."""
    stages = StageClock()
    with tempfile.TemporaryDirectory(prefix="citedesk-bench-lib-") as tmp:
        engine = Engine.open(Path(tmp) / "library", embedder=embedder)
        try:
            engine.embedder()  # records the embedder in the new library: not ingest work
            with RssSampler() as rss:
                started = time.perf_counter()
                report = engine.ingest([pdf], on_event=stages)
                finished = Clock.now()
            wall = finished.wall - started
            result = report.files[0]
            if result.status is not FileStatus.INGESTED:
                raise SystemExit(f"ingest of {pdf} did not succeed: {result.status}: {result.reason}")
            texts = [u.index_text for u in engine.units(result.document)]
        finally:
            engine.close()
    if len(texts) != result.units:
        raise SystemExit(f"the library returned {len(texts)} units, the report says {result.units}")

    raw_start, raw_end = raw_encode(sentence_transformer(embedder), texts)
    raw_s, raw_cpu_s = raw_end.wall - raw_start.wall, raw_end.cpu - raw_start.cpu
    times = report.times.as_dict()
    embed_s = times["embed"]
    embed_ups = result.units / embed_s
    raw_ups = result.units / raw_s
    embed_span = stages.span("embed", finished)
    embed_cpu_s = embed_span[1].cpu - embed_span[0].cpu if embed_span else None
    return RunResult(
        pages=result.pages,
        units=result.units,
        wall_s=wall,
        stages_s=times,
        other_s=max(0.0, wall - sum(times.values())),
        non_embed_share=(wall - embed_s) / wall,
        embed_units_per_s=embed_ups,
        raw_units_per_s=raw_ups,
        raw_s=raw_s,
        embed_ratio=embed_ups / raw_ups,
        embed_cpu_s=embed_cpu_s,
        raw_cpu_s=raw_cpu_s,
        embed_ratio_cpu=raw_cpu_s / embed_cpu_s if embed_cpu_s else None,
        embed_other_load=embed_span[0].other_load(embed_span[1]) if embed_span else None,
        raw_other_load=raw_start.other_load(raw_end),
        rss_before_mb=rss.before_mb,
        rss_peak_during_mb=rss.peak_mb,
    )


# --------------------------------------------------------------------------------------------------
# Reporting


def rate(count: int, seconds: float) -> str:
    return f"{count / seconds:10.1f}" if seconds > 0 else f"{'-':>10}"


def fmt(value: float | None, spec: str) -> str:
    return "n/a" if value is None else format(value, spec)


def disturbed(run: RunResult) -> bool:
    loads = (run.embed_other_load, run.raw_other_load)
    return any(load is not None and load > NOISY_LOAD for load in loads)


def print_run(number: int, total: int, run: RunResult) -> None:
    print(f"\nrun {number}/{total}: {run.pages} pages, {run.units} units, wall {run.wall_s:.2f} s")
    print(f"  {'stage':<8} {'seconds':>8} {'share':>7} {'pages/s':>10} {'units/s':>10}")
    rows = [*run.stages_s.items(), ("other", run.other_s), ("total", run.wall_s)]
    for name, seconds in rows:
        pages, units = rate(run.pages, seconds), rate(run.units, seconds)
        print(f"  {name:<8} {seconds:8.3f} {seconds / run.wall_s:7.1%} {pages} {units}")
    print(f"  raw encode of the same {run.units} passages ({BATCH_THREADS} torch threads): ", end="")
    print(f"{run.raw_s:.2f} s, ", end="")
    print(f"{run.raw_units_per_s:.1f} units/s")
    print(f"  CPU seconds: embed stage {fmt(run.embed_cpu_s, '.2f')}, raw encode {run.raw_cpu_s:.2f}")
    print(
        f"  other load (cores busy with other processes): embed stage {fmt(run.embed_other_load, '.2f')}, "
        f"raw encode {fmt(run.raw_other_load, '.2f')}{'  DISTURBED' if disturbed(run) else ''}"
    )
    if run.rss_before_mb is not None and run.rss_peak_during_mb is not None:
        grown = run.rss_peak_during_mb - run.rss_before_mb
        print(
            f"  RSS (psutil): {run.rss_before_mb:.0f} MB before ingest, "
            f"peak {run.rss_peak_during_mb:.0f} MB during (+{grown:.0f} MB)"
        )


def summarise(runs: list[RunResult]) -> dict[str, Any]:
    """Medians over the undisturbed runs, or over all runs when every one was disturbed."""
    clean = [r for r in runs if not disturbed(r)]
    chosen = clean or runs

    def median(values: list[float]) -> float:
        return float(statistics.median(values))

    cpu_ratios = [r.embed_ratio_cpu for r in chosen if r.embed_ratio_cpu is not None]
    return {
        "runs": len(runs),
        "undisturbed_runs": len(clean),
        "summarised_runs": len(chosen),
        "wall_s": median([r.wall_s for r in chosen]),
        "stages_s": {s: median([r.stages_s[s] for r in chosen]) for s in STAGES},
        "other_s": median([r.other_s for r in chosen]),
        "non_embed_share": median([r.non_embed_share for r in chosen]),
        "embed_units_per_s": median([r.embed_units_per_s for r in chosen]),
        "raw_units_per_s": median([r.raw_units_per_s for r in chosen]),
        "embed_ratio": median([r.embed_ratio for r in chosen]),
        "embed_ratio_cpu": median(cpu_ratios) if cpu_ratios else None,
    }


def environment() -> dict[str, Any]:
    import sentence_transformers
    import torch

    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "torch": torch.__version__,
        "torch_threads": torch.get_num_threads(),
        "sentence_transformers": sentence_transformers.__version__,
    }


# --------------------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pdf", type=Path, help=f"the PDF to ingest (default: {PDF_NAME}, fetched once)")
    parser.add_argument("--repeat", type=int, default=1, help="fresh-library runs; medians if > 1")
    parser.add_argument("--json", action="store_true", help="end with one JSON line of every figure")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if args.pdf is not None and not args.pdf.is_file():
        parser.error(f"--pdf {args.pdf}: no such file")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    pdf = args.pdf.resolve() if args.pdf else fetch_pdf(DATA_DIR)
    env = environment()
    print(f"pdf: {pdf} ({pdf.stat().st_size / 1e6:.2f} MB)")
    print("env: " + ", ".join(f"{k} {v}" for k, v in env.items()))

    # Load the model once, outside every timing, and warm it up (first forward passes are slower).
    with tempfile.TemporaryDirectory(prefix="citedesk-bench-load-") as tmp, Engine.open(tmp) as engine:
        started = time.perf_counter()
        embedder = engine.embedder()
        sentence_transformer(embedder).encode(
            [f"warm-up passage number {i} for the embedder" for i in range(2 * RAW_BATCH)],
            batch_size=RAW_BATCH,
            show_progress_bar=False,
        )
        print(f"model load + warm-up: {time.perf_counter() - started:.2f} s (not counted)")

    runs: list[RunResult] = []
    for number in range(1, args.repeat + 1):
        runs.append(run_once(pdf, embedder))
        print_run(number, args.repeat, runs[-1])

    summary = summarise(runs)
    peak = maxrss_mb()
    kind = "undisturbed " if summary["undisturbed_runs"] else ""
    label = f"median of {summary['summarised_runs']} {kind}runs" if len(runs) > 1 else "result"
    share_ok = summary["non_embed_share"] <= MAX_NON_EMBED_SHARE
    ratio_ok = summary["embed_ratio"] >= MIN_EMBED_RATIO
    wall, pages_per_s = summary["wall_s"], runs[0].pages / summary["wall_s"]
    embed_ups, raw_ups = summary["embed_units_per_s"], summary["raw_units_per_s"]
    print(f"\n{label}:")
    print(f"  ingest wall            {wall:.2f} s ({pages_per_s:.2f} pages/s)")
    print(
        f"  non-embedding share    {summary['non_embed_share']:.1%}  "
        f"(goal <= {MAX_NON_EMBED_SHARE:.0%}: {'MET' if share_ok else 'MISSED'})"
    )
    print(
        f"  embed stage / raw      {embed_ups:.1f} / {raw_ups:.1f} units/s = {summary['embed_ratio']:.3f}  "
        f"(goal >= {MIN_EMBED_RATIO:.2f}: {'MET' if ratio_ok else 'MISSED'})"
    )
    print(f"  same ratio on CPU time {fmt(summary['embed_ratio_cpu'], '.3f')}")
    if summary["undisturbed_runs"] < len(runs):
        disturbed_runs = len(runs) - summary["undisturbed_runs"]
        print(
            f"  WARNING: {disturbed_runs} of {len(runs)} runs ran while other processes used more than "
            f"{NOISY_LOAD} cores; "
            + (
                "they are left out of the medians"
                if summary["undisturbed_runs"]
                else "wall figures are unreliable: rerun on an idle machine or with a larger --repeat"
            )
        )
    print(f"  peak RSS (ru_maxrss)   {peak:.0f} MB (whole process, model included)")

    if args.json:
        payload = {
            "pdf": str(pdf),
            "environment": env,
            "runs": [asdict(r) for r in runs],
            "summary": summary,
            "peak_rss_mb": peak,
            "goals": {"non_embed_share_met": share_ok, "embed_ratio_met": ratio_ok},
        }
        print(json.dumps(payload, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
