"""Explore: the library's topics and entities (the entity graph), searchable. An entity's page (and a
topic's, when one is chosen) starts with its library wiki text: sentences the answer model wrote from
the passages about it, each checked against the passage it cites, a chip per citation that opens the
passage in the evidence viewer with the sentence marked. The page is written the first time it is
opened (seconds; one at a time, the latest opened next; Stop stops it) and read from the library
after. Then the entities named with it and the passages that mention it; "Ask about this" asks in
the documents that mention the entity."""

from __future__ import annotations

import html

from citedesk_engine.events import SentenceChecked, StageStarted
from citedesk_engine.graph.explore import EntityPage
from citedesk_engine.graph.store import Community, Node
from citedesk_engine.graph.wiki import WikiPage, entity_subject, topic_subject
from citedesk_engine.pages import page_words
from citedesk_engine.types import Answer, Decision, GraphStatus, SourceRef
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


def kind_word(node: Node) -> str:
    """What an entity is, as far as it can be told: "person" for a full name the recogniser calls one
    ("David Bowie"), "phrase" for a key phrase, else "name". spaCy's small English recogniser labels
    the names of technical documents at random: a window session's Explore view showed "Comma
    Separated Values · person", "Harrell · organisation", "Sniffer · place", "Gehan-Wilcoxon ·
    building", "False · work"; a wrong kind misleads where "name" does not."""
    if node.kind == "NP":
        return "phrase"
    capitalised = [word for word in node.label.split() if word[:1].isupper() and word[1:2].islower()]
    if node.kind == "PERSON" and len(capitalised) >= 2 and len(capitalised) == len(node.label.split()):
        return "person"
    return "name"


class ExplorePanel(QWidget):
    passage_clicked = Signal(object)  # SourceRef
    wiki_clicked = Signal(object, object)  # SourceRef, the page as an Answer (its sentences as claims)
    ask_about = Signal(str, list)  # a question, the documents to ask it in

    def __init__(self, runner: EngineRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self.page: EntityPage | None = None  # the entity shown, or None
        self.topic: Community | None = None  # the topic shown (no entity opened since it was chosen)
        self.subject: str | None = None  # the library wiki subject of what is shown
        self.wiki: WikiPage | None = None
        self.wiki_state = ""  # "checking", "waiting", "writing", "stopped", or why it failed
        self._writing: str | None = None  # the subject being written (one at a time)
        self.draft: list[str] = []  # the sentences of the page being written, kept so far
        self._dropped_draft = 0
        self.show_dropped = False  # the sentences left out, listed with why
        self._topics: list[Community] = []
        self._rendered: str | None = None  # the subject whose page the details show
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
        self.topics.currentIndexChanged.connect(lambda _: self._topic_chosen())
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
        runner.failed.connect(self._on_failed)
        runner.event.connect(self._on_event)

    def clear(self) -> None:
        """Forget what was shown: another library is opening (a window session still showed David
        Bowie's page, from the library before, after File > Open library…)."""
        self.page = self.topic = self.wiki = None
        self.subject = self._writing = self._rendered = None
        self.wiki_state = ""
        self.draft, self._dropped_draft, self._topics = [], 0, []
        self.search.blockSignals(True)
        self.search.clear()
        self.search.blockSignals(False)
        self.topics.blockSignals(True)
        self.topics.clear()
        self.topics.blockSignals(False)
        self.entities.clear()
        self.details.clear()
        self.state.setText("The topics and entities appear once the entity graph is built.")

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
        elif not status.documents:
            self.state.setText("Add documents: their topics and entities appear here once they are read.")
        else:
            pages = f" · {status.pages:,} wiki pages written" if status.pages else ""
            topics = f"{status.communities:,} topic{'s' * (status.communities != 1)}"
            self.state.setText(f"{status.nodes:,} entities in {topics}{pages}")

    def _on_finished(self, operation: str, result: object) -> None:
        if operation == "explore_topics":
            self._show_topics(result)  # type: ignore[arg-type]
        elif operation == "explore_entities":
            self._show_entities(result)  # type: ignore[arg-type]
        elif operation == "explore_entity":
            self._show_page(result)  # type: ignore[arg-type]
        elif operation == "explore_wiki_cached":
            subject, page = result  # type: ignore[misc]
            if subject == self.subject:
                if page is not None:
                    self.wiki, self.wiki_state = page, ""
                    self._render()
                else:
                    self._write(subject)
        elif operation == "explore_wiki" and result is None:  # stopped
            self._writing, self.wiki_state = None, "stopped"
            self._render()
        elif operation == "explore_wiki":
            self._writing = None
            subject, page = result  # type: ignore[misc]
            if subject == self.subject:
                self.wiki, self.wiki_state = page, ""
                self._render()
            elif self.subject is not None and self.wiki is None and self.wiki_state == "waiting":
                self._write(self.subject)  # the page opened meanwhile, written next

    def _on_failed(self, operation: str, message: str, _details: str) -> None:
        if operation in ("explore_wiki", "explore_wiki_cached"):  # e.g. the entity was removed meanwhile
            if operation == "explore_wiki":
                self._writing = None
            self.wiki_state = message
            self._render()

    def _on_event(self, event: object) -> None:
        if self._writing is None or self._writing != self.subject:
            return
        if isinstance(event, StageStarted) and event.stage == "wiki":
            self.wiki_state, self.draft, self._dropped_draft = "writing", [], 0
            self._render()
        elif isinstance(event, SentenceChecked) and event.subject == self.subject:
            if event.kept:
                self.draft.append(event.text)
            else:
                self._dropped_draft += 1
            self._render()

    def _topic_chosen(self) -> None:
        self.refresh_entities()
        community = self.topics.currentData()
        topic = next((t for t in self._topics if t.community == community), None)
        if topic is not None:
            self.page, self.topic = None, topic
            self._open_subject(topic_subject(topic.label))

    def _open_subject(self, subject: str) -> None:
        self.subject, self.wiki, self.wiki_state = subject, None, "checking"
        self.draft, self._dropped_draft, self.show_dropped = [], 0, False
        self._render()
        self._runner.submit("explore_wiki_cached", subject)

    def _write(self, subject: str) -> None:
        """Write the subject's page, or once the page being written is done (the latest opened wins)."""
        if self._writing is None:
            self._writing = subject
            self._runner.submit("explore_wiki", subject)
        self.wiki_state = "waiting"
        self._render()

    def _show_topics(self, topics: list[Community]) -> None:
        self._topics = topics
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
            item = QListWidgetItem(f"{node.label} · {kind_word(node)} · {node.units:,}")
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
        self.page, self.topic = page, None
        self._open_subject(entity_subject(page.node.node))

    def _render(self) -> None:
        parts = self._heading() + self._wiki_html()
        page = self.page
        if page is not None:
            if page.related:
                links = ", ".join(
                    f"<a href='related:{i}'>{html.escape(n.label)}</a> ({count})"
                    for i, (n, count) in enumerate(page.related)
                )
                parts.append(f"<p><b>Named with it:</b> {links}</p>")
            parts.append("<p><b>Passages that mention it</b></p>")
        for number, source in enumerate(self._passages()):
            where = (
                page_words(source.path, source.page, source.section)
                if source.page
                else source.section or "text"
            )
            name = html.escape(source.path.rsplit("/", 1)[-1])
            text = html.escape(" ".join(source.passage.split())[:220])
            parts.append(f"<p><a href='passage:{number}'>{name}, {html.escape(where)}</a><br>{text}…</p>")
        # The same page drawn again (a sentence checked, the left-out ones shown) keeps its place.
        same = self._rendered == self.subject
        scroll = self.details.verticalScrollBar().value()
        self.details.setHtml("".join(parts))
        if same:
            self.details.verticalScrollBar().setValue(scroll)
        self._rendered = self.subject

    def _heading(self) -> list[str]:
        if self.page is not None:
            node = self.page.node
            kind = kind_word(node)
            topic = f" · topic: {html.escape(self.page.topic.label)}" if self.page.topic else ""
            return [
                f"<h3>{html.escape(node.label)}</h3>",
                f"<p style='color:gray'>{kind} · {node.units:,} passages{topic}</p>",
                "<p><a href='ask:'>Ask about this</a></p>",
            ]
        if self.topic is not None:
            return [
                f"<h3>{html.escape(self.topic.label)}</h3>",
                f"<p style='color:gray'>topic · {self.topic.nodes:,} entities · {self.topic.units:,} "
                "passages</p>",
            ]
        return []

    def _passages(self) -> tuple[SourceRef, ...]:
        """The passages listed under the page: an entity's mentions, a topic's page's sources."""
        if self.page is not None:
            return self.page.passages
        return self.wiki.sources if self.wiki is not None else ()

    def _wiki_html(self) -> list[str]:
        """The library wiki text with a chip per citation, or where its writing stands."""
        title = self.wiki.title if self.wiki else (self.subject or "").partition(":")[2]
        state = self.wiki_state
        if self.wiki is None:
            if state == "checking":
                return []
            if state == "waiting":
                return ["<p style='color:gray'><i>The page is written next, from the passages below…</i></p>"]
            if state == "writing":
                so_far = "".join(f"{html.escape(text)} " for text in self.draft)
                left = f" ({self._dropped_draft} left out so far)" if self._dropped_draft else ""
                return [
                    f"<p>{so_far}</p>" if so_far else "",
                    "<p style='color:gray'><i>Writing a short page from the passages about it, each "
                    f"sentence checked against its passage as it is written{left}…</i> "
                    "<a href='stop:'>Stop</a></p>",
                ]
            if state == "stopped":
                return ["<p style='color:gray'>Stopped. <a href='write:'>Write the page</a></p>"]
            return [f"<p style='color:gray'>{html.escape(state)} <a href='write:'>Try again</a></p>"]
        page = self.wiki
        numbers = {source.unit_id: n for n, source in enumerate(page.sources, 1)}
        if page.claims:
            sentences = " ".join(
                f"{html.escape(claim.text)} "
                + " ".join(f"<a href='wiki:{i}:{u}'>[{numbers.get(u, '?')}]</a>" for u in claim.sources)
                for i, claim in enumerate(page.claims)
            )
            body = f"<p>{sentences}</p>"
        else:
            body = (
                f"<p style='color:gray'>The answer model wrote nothing about {html.escape(title)} that "
                "its passages support: read the passages below.</p>"
            )
        notes = []
        if page.removed:
            plural = "s" * (page.removed != 1)
            notes.append(f"{page.removed} sentence{plural} removed: no passage supports it")
        if page.left_out:
            notes.append(f"{page.left_out} left out: not about {title}, or cut off")
        note = ""
        if notes:
            toggle = "hide them" if self.show_dropped else "show them"
            said = html.escape("; ".join(notes))
            note = f"<p style='color:gray'>{said} (<a href='dropped:'>{toggle}</a>).</p>"
        if notes and self.show_dropped:
            note += "".join(
                f"<p style='color:gray'>✗ “{html.escape(d.text)}”: {html.escape(d.why)}</p>"
                for d in page.dropped
            )
        return [
            "<p><b>From the library</b> <span style='color:gray'>· written by the answer model from "
            f"{len(page.sources)} passage{'s' * (len(page.sources) != 1)}, each sentence checked against "
            "the passage it cites</span></p>",
            body,
            note,
        ]

    def _as_answer(self) -> Answer:
        """The page as the evidence viewer reads an answer: its sentences are the verified claims."""
        page = self.wiki
        assert page is not None
        question = f"Library wiki: {page.title}"
        cited = {unit for claim in page.claims for unit in claim.sources}
        sources = tuple(s for s in page.sources if s.unit_id in cited)  # the viewer steps through these
        return Answer(question, Decision.ANSWERED, page.text, page.claims, sources, (), ())

    def _on_link(self, url: QUrl) -> None:
        kind, _, value = url.toString().partition(":")
        if kind == "related" and self.page is not None:
            self._runner.submit("explore_entity", self.page.related[int(value)][0].node)
        elif kind == "passage":
            self.passage_clicked.emit(self._passages()[int(value)])
        elif kind == "wiki" and self.wiki is not None:
            unit = value.partition(":")[2]
            source = next((s for s in self.wiki.sources if s.unit_id == unit), None)
            if source is not None:
                self.wiki_clicked.emit(source, self._as_answer())
        elif kind == "dropped":
            self.show_dropped = not self.show_dropped
            self._render()
        elif kind == "stop":
            self._runner.cancel()
        elif kind == "write" and self.subject is not None:
            self._write(self.subject)
        elif kind == "ask" and self.page is not None:
            question = f"What do the documents say about {self.page.node.label}?"
            self.ask_about.emit(question, list(self.page.documents))
