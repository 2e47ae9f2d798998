"""A library's stored conversations read back as the answers the ask pipeline returned."""

from __future__ import annotations

from pathlib import Path

from .errors import DocumentNotFound
from .index.conversations import Conversations
from .index.library import DATABASE
from .serialize import answer_from_plain
from .types import Answer


def answers_in(store: Conversations, conversation: str) -> list[Answer]:
    """The answers of a stored conversation, in order."""
    if not store.exists(conversation):
        raise DocumentNotFound(f"There is no conversation {conversation} in this library.")
    return [answer_from_plain(turn.answer) for turn in store.turns(conversation)]


def stored_answers(folder: Path, conversation: str) -> list[Answer]:
    """`answers_in` of the library in `folder`, read through a connection of their own: a window shows
    a past conversation while the library's engine works on its own thread (a long ingest held it
    back for as long, a window session). SQLite in WAL mode: a reader never waits for the writer."""
    store = Conversations(Path(folder) / DATABASE)
    try:
        return answers_in(store, conversation)
    finally:
        store.close()
