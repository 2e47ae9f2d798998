#!/usr/bin/env python3
"""The real window on a big library: how long it takes to open, and the longest stall of its GUI thread
while the library list is opened, scrolled end to end, filtered and a document selected.

    .venv/bin/python benchmarks/million/window.py [--library DIR]

The library is benchmarks/million/build.py's (about 10,000 documents, a million units) unless given.
"Open" runs from this process's start (imports included, as a launch) until the library list shows
every document; the app then goes on loading its models in the background, as it does for a user.
A 5 ms precise timer on the GUI thread records the gaps between its ticks; a stall is a gap minus the
interval. Phases: "opening" (from the event loop's start until the list is full), "models" (until the
status bar says the models are ready: the list is left alone, the stalls are the loading's, which
benchmarks/ui_stall.py dissects), "scrolling" (the
list scrolled a page every 16 ms from top to bottom, then back up a row at a time for 300 rows),
"filtering" (a filter typed a key every 80 ms, then cleared) and "selecting" (a document clicked: its
text and outline are fetched and shown). Runs offscreen unless QT_QPA_PLATFORM is set. The goals
(issue 27): open in under 5 s, no stall over 50 ms while scrolling.
"""

from __future__ import annotations

import time

STARTED = time.perf_counter()  # before the imports: a launch pays for them

import argparse  # noqa: E402
import os  # noqa: E402
import sqlite3  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
from pathlib import Path  # noqa: E402

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from citedesk_desktop.main_window import MainWindow  # noqa: E402
from citedesk_desktop.runner import EngineRunner  # noqa: E402
from PySide6.QtCore import QSettings, Qt, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

HERE = Path(__file__).resolve().parent
INTERVAL_MS = 5
FILTER_TEXT = "linux c00"


class Ticks:
    """Gaps between ticks of a precise timer on the GUI thread, per phase."""

    def __init__(self) -> None:
        self.phase = ""
        self.gaps: dict[str, list[float]] = {}
        self.last = time.perf_counter()
        self.timer = QTimer()
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(INTERVAL_MS)
        self.timer.timeout.connect(self._tick)
        self.timer.start()

    def begin(self, phase: str) -> None:
        self.phase = phase
        self.gaps.setdefault(phase, [])
        self.last = time.perf_counter()

    def _tick(self) -> None:
        now = time.perf_counter()
        if self.phase:
            self.gaps[self.phase].append((now - self.last) * 1000 - INTERVAL_MS)
        self.last = now


def main() -> int:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--library", type=Path, default=HERE.parent / "data" / "million" / "library")
    args = parser.parse_args()
    with sqlite3.connect(args.library / "library.sqlite") as db:
        expected, units = db.execute("SELECT count(*), sum(units) FROM documents").fetchone()
    app = QApplication(sys.argv[:1])
    settings_file = Path(tempfile.mkdtemp()) / "settings.ini"
    runner = EngineRunner()
    window = MainWindow(runner, args.library, QSettings(str(settings_file), QSettings.Format.IniFormat))
    window.resize(1280, 720)
    window.show()
    ticks = Ticks()
    ticks.begin("opening")
    marks: dict[str, float] = {}
    table = window.library.table
    bar = table.verticalScrollBar()

    def wait_for_list() -> None:
        if window.library.row_count() >= expected:
            marks["open"] = time.perf_counter() - STARTED
            ticks.begin("models")
            QTimer.singleShot(0, wait_for_models)
        else:
            QTimer.singleShot(10, wait_for_list)

    def wait_for_models() -> None:
        if window.status_models.text() in ("Models ready", "Models unavailable"):
            marks["models"] = time.perf_counter() - STARTED
            ticks.begin("scrolling")
            QTimer.singleShot(0, scroll_down)
        else:
            QTimer.singleShot(50, wait_for_models)

    def scroll_down() -> None:
        if bar.value() < bar.maximum():
            bar.setValue(bar.value() + bar.pageStep())
            QTimer.singleShot(16, scroll_down)
        else:
            marks["rows_up"] = 300
            QTimer.singleShot(16, scroll_up)

    def scroll_up() -> None:
        if marks["rows_up"] > 0:
            marks["rows_up"] -= 1
            bar.setValue(bar.value() - bar.singleStep())
            QTimer.singleShot(16, scroll_up)
        else:
            ticks.begin("filtering")
            marks["typed"] = 0
            QTimer.singleShot(80, type_filter)

    def type_filter() -> None:
        typed = int(marks["typed"])
        if typed < len(FILTER_TEXT):
            window.library.filter.setText(FILTER_TEXT[: typed + 1])
            marks["typed"] = typed + 1
            QTimer.singleShot(80, type_filter)
        else:
            marks["filtered"] = window.library.row_count()
            window.library.filter.clear()
            QTimer.singleShot(200, select)

    def select() -> None:
        ticks.begin("selecting")
        table.selectRow(window.library.row_count() // 2)
        QTimer.singleShot(1500, finish)

    def finish() -> None:
        ticks.begin("")
        app.quit()

    QTimer.singleShot(0, wait_for_list)
    app.exec()
    window.close()
    runner.shutdown()
    print(f"library: {expected:,} documents, {units:,} units ({args.library})")
    print(
        f"opened (process start to the full list): {marks['open']:.2f} s; "
        f"models ready at {marks['models']:.1f} s"
    )
    print(f"filter {FILTER_TEXT!r} left {int(marks['filtered']):,} rows")
    for phase, gaps in ticks.gaps.items():
        if gaps:
            worst = max(gaps)
            over = sum(1 for g in gaps if g > 50)
            print(f"{phase:<10} longest stall {worst:7.1f} ms   over 50 ms: {over}   ticks {len(gaps)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
