"""Start the desktop app: `citedesk`, `citedesk gui [--library DIR]`."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from citedesk_engine import __version__, default_library_dir
from citedesk_engine.resources import resources_dir
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QSplashScreen

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
    splash = QSplashScreen(app_icon().pixmap(128, 128))
    splash.show()
    splash.showMessage("Starting CiteDesk…", Qt.AlignmentFlag.AlignBottom | Qt.AlignmentFlag.AlignHCenter)
    app.processEvents()
    preload_native_libraries()
    settings = QSettings()
    library = Path(args.library or settings.value("library", "") or default_library_dir()).expanduser()
    runner = EngineRunner()
    window = MainWindow(runner, library, settings)
    window.show()
    splash.finish(window)
    try:
        return app.exec()
    finally:
        runner.shutdown()
