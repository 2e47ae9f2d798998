"""CiteDesk engine: offline ingest, retrieval and cited answers. No Qt below this package."""

from __future__ import annotations

from .api import Engine
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
from .ingest.extract import SUPPORTED as SUPPORTED_EXTENSIONS
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

__version__ = "0.15.0"

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
