"""Watched folders in the window: a real file system watcher, a real engine (hashed embeddings), files
created, modified, moved and deleted while the window is open, and a big folder that asks first."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from citedesk_desktop import folder_watch
from citedesk_desktop.folder_watch import WatchedFoldersDialog
from citedesk_desktop.main_window import MainWindow
from citedesk_engine import Engine
from citedesk_engine.testing import HashEmbedder
from citedesk_engine.watch import FolderWatch
from factories import hashed_window
from PySide6.QtWidgets import QMessageBox

WAIT = 30_000  # ms: a change is looked at 2 s after the file system reports it


@pytest.fixture
def window(qtbot, tmp_path: Path):  # type: ignore[no-untyped-def]
    with hashed_window(qtbot, tmp_path) as window:
        qtbot.waitUntil(lambda: not window.runner.busy, timeout=60_000)
        yield window


def _names(window: MainWindow) -> set[str]:
    return {Path(r.document).name for r in window.library.model.rows().values() if r.state == "indexed"}


def _units(window: MainWindow, name: str) -> int:
    return next(r.units or 0 for r in window.library.model.rows().values() if Path(r.document).name == name)


def test_a_watched_folder_follows_its_files_while_the_window_is_open(qtbot, window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "tides.txt").write_text("Spring tides occur at the new and the full moon.\n")
    (notes / "orbit.md").write_text("# Orbit\n\nThe moon's orbit takes 27.3 days.\n")
    window.watcher.watch(str(notes))
    qtbot.waitUntil(lambda: _names(window) == {"tides.txt", "orbit.md"}, timeout=WAIT)
    assert window.status_watch.text() == "Watching 1 folder"

    (notes / "eclipse.txt").write_text("A solar eclipse happens at new moon.\n")  # created
    qtbot.waitUntil(lambda: "eclipse.txt" in _names(window), timeout=WAIT)

    longer = "Neap tides occur at the first and third quarter. " * 200  # modified: more passages
    (notes / "tides.txt").write_text(longer)
    later = time.time() + 5
    os.utime(notes / "tides.txt", (later, later))
    qtbot.waitUntil(lambda: _units(window, "tides.txt") > 1, timeout=WAIT)

    (notes / "archive").mkdir()
    (notes / "orbit.md").rename(notes / "archive" / "orbit.md")  # moved
    qtbot.waitUntil(
        lambda: (
            any(
                r.document == str(notes / "archive" / "orbit.md")
                for r in window.library.model.rows().values()
            )
            and str(notes / "orbit.md") not in window.library.model.rows()
        ),
        timeout=WAIT,
    )

    (notes / "eclipse.txt").unlink()  # deleted
    qtbot.waitUntil(lambda: "eclipse.txt" not in _names(window), timeout=WAIT)
    assert window.watcher.queue == []


def test_a_big_folder_asks_first_and_not_now_keeps_it_paused(
    qtbot, window, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    big = tmp_path / "big"
    big.mkdir()
    for number in range(folder_watch.ASK_ABOVE_FILES + 5):
        (big / f"note{number:02}.txt").write_text(f"Note number {number} of the big folder.\n")
    asked: list[tuple[str, list[str]]] = []

    def not_now(box: QMessageBox) -> int:  # the user reads the box and answers Not now
        asked.append((box.text(), [button.text() for button in box.buttons()]))
        box.reject()
        return 0

    monkeypatch.setattr(QMessageBox, "exec", not_now)
    window.watcher.watch(str(big))
    qtbot.waitUntil(lambda: bool(window.watcher.folders) and window.watcher.folders[0].paused, timeout=WAIT)
    text, buttons = asked[0]
    assert "25 files (1 KB)" in text and "about a minute" in text and "Read them now?" in text
    assert sorted(buttons) == ["Not now", "Read now"]
    assert _names(window) == set()  # nothing read
    assert window.status_watch.text() == "1 watched folder, paused · 25 changes waiting"

    dialog = WatchedFoldersDialog(window.watcher, window)
    qtbot.addWidget(dialog)
    assert "paused · 25 changes waiting" in dialog.list.item(0).text()
    assert dialog.pause_button.text() == "&Resume"
    dialog.pause_button.click()  # resume: read in the background, in steps
    qtbot.waitUntil(lambda: len(_names(window)) == 25, timeout=60_000)
    qtbot.waitUntil(lambda: "watching · 0 changes waiting" in dialog.list.item(0).text(), timeout=WAIT)
    dialog.remove_button.click()  # stop watching: the documents stay
    qtbot.waitUntil(lambda: dialog.list.count() == 0 and not dialog.empty.isHidden(), timeout=WAIT)
    assert len(_names(window)) == 25 and window.status_watch.isHidden()


def test_changes_made_while_the_window_was_closed_are_read_when_it_opens(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "tides.txt").write_text("Spring tides occur at the new and the full moon.\n")
    with Engine.open(tmp_path / "library", embedder=HashEmbedder()) as engine:
        FolderWatch(engine).add(notes)  # watched, nothing read: as if the window had quit meanwhile
    (notes / "later.txt").write_text("Written while CiteDesk was closed.\n")
    with hashed_window(qtbot, tmp_path) as window:
        qtbot.waitUntil(lambda: _names(window) == {"tides.txt", "later.txt"}, timeout=WAIT)


def test_many_files_dropped_into_a_watched_folder_ask_before_they_are_read(
    qtbot, window, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "tides.txt").write_text("Spring tides occur at the new and the full moon.\n")
    window.watcher.watch(str(notes))
    qtbot.waitUntil(lambda: _names(window) == {"tides.txt"}, timeout=WAIT)
    asked: list[str] = []

    def read_now(box: QMessageBox) -> int:
        asked.append(box.text())
        next(b for b in box.buttons() if b.text() == "Read now").click()
        return 0

    monkeypatch.setattr(QMessageBox, "exec", read_now)
    for number in range(folder_watch.ASK_ABOVE_FILES + 3):
        (notes / f"drop{number:02}.txt").write_text(f"Dropped note {number}.\n")
    qtbot.waitUntil(lambda: len(_names(window)) == folder_watch.ASK_ABOVE_FILES + 4, timeout=60_000)
    assert len(asked) == 1 and "“notes” has 23 new or changed files (1 KB)" in asked[0]
    assert not window.watcher.folders[0].paused


def test_both_folder_choosers_open_in_the_home_folder(window, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # A window session found "Watch a folder" opening in the program's working directory.
    asked: list[str] = []

    def chooser(parent, caption, start=""):  # type: ignore[no-untyped-def]
        asked.append(start)
        return ""  # cancelled: nothing is added or watched

    monkeypatch.setattr(folder_watch.QFileDialog, "getExistingDirectory", chooser)
    window.watcher.choose_folder()
    window.choose_folder()
    assert asked == [str(Path.home())] * 2
    assert window.status_watch.text() != "Watching 1 folder"
