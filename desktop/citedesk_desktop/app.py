"""Start the desktop app: `citedesk`, `citedesk gui [--library DIR]`."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from citedesk_engine import __version__, default_library_dir
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from .main_window import MainWindow
from .runner import EngineRunner


def run_app(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="citedesk", description="Open the CiteDesk window.")
    parser.add_argument("--library", metavar="DIR", help="library folder (default: the last one used)")
    args = parser.parse_args(list(argv))
    logging.basicConfig(level=logging.WARNING)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("CiteDesk")
    app.setOrganizationName("CiteDesk")
    app.setApplicationVersion(__version__)
    settings = QSettings()
    library = Path(args.library or settings.value("library", "") or default_library_dir()).expanduser()
    runner = EngineRunner()
    window = MainWindow(runner, library, settings)
    window.show()
    try:
        return app.exec()
    finally:
        runner.shutdown()
