"""The trace of one answer: every pipeline stage in order with candidates in and out, milliseconds and
its figures; the stage that refused is marked."""

from __future__ import annotations

import json

from citedesk_engine.types import Answer, StageTrace
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFont, QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from .text_colours import for_palette

COLUMNS = ["Stage", "In", "Out", "ms", "Figures"]
REFUSED = QColor(230, 81, 0)


class TraceView(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Trace")
        self.answer: Answer | None = None
        self.title = QLabel("<i>Ask a question: the stages of its answer are listed here.</i>")
        self.title.setWordWrap(True)
        self.tree = QTreeWidget()
        self.tree.setAccessibleName("Stages of the answer")
        self.tree.setColumnCount(len(COLUMNS))
        self.tree.setHeaderLabels(COLUMNS)
        self.tree.setUniformRowHeights(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        header = self.tree.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        for column in (1, 2, 3):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        # Figures and claims are long: the last column is as wide as its longest row and the tree
        # scrolls sideways, each row's tooltip holds its whole text, and Ctrl+C copies a row.
        header.setSectionResizeMode(len(COLUMNS) - 1, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(False)
        self.tree.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        copy = QShortcut(QKeySequence.StandardKey.Copy, self.tree)
        copy.activated.connect(self.copy_selected)
        # The row selected, whole and wrapped, under the tree: a stage's figures, one a line, read
        # without scrolling sideways (a window session saw the Figures column cut at the pane's edge).
        self.whole = QPlainTextEdit()
        self.whole.setReadOnly(True)
        self.whole.setAccessibleName("The selected stage's figures, whole")
        self.whole.setPlaceholderText("Select a stage to read its figures whole here.")
        self.tree.currentItemChanged.connect(lambda item, _: self._show_whole(item))
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.tree)
        split.addWidget(self.whole)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(split, 1)

    def show_answer(self, answer: Answer) -> None:
        self.answer = answer
        self.tree.clear()
        total = sum(t.ms for t in answer.trace)
        colour = for_palette(REFUSED, self.palette()).name()
        verdict = (
            f"refused at <b style='color:{colour}'>{answer.refusal.stage.value}</b>"
            if answer.refusal is not None
            else answer.decision.value
        )
        self.title.setText(
            f"<b>{_escape(answer.question)}</b><br>{len(answer.trace)} stages, {total:,.0f} ms, {verdict}"
        )
        refusing = self.refusing_stage()
        self.whole.clear()
        for trace in answer.trace:
            refused_as = answer.refusal.stage.value if answer.refusal and trace.stage == refusing else ""
            item = _item(trace, refused_as)
            self.tree.addTopLevelItem(item)
            item.setExpanded(trace.stage == refusing)
            _span_details(item)
            if trace.stage == refusing:
                self.tree.setCurrentItem(item)  # the refusing stage's figures are read first
        # A new answer's trace opens at its start, not where the last one was scrolled to.
        self.tree.horizontalScrollBar().setValue(0)
        self.tree.scrollToTop()

    def refusing_stage(self) -> str | None:
        """The trace stage that refused, or none when the answer stands. Gates are traced under the
        name of the stage they refuse in; the generation stage refuses in "generate"; no evidence
        and unsupported claims refuse after the last stage that ran (retrieval, verify)."""
        if self.answer is None or self.answer.refusal is None or not self.answer.trace:
            return None
        refusal = self.answer.refusal
        stages = [t.stage for t in self.answer.trace]
        if refusal.stage.value == "generation" and "generate" in stages:
            return "generate"
        return refusal.stage.value if refusal.stage.value in stages else stages[-1]

    def copy_selected(self) -> None:
        """The selected rows, their columns separated by tabs, whole (as the tooltips show them)."""
        rows = [
            "\t".join(item.toolTip(c) or item.text(c) for c in range(len(COLUMNS))).strip()
            for item in self.tree.selectedItems()
        ]
        QGuiApplication.clipboard().setText("\n".join(rows))

    def _show_whole(self, item: QTreeWidgetItem | None) -> None:
        whole = item.data(0, Qt.ItemDataRole.UserRole) if item is not None else None
        self.whole.setPlainText(whole or "")

    def clear(self) -> None:
        self.answer = None
        self.tree.clear()
        self.whole.clear()
        self.title.setText("<i>Ask a question: the stages of its answer are listed here.</i>")


def _item(trace: StageTrace, refused_as: str) -> QTreeWidgetItem:
    """One stage's row; `refused_as` is the refusal's stage when it refused here, named as the answer's
    refusal card names it ("verify" refuses as "faithfulness")."""
    refused = bool(refused_as)
    figures = {k: v for k, v in trace.details.items() if not isinstance(v, list | dict)}
    item = QTreeWidgetItem(
        [
            trace.stage
            + (f"  ◀ refused here ({refused_as})" if refused and refused_as != trace.stage else "")
            + ("  ◀ refused here" if refused and refused_as == trace.stage else ""),
            str(trace.candidates_in),
            str(trace.candidates_out),
            f"{trace.ms:,.1f}",
            ", ".join(f"{k}={_short(v)}" for k, v in figures.items()),
        ]
    )
    item.setToolTip(len(COLUMNS) - 1, ", ".join(f"{k}={_whole(v)}" for k, v in figures.items()))
    head = f"{trace.stage}: {trace.candidates_in} in, {trace.candidates_out} out, {trace.ms:,.1f} ms"
    item.setData(
        0, Qt.ItemDataRole.UserRole, "\n".join([head] + [f"{k}: {_whole(v)}" for k, v in figures.items()])
    )
    if refused:
        font = QFont()
        font.setBold(True)
        for column in range(len(COLUMNS)):
            item.setForeground(column, QBrush(for_palette(REFUSED, QGuiApplication.palette())))
            item.setFont(column, font)
    for key, value in trace.details.items():
        if isinstance(value, list):
            group = QTreeWidgetItem([f"{key} ({len(value)})"])
            for entry in value:
                group.addChild(_detail("", entry))
            item.addChild(group)
        elif isinstance(value, dict):
            item.addChild(_detail(key, value))
    return item


def _detail(key: str, value: object) -> QTreeWidgetItem:
    """A row of a stage's details ("a passage's scores"), its text in the first column, which the tree
    spans across all of them (show_answer): in the Figures column it stood right of the stage's
    widest name, off screen in a narrow pane (window session: blank rows)."""
    # A dict (a passage's scores, a claim) as "unit_id=…, coverage=0.556, …", not as JSON.
    text = _short(_pairs(value) if isinstance(value, dict) else value, 300)
    row = QTreeWidgetItem([f"{key}: {text}" if key else text])
    row.setToolTip(0, _whole(value))
    row.setData(0, Qt.ItemDataRole.UserRole, f"{key}: {_whole(value)}" if key else _whole(value))
    return row


def _span_details(item: QTreeWidgetItem) -> None:
    """The detail rows under a stage (a group's name, a passage's scores) span all columns."""
    for index in range(item.childCount()):
        child = item.child(index)
        child.setFirstColumnSpanned(True)
        _span_details(child)


def _pairs(value: dict) -> str:
    return ", ".join(f"{k}={v if isinstance(v, str) else _whole(v)}" for k, v in value.items())


def _whole(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)


def _short(value: object, limit: int = 80) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
