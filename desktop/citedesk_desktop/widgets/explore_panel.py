"""Explore: the library's topics and entities (the entity graph), searchable; an entity's page lists
the entities named with it and the passages that mention it. A passage opens in the evidence viewer;
"Ask about this" asks in the documents that mention the entity."""

from __future__ import annotations

import html

from citedesk_engine.graph.explore import EntityPage
from citedesk_engine.graph.store import Community, Node
from citedesk_engine.types import GraphStatus, SourceRef
from PySide6.QtCore import Qt, QTimer, QUrl, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ..runner import EngineRunner

KINDS = {
    "PERSON": "person",
    "ORG": "organisation",
    "GPE": "place",
    "LOC": "place",
    "FAC": "building",
    "NORP": "group",
    "PRODUCT": "product",
    "EVENT": "event",
    "WORK_OF_ART": "work",
    "LAW": "law",
    "LANGUAGE": "language",
    "NP": "phrase",
}


class ExplorePanel(QWidget):
    passage_clicked = Signal(object)  # SourceRef
    ask_about = Signal(str, list)  # a question, the documents to ask it in

    def __init__(self, runner: EngineRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self.page: EntityPage | None = None
        self.setAccessibleName("Explore topics and entities")
        self.state = QLabel("The topics and entities appear once the entity graph is built.")
        self.state.setWordWrap(True)
        self.state.setAccessibleName("Entity graph state")
        self.search = QLineEdit()
        self.search.setAccessibleName("Find an entity")
        self.search.setPlaceholderText("Find an entity or phrase…")
        self.topics = QComboBox()
        self.topics.setAccessibleName("Topic")
        self.topics.view().setAccessibleName("Topics")
        self.topics.view().parentWidget().setAccessibleName("Topics")  # the list's pop-up frame
        self.topics.setToolTip("Topics are groups of entities named together in the library's sentences")
        self.entities = QListWidget()
        self.entities.setAccessibleName("Entities")
        self.entities.itemActivated.connect(self._open_item)
        self.entities.itemClicked.connect(self._open_item)
        self.details = QTextBrowser()
        self.details.setAccessibleName("Entity page")
        self.details.setOpenLinks(False)
        self.details.anchorClicked.connect(self._on_link)
        self._typing = QTimer(self)
        self._typing.setSingleShot(True)
        self._typing.setInterval(250)
        self._typing.timeout.connect(self.refresh_entities)
        self.search.textChanged.connect(lambda _: self._typing.start())
        self.topics.currentIndexChanged.connect(lambda _: self.refresh_entities())
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.entities)
        split.addWidget(self.details)
        split.setSizes([200, 300])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.state)
        layout.addWidget(self.search)
        layout.addWidget(self.topics)
        layout.addWidget(split, 1)
        runner.finished.connect(self._on_finished)

    def refresh(self) -> None:
        """Read the topics again (after the graph changed), then the entities they list."""
        self._runner.submit("explore_topics")

    def refresh_entities(self) -> None:
        self._runner.submit("explore_entities", (self.search.text(), self.topics.currentData()))

    def show_status(self, status: GraphStatus) -> None:
        if not status.enabled:
            self.state.setText("The entity graph is off ([retrieval] signals in the library's config.toml).")
        elif not status.current:
            total = status.documents + status.pending
            self.state.setText(f"Reading entities: {status.documents:,} of {total:,} documents…")
        else:
            self.state.setText(f"{status.nodes:,} entities in {status.communities:,} topics")

    def _on_finished(self, operation: str, result: object) -> None:
        if operation == "explore_topics":
            self._show_topics(result)  # type: ignore[arg-type]
        elif operation == "explore_entities":
            self._show_entities(result)  # type: ignore[arg-type]
        elif operation == "explore_entity":
            self._show_page(result)  # type: ignore[arg-type]

    def _show_topics(self, topics: list[Community]) -> None:
        chosen = self.topics.currentData()
        self.topics.blockSignals(True)
        self.topics.clear()
        self.topics.addItem("All topics", None)
        for topic in topics:
            label = topic.label if len(topic.label) <= 48 else topic.label[:47] + "…"
            self.topics.addItem(f"{label} ({topic.units:,} passages)", topic.community)
        found = self.topics.findData(chosen)
        self.topics.setCurrentIndex(max(found, 0))
        self.topics.blockSignals(False)
        self.refresh_entities()

    def _show_entities(self, nodes: list[Node]) -> None:
        self.entities.clear()
        for node in nodes:
            item = QListWidgetItem(
                f"{node.label} · {KINDS.get(node.kind, node.kind.lower())} · {node.units:,}"
            )
            item.setData(Qt.ItemDataRole.UserRole, node.node)
            item.setToolTip(f"{node.label}: mentioned in {node.units:,} passages")
            self.entities.addItem(item)
        if not nodes:
            self.entities.addItem("No entity found" if self.search.text() else "No entities yet")

    def _open_item(self, item: QListWidgetItem) -> None:
        node = item.data(Qt.ItemDataRole.UserRole)
        if node:
            self._runner.submit("explore_entity", node)

    def _show_page(self, page: EntityPage) -> None:
        self.page = page
        node = page.node
        kind = KINDS.get(node.kind, node.kind.lower())
        parts = [f"<h3>{html.escape(node.label)}</h3>"]
        topic = f" · topic: {html.escape(page.topic.label)}" if page.topic else ""
        parts.append(f"<p style='color:gray'>{kind} · {node.units:,} passages{topic}</p>")
        parts.append("<p><a href='ask:'>Ask about this</a></p>")
        if page.related:
            links = ", ".join(
                f"<a href='related:{i}'>{html.escape(n.label)}</a> ({count})"
                for i, (n, count) in enumerate(page.related)
            )
            parts.append(f"<p><b>Named with it:</b> {links}</p>")
        parts.append("<p><b>Passages that mention it</b></p>")
        for number, source in enumerate(page.passages):
            where = f"page {source.page}" if source.page else source.section or "text"
            name = html.escape(source.path.rsplit("/", 1)[-1])
            text = html.escape(" ".join(source.passage.split())[:220])
            parts.append(f"<p><a href='passage:{number}'>{name}, {html.escape(where)}</a><br>{text}…</p>")
        self.details.setHtml("".join(parts))

    def _on_link(self, url: QUrl) -> None:
        kind, _, value = url.toString().partition(":")
        if kind == "related" and self.page is not None:
            self._runner.submit("explore_entity", self.page.related[int(value)][0].node)
        elif kind == "passage" and self.page is not None:
            source: SourceRef = self.page.passages[int(value)]
            self.passage_clicked.emit(source)
        elif kind == "ask" and self.page is not None:
            question = f"What do the documents say about {self.page.node.label}?"
            self.ask_about.emit(question, list(self.page.documents))
