"""Model slots on a server in the window: Settings' fields and checks, and the one-time confirmation
before anything is sent to another computer."""

from __future__ import annotations

from pathlib import Path

import pytest
from citedesk_desktop import main_window as main_window_module
from citedesk_desktop.main_window import MainWindow
from citedesk_desktop.remote_consent import consent_text, remember, unconfirmed
from citedesk_desktop.runner import EngineRunner
from citedesk_desktop.widgets import settings_dialog
from citedesk_desktop.widgets.settings_dialog import PENDING, SettingsDialog
from citedesk_engine import Config, Engine, ModelInfo, ModelsConfig
from citedesk_engine.config import load_config, save_config
from citedesk_engine.testing import HashEmbedder, ScriptedGenerator
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox


@pytest.fixture
def settings(tmp_path: Path) -> QSettings:
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


def test_a_generator_on_a_server_is_chosen_with_its_address_and_model(qtbot) -> None:
    info = (ModelInfo("generator", "packaged", "/m/g.gguf", 1_000_000, True, "generator verified"),)
    dialog = SettingsDialog(Config(), info, documents=0)
    qtbot.addWidget(dialog)
    assert not dialog.generator.server.isEnabled()
    dialog.generator.choice.setCurrentIndex(dialog.generator.choice.findData("http"))
    assert dialog.generator.server.isEnabled() and not dialog.generator.path.isEnabled()
    assert dialog.generator.state.text() == PENDING
    assert not dialog.generator.browse.isEnabled()  # nothing to browse for a server
    # The state line keeps two lines' room whatever it says: in a window session its growth from one
    # line to two moved the fields of a dialog as tall as the screen under the user's click.
    assert dialog.generator.state.minimumHeight() >= 2 * dialog.generator.state.fontMetrics().lineSpacing()
    assert dialog.problem().startswith("Give the address of the server")
    dialog.generator.server.url.setText("http://localhost:11434/v1")
    dialog.generator.server.model.setText("qwen2.5:7b-instruct")
    assert dialog.problem() == ""
    models = dialog.config().models
    assert (models.generator, models.generator_url, models.generator_model) == (
        "http",
        "http://localhost:11434/v1",
        "qwen2.5:7b-instruct",
    )
    assert models.endpoint("generator").url == "http://localhost:11434"


def test_a_server_on_another_computer_needs_the_box_and_a_confirmation(qtbot, settings, monkeypatch) -> None:
    dialog = SettingsDialog(Config(), (), documents=0, consent=settings)
    qtbot.addWidget(dialog)
    dialog.generator.choice.setCurrentIndex(dialog.generator.choice.findData("http"))
    dialog.generator.server.url.setText("http://192.168.1.20:8080")
    dialog.generator.server.model.setText("llama-70b")
    problem = dialog.problem()
    assert "192.168.1.20, which is not this computer" in problem
    assert "Tick “Servers on other computers may be used”" in problem and "[models]" not in problem
    dialog.allow_remote.setChecked(True)
    assert dialog.problem() == ""
    declined: list[str] = []
    monkeypatch.setattr(
        settings_dialog, "ask_consent", lambda parent, servers, store: declined.append(servers)
    )
    dialog.accept()
    assert declined == [(("generator", "http://192.168.1.20:8080"),)] and dialog.result() == 0  # kept open
    monkeypatch.setattr(settings_dialog, "ask_consent", lambda parent, servers, store: True)
    dialog.accept()
    assert dialog.result() == SettingsDialog.DialogCode.Accepted
    assert dialog.config().models.allow_remote


def test_an_embedder_on_a_server_counts_as_another_embedder(qtbot, monkeypatch) -> None:
    dialog = SettingsDialog(Config(), (), documents=4)
    qtbot.addWidget(dialog)
    dialog.embedder.choice.setCurrentIndex(dialog.embedder.choice.findData("http"))
    dialog.embedder.server.url.setText("http://127.0.0.1:9000")
    assert "embedder_model" in dialog.problem()  # the library records the model's name
    dialog.embedder.server.model.setText("bge-m3")
    asked: list[str] = []
    monkeypatch.setattr(
        QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or QMessageBox.StandardButton.Yes
    )
    dialog.accept()
    assert asked and "embedded again" in asked[0] and dialog.reembed


def test_confirmations_are_remembered_per_server_and_say_what_is_sent(settings) -> None:
    servers = [("generator", "http://10.0.0.5:8000"), ("embedder", "http://10.0.0.6:8000")]
    assert unconfirmed(servers, settings) == servers
    remember(servers[:1], settings)
    assert unconfirmed(servers, settings) == servers[1:]
    text = consent_text(servers)
    assert "10.0.0.5 (generator): each question, the passages found for it" in text
    assert "10.0.0.6 (embedder): the text of every passage of the documents you add" in text


def test_declining_at_open_sends_nothing_and_goes_back_to_the_packaged_model(
    qtbot, tmp_path: Path, settings, monkeypatch
) -> None:
    library = tmp_path / "library"
    library.mkdir()
    remote = ModelsConfig(
        generator="http", generator_url="http://10.0.0.5:8000", generator_model="big", allow_remote=True
    )
    save_config(library / "config.toml", Config(models=remote))
    asked: list[tuple] = []
    monkeypatch.setattr(
        main_window_module,
        "ask_consent",
        lambda parent, servers, store: asked.append(tuple(servers)) or False,
    )
    loaded: list[str] = []
    runner = EngineRunner(
        lambda folder: Engine.open(folder, embedder=HashEmbedder(), generator=ScriptedGenerator("x"))
    )
    runner.finished.connect(lambda operation, result: loaded.append(operation))
    window = MainWindow(runner, library, settings)
    qtbot.addWidget(window)
    try:
        window.show()
        qtbot.waitUntil(lambda: "apply_settings" in loaded, timeout=60_000)
        # Then the packaged models load, and nothing was loaded before the slot went back to them.
        qtbot.waitUntil(lambda: "load_generator" in loaded, timeout=60_000)
        assert loaded.index("load_models") > loaded.index("apply_settings")
        assert asked == [(("generator", "http://10.0.0.5:8000"),)]  # asked once
        models = load_config(library / "config.toml").models
        assert models.generator == "default" and not models.allow_remote
        assert window.status_models.text() == "Models ready"
        said = window.statusBar().currentMessage()
        assert said.startswith("Nothing was sent: the generator went back to the packaged models"), said
    finally:
        window.close()
        runner.shutdown()
