"""The evidence viewer: a cited passage in its document. PDF pages are rendered (on the engine thread)
with the passage's boxes highlighted; other formats show the extracted text with the passage marked."""

from __future__ import annotations

import html
from pathlib import Path

from citedesk_engine.answer.asides import AsideKind, asides
from citedesk_engine.answer.evidence_spans import spans_in_source
from citedesk_engine.export import last_page, verified_words
from citedesk_engine.ingest.extract import is_paged, keeps_lines
from citedesk_engine.pages import page_words
from citedesk_engine.types import Answer, Box, SourceRef
from PySide6.QtCore import QRectF, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QColor, QDesktopServices, QFont, QPainter, QPixmap, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QScrollArea,
    QStackedWidget,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from .buttons import tool_button

HIGHLIGHT = QColor(255, 213, 79, 110)
# The rest of a cited passage, when the sentences or table rows its claims stand on are known
# (Claim.evidence): those are HIGHLIGHT, the passage around them this lighter shade.
PASSAGE = QColor(255, 213, 79, 45)
PLANTED = QColor(229, 115, 115, 90)  # text addressed to an AI inside a cited passage: struck through


class EvidenceViewer(QWidget):
    page_requested = Signal(str, int, float)  # path, page, scale (zoom × device pixel ratio)
    text_requested = Signal(str)  # document

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Evidence")
        self.source: SourceRef | None = None
        self.answer: Answer | None = None  # the answer citing the source, whose citations step in turn
        # Where the verified claims citing the source stand in it (document offsets), marked strongly.
        self.claim_spans: tuple[tuple[int, int], ...] = ()
        self._lines: tuple[int, int] | None = None  # the file's lines the passage spans (text, code, CSV)
        self.shown: tuple[str, int] | None = None  # the document and page the picture shows
        self.highlighted_boxes = 0
        self.strong_boxes = 0  # of those, the lines of the claims' sentences (marked strongly)
        self.page = 0
        self.pages = 0
        self.zoom = 1.5
        self.auto_fit = True  # pages fill the viewer's width until the user zooms by hand
        # Fitted again once a resize has settled: a window made narrower cut the page off on the right
        # (a window session at 1100 x 700).
        self._refit = QTimer(self)
        self._refit.setSingleShot(True)
        self._refit.setInterval(200)
        self._refit.timeout.connect(self._fit_after_resize)
        self.header = QLabel(_PLACEHOLDER)
        self.header.setWordWrap(True)
        self.header.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._document_warnings: dict[str, tuple[str, ...]] = {}
        # What the reader must know about the shown document's text (hidden text left out, text
        # addressed to an AI in the passage), above the page.
        self.warning = QLabel()
        self.warning.setWordWrap(True)
        self.warning.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.warning.setStyleSheet(
            "QLabel { background: #fff4e0; color: #5d3a00; border: 1px solid #e0a040; padding: 4px; }"
        )
        self.warning.setVisible(False)
        self.not_an_answer = QLabel(
            "<b>Not an answer.</b> CiteDesk refused this question; this is one of the passages it "
            "considered closest. Read it yourself: nothing here was checked as supporting an answer."
        )
        self.not_an_answer.setWordWrap(True)
        self.not_an_answer.setStyleSheet(
            "QLabel { background: #fdecea; color: #5f2120; border: 1px solid #d32f2f; padding: 4px; }"
        )
        self.not_an_answer.setVisible(False)
        self.details = QLabel()
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.previous_button = tool_button("◀ Page")
        self.next_button = tool_button("Page ▶")
        self.zoom_out = tool_button("−")
        self.zoom_in = tool_button("+")
        self.fit_button = tool_button("Fit width")
        self.zoom_out.setToolTip("Zoom out (Ctrl+-)")
        self.zoom_in.setToolTip("Zoom in (Ctrl++)")
        self.fit_button.setToolTip("Zoom the page to the width of the viewer")
        self.previous_button.setToolTip("Previous page (Alt+Left)")
        self.next_button.setToolTip("Next page (Alt+Right)")
        self.open_button = tool_button("Open source")
        self.open_button.setToolTip("Open the original file in the system viewer")
        self.previous_button.clicked.connect(self.previous_page)
        self.next_button.clicked.connect(self.next_page)
        self.zoom_out.clicked.connect(lambda: self.zoom_by(1 / 1.25))
        self.zoom_in.clicked.connect(lambda: self.zoom_by(1.25))
        self.fit_button.clicked.connect(self.fit_width)
        self.open_button.clicked.connect(self._open_source)
        # Through the answer's citations in turn, without going back to the conversation.
        self.previous_citation = tool_button("◀ Citation")
        self.next_citation = tool_button("Citation ▶")
        self.previous_citation.setToolTip("The answer's previous citation (Alt+Up)")
        self.next_citation.setToolTip("The answer's next citation (Alt+Down)")
        self.previous_citation.clicked.connect(lambda: self.step_citation(-1))
        self.next_citation.clicked.connect(lambda: self.step_citation(1))
        self.citation_label = QLabel()
        steps = QHBoxLayout()
        steps.addWidget(self.previous_citation)
        steps.addWidget(self.citation_label)
        steps.addWidget(self.next_citation)
        steps.addStretch(1)
        self._steps = QWidget()
        self._steps.setLayout(steps)
        steps.setContentsMargins(0, 0, 0, 0)
        self._steps.setVisible(False)
        tools = QHBoxLayout()
        for widget in (
            self.previous_button,
            self.next_button,
            self.zoom_out,
            self.zoom_in,
            self.fit_button,
            self.open_button,
        ):
            tools.addWidget(widget)
        tools.addStretch(1)
        self.image = QLabel()
        self.image.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.scroll = QScrollArea()
        self.scroll.setAccessibleName("Page with the passage highlighted")
        self.scroll.setWidget(self.image)
        self.scroll.setWidgetResizable(True)
        # Where the highlight wants the page scrolled (x, y), until it is: across too, for a page
        # zoomed wider than the pane (its second column's passage would stay off to the right).
        self._scroll_to: tuple[int, int] | None = None
        self.scroll.verticalScrollBar().rangeChanged.connect(lambda *_: self._apply_scroll())
        self.scroll.horizontalScrollBar().rangeChanged.connect(lambda *_: self._apply_scroll())
        self.text = QPlainTextEdit()
        self.text.setAccessibleName("Text with the passage highlighted")
        self.text.setReadOnly(True)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.scroll)
        self.stack.addWidget(self.text)
        layout = QVBoxLayout(self)
        layout.addWidget(self._steps)
        layout.addWidget(self.not_an_answer)
        layout.addWidget(self.header)
        layout.addWidget(self.warning)
        layout.addWidget(self.details)
        layout.addLayout(tools)
        layout.addWidget(self.stack, 1)
        self._set_tools(False)

    def clear(self) -> None:
        """Nothing shown: another library or conversation was opened, and its citations are not these."""
        self.source, self.shown, self._scroll_to = None, None, None
        self.answer = None
        self._steps.setVisible(False)
        self.not_an_answer.setVisible(False)
        self.page = self.pages = self.highlighted_boxes = 0
        self.image.clear()
        self.text.clear()
        self.header.setText(_PLACEHOLDER)
        self.header.setToolTip("")
        self.details.setText("")
        self.warning.setVisible(False)
        self.stack.setCurrentWidget(self.scroll)
        self._set_tools(False)
        self.open_button.setEnabled(False)

    def show_source(self, source: SourceRef, answer: Answer | None = None) -> None:
        if self.source is None or source.path != self.source.path:
            # Another document: its page count is not known until its first page is rendered, and
            # the picture of the previous document must not stay up meanwhile as if it were evidence.
            self.pages = 0
            self.shown = None
            self.image.clear()
        self.source = source
        self.answer = answer
        self._show_steps()
        self._lines = None
        self.claim_spans = spans_in_source(source, answer.claims if answer is not None else ())
        self.details.setText(_provenance(source, answer))
        # A refused question's closest passage is shown on request, never as evidence: said first.
        self.not_an_answer.setVisible(self._not_evidence())
        self._show_warnings(source)
        self._show_header(source.page)
        if source.page and is_paged(Path(source.path).suffix):
            self.stack.setCurrentWidget(self.scroll)
            self._set_tools(True)
            self._go(self._opening_page())
        else:
            self.stack.setCurrentWidget(self.text)
            self._set_tools(False)
            self.open_button.setEnabled(True)
            self.text_requested.emit(source.document)

    def _not_evidence(self) -> bool:
        """Whether the passage shown is a refusal's closest passage, not an answer's citation."""
        return self.answer is not None and self.source in self.answer.considered

    def _citation(self) -> int | None:
        """The shown source's place among its answer's citations (0-based), or None."""
        if self.answer is None or self.source not in self.answer.sources:
            return None
        return self.answer.sources.index(self.source)

    def _show_steps(self) -> None:
        index = self._citation()
        count = len(self.answer.sources) if self.answer is not None else 0
        self._steps.setVisible(index is not None and count > 1)  # one citation: nothing to step to
        if index is None:
            return
        self.citation_label.setText(f"Citation {index + 1} of {count}")
        self.previous_citation.setEnabled(index > 0)
        self.next_citation.setEnabled(index + 1 < count)

    def step_citation(self, step: int) -> None:
        """Show the answer's citation `step` places on from the one shown (-1: the one before)."""
        index = self._citation()
        if index is None or self.answer is None:
            return
        target = index + step
        if 0 <= target < len(self.answer.sources):
            self.show_source(self.answer.sources[target], self.answer)

    def set_document_warnings(self, warnings: dict[str, tuple[str, ...]]) -> None:
        """The library's document warnings (engine.warnings), shown with a source of that document."""
        self._document_warnings = dict(warnings)
        if self.source is not None:
            self._show_warnings(self.source)

    def _show_warnings(self, source: SourceRef) -> None:
        lines = [
            "This passage holds text addressed to an AI assistant. CiteDesk did not pass it to the "
            f"model, and it supports no answer: “{html.escape(_short(a.text), quote=False)}”"
            for a in asides(source.passage)
            if a.kind is AsideKind.INSTRUCTION
        ]
        known = self._document_warnings.get(source.document, ())
        lines += [f"This document: {html.escape(w, quote=False)}" for w in known]
        self.warning.setText("<br>".join(f"⚠ {line}" for line in lines))
        self.warning.setVisible(bool(lines))

    def _show_header(self, page: int | None) -> None:
        """Which document and page the viewer shows; paged away from the cited page, it says both."""
        source = self.source
        assert source is not None
        if not source.page:
            titled = source.section and source.section != Path(source.path).name  # a CSV's own name
            where = source.section if titled else "text"
            if self._lines is not None:
                first, last = self._lines
                lines = f"line {first}" if first == last else f"lines {first}–{last}"
                where = f"{where}, {lines}" if titled else lines
        elif page == source.page:
            where = page_words(source.path, source.page, source.section)
            later = last_page(source)
            where += f" (the passage goes on to page {later})" if later > page else ""
        elif page in self._passage_pages():
            where = f"page {page} (the passage starts on page {source.page})"
        else:
            where = f"page {page} (the passage is on page {source.page})"
        confidence = source.ocr_confidence
        if confidence is not None:
            where += f" · <b>read by OCR</b> (confidence {confidence:.0%}: check the words against the page)"
        about = source.about
        described = ", ".join(x for x in (about.title, "; ".join(about.authors), str(about.year or "")) if x)
        # Where the passage is, in a reader's words; its unit and character offsets (the figures of
        # `ask --json`) in the tooltip, not in the header a reader reads (a window session).
        self.header.setText(
            f"<b>{html.escape(Path(source.path).name)}</b>, {where}"
            + (f"<br><i>{html.escape(described)}</i>" if described else "")
            + f"<br><small>{html.escape(source.path)}</small>"
        )
        self.header.setToolTip(
            f"Passage {source.unit_id}: characters {source.char_start}–{source.char_end} of the "
            "document's extracted text"
        )

    def show_page(self, path: str, page: int, scale: float, rendered: tuple[bytes, int]) -> None:
        """A rendered page: rendered at `scale` device pixels per PDF point, so it is sharp on HiDPI."""
        if self.source is None or path != self.source.path or page != self.page or scale != self._scale():
            return  # an older request
        png, self.pages = rendered
        another_page = self.shown != (path, page)
        self.shown = (path, page)  # what the picture is, for tests and the header
        self._show_header(page)
        pixmap = QPixmap()
        pixmap.loadFromData(png, "PNG")
        first_box: tuple[float, float] | None = None  # the marked lines' left and top
        self.strong_boxes = 0
        if page in self._passage_pages():
            painter = QPainter(pixmap)
            boxes = [box for box in self.source.boxes if box.page == page]
            # The lines of the claims' sentences strongly, the rest of the passage lightly; where no
            # line is known to hold them (a library built before boxes knew their characters), the
            # whole passage as before. The view opens at the first strong line.
            claimed = {box for box in self.source.boxes if self._holds_claim(box)}
            strong = claimed.intersection(boxes)
            for box in boxes:
                rect = QRectF(
                    box.x0 * scale, box.y0 * scale, (box.x1 - box.x0) * scale, (box.y1 - box.y0) * scale
                )
                marked = box in strong or not claimed
                # A refusal's closest passage is only ever marked lightly: it is no evidence.
                painter.fillRect(rect, HIGHLIGHT if marked and not self._not_evidence() else PASSAGE)
                if marked:
                    first_box = (
                        (rect.left(), rect.top())
                        if first_box is None
                        else (min(first_box[0], rect.left()), min(first_box[1], rect.top()))
                    )
            painter.end()
            self.strong_boxes = len(strong)
        ratio = self.devicePixelRatioF()
        pixmap.setDevicePixelRatio(ratio)
        if first_box is not None:
            first_box = (first_box[0] / ratio, first_box[1] / ratio)
        self.image.setPixmap(pixmap)
        self.highlighted_boxes = sum(1 for b in self.source.boxes if b.page == page)
        self.previous_button.setEnabled(page > 1)
        self.next_button.setEnabled(page < self.pages)
        fitting = self._fitting_zoom() if self.auto_fit else None
        if fitting is not None and abs(fitting - self.zoom) / self.zoom > 0.05:
            self.set_zoom(fitting)  # rendered once more at the width of the viewer
            return
        # Scrolled once the scroll area has taken the new picture's size: set now, the value would be
        # clamped to the range of the picture before (after another document, the cleared one's).
        # A page paged to opens at its top; the cited page at its highlight; a zoom keeps its place.
        if first_box is not None:
            self._scroll_to = (max(0, int(first_box[0]) - 24), max(0, int(first_box[1]) - 80))
        else:
            self._scroll_to = (0, 0) if another_page else None
        self._apply_scroll()

    def _apply_scroll(self) -> None:
        if self._scroll_to is None:
            return
        x, y = self._scroll_to
        across, down = self.scroll.horizontalScrollBar(), self.scroll.verticalScrollBar()
        across.setValue(x)
        down.setValue(y)
        # Done once both bars reach as far as the new picture lets them: each range changes on its own
        # signal, and a value set before its range grew was clamped.
        size, view = self.image.pixmap().deviceIndependentSize(), self.scroll.viewport().size()
        reachable_x = max(0, min(x, int(size.width()) - view.width()))
        reachable_y = max(0, min(y, int(size.height()) - view.height()))
        if across.maximum() >= reachable_x and down.maximum() >= reachable_y:
            self._scroll_to = None

    def _passage_pages(self) -> set[int]:
        """The pages the shown passage is drawn on: its own, and the next where it runs on over a
        page break."""
        assert self.source is not None
        return {self.source.page or 0} | {box.page for box in self.source.boxes}

    def _opening_page(self) -> int:
        """The page a citation opens at: the first that holds a claim's sentence (a passage running on
        over a page break may hold it on its second page), or the passage's own."""
        assert self.source is not None
        claimed = [box.page for box in self.source.boxes if self._holds_claim(box)]
        return min(claimed) if claimed else self.source.page or 1

    def _holds_claim(self, box: Box) -> bool:
        return box.start >= 0 and any(box.start < end and start < box.end for start, end in self.claim_spans)

    def show_text(self, document: str, text: str) -> None:
        if self.source is None or document != self.source.document:
            return
        self.text.setPlainText(text)
        if keeps_lines(Path(self.source.path).suffix):
            # A CSV row, a text or code line: where the user finds it in the file itself.
            first = text.count("\n", 0, self.source.char_start) + 1
            self._lines = (first, first + text.count("\n", self.source.char_start, self.source.char_end))
            self._show_header(None)
        selections = []
        # The passage is highlighted as evidence, but for text addressed to an AI in it: that is
        # struck through, never evidence.
        start, end = self.source.char_start, self.source.char_end
        planted = [
            (start + a.start, start + a.end)
            for a in asides(text[start:end])
            if a.kind is AsideKind.INSTRUCTION
        ]
        # With the claims' sentences or rows known, those are marked strongly over a light passage.
        passage_colour = PASSAGE if self.claim_spans or self._not_evidence() else HIGHLIGHT
        position = start
        for a, b in [*planted, (end, end)]:
            selections.append(self._selection(position, a, passage_colour, strike=False))
            position = b
        # In bold as well: the two shades alone were read as one mark over a spreadsheet's block
        # (a window session took four rows for the one verified).
        selections += [self._selection(a, b, HIGHLIGHT, strike=False, bold=True) for a, b in self.claim_spans]
        selections += [self._selection(a, b, PLANTED, strike=True) for a, b in planted]  # drawn last
        self.text.setExtraSelections([s for s in selections if s is not None])
        view = QTextCursor(self.text.document())
        view.setPosition(self.claim_spans[0][0] if self.claim_spans else self.source.char_start)
        self.text.setTextCursor(view)
        self.text.centerCursor()
        # Again once the pane has its size: shown just now (after a PDF page), its wrap width and
        # height were stale, and the passage ended a screen or more above the view (a window
        # session on Debian's FAQ).
        QTimer.singleShot(0, self.text.centerCursor)

    def _selection(
        self, start: int, end: int, colour: QColor, *, strike: bool, bold: bool = False
    ) -> QTextEdit.ExtraSelection | None:
        if end <= start:
            return None
        selection = QTextEdit.ExtraSelection()
        selection.format = QTextCharFormat()
        selection.format.setBackground(colour)
        selection.format.setFontStrikeOut(strike)
        if bold:
            selection.format.setFontWeight(QFont.Weight.Bold)
        cursor = QTextCursor(self.text.document())
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        selection.cursor = cursor
        return selection

    def previous_page(self) -> None:
        self._go(self.page - 1)

    def next_page(self) -> None:
        self._go(self.page + 1)

    def _go(self, page: int) -> None:
        if self.source is None or page < 1 or (self.pages and page > self.pages):
            return
        self.page = page
        self.page_requested.emit(self.source.path, page, self._scale())

    def _scale(self) -> float:
        return self.zoom * self.devicePixelRatioF()

    def zoom_by(self, factor: float) -> None:
        self.auto_fit = False
        self.set_zoom(self.zoom * factor)

    def set_zoom(self, zoom: float) -> None:
        self.zoom = min(4.0, max(0.5, zoom))
        self._go(self.page)

    def resizeEvent(self, event) -> None:  # type: ignore[no-untyped-def]  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        if self.auto_fit and self.source is not None:
            self._refit.start()

    def _fit_after_resize(self) -> None:
        fitting = self._fitting_zoom() if self.auto_fit else None
        if fitting is not None and abs(fitting - self.zoom) / self.zoom > 0.05:
            self.set_zoom(fitting)

    def fit_width(self) -> None:
        """Zoom so the page fills the viewer's width (and keep doing so for the next pages)."""
        self.auto_fit = True
        zoom = self._fitting_zoom()
        if zoom is not None:
            self.set_zoom(zoom)

    def _fitting_zoom(self) -> float | None:
        """The zoom at which the page shown fills the viewer's width (known once a page is rendered)."""
        pixmap = self.image.pixmap()
        if pixmap is None or pixmap.isNull() or not self.zoom:
            return None
        points = pixmap.width() / pixmap.devicePixelRatio() / self.zoom  # the page width in PDF points
        available = self.scroll.viewport().width() - 24
        return available / points if points > 0 and available > 0 else None

    def _set_tools(self, pdf: bool) -> None:
        for widget in (self.previous_button, self.next_button, self.zoom_out, self.zoom_in, self.fit_button):
            widget.setEnabled(pdf)
        self.open_button.setEnabled(self.source is not None)

    def _open_source(self) -> None:
        if self.source is None:
            return
        if not Path(self.source.path).exists():
            QMessageBox.warning(self, "CiteDesk", f"The source file is no longer there:\n{self.source.path}")
            return
        url = QUrl.fromLocalFile(self.source.path)
        if self.source.page:
            url.setFragment(f"page={self.source.page}")  # honoured by most PDF viewers
        if not QDesktopServices.openUrl(url):
            QMessageBox.warning(
                self,
                "CiteDesk",
                f"No application on this system opens this file:\n{self.source.path}\n\n"
                "Install a viewer for it, or open it from your file manager.",
            )


_PLACEHOLDER = "<i>Click a citation in an answer to see its passage here.</i>"


def _provenance(source: SourceRef, answer: Answer | None) -> str:
    """How retrieval found the passage and how the claims citing it were verified, in words."""
    # A passage put there without a retriever's score (a title page, answer/about_document.py) says
    # so without one: "title page #1 (score nan); fused 0.0000" was shown (a window session).
    ranked = sorted(source.ranks.items(), key=lambda item: item[1])
    found = [
        f"{name} #{rank + 1}" + (f" (score {source.scores[name]:.3g})" if name in source.scores else "")
        for name, rank in ranked
    ]
    lines = []
    if found:
        # In words first (issue 23: figures in plain words by default), the figures after, muted.
        said = " and ".join(dict.fromkeys(_FOUND_BY.get(name, name) for name, _ in ranked))
        fused = source.fused is not None and any(name in source.scores for name in source.ranks)
        scores = [f"fused {source.fused:.4f}"] if fused else []
        if source.rerank is not None:
            scores.append(f"rerank {source.rerank:.3g}")
        figures = ", ".join(found) + (f"; {', '.join(scores)}" if scores else "")
        lines.append(f"Found by {said}. <small class='muted'>({figures})</small>")
    if answer is not None:
        for claim in answer.claims:
            if source.unit_id in claim.sources:
                lines.append(
                    f"Verified “{html.escape(claim.text)}”: {html.escape(verified_words(claim.method))}. "
                    f"<small class='muted'>({html.escape(claim.method)})</small>"
                )
                if claim.caution:
                    lines.append(f"<i>{html.escape(claim.caution)}</i>")
                if not any(unit_id == source.unit_id for unit_id, _, _ in claim.evidence):
                    lines.append(LOCATION_UNKNOWN)
                elif source.page and source.boxes and all(b.start < 0 for b in source.boxes):
                    lines.append(LOCATION_NOT_ON_PAGE)
    return "<br>".join(lines)


# How each retriever found a passage, in words (retrieve/retrievers.py, graph/retrievers.py).
_FOUND_BY = {
    "lexical": "the question's words",
    "vector": "the question's meaning",
    "structure": "the document's headings",
    "rows": "a table row the question names",
    "graph": "the entities the question names",
    "community": "the topic of the question",
    "wiki": "the library's wiki",
    "title page": "being its document's title page",
}


# Said rather than marking a wrong sentence: where the claim stands in the passage was not found.
LOCATION_UNKNOWN = (
    "<i>Which sentence of the passage it stands on could not be found with confidence: the whole passage "
    "is marked. Read all of it.</i>"
)
# A PDF indexed before its line boxes knew their characters (0.5.0).
LOCATION_NOT_ON_PAGE = (
    "<i>The page marks the whole passage: this document was added with an older CiteDesk. Re-index it "
    "to see the sentence the answer stands on marked on the page.</i>"
)


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
