"""The one-time confirmation before a question and its passages are sent to a server on another
computer. The configuration's `allow_remote = true` makes such a server possible; this makes sure the
person at the window knows, once for each server, what will be sent where."""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlsplit

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox, QWidget

KEY = "remote/confirmed"  # "slot url" entries the user agreed to


def unconfirmed(
    servers: Sequence[tuple[str, str]], settings: QSettings | None = None
) -> list[tuple[str, str]]:
    settings = settings or QSettings()
    known = set(settings.value(KEY, [], type=list) or [])
    return [(slot, url) for slot, url in servers if f"{slot} {url}" not in known]


def remember(servers: Sequence[tuple[str, str]], settings: QSettings | None = None) -> None:
    settings = settings or QSettings()
    known = list(settings.value(KEY, [], type=list) or [])
    known += [f"{slot} {url}" for slot, url in servers if f"{slot} {url}" not in known]
    settings.setValue(KEY, known)


def consent_text(servers: Sequence[tuple[str, str]]) -> str:
    sent = {
        "generator": "each question, the passages found for it and the conversation's earlier turns",
        "embedder": "the text of every passage of the documents you add, and each question",
        "reranker": "each question and the passages found for it",
    }
    lines = [
        f"• {urlsplit(url).hostname} ({slot}): {sent.get(slot, 'questions and passages')}"
        for slot, url in servers
    ]
    return (
        "These model slots are set to servers on other computers. What they are sent leaves this "
        "computer:\n\n" + "\n".join(lines) + "\n\nSend to these servers? You are asked once for each server."
    )


def ask_consent(
    parent: QWidget, servers: Sequence[tuple[str, str]], settings: QSettings | None = None
) -> bool:
    """True when every server is confirmed, now or before; asks about those not confirmed yet."""
    pending = unconfirmed(servers, settings)
    if not pending:
        return True
    box = QMessageBox(
        QMessageBox.Icon.Question, "Send to another computer?", consent_text(pending), parent=parent
    )
    send = box.addButton("Send to these servers", QMessageBox.ButtonRole.AcceptRole)
    box.addButton("Do not send", QMessageBox.ButtonRole.RejectRole)
    box.setDefaultButton(send)
    box.exec()
    if box.clickedButton() is not send:
        return False
    remember(pending, settings)
    return True
