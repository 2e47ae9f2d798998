"""Render the main states of the window to PNG files: empty, ingesting, answer, evidence, refusal.

    QT_QPA_PLATFORM=offscreen .venv/bin/python -m citedesk_desktop.screenshots OUT_DIR

Uses the real engine and models on the sample documents in resources/samples, in a temporary library.
The steps run from a timer inside the normal event loop (spinning processEvents from a Python loop
instead crashed PySide6 while the engine thread was busy).
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from citedesk_engine import FileFinished
from PySide6.QtCore import QSettings, QTimer, QUrl
from PySide6.QtWidgets import QApplication

from .main_window import MainWindow
from .runner import EngineRunner


def main(out: Path) -> int:
    out.mkdir(parents=True, exist_ok=True)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    tmp = tempfile.TemporaryDirectory()
    settings = QSettings(str(Path(tmp.name) / "settings.ini"), QSettings.Format.IniFormat)
    runner = EngineRunner()
    window = MainWindow(runner, Path(tmp.name) / "library", settings)
    window.resize(1280, 800)
    window.show()
    files_done: list[object] = []

    def count_files(event: object) -> None:
        if isinstance(event, FileFinished):
            files_done.append(event)

    runner.event.connect(count_files)

    def shot(name: str) -> None:
        window.grab().save(str(out / f"{name}.png"))

    def ask(question: str) -> None:
        window.chat.question.setPlainText(question)
        window.chat.ask_button.click()

    first_answer: list[object] = []
    steps: list[tuple[Callable[[], bool], Callable[[], None]]] = [
        (lambda: not runner.busy, lambda: (shot("empty"), window.library.samples_button.click())),
        (lambda: len(files_done) >= 1, lambda: shot("ingesting")),
        (lambda: not runner.busy, lambda: ask("How many containers did the harbour handle in 2023?")),
        (
            lambda: window.chat.last_answer is not None,
            lambda: (
                shot("answer"),
                first_answer.append(window.chat.last_answer),
                window.chat._on_link(QUrl("cite:1.1")),
            ),
        ),
        (lambda: not runner.busy, lambda: (shot("evidence"), ask("What about gamma rays?"))),
        (
            lambda: window.chat.last_answer is not first_answer[0] and not runner.busy,
            lambda: (shot("refusal"), window.chat._on_link(QUrl("trace:2"))),
        ),
        (lambda: True, lambda: shot("trace")),
    ]

    def tick() -> None:
        if steps and steps[0][0]():
            _, action = steps.pop(0)
            action()
        if not steps:
            app.quit()

    timer = QTimer()
    timer.timeout.connect(tick)
    timer.start(200)
    QTimer.singleShot(600_000, app.quit)  # never hang a script
    app.exec()
    window.close()
    runner.shutdown()
    tmp.cleanup()
    if steps:
        print(f"stopped before all screenshots were taken ({len(steps)} steps left)", file=sys.stderr)
        return 1
    print(f"screenshots in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "screenshots")))
