"""The main window's menu bar: every action with its shortcut, in one place."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QKeySequence

if TYPE_CHECKING:
    from .main_window import MainWindow


def build_menus(window: MainWindow) -> None:
    """The menu bar: File, Ask, View and Help, with their shortcuts."""
    file_menu = window.menuBar().addMenu("&File")
    _action(window, file_menu, "&Add files…", QKeySequence.StandardKey.Open, window.choose_files)
    _action(window, file_menu, "Add &folder…", QKeySequence("Ctrl+Shift+O"), window.choose_folder)
    _action(
        window, file_menu, "&Remove selected", QKeySequence.StandardKey.Delete, window.library.remove_selected
    )
    _action(window, file_menu, "&Watch a folder…", None, window.watcher.choose_folder)
    _action(window, file_menu, "Wa&tched folders…", None, window.show_watched_folders)
    _action(window, file_menu, "&Cancel indexing", QKeySequence("Esc"), window.runner.cancel)
    _action(window, file_menu, "Add &sample documents", None, window.try_samples)
    file_menu.addSeparator()
    _action(window, file_menu, "Open &library…", QKeySequence("Ctrl+L"), window.choose_library)
    _action(window, file_menu, "S&ettings…", QKeySequence("Ctrl+,"), window.open_settings)
    file_menu.addSeparator()
    _action(window, file_menu, "&Quit", QKeySequence.StandardKey.Quit, window.close)
    ask_menu = window.menuBar().addMenu("&Ask")
    _action(window, ask_menu, "&New conversation", QKeySequence.StandardKey.New, window._new_conversation)
    _action(window, ask_menu, "&Ask a question", QKeySequence("Ctrl+K"), window._focus_question)
    _action(
        window,
        ask_menu,
        "Ask in the selected &documents",
        QKeySequence("Ctrl+Shift+K"),
        lambda: window.ask_in(window.library.indexed_selection()),
    )
    _action(window, ask_menu, "Ask the &whole library", None, window.chat.clear_scope)
    _action(window, ask_menu, "&Stop answering", QKeySequence("Ctrl+."), window.stop_answering)
    ask_menu.addSeparator()
    _action(
        window,
        ask_menu,
        "&Export conversation…",
        QKeySequence("Ctrl+E"),
        lambda: window.chat.export_conversation(),
    )
    view_menu = window.menuBar().addMenu("&View")
    window.sidebar_action = _action(
        window, view_menu, "&Library and conversations", QKeySequence("Ctrl+B"), window._toggle_sidebar
    )
    window.sidebar_action.setCheckable(True)
    window.sidebar_action.setChecked(True)
    _action(
        window,
        view_menu,
        "E&xplore topics and entities",
        QKeySequence("Ctrl+Shift+E"),
        lambda: window.show_explore(),
    )
    view_menu.addSeparator()
    _action(window, view_menu, "&Ask", QKeySequence("Ctrl+1"), window._focus_question)
    for number, (name, widget) in enumerate(
        (("&Evidence", window.evidence), ("&Trace", window.trace), ("&Document text", window.document)), 2
    ):
        _action(
            window,
            view_menu,
            name,
            QKeySequence(f"Ctrl+{number}"),
            # QAction.triggered passes `checked`: without the first parameter it would take w's place.
            lambda _checked=False, w=widget: window.tabs.setCurrentWidget(w),
        )
    view_menu.addSeparator()
    _action(
        window, view_menu, "Zoom &in", QKeySequence.StandardKey.ZoomIn, lambda: window.evidence.zoom_by(1.25)
    )
    _action(
        window, view_menu, "Zoom &out", QKeySequence.StandardKey.ZoomOut, lambda: window.evidence.zoom_by(0.8)
    )
    _action(window, view_menu, "&Fit page width", QKeySequence("Ctrl+0"), window.evidence.fit_width)
    _action(window, view_menu, "&Previous page", QKeySequence("Alt+Left"), window.evidence.previous_page)
    _action(window, view_menu, "&Next page", QKeySequence("Alt+Right"), window.evidence.next_page)
    _action(
        window,
        view_menu,
        "Pre&vious citation",
        QKeySequence("Alt+Up"),
        lambda: window._step_citation(-1),
    )
    _action(window, view_menu, "Ne&xt citation", QKeySequence("Alt+Down"), lambda: window._step_citation(1))
    help_menu = window.menuBar().addMenu("&Help")
    _action(window, help_menu, "&About CiteDesk", None, window.show_about)


def _action(window: MainWindow, menu, text: str, shortcut, slot) -> QAction:  # type: ignore[no-untyped-def]
    action = QAction(text, window)
    if shortcut is not None:
        action.setShortcut(shortcut)
    action.triggered.connect(slot)
    menu.addAction(action)
    return action
