"""UI stall benchmark: the longest event-loop stall of the real window's GUI thread, phase by phase.

Run from the repository root:

    .venv/bin/python benchmarks/ui_stall.py                  # samples (+ the Debian manual if cached)
    .venv/bin/python benchmarks/ui_stall.py --repeat 3       # three fresh libraries and windows
    .venv/bin/python benchmarks/ui_stall.py --pdf FILE.pdf   # ingest this PDF beside the samples
    .venv/bin/python benchmarks/ui_stall.py --no-pdf         # the samples only
    .venv/bin/python benchmarks/ui_stall.py --watch          # the files read as a watched folder's
    .venv/bin/python benchmarks/ui_stall.py --trace          # also name the code behind each long stall
    .venv/bin/python benchmarks/ui_stall.py --json           # one machine-readable line at the end
    .venv/bin/python benchmarks/ui_stall.py --library DIR    # start from a copy of this library

A library of 10,000 documents (the issue's figure) is built once with the CLI, e.g. 10,000 short
notes (`citedesk ingest NOTES --no-graph --library DIR`, about 12 minutes on 2 cores); the window
then opens a copy of it, so the entity graph's catch-up runs in the background as it would.

The real `MainWindow(EngineRunner(), library, QSettings(temporary ini))` runs on a fresh temporary
library (or a copy of --library) with the real engine and models, on the offscreen Qt platform unless
QT_QPA_PLATFORM is set.
A 5 ms precise QTimer on the GUI thread records the gap between consecutive ticks; a stall is a gap
minus the interval, the time the event loop could not run (a frozen window, keys and repaints waiting).
Everything is driven from timers and signals inside `app.exec()` (spinning processEvents from a
Python loop crashed PySide6 while the engine thread was busy). Each repeat records four phases:

  idle         2 s with no window and no engine work: the timer's own jitter on this machine;
  load_models  the window opens the library and loads the models ("open", "load_models", then the
               answer model in the background, "load_generator");
  ingest       `window.ingest(...)` of resources/samples/* and, when given or cached in
               benchmarks/data/, the Debian reference manual (benchmarks/ingest.py fetches it);
  ask          `window.ask(question, None, [])`: retrieval, the LLM, the answer tokens streaming into the
               chat pane, the verified answer rendered.

A phase ends 250 ms after the runner's `finished` signal, so the rendering of the result is counted.
Repeats share one process: from the second on, the engine's libraries (torch, transformers, lancedb)
are imported already, as when the app opens a second library, so only the first run shows the cost
of importing them in "load_models".
The goal (issue): the longest stall of every phase under 50 ms.

Where a stall comes from: on Linux the GUI thread's own CPU time and run-queue wait are read at every
tick (/proc/thread-self/schedstat), so the time of the stalls over 50 ms splits into "running" (the
GUI thread's own work: Qt or Python), "waiting for a CPU" (the machine is overloaded) and "blocked"
(asleep: waiting for the GIL, which another thread holds, or for a lock). Collections of Python's
cyclic garbage collector of 1 ms or more are counted per phase (gc.callbacks), with the share of the
stall time they cover: a collection holds the GIL, whichever thread runs it. Other processes compete for
the CPUs too: the CPU time they used meanwhile is measured (/proc/stat) and a run under other load is
flagged as disturbed. `--trace` also runs a watchdog thread that dumps every thread's Python stack when a
tick is 55 ms late (and every 55 ms after): it can only do so once it holds the GIL itself, so a stall
of the GIL held in one long call is sampled just after that call, its caller still on the stack. The
culprits are summarised at the end. Tracing adds a thread: take the figures without it.
The exit code is always 0: this is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import gc
import json
import logging
import os
import platform
import re
import shutil
import statistics
import sys
import tempfile
import threading
import time
import traceback
from collections import Counter, defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from citedesk_desktop import folder_watch
from citedesk_desktop.main_window import MainWindow
from citedesk_desktop.runner import EngineRunner, preload_native_libraries
from citedesk_engine import TokenDelta
from ingest import DATA_DIR, PDF_NAME, Clock  # same folder
from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtWidgets import QApplication

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "resources" / "samples"
INTERVAL_MS = 5
GOAL_MS = 50.0
IDLE_S = 2.0
SETTLE_MS = 300  # after the event loop starts or a window closes, before the next phase
TAIL_MS = 250  # a phase goes on this long after its `finished` signal: the result is rendered meanwhile
NOISY_LOAD = 0.10  # cores of other work beyond which a run is flagged as disturbed
PHASES = ("idle", "load_models", "ingest", "ask")
QUESTION = "When does the city museum open?"  # resources/samples/museum-visiting-hours.txt
PROJECT = ("engine/citedesk_engine/", "desktop/citedesk_desktop/")
SELF = "benchmarks/ui_stall.py"


@dataclass
class StallSplit:
    """Where the GUI thread's time went during the stalls over the goal (ms, summed)."""

    running_ms: float = 0.0  # on a CPU: its own work (Qt or Python)
    waiting_cpu_ms: float = 0.0  # runnable, on a run queue: the CPUs were busy with other threads
    blocked_ms: float = 0.0  # asleep: waiting for the GIL or a lock

    def add(self, running: float, waiting: float, total: float) -> None:
        self.running_ms += running
        self.waiting_cpu_ms += waiting
        self.blocked_ms += max(0.0, total - running - waiting)

    def describe(self) -> str:
        total = self.running_ms + self.waiting_cpu_ms + self.blocked_ms
        if total <= 0:
            return "n/a"
        return (
            f"running {self.running_ms / total:.0%}, waiting for a CPU {self.waiting_cpu_ms / total:.0%}, "
            f"blocked (GIL or a lock) {self.blocked_ms / total:.0%}"
        )


@dataclass
class PhaseResult:
    """The figures of one phase of one repeat."""

    name: str
    duration_s: float
    operation_s: float | None  # from the phase start to the runner's `finished` signal
    ticks: int
    max_stall_ms: float
    p99_gap_ms: float
    p95_gap_ms: float
    p50_gap_ms: float
    stalls_over_goal: int
    cpu_s: float  # CPU seconds of this process (all its threads)
    gui_cpu_s: float | None  # CPU seconds of the GUI thread
    gui_cpu_wait_s: float | None  # seconds the GUI thread was runnable but had no CPU
    stall_split: StallSplit  # the GUI thread's time during the stalls over the goal
    gc_pauses: int  # collections of the cyclic garbage collector of 1 ms or more (any thread)
    gc_longest_ms: float
    gc_in_stalls: float | None  # share of the stall time over the goal spent in those collections
    other_cpu_s: float | None  # CPU seconds of other processes
    other_load: float | None  # average cores busy with other processes
    note: str = ""

    @property
    def goal_met(self) -> bool:
        return self.max_stall_ms < GOAL_MS

    @property
    def disturbed(self) -> bool:
        return self.other_load is not None and self.other_load > NOISY_LOAD


@dataclass
class RunResult:
    phases: list[PhaseResult] = field(default_factory=list)
    window_build_ms: float = 0.0  # MainWindow(...) + show(), on the GUI thread, outside every phase
    other_cpu_s: float | None = None
    other_load: float | None = None
    wall_s: float = 0.0
    error: str = ""


# --------------------------------------------------------------------------------------------------
# Measuring


class ThreadTimes:
    """CPU time and run-queue wait (ms) of the thread that made this object; None off Linux."""

    def __init__(self) -> None:
        try:
            self._fd: int | None = os.open("/proc/thread-self/schedstat", os.O_RDONLY)
        except OSError:
            self._fd = None

    def read(self) -> tuple[float, float] | None:
        if self._fd is None:
            return None
        try:
            running, waiting, _ = os.pread(self._fd, 128, 0).split()
        except (OSError, ValueError):
            return None
        return int(running) / 1e6, int(waiting) / 1e6


class GcWatch:
    """Collections of the cyclic garbage collector: they hold the GIL, so every Python thread waits."""

    MIN_S = 0.001

    def __init__(self) -> None:
        self.gui = threading.get_ident()
        self.pauses: list[tuple[float, float, int, bool]] = []  # start, end, generation, on the GUI thread
        self._began = 0.0

    def start(self) -> None:
        gc.callbacks.append(self._callback)

    def stop(self) -> None:
        if self._callback in gc.callbacks:
            gc.callbacks.remove(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        now = time.perf_counter()
        if phase == "start":
            self._began = now
        elif now - self._began >= self.MIN_S:
            self.pauses.append((self._began, now, info["generation"], threading.get_ident() == self.gui))

    def within(self, start: float, end: float) -> list[tuple[float, float, int, bool]]:
        return [p for p in self.pauses if p[1] > start and p[0] < end]

    def overlap_ms(self, start: float, end: float) -> float:
        return sum(min(end, p[1]) - max(start, p[0]) for p in self.within(start, end)) * 1000


class StallTracer:
    """Stack dumps of every thread while a tick is late, in faulthandler's format, from a Python
    watchdog thread. It dumps when it next holds the GIL: for a stall of the GIL held in one call, just
    after the call returns, with the caller still on the stack. (faulthandler's C watchdog dumped during
    the call, but crashed the process once worker processes ran beside the window.)"""

    MARK = "@@stall"

    def __init__(self, path: Path, threshold_s: float) -> None:
        self.path = path
        self.threshold_s = threshold_s
        self._file = open(path, "w+b")  # noqa: SIM115 (kept open until stop())
        self._armed = time.perf_counter()
        self._dumped = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="stall tracer", daemon=True)
        self._thread.start()

    def arm(self) -> None:
        """(Re)start the countdown: a dump every `threshold_s` until the next tick re-arms it."""
        self._armed = time.perf_counter()

    def _watch(self) -> None:
        while not self._stop.wait(0.005):
            now = time.perf_counter()
            if now - self._armed > self.threshold_s and now - self._dumped > self.threshold_s:
                self._dumped = now
                self._dump(now - self._armed)

    def _dump(self, late_s: float) -> None:
        lines = [f"Timeout ({late_s:.6f})!"]
        for ident, frame in sys._current_frames().items():
            if ident == threading.get_ident():
                continue
            lines.append(f"Thread 0x{ident:016x} (most recent call first):")
            lines += [
                f'  File "{f.filename}", line {f.lineno} in {f.name}'
                for f in reversed(traceback.extract_stack(frame))
            ]
        os.write(self._file.fileno(), ("\n".join(lines) + "\n").encode())

    def mark(self, phase: str, stall_ms: float, running_ms: float, waiting_ms: float, end: float) -> None:
        """Close the dumps taken during the stall that just ended (written after them, same fd)."""
        line = f"{self.MARK} {phase} {stall_ms:.1f} {running_ms:.1f} {waiting_ms:.1f} {end:.6f}\n"
        os.write(self._file.fileno(), line.encode())

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()
        self._file.close()


class TickRecorder:
    """A precise timer on the GUI thread; while a phase records, the gap between ticks is kept."""

    def __init__(self, interval_ms: int, tracer: StallTracer | None) -> None:
        self.interval_ms = interval_ms
        self.tracer = tracer
        self.times = ThreadTimes()  # made on the GUI thread: its schedstat
        self.phase = "-"
        self.gaps_ms: list[float] | None = None
        self.split = StallSplit()
        self.windows: list[tuple[float, float]] = []  # (start, end) of the phase's stalls over the goal
        self.last = time.perf_counter()
        self.last_times = self.times.read()
        self.timer = QTimer()
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self._tick)

    def start(self) -> None:
        self._restart()
        self.timer.start()

    def begin(self, phase: str) -> None:
        """Start recording; the time since the last tick (the work before the phase) is left out."""
        self._close_gap()
        self.phase = phase
        self.gaps_ms = []
        self.split = StallSplit()
        self.windows = []
        self._restart()

    def end(self) -> tuple[list[float], StallSplit, list[tuple[float, float]]]:
        self._close_gap()
        gaps, self.gaps_ms, self.phase = self.gaps_ms or [], None, "-"
        self._restart()
        return gaps, self.split, self.windows

    def _close_gap(self) -> None:
        """Give the stack dumps of an unfinished gap to 'between phases' when it was long already."""
        now = time.perf_counter()
        stall_ms = (now - self.last) * 1000 - self.interval_ms
        if self.tracer is not None and stall_ms > GOAL_MS:
            running, waiting = self._split(self.times.read())
            self.tracer.mark("-", stall_ms, running, waiting, now)

    def _split(self, times: tuple[float, float] | None) -> tuple[float, float]:
        """The GUI thread's CPU time and run-queue wait (ms) since the last tick."""
        if times is None or self.last_times is None:
            return 0.0, 0.0
        return times[0] - self.last_times[0], times[1] - self.last_times[1]

    def _restart(self) -> None:
        self.last = time.perf_counter()
        self.last_times = self.times.read()
        if self.tracer is not None:
            self.tracer.arm()

    def _tick(self) -> None:
        now = time.perf_counter()
        if self.tracer is not None:  # first: the calls below release the GIL and may wait to get it back
            self.tracer.arm()
        times = self.times.read()
        gap_ms = (now - self.last) * 1000
        stall_ms = gap_ms - self.interval_ms
        if stall_ms > GOAL_MS:
            running, waiting = self._split(times)
            if self.gaps_ms is not None:
                self.split.add(running, waiting, gap_ms)
                self.windows.append((self.last, now))
            if self.tracer is not None:
                self.tracer.mark(self.phase, stall_ms, running, waiting, now)
        if self.gaps_ms is not None:
            self.gaps_ms.append(gap_ms)
        self.last, self.last_times = now, times


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


@dataclass
class PhaseStart:
    clock: Clock
    gui: tuple[float, float] | None


# --------------------------------------------------------------------------------------------------
# Driving the window


class Session:
    """Runs every repeat inside one `app.exec()`, step by step from timers and runner signals."""

    def __init__(
        self, app: QApplication, args: argparse.Namespace, paths: list[str], tracer: StallTracer | None
    ) -> None:
        self.app = app
        self.gc = GcWatch()
        self.args = args
        self.paths = paths
        self.recorder = TickRecorder(INTERVAL_MS, tracer)
        self.runs: list[RunResult] = []
        self.keep: list[Any] = []  # windows and runners of finished repeats: no destruction mid-loop
        self._tmp: tempfile.TemporaryDirectory[str] | None = None
        self._window: MainWindow | None = None
        self._runner: EngineRunner | None = None
        self._phase = ""
        self._start: PhaseStart | None = None
        self._operation_s: float | None = None
        self._run_clock: Clock | None = None
        self._tokens = 0
        self._first_token_s: float | None = None

    # --- sequence ----------------------------------------------------------------------------

    def start(self) -> None:
        self.gc.start()
        self.recorder.start()
        QTimer.singleShot(SETTLE_MS, self._next_repeat)
        QTimer.singleShot(int(self.args.timeout * 1000), self._on_timeout)

    def _next_repeat(self) -> None:
        if len(self.runs) >= self.args.repeat:
            self.app.quit()
            return
        self.runs.append(RunResult())
        print(f"run {len(self.runs)}/{self.args.repeat}", flush=True)
        self._run_clock = Clock.now()
        self._begin("idle")
        QTimer.singleShot(int(IDLE_S * 1000), lambda: self._end("idle", ""))

    def _begin(self, phase: str) -> None:
        self._phase = phase
        self._operation_s = None
        self._start = PhaseStart(Clock.now(), self.recorder.times.read())
        self.recorder.begin(phase)

    def _end(self, phase: str, note: str) -> None:
        if self._phase != phase or self._start is None:
            return
        gaps, split, windows = self.recorder.end()
        ended, gui = Clock.now(), self.recorder.times.read()
        started = self._start
        collections = self.gc.within(started.clock.wall, ended.wall)
        stall_ms = sum(end - begin for begin, end in windows) * 1000
        gc_ms = sum(self.gc.overlap_ms(begin, end) for begin, end in windows)
        stalls = [max(0.0, g - INTERVAL_MS) for g in gaps]
        other_load = started.clock.other_load(ended)
        wall = ended.wall - started.clock.wall
        result = PhaseResult(
            name=phase,
            duration_s=wall,
            operation_s=self._operation_s,
            ticks=len(gaps),
            max_stall_ms=max(stalls, default=0.0),
            p99_gap_ms=percentile(gaps, 0.99),
            p95_gap_ms=percentile(gaps, 0.95),
            p50_gap_ms=percentile(gaps, 0.50),
            stalls_over_goal=sum(1 for s in stalls if s > GOAL_MS),
            cpu_s=ended.cpu - started.clock.cpu,
            gui_cpu_s=None if gui is None or started.gui is None else (gui[0] - started.gui[0]) / 1000,
            gui_cpu_wait_s=None if gui is None or started.gui is None else (gui[1] - started.gui[1]) / 1000,
            stall_split=split,
            gc_pauses=len(collections),
            gc_longest_ms=max(((p[1] - p[0]) * 1000 for p in collections), default=0.0),
            gc_in_stalls=gc_ms / stall_ms if stall_ms else None,
            other_cpu_s=None if other_load is None else other_load * wall,
            other_load=other_load,
            note=note,
        )
        self.runs[-1].phases.append(result)
        self._phase = ""
        print(
            f"  {phase:<12} {result.duration_s:6.1f} s, longest stall {result.max_stall_ms:6.1f} ms",
            flush=True,
        )
        {"idle": self._open_window, "load_models": self._ingest, "ingest": self._ask, "ask": self._teardown}[
            phase
        ]()

    def _open_window(self) -> None:
        self._tmp = tempfile.TemporaryDirectory(prefix="citedesk-bench-ui-")
        tmp = Path(self._tmp.name)
        if self.args.library is not None:  # outside the phases: a copy, so every repeat starts the same
            shutil.copytree(self.args.library, tmp / "library", ignore=shutil.ignore_patterns("lock"))
        settings = QSettings(str(tmp / "settings.ini"), QSettings.Format.IniFormat)
        built = time.perf_counter()
        preload_native_libraries()  # as the app does under its splash screen, before the window
        self._runner = runner = EngineRunner()
        runner.finished.connect(self._on_finished)  # after the window's own slot: that one runs first
        runner.failed.connect(self._on_failed)
        runner.event.connect(self._on_event)
        self._window = MainWindow(runner, tmp / "library", settings)  # submits "open"
        self._window.show()
        self.runs[-1].window_build_ms = (time.perf_counter() - built) * 1000
        self._begin("load_models")  # the window submits "load_models" when "open" is finished

    def _ingest(self) -> None:
        assert self._window is not None and self._tmp is not None
        self._begin("ingest")
        if not self.args.watch:
            self._window.ingest(list(self.paths))
            return
        # The same files read as a watched folder's: copied in, the folder watched, read in the
        # background steps of folder_watch.py (the benchmark answers the cost question itself).
        folder = Path(self._tmp.name) / "watched"
        folder.mkdir()
        for path in self.paths:
            shutil.copy2(path, folder)
        folder_watch.ASK_ABOVE_FILES, folder_watch.ASK_ABOVE_SECONDS = 10**9, float("inf")
        self._window.watcher.watch(str(folder))

    def _ask(self) -> None:
        assert self._window is not None
        self._tokens, self._first_token_s = 0, None
        self._begin("ask")
        self._window.ask(self.args.question, None, [])

    def _teardown(self) -> None:
        run = self.runs[-1]
        if self._run_clock is not None:
            ended = Clock.now()
            run.wall_s = ended.wall - self._run_clock.wall
            run.other_load = self._run_clock.other_load(ended)
            run.other_cpu_s = None if run.other_load is None else run.other_load * run.wall_s
        self.close_window()
        QTimer.singleShot(SETTLE_MS, self._next_repeat)

    def close_window(self) -> None:
        if self._window is not None and self._runner is not None:
            self._window.close()
            self._runner.shutdown()  # blocks the GUI thread while the library closes: outside the phases
            self.keep.extend((self._window, self._runner))
            self._window = self._runner = None
        if self._tmp is not None:
            self._tmp.cleanup()
            self._tmp = None

    # --- runner signals ----------------------------------------------------------------------

    def _on_event(self, event: object) -> None:
        if isinstance(event, TokenDelta):
            self._tokens += 1
            if self._first_token_s is None and self._start is not None:
                self._first_token_s = time.perf_counter() - self._start.clock.wall

    def _on_finished(self, operation: str, result: object) -> None:
        # The window loads the answer model in the background after the others: "load_models" ends
        # when that is done too.
        ends = {"load_models": "load_generator"}.get(self._phase, self._phase)
        if self._phase == "ingest" and self.args.watch:
            ends = "watch_step"
            if operation == ends and result[0].waiting:  # more steps to come
                return
        if operation != ends or self._start is None:
            return
        self._operation_s = time.perf_counter() - self._start.clock.wall
        background = operation == "load_generator"  # the answer model, loaded after the others
        note = "the answer model loaded too" if background else self._describe(operation, result)
        operation = self._phase
        QTimer.singleShot(TAIL_MS, lambda: self._end(operation, note))

    def _on_failed(self, operation: str, message: str, _details: str) -> None:
        self.runs[-1].error = f"{operation} failed: {message}"
        print(f"  {operation} failed: {message}", file=sys.stderr, flush=True)
        self._abort()

    def _on_timeout(self) -> None:
        if self.runs and len(self.runs[-1].phases) < len(PHASES):
            self.runs[-1].error = f"timed out after {self.args.timeout:.0f} s in phase {self._phase or '-'}"
            print(f"  {self.runs[-1].error}", file=sys.stderr, flush=True)
        self._abort()

    def _abort(self) -> None:
        self.recorder.end()
        self._phase = ""
        self.close_window()
        self.app.quit()

    def _describe(self, operation: str, result: Any) -> str:
        if result is None:
            return "cancelled"
        if operation == "watch_step":
            return f"{len(self.paths)} files read as a watched folder's, in steps"
        if operation == "ingest":
            report = result[0]
            states = Counter(f.status.value for f in report.files)
            pages = sum(f.pages for f in report.files)
            counts = ", ".join(f"{n} {s}" for s, n in sorted(states.items()))
            return f"{len(report.files)} files ({counts}), {pages} pages, {report.units} units"
        if operation == "ask":
            first = "n/a" if self._first_token_s is None else f"{self._first_token_s:.1f} s"
            refusal = f" ({result.refusal.stage.value})" if result.refusal is not None else ""
            return (
                f"{result.decision.value}{refusal}, {self._tokens} token events streamed (first after "
                f"{first}), {len(result.claims)} claims"
            )
        if operation == "load_models":
            return "; ".join(f"{m.slot}: {m.detail}" for m in result if m.size_bytes)
        return ""


# --------------------------------------------------------------------------------------------------
# Stack samples of the stalls (--trace)

FRAME = re.compile(r'^\s+File "(?P<file>.*)", line (?P<line>\d+) in (?P<func>.*)$')
THREAD = re.compile(r"^(?:Current thread|Thread) (?P<id>0x[0-9a-f]+)")
RUNNER = "citedesk_desktop/runner.py"


@dataclass
class StallSample:
    stall: int  # which stall (index of its mark)
    phase: str
    stall_ms: float
    running_ms: float
    waiting_ms: float
    end: float  # perf_counter() of the tick that ended the stall
    gui: list[str]  # innermost first, "func (file:line)"
    engine: list[str]


def short(path: str) -> str:
    parts = Path(path).parts
    if "site-packages" in parts:
        return str(Path(*parts[len(parts) - parts[::-1].index("site-packages") :]))
    try:
        return str(Path(path).relative_to(ROOT))
    except ValueError:
        return path


def parse_dumps(text: str, gui_thread: int) -> tuple[list[StallSample], int, int]:
    """Stack samples, each with the stall it belongs to; the number of stalls, and of those unsampled."""
    dumps: list[dict[int, list[str]]] = []  # thread id -> frames, innermost first
    marks: list[tuple[int, list[str]]] = []  # (dumps before it, the mark's fields)
    thread = 0
    for line in text.splitlines():
        if line.startswith(StallTracer.MARK):
            marks.append((len(dumps), line.split()[1:]))
        elif line.startswith("Timeout ("):
            dumps.append({})
        elif (match := THREAD.match(line)) and dumps:
            thread = int(match["id"], 16)
            dumps[-1][thread] = []
        elif (match := FRAME.match(line)) and dumps and thread in dumps[-1]:
            dumps[-1][thread].append(f"{match['func']} ({short(match['file'])}:{match['line']})")
    # The engine thread runs the runner's worker slot; faulthandler cuts stacks deeper than 100 frames,
    # so it is known by the frames of any dump that shows its bottom.
    engine_threads = {
        t for d in dumps for t, f in d.items() if t != gui_thread and any(RUNNER in x for x in f)
    }
    samples: list[StallSample] = []
    unsampled = first = 0
    for number, (upto, (phase, stall, running, waiting, end)) in enumerate(marks):
        unsampled += upto == first
        for dump in dumps[first:upto]:
            engine = next((f for t, f in dump.items() if t in engine_threads), [])
            samples.append(
                StallSample(
                    number, phase, float(stall), float(running), float(waiting), float(end),
                    dump.get(gui_thread, []), engine,
                )
            )  # fmt: skip
        first = upto
    return samples, len(marks), unsampled


def is_project(frame: str) -> bool:
    return any(f"({p}" in frame for p in PROJECT)


def culprit(sample: StallSample) -> tuple[str, str, list[str]]:
    """(what the GUI thread did, the innermost project frame to blame, the stack shown as excerpt)."""
    own = next((i for i, f in enumerate(sample.gui) if SELF in f), len(sample.gui))
    if own > 0:  # Python code called from a slot, an event handler or a timer
        stack = sample.gui[:own]
        anchor = next((f for f in stack if is_project(f)), stack[0])
        return "GUI thread in Python code", anchor, stack
    # In app.exec() (Qt's C++ code, or waiting for the GIL to call a slot), or in the benchmark's own
    # tick (waiting to get the GIL back after a system call): the engine thread is the suspect.
    where = "outside Python (Qt C++, or waiting for the GIL)"
    if sample.gui and not sample.gui[0].startswith("main ("):
        where = f"in the benchmark's {sample.gui[0].split(' ')[0]} (or waiting there for the GIL)"
    stack = sample.engine
    anchor = next((f for f in stack if is_project(f)), stack[0] if stack else "(engine thread idle)")
    return f"GUI thread {where}; the engine thread at", anchor, stack


def print_culprits(
    samples: list[StallSample], stalls: int, unsampled: int, collections: GcWatch
) -> list[dict[str, Any]]:
    print(
        f"\nstalls over {GOAL_MS:.0f} ms by culprit: {stalls} stalls (also between phases), {len(samples)} "
        f"stack samples (one per {INTERVAL_MS + GOAL_MS:.0f} ms of stall), {unsampled} stalls without one"
    )
    groups: dict[tuple[str, str], list[tuple[StallSample, list[str]]]] = defaultdict(list)
    for sample in samples:
        kind, anchor, stack = culprit(sample)
        groups[(kind, anchor)].append((sample, stack))
    rows = []
    for (kind, anchor), members in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        unique = {s.stall: s for s, _ in members}
        split = StallSplit()
        gc_ms = total_ms = 0.0
        gc_where: Counter[str] = Counter()
        for s in unique.values():
            split.add(s.running_ms, s.waiting_ms, s.stall_ms + INTERVAL_MS)
            begin = s.end - (s.stall_ms + INTERVAL_MS) / 1000
            total_ms += s.stall_ms + INTERVAL_MS
            gc_ms += collections.overlap_ms(begin, s.end)
            for _, _, generation, on_gui in collections.within(begin, s.end):
                gc_where[f"gen {generation} on the {'GUI' if on_gui else 'engine/other'} thread"] += 1
        phases = Counter(s.phase for s in unique.values())
        worst = max(s.stall_ms for s in unique.values())
        leaves = Counter(stack[0] for _, stack in members if stack)
        where = ", ".join(f"{p} {n}" for p, n in phases.most_common())
        print(f"\n  {len(members)} samples in {len(unique)} stalls ({where}), longest {worst:.0f} ms")
        print(f"  {kind}: {anchor}")
        print(f"    GUI thread during these stalls: {split.describe()}")
        gc_text = ", ".join(f"{n} x {w}" for w, n in gc_where.most_common()) or "none"
        print(f"    garbage collection: {gc_ms / total_ms:.0%} of these stalls' time ({gc_text})")
        print("    innermost frames: " + "; ".join(f"{leaf} x{n}" for leaf, n in leaves.most_common(3)))
        example = max(members, key=lambda m: m[0].stall_ms)[1]
        cut = next((i for i, f in enumerate(example) if f == anchor), min(len(example), 6) - 1) + 1
        print("    stack excerpt (innermost first):")
        for frame in example[: max(cut, 3)][:10]:
            print(f"      {frame}")
        rows.append(
            {
                "kind": kind,
                "culprit": anchor,
                "samples": len(members),
                "stalls": len(unique),
                "phases": dict(phases),
                "longest_stall_ms": worst,
                "gui_split_ms": asdict(split),
                "gc_share": gc_ms / total_ms,
                "innermost": dict(leaves.most_common(3)),
                "stack": example[:10],
            }
        )
    return rows


# --------------------------------------------------------------------------------------------------
# Reporting


def fmt(value: float | None, spec: str) -> str:
    return "n/a" if value is None else format(value, spec)


def print_run(number: int, total: int, run: RunResult) -> None:
    print(
        f"\nrun {number}/{total}: wall {run.wall_s:.1f} s; the window was built and shown in "
        f"{run.window_build_ms:.0f} ms (GUI thread, in no phase)"
    )
    print(
        f"  {'phase':<12} {'seconds':>8} {'ticks':>6} {'longest':>9} {'p99 gap':>8} {'p95 gap':>8} "
        f"{'p50 gap':>8} {'>50 ms':>6} {'CPU here':>8} {'GUI thr':>7} {'no CPU':>6} {'other':>6}"
    )
    for p in run.phases:
        print(
            f"  {p.name:<12} {p.duration_s:8.2f} {p.ticks:6d} {p.max_stall_ms:6.1f} ms "
            f"{p.p99_gap_ms:5.1f} ms {p.p95_gap_ms:5.1f} ms {p.p50_gap_ms:5.1f} ms "
            f"{p.stalls_over_goal:6d} {p.cpu_s:6.1f} s {fmt(p.gui_cpu_s, '5.1f')} s "
            f"{fmt(p.gui_cpu_wait_s, '4.1f')} s "
            f"{fmt(p.other_load, '6.2f')}{'  DISTURBED' if p.disturbed else ''}"
        )
    print(
        "  (CPU here: this process; GUI thr: the GUI thread's CPU; no CPU: the GUI thread runnable without "
        "a CPU; other: cores used by other processes)"
    )
    for p in run.phases:
        took = f"; engine operation {p.operation_s:.2f} s" if p.operation_s is not None else ""
        print(f"  {p.name:<12} goal (< {GOAL_MS:.0f} ms): {'met' if p.goal_met else 'not met'}{took}")
        if p.note:
            print(f"  {'':<12} {p.note}")
        gc_share = "" if p.gc_in_stalls is None else f"; {p.gc_in_stalls:.0%} of the stall time over the goal"
        print(
            f"  {'':<12} garbage collections of 1 ms or more: {p.gc_pauses}, longest {p.gc_longest_ms:.0f} ms"
            + gc_share
        )
        if p.stalls_over_goal:
            print(
                f"  {'':<12} GUI thread during its stalls over {GOAL_MS:.0f} ms: {p.stall_split.describe()}"
            )
    print(
        f"  other processes: {fmt(run.other_cpu_s, '.1f')} CPU s during the run "
        f"({fmt(run.other_load, '.2f')} cores on average)"
        + ("  DISTURBED" if run.other_load is not None and run.other_load > NOISY_LOAD else "")
    )
    if run.error:
        print(f"  ERROR: {run.error}")


def summarise(runs: list[RunResult]) -> dict[str, Any]:
    """Per phase: the worst and the median longest stall over the repeats."""
    summary: dict[str, Any] = {}
    for name in PHASES:
        phases = [p for r in runs for p in r.phases if p.name == name]
        if phases:
            longest = [p.max_stall_ms for p in phases]
            summary[name] = {
                "runs": len(phases),
                "worst_max_stall_ms": max(longest),
                "median_max_stall_ms": float(statistics.median(longest)),
                "stalls_over_goal": sum(p.stalls_over_goal for p in phases),
                "goal_met": all(p.goal_met for p in phases),
                "disturbed_runs": sum(1 for p in phases if p.disturbed),
            }
    return summary


def environment() -> dict[str, Any]:
    import PySide6
    from PySide6.QtCore import qVersion

    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "pyside6": PySide6.__version__,
        "qt": qVersion(),
        "qpa": os.environ.get("QT_QPA_PLATFORM", ""),
        "switch_interval_ms": sys.getswitchinterval() * 1000,
    }


# --------------------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--pdf",
        type=Path,
        help=f"a PDF to ingest with the samples (default: {PDF_NAME} if in benchmarks/data/)",
    )
    parser.add_argument("--no-pdf", action="store_true", help="ingest the sample documents only")
    parser.add_argument(
        "--watch", action="store_true", help="read the files as a watched folder's (background steps)"
    )
    parser.add_argument(
        "--library", type=Path, help="start from a copy of this library (e.g. one of 10,000 documents)"
    )
    parser.add_argument("--question", default=QUESTION, help=f"the question asked (default: {QUESTION!r})")
    parser.add_argument("--repeat", type=int, default=1, help="a fresh library and window each time")
    parser.add_argument("--trace", action="store_true", help="stack samples of the stalls over the goal")
    parser.add_argument("--timeout", type=float, default=1800.0, help="give up after this many seconds")
    parser.add_argument("--json", action="store_true", help="end with one JSON line of every figure")
    parser.add_argument(
        "--switch-interval",
        type=float,
        metavar="MS",
        help="the interpreter's thread switch interval (sys.setswitchinterval; Python's default 5 ms)",
    )
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if args.pdf is not None and not args.pdf.is_file():
        parser.error(f"--pdf {args.pdf}: no such file")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.switch_interval is not None:
        sys.setswitchinterval(args.switch_interval / 1000)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    cached = DATA_DIR / PDF_NAME
    pdf = None if args.no_pdf else (args.pdf or (cached if cached.is_file() else None))
    paths = [str(p) for p in sorted(SAMPLES.iterdir()) if p.is_file()] + ([str(pdf.resolve())] if pdf else [])
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setQuitOnLastWindowClosed(False)  # a repeat closes its window before opening the next
    env = environment()
    print("env: " + ", ".join(f"{k} {v}" for k, v in env.items()))
    print("documents: " + ", ".join(Path(p).name for p in paths))
    print(f"question: {args.question}")
    print(
        f"timer {INTERVAL_MS} ms (precise); stall = gap - {INTERVAL_MS} ms; goal: longest < {GOAL_MS:.0f} ms"
    )

    tracer = None
    if args.trace:
        trace_path = Path(tempfile.gettempdir()) / f"citedesk-ui-stall-{os.getpid()}.txt"
        tracer = StallTracer(trace_path, (INTERVAL_MS + GOAL_MS) / 1000)
        print(f"tracing stalls over {GOAL_MS:.0f} ms into {trace_path} (adds overhead to every tick)")

    started = Clock.now()
    session = Session(app, args, paths, tracer)
    session.start()
    app.exec()
    session.recorder.timer.stop()
    session.gc.stop()
    session.close_window()  # after a timeout or a failure
    ended = Clock.now()

    for number, run in enumerate(session.runs, 1):
        print_run(number, len(session.runs), run)
    summary = summarise(session.runs)
    other_load = started.other_load(ended)
    other_cpu = None if other_load is None else other_load * (ended.wall - started.wall)
    disturbed = other_load is not None and other_load > NOISY_LOAD
    label = f"over {len(session.runs)} runs" if len(session.runs) > 1 else "result"
    print(f"\n{label} (longest stall per phase; goal < {GOAL_MS:.0f} ms):")
    for name, row in summary.items():
        median = f", median {row['median_max_stall_ms']:.1f} ms" if row["runs"] > 1 else ""
        print(
            f"  {name:<12} worst {row['worst_max_stall_ms']:7.1f} ms{median}, "
            f"{row['stalls_over_goal']} stalls > {GOAL_MS:.0f} ms   "
            f"goal (< {GOAL_MS:.0f} ms): {'met' if row['goal_met'] else 'not met'}"
        )
    print(
        f"  other processes used {fmt(other_cpu, '.1f')} CPU seconds in {ended.wall - started.wall:.0f} s "
        f"({fmt(other_load, '.2f')} cores on average, {os.cpu_count()} CPUs); this process "
        f"{ended.cpu - started.cpu:.1f} CPU s"
    )
    if disturbed:
        print(
            f"  WARNING: DISTURBED: other processes used more than {NOISY_LOAD} cores; they compete with the "
            "GUI and engine threads for the CPUs, so stalls may be longer than on an idle machine"
        )

    culprits = None
    if tracer is not None:
        tracer.stop()
        text = tracer.path.read_text(encoding="utf-8", errors="replace")
        samples, stalls, unsampled = parse_dumps(text, threading.main_thread().ident or 0)
        culprits = print_culprits(samples, stalls, unsampled, session.gc)
        print(f"\nfull dumps: {tracer.path}")

    if args.json:
        payload = {
            "documents": paths,
            "question": args.question,
            "environment": env,
            "runs": [
                {**asdict(r), "phases": [{**asdict(p), "goal_met": p.goal_met} for p in r.phases]}
                for r in session.runs
            ],
            "summary": summary,
            "other_cpu_s": other_cpu,
            "other_load": other_load,
            "disturbed": disturbed,
            "culprits": culprits,
        }
        print(json.dumps(payload, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
