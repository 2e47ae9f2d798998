"""Offline language identification of a whole document (py3langid, a model shipped in the wheel)."""

from __future__ import annotations

import py3langid

UNDETERMINED = "und"
_SAMPLE_CHARS = 20_000


def detect_language(text: str) -> str:
    """The ISO 639-1 code of the document's main language, or "und" when there are too few letters."""
    sample = text[:_SAMPLE_CHARS]
    if sum(1 for c in sample if c.isalpha()) < 20:
        return UNDETERMINED
    code, _score = py3langid.classify(sample)
    return str(code)
