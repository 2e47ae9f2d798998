"""CiteDesk engine: offline ingest, retrieval and cited answers. No Qt below this package."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import _pymupdf_without_layout  # noqa: F401 (first: before anything here imports pymupdf)
from .config import Config, IngestConfig, ModelsConfig, default_library_dir, load_config
from .errors import (
    Cancelled,
    ConfigError,
    DocumentNotFound,
    EmbedderError,
    EngineError,
    ExtractionError,
    GeneratorError,
    LibraryError,
    ModelError,
)
from .events import Event, FileFinished, Progress, StageStarted, TokenDelta
from .index.conversations import ConversationInfo
from .types import (
    Box,
    DocumentRecord,
    Drift,
    DriftKind,
    EvidenceUnit,
    FileResult,
    FileStatus,
    IngestReport,
    LibraryStatus,
    ModelInfo,
    StructureNode,
)

if TYPE_CHECKING:
    from .api import Engine
    from .ingest.extract import SUPPORTED as SUPPORTED_EXTENSIONS

__version__ = "0.26.0"


def __getattr__(name: str) -> Any:
    """`Engine` and `SUPPORTED_EXTENSIONS` are imported when first asked for: a worker process that
    runs one function of the engine (the entity reader, the PDF reader) does not import all of it."""
    if name == "Engine":
        from .api import Engine

        return Engine
    if name == "SUPPORTED_EXTENSIONS":
        from .ingest.extract import SUPPORTED

        return SUPPORTED
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Box",
    "Cancelled",
    "Config",
    "ConversationInfo",
    "ConfigError",
    "DocumentNotFound",
    "DocumentRecord",
    "Drift",
    "DriftKind",
    "EmbedderError",
    "Engine",
    "EngineError",
    "Event",
    "EvidenceUnit",
    "ExtractionError",
    "FileFinished",
    "FileResult",
    "FileStatus",
    "GeneratorError",
    "IngestConfig",
    "IngestReport",
    "LibraryError",
    "LibraryStatus",
    "ModelError",
    "ModelInfo",
    "ModelsConfig",
    "Progress",
    "StageStarted",
    "StructureNode",
    "SUPPORTED_EXTENSIONS",
    "TokenDelta",
    "default_library_dir",
    "load_config",
    "__version__",
]
