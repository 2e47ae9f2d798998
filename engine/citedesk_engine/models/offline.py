"""The Hugging Face libraries must never reach for the network: every model folder is local."""

from __future__ import annotations

import os


def forbid_hub() -> None:
    """Belt and braces before loading from a local folder: the hub is not even asked, and no
    progress bars or warnings reach the user's terminal. Must run before transformers is imported."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
