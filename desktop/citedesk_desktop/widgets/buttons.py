"""Buttons that fit narrow panes."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QToolButton


def tool_button(text: str) -> QToolButton:
    """A button as wide as its words: a QPushButton is at least 80 pixels wide in most styles, so a
    row of six of them would not fit the evidence pane or the sidebar at 1280 pixels."""
    button = QToolButton()
    button.setText(text)
    button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
    return button
