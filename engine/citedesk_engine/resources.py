"""Where the files shipped beside the code live: sample documents and our own trained models.

They sit in the repository's `resources/` folder (the install is editable, see the Makefile); a
frozen build (packaging/) carries the same folder next to the executable's own files.
"""

from __future__ import annotations

import sys
from pathlib import Path


def resources_dir() -> Path:
    frozen = getattr(sys, "_MEIPASS", None)
    if frozen is not None:
        return Path(frozen) / "resources"
    return Path(__file__).resolve().parents[2] / "resources"


def samples_dir() -> Path:
    """Three small documents to try the app with (see resources/README.md)."""
    return resources_dir() / "samples"
