"""The entity graph in the window: built while the user does nothing, then explored (topics, an
entity's page, its passages opened in the evidence viewer, "Ask about this")."""

from __future__ import annotations

from pathlib import Path

from citedesk_desktop.main_window import MainWindow
from citedesk_desktop.runner import EngineRunner
from citedesk_engine import Engine
from citedesk_engine.testing import CapitalisedMentionReader, HashEmbedder, ScriptedGenerator
from PySide6.QtCore import QSettings, Qt, QUrl


def test_the_graph_catches_up_in_the_background_and_explore_opens_an_entitys_passages(
    qtbot, tmp_path: Path
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "titanic.txt").write_text(
        "Titanic is a film of 1997. Titanic was directed by James Cameron and starred Kate Winslet.",
        encoding="utf-8",
    )
    (docs / "cameron.txt").write_text(
        "James Cameron grew up in Kapuskasing. James Cameron later moved to Los Angeles.", encoding="utf-8"
    )
    runner = EngineRunner(
        lambda folder: Engine.open(
            folder,
            embedder=HashEmbedder(),
            generator=ScriptedGenerator("NOT IN PASSAGES"),
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
                and window.graph.last.documents == 2
            ),
            timeout=60_000,
        )
        assert "topics" in window.status_graph.text()
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
    finally:
        window.close()
        runner.shutdown()
