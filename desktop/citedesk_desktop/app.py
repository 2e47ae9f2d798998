"""Start the desktop app: `citedesk`, `citedesk gui [--library DIR]`."""

from __future__ import annotations

import argparse
import logging
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from citedesk_engine import __version__, default_library_dir
from citedesk_engine.resources import resources_dir
from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QColor, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import QApplication, QSplashScreen, QWidget

from .main_window import MainWindow
from .runner import EngineRunner, preload_native_libraries

APP_ID = "io.github.citedesk.CiteDesk"


def app_icon() -> QIcon:
    """The application icon in every rendered size (resources/icons), the SVG for the rest."""
    icons = resources_dir() / "icons"
    icon = QIcon(str(icons / "citedesk.svg"))
    for png in sorted(icons.glob("citedesk-*.png")):
        icon.addFile(str(png))
    return icon


def splash_picture() -> QPixmap:
    """The icon on a card with room beneath it for the message (on the bare 128-pixel icon the
    message ran over its edges: "tarting CiteDesk")."""
    card = QPixmap(320, 180)
    card.fill(QColor("#f5f5f5"))
    painter = QPainter(card)
    painter.drawPixmap((card.width() - 112) // 2, 20, app_icon().pixmap(112, 112))
    painter.end()
    return card


def close_on_signals(window: QWidget) -> QTimer:
    """SIGTERM (`kill`, a session logging out), SIGHUP and Ctrl-C close the window as its close
    button does, so the app ends as it does then: layout saved, work cancelled, the library closed
    and its worker processes stopped. Killed without it, the entity graph's two worker processes
    (240 and 140 MB) outlived the window. Python runs a signal handler only when it holds the
    interpreter, so the returned timer (keep it) hands it control four times a second."""
    for name in ("SIGTERM", "SIGHUP", "SIGINT"):
        number = getattr(signal, name, None)  # Windows has no SIGHUP
        if number is not None:
            signal.signal(number, lambda *_: window.close())
    timer = QTimer(window)
    timer.timeout.connect(lambda: None)
    timer.start(250)
    return timer


def run_app(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="citedesk", description="Open the CiteDesk window.")
    parser.add_argument("--library", metavar="DIR", help="library folder (default: the last one used)")
    args = parser.parse_args(list(argv))
    logging.basicConfig(level=logging.WARNING)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("CiteDesk")
    app.setOrganizationName("CiteDesk")
    app.setApplicationVersion(__version__)
    app.setDesktopFileName(APP_ID)  # ties the window to packaging/linux/<APP_ID>.desktop (task bar icon)
    app.setWindowIcon(app_icon())
    splash = QSplashScreen(splash_picture())
    splash.show()
    splash.showMessage(
        f"Starting CiteDesk {__version__}…", Qt.AlignmentFlag.AlignBottom | Qt.AlignmentFlag.AlignHCenter
    )
    app.processEvents()
    preload_native_libraries()
    settings = QSettings()
    library = Path(args.library or settings.value("library", "") or default_library_dir()).expanduser()
    runner = EngineRunner()
    window = MainWindow(runner, library, settings)
    window.show()
    splash.finish(window)
    close_on_signals(window)
    try:
        return app.exec()
    finally:
        runner.shutdown()
