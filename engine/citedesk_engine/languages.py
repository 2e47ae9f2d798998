"""Offline language identification (py3langid, a model shipped in the wheel): of a whole document at
ingest, and of a question when a refusal may be about language."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

UNDETERMINED = "und"
_SAMPLE_CHARS = 20_000
# py3langid's normalised probability below which a label is a guess: a table of names and dates
# (Debian's release CSV) came out as Nigerian Pidgin at 0.06. Real prose of a page scores above 0.99.
MIN_DOCUMENT_PROBABILITY = 0.5
# A question identified as being in one language with at least this probability is taken to be in it
# when its claims are checked (answer/crosslingual.py) and its yes/no answer is asked for in it.
# Questions are short: of our 90 written in English, German and French (benchmarks/multilingual),
# py3langid named the right language for all 90, with probabilities from 0.79 up; of squad-dev's 500
# English questions, 468 as English at 0.5 or more, 30 as English below it, 2 as another language
# below it, none as another language above it.
QUESTION_LANGUAGE_CONFIDENCE = 0.5
NAMES = {
    "ar": "Arabic",
    "bg": "Bulgarian",
    "cs": "Czech",
    "da": "Danish",
    "de": "German",
    "el": "Greek",
    "en": "English",
    "es": "Spanish",
    "fa": "Persian",
    "fi": "Finnish",
    "fr": "French",
    "he": "Hebrew",
    "hi": "Hindi",
    "hu": "Hungarian",
    "id": "Indonesian",
    "it": "Italian",
    "ja": "Japanese",
    "ko": "Korean",
    "nl": "Dutch",
    "no": "Norwegian",
    "pl": "Polish",
    "pt": "Portuguese",
    "ro": "Romanian",
    "ru": "Russian",
    "sv": "Swedish",
    "th": "Thai",
    "tr": "Turkish",
    "uk": "Ukrainian",
    "vi": "Vietnamese",
    "zh": "Chinese",
}


@lru_cache(maxsize=1)
def _identifier() -> Any:
    from py3langid.langid import MODEL_DIR, MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_modelpath(MODEL_DIR / MODEL_FILE, norm_probs=True)


def identify(text: str) -> tuple[str, float]:
    """The most likely ISO 639-1 code of `text` and its probability (0..1)."""
    code, probability = _identifier().classify(text)
    return str(code), float(probability)


def detect_language(text: str) -> str:
    """The ISO 639-1 code of the document's main language, or "und" when there are too few letters
    or the identification is only a guess."""
    sample = text[:_SAMPLE_CHARS]
    if sum(1 for c in sample if c.isalpha()) < 20:
        return UNDETERMINED
    code, probability = identify(sample)
    return code if probability >= MIN_DOCUMENT_PROBABILITY else UNDETERMINED


def language_name(code: str) -> str:
    return NAMES.get(code, code)
