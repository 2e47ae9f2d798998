"""Cross-lingual reformulation: the question translated into each language the library holds, so that
every retriever also searches with the words of the passages' own language (the seed's
QueryReformulator, `[retrieval] search_languages`).

Which languages: `["auto"]` stands for the languages of the library's documents (detected at
ingest), and codes may be listed as well ("de", "fr"). The question's own language is left out when
it is identified with confidence; each translation is one short prompt to the generator, kept in a
cache for the session. A translation that does not read as one (empty, several lines of
explanation, far longer than the question, or the question itself) is dropped, and the trace says
so: the question is then searched as asked in that language.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from ..languages import UNDETERMINED, language_name
from ..protocols import Generator

AUTO = "auto"
# A question identified as being in one language with at least this probability is not translated
# into it (py3langid, normalised). Questions are short: of our 90 written in English, German and French
# (benchmarks/multilingual), py3langid named the right language for all 90, with probabilities from
# 0.79 up; under this threshold a question is translated into every library language, its own
# included, which costs time, not recall.
QUESTION_LANGUAGE_CONFIDENCE = 0.5
MAX_LENGTH_RATIO = 3.0  # a translation far longer than the question is an explanation, not one

TRANSLATE_SYSTEM = (
    "You are a translator. Translate the user's text into {language}. Keep names, numbers, commands "
    "and file names as they are. Write only the translation."
)
_QUOTES = "\"'«»„“”‚‘’`"


@dataclass(frozen=True, slots=True)
class Reformulation:
    """The question in other languages ({code: text}) and, for the trace, what was dropped and why."""

    variants: dict[str, str]
    dropped: dict[str, str] = field(default_factory=dict)
    question_language: str = UNDETERMINED


def search_languages(configured: Sequence[str], library: Mapping[str, str]) -> list[str]:
    """The codes to search in: `library` maps each document to its detected language; "auto" stands
    for those (the most common first). Unknown codes are kept: the generator may still know them."""
    wanted: list[str] = []
    for code in configured:
        if code == AUTO:
            counts = Counter(v for v in library.values() if v and v != UNDETERMINED)
            wanted += [c for c, _ in sorted(counts.items(), key=lambda item: (-item[1], item[0]))]
        else:
            wanted.append(code.strip().lower())
    return list(dict.fromkeys(c for c in wanted if c))


@dataclass
class QueryReformulator:
    generator: Callable[[], Generator]
    identify: Callable[[str], tuple[str, float]]
    _cache: dict[tuple[str, str], str | None] = field(default_factory=dict)

    def reformulate(
        self, question: str, languages: Sequence[str], cancel: threading.Event | None = None
    ) -> Reformulation:
        code, probability = self.identify(question)
        own = code if probability >= QUESTION_LANGUAGE_CONFIDENCE else UNDETERMINED
        variants: dict[str, str] = {}
        dropped: dict[str, str] = {}
        for language in languages:
            if language == own:
                continue
            text = self.translate(question, language, cancel)
            if text is None:
                dropped[language] = "the model's reply was not a translation"
            elif _fold(text) != _fold(question):
                variants[language] = text
        return Reformulation(variants, dropped, own)

    def translate(self, text: str, language: str, cancel: threading.Event | None = None) -> str | None:
        """`text` (a question or a one-sentence statement) in `language`, or None when the model's
        reply is not a translation; asked once per text and language."""
        key = (text, language)
        if key not in self._cache:
            if len(self._cache) > 512:
                self._cache.clear()
            messages = [
                {"role": "system", "content": TRANSLATE_SYSTEM.format(language=language_name(language))},
                {"role": "user", "content": text},
            ]
            budget = 2 * len(text.split()) + 24
            reply = self.generator().generate(messages, max_tokens=budget, cancel=cancel)
            self._cache[key] = clean_translation(reply, text)
        return self._cache[key]


def clean_translation(reply: str, question: str) -> str | None:
    """The translated question in `reply`, or None when the reply is not one."""
    lines = [line.strip() for line in reply.strip().splitlines() if line.strip()]
    if len(lines) != 1:
        return None
    text = re.sub(r"^(?:translation|übersetzung|traduction)\s*:\s*", "", lines[0], flags=re.IGNORECASE)
    text = text.strip(_QUOTES + " ")
    if not text or len(text) > MAX_LENGTH_RATIO * max(len(question), 20):
        return None
    return text


def _fold(text: str) -> str:
    return " ".join(text.lower().split()).rstrip("?")
