"""Every control of the main window has a name a screen reader can say (its text, or an accessible
name where it has none): Qt's own parts (headers, menus, splitter handles, the size grip) aside."""

from __future__ import annotations

from pathlib import Path

from factories import hashed_window
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QMenu,
    QMenuBar,
    QScrollBar,
    QSizeGrip,
    QSplitter,
    QSplitterHandle,
    QStackedWidget,
    QStatusBar,
    QWidget,
)

# Containers and Qt's own parts, which a screen reader names from their contents or their menu title.
NAMED_BY_QT = (
    QLabel,
    QSplitter,
    QSplitterHandle,
    QScrollBar,
    QStackedWidget,
    QHeaderView,
    QMenu,
    QMenuBar,
    QSizeGrip,
    QStatusBar,
)


def test_every_control_of_the_main_window_has_an_accessible_name(qtbot, tmp_path: Path) -> None:
    with hashed_window(qtbot, tmp_path) as window:
        qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
        unnamed = []
        for widget in window.findChildren(QWidget):
            if isinstance(widget, NAMED_BY_QT) or type(widget) is QWidget:
                continue
            if widget.objectName().startswith("qt_"):  # Qt's corner and overflow buttons
                continue
            interface = QAccessible.queryAccessibleInterface(widget)
            if interface is None or not interface.text(QAccessible.Text.Name).strip():
                unnamed.append(type(widget).__name__)
        assert unnamed == []
        assert window.chat.question.accessibleName() == "Question"
