"""Typed progress events the engine passes to an `on_event` callback."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class StageStarted:
    """A pipeline stage begins (for ingest: per file; `subject` names the file)."""

    stage: str
    subject: str = ""


@dataclass(frozen=True, slots=True)
class Progress:
    """`done` of `total` items of a stage are finished (files, batches, units)."""

    stage: str
    done: int
    total: int
    subject: str = ""


@dataclass(frozen=True, slots=True)
class FileFinished:
    """One file of an ingest is finished; `result` is its FileResult."""

    result: object


@dataclass(frozen=True, slots=True)
class TokenDelta:
    """A piece of generated text."""

    text: str


@dataclass(frozen=True, slots=True)
class SentenceChecked:
    """A sentence of a library wiki page, checked by the per-claim gate as soon as it is written."""

    subject: str
    text: str
    kept: bool
    why: str  # how it was checked, or why it was left out


Event = StageStarted | Progress | FileFinished | TokenDelta | SentenceChecked
EventCallback = Callable[[Event], None]


def emit(callback: EventCallback | None, event: Event) -> None:
    """Send an event if anyone listens."""
    if callback is not None:
        callback(event)
