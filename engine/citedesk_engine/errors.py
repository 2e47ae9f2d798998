"""The EngineError tree: every error the engine raises on purpose.

EngineError
├── ConfigError          the configuration file or a setting is invalid
├── LibraryError         the library folder cannot be opened or is locked by another process
├── ModelError           a model slot cannot be resolved, assembled, verified or loaded
├── ExtractionError      one file cannot be turned into text (reported per file, never stops a batch)
├── DocumentNotFound     a document id or path is not in the library
├── RerankerError        a reranker failed or broke its contract (never a silent fallback)
├── GeneratorError       the generator's server failed or broke the OpenAI stream (never a fallback)
├── EmbedderError        the embedder's server failed or sent anything but one vector per text
└── Cancelled            the caller's cancel event was set; the engine stopped at a safe point
"""

from __future__ import annotations

from .types import StageTrace


class EngineError(Exception):
    """Base of every error the engine raises on purpose; the message is meant for the user."""


class ConfigError(EngineError):
    """The configuration is invalid."""


class LibraryError(EngineError):
    """The library folder cannot be used."""


class ModelError(EngineError):
    """A model slot cannot be resolved, assembled, verified or loaded."""


class ExtractionError(EngineError):
    """One file cannot be turned into text; the message says why in plain words."""


class DocumentNotFound(EngineError):
    """The document is not in the library."""


class RerankerError(EngineError):
    """A reranker raised, or returned anything but one finite number per passage."""


class GeneratorError(EngineError):
    """The generator's server could not be reached, refused, timed out or sent a malformed stream."""


class EmbedderError(EngineError):
    """The embedder's server could not be reached, refused, or sent anything but one vector per text."""


class Cancelled(EngineError):
    """The operation was cancelled by the caller. A question's carries the stages it had gone through
    (`trace`: StageTrace records, the stage it was stopped in last), for its trace to show."""

    trace: tuple[StageTrace, ...] = ()
