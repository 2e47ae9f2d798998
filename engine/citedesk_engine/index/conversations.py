"""Conversations persist in the library (refusals included), beside the manifest in SQLite."""

from __future__ import annotations

import json
import sqlite3
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

_SCHEMA = """
CREATE TABLE IF NOT EXISTS conversations (
    id TEXT PRIMARY KEY, title TEXT NOT NULL, created REAL, updated REAL
);
CREATE TABLE IF NOT EXISTS turns (
    conversation TEXT NOT NULL, number INTEGER NOT NULL, question TEXT NOT NULL, answer TEXT NOT NULL,
    created REAL, PRIMARY KEY (conversation, number)
);
"""


@dataclass(frozen=True, slots=True)
class Turn:
    number: int
    question: str
    answer: dict[str, object]  # the Answer as JSON, so old turns survive changes of the dataclass


@dataclass(frozen=True, slots=True)
class ConversationInfo:
    id: str
    title: str
    created: float
    updated: float
    turns: int


class Conversations:
    def __init__(self, path: Path) -> None:
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        self._db.close()

    def new(self, title: str) -> str:
        conversation = uuid.uuid4().hex[:12]
        now = time.time()
        self._db.execute(
            "INSERT INTO conversations VALUES (?, ?, ?, ?)", (conversation, title[:120], now, now)
        )
        return conversation

    def exists(self, conversation: str) -> bool:
        return (
            self._db.execute("SELECT 1 FROM conversations WHERE id = ?", (conversation,)).fetchone()
            is not None
        )

    def add_turn(self, conversation: str, question: str, answer: dict[str, object]) -> None:
        now = time.time()
        self._db.execute("BEGIN IMMEDIATE")
        try:
            (count,) = self._db.execute(
                "SELECT COUNT(*) FROM turns WHERE conversation = ?", (conversation,)
            ).fetchone()
            self._db.execute(
                "INSERT INTO turns VALUES (?, ?, ?, ?, ?)",
                (conversation, count + 1, question, json.dumps(answer, ensure_ascii=False), now),
            )
            self._db.execute("UPDATE conversations SET updated = ? WHERE id = ?", (now, conversation))
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise

    def turns(self, conversation: str) -> list[Turn]:
        rows = self._db.execute(
            "SELECT number, question, answer FROM turns WHERE conversation = ? ORDER BY number",
            (conversation,),
        ).fetchall()
        return [Turn(n, q, json.loads(a)) for n, q, a in rows]

    def list(self) -> list[ConversationInfo]:
        rows = self._db.execute(
            "SELECT c.id, c.title, c.created, c.updated, COUNT(t.number) FROM conversations c "
            "LEFT JOIN turns t ON t.conversation = c.id GROUP BY c.id ORDER BY c.updated DESC"
        ).fetchall()
        return [ConversationInfo(*row) for row in rows]

    def delete(self, conversation: str) -> bool:
        self._db.execute("DELETE FROM turns WHERE conversation = ?", (conversation,))
        return self._db.execute("DELETE FROM conversations WHERE id = ?", (conversation,)).rowcount > 0
