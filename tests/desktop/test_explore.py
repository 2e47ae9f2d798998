"""The entity graph in the window: built while the user does nothing, then explored (topics, an
entity's page, its passages opened in the evidence viewer, "Ask about this")."""

from __future__ import annotations

from pathlib import Path

from citedesk_desktop.main_window import MainWindow
from citedesk_desktop.runner import EngineRunner
from citedesk_engine import Engine
from citedesk_engine.config import Config, ModelsConfig
from citedesk_engine.errors import Cancelled
from citedesk_engine.graph.wiki import entity_subject
from citedesk_engine.testing import CapitalisedMentionReader, HashEmbedder, ScriptedGenerator
from PySide6.QtCore import QSettings, Qt, QUrl


def window_with_graph(qtbot, tmp_path: Path, texts: dict[str, str], generator, config=None):  # type: ignore[no-untyped-def]
    """A window on a new library of these documents (file name: text), added as a user adds them,
    once the graph has caught up in the background; and its runner."""
    docs = tmp_path / "docs"
    docs.mkdir()
    for name, text in texts.items():
        (docs / name).write_text(text, encoding="utf-8")
    runner = EngineRunner(
        lambda folder: Engine.open(
            folder,
            config,
            embedder=HashEmbedder(),
            generator=generator,
            mention_reader=CapitalisedMentionReader(),
        )
    )
    window = MainWindow(
        runner, tmp_path / "library", QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    )
    qtbot.addWidget(window)
    window.show()
    try:
        qtbot.waitUntil(lambda: window.status_models.text() == "Models ready", timeout=60_000)
        window.ingest([str(docs)])
        # No step is asked for while the ingest runs; once it is done the graph catches up alone.
        qtbot.waitUntil(
            lambda: (
                window.graph.last is not None
                and window.graph.last.current
                and window.graph.last.documents == len(texts)
            ),
            timeout=60_000,
        )
    except BaseException:
        window.close()
        runner.shutdown()
        raise
    return window, runner


def test_the_graph_catches_up_in_the_background_and_explore_opens_an_entitys_passages(
    qtbot, tmp_path: Path
) -> None:
    window, runner = window_with_graph(
        qtbot,
        tmp_path,
        {
            "titanic.txt": "Titanic is a film of 1997. "
            "Titanic was directed by James Cameron and starred Kate Winslet.",
            "cameron.txt": "James Cameron grew up in Kapuskasing. James Cameron later moved to Los Angeles.",
        },
        ScriptedGenerator("NOT IN PASSAGES"),
    )
    try:
        assert "topic" in window.status_graph.text()
        assert not runner.busy  # background steps never show the library as busy

        window.show_explore()
        assert window.side_tabs.currentWidget() is window.explore
        qtbot.waitUntil(lambda: window.explore.topics.count() >= 2, timeout=10_000)  # "All topics" + one
        window.explore.search.setText("cameron")
        qtbot.waitUntil(
            lambda: (
                window.explore.entities.count() > 0
                and window.explore.entities.item(0).data(Qt.ItemDataRole.UserRole) == "james cameron"
            ),
            timeout=10_000,
        )
        window.explore._open_item(window.explore.entities.item(0))
        qtbot.waitUntil(lambda: window.explore.page is not None, timeout=10_000)
        page = window.explore.page
        assert {Path(s.path).name for s in page.passages} == {"titanic.txt", "cameron.txt"}
        assert "titanic" in {n.node for n, _ in page.related}
        shown = window.explore.details.toPlainText()
        assert "James Cameron" in shown and "Ask about this" in shown

        window.explore._on_link(QUrl("passage:0"))  # a passage opens in the evidence viewer
        assert window.evidence.source == page.passages[0]

        window.explore._on_link(QUrl("ask:"))
        assert set(window.chat.scope) == set(page.documents) and len(page.documents) == 2
        assert window.chat.question.toPlainText() == "What do the documents say about James Cameron?"

        # another library opened: nothing of this one's entities stays on show
        window.open_library(tmp_path / "another")
        assert window.explore.page is None and window.explore.entities.count() == 0
        assert "James Cameron" not in window.explore.details.toPlainText()
        qtbot.waitUntil(lambda: not runner.busy, timeout=10_000)
    finally:
        window.close()
        runner.shutdown()


class FirstCallWaitsForStop(ScriptedGenerator):
    """Writes its page, except the first time: then it waits until Stop is pressed (the way the real
    model stops between tokens)."""

    def __init__(self, answer: str) -> None:
        super().__init__(answer)
        self.calls = 0

    def generate(self, messages, *, max_tokens, on_token=None, cancel=None):  # type: ignore[no-untyped-def]
        self.calls += 1
        if self.calls == 1:
            assert cancel is not None and cancel.wait(60)
            raise Cancelled("generation cancelled")
        return super().generate(messages, max_tokens=max_tokens, on_token=on_token, cancel=cancel)


def test_an_entitys_wiki_page_is_written_when_opened_its_chips_open_the_evidence_and_stop_works(
    qtbot, tmp_path: Path
) -> None:
    generator = FirstCallWaitsForStop(
        "James Cameron grew up in Kapuskasing [1]. James Cameron won an award in Paris [2]."
    )
    window, runner = window_with_graph(
        qtbot,
        tmp_path,
        {
            "titanic.txt": "Titanic is a film of 1997. Titanic was directed by James Cameron.",
            "cameron.txt": "James Cameron grew up in Kapuskasing.",
        },
        generator,
        Config(models=ModelsConfig(reranker="none", verifier="none")),
    )
    explore = window.explore
    try:
        window.show_explore()
        explore.search.setText("cameron")
        qtbot.waitUntil(
            lambda: (
                explore.entities.count() > 0
                and explore.entities.item(0).data(Qt.ItemDataRole.UserRole) is not None
            ),
            timeout=10_000,
        )
        explore._open_item(explore.entities.item(0))
        qtbot.waitUntil(lambda: explore.wiki_state == "writing", timeout=10_000)
        assert "Writing a short page" in explore.details.toPlainText()
        explore._on_link(QUrl("stop:"))
        qtbot.waitUntil(lambda: explore.wiki_state == "stopped", timeout=10_000)
        assert explore.wiki is None and "Write the page" in explore.details.toPlainText()

        explore._on_link(QUrl("write:"))
        qtbot.waitUntil(lambda: explore.wiki is not None, timeout=10_000)
        page = explore.wiki
        assert [c.text for c in page.claims] == ["James Cameron grew up in Kapuskasing."]
        shown = explore.details.toPlainText()
        assert "James Cameron grew up in Kapuskasing. [" in shown
        assert "1 sentence removed: no passage supports it" in shown
        assert "James Cameron won an award" not in shown
        assert explore.draft == ["James Cameron grew up in Kapuskasing."]  # shown as it was written
        explore._on_link(QUrl("dropped:"))  # the sentence left out, and why
        assert (
            "✗ “James Cameron won an award in Paris.”: no passage supports it"
            in explore.details.toPlainText()
        )
        (claim,) = page.claims
        explore._on_link(QUrl(f"wiki:0:{claim.sources[0]}"))  # its chip
        assert window.evidence.source.unit_id == claim.sources[0]
        assert window.evidence.answer.claims == page.claims  # the viewer marks the sentence it stands on
        assert window.evidence.answer.sources == (window.evidence.source,)  # only what a sentence cites
        assert "Verified “James Cameron grew up in Kapuskasing.”" in window.evidence.details.text()

        explore._open_subject(entity_subject("atlantis"))  # gone meanwhile: said on the page, no dialog
        qtbot.waitUntil(lambda: explore.wiki_state.startswith("No entity 'atlantis'"), timeout=10_000)
        assert explore.wiki is None and "Try again" in explore.details.toPlainText()

        calls = generator.calls
        explore._open_item(explore.entities.item(0))  # opened again: read from the library
        qtbot.waitUntil(lambda: explore.wiki is not None, timeout=10_000)
        assert generator.calls == calls and explore.wiki == page
        qtbot.waitUntil(lambda: not runner.busy, timeout=10_000)
    finally:
        window.close()
        runner.shutdown()


def test_an_entitys_kind_is_said_only_as_far_as_it_can_be_told() -> None:
    from citedesk_desktop.widgets.explore_panel import kind_word
    from citedesk_engine.graph.store import Node

    def node(label: str, kind: str) -> Node:
        return Node(label.lower(), label, kind, 3, None)

    assert kind_word(node("David Bowie", "PERSON")) == "person"
    assert kind_word(node("assessment report", "NP")) == "phrase"
    # the small recogniser's kinds on a technical manual (a window session): said as names
    for label, kind in [
        ("Harrell", "PERSON"),
        ("Sniffer", "GPE"),
        ("Gehan-Wilcoxon", "FAC"),
        ("False", "WORK_OF_ART"),
    ]:
        assert kind_word(node(label, kind)) == "name", label
