"""Cross-lingual reformulation: the question translated into each language the library holds, so that
every retriever also searches with the words of the passages' own language (the seed's
QueryReformulator, `[retrieval] search_languages`).

Which languages: `["auto"]` (the default) stands for the languages of at least a tenth of the
library's documents (detected at ingest), at most three, and codes may be listed as well ("de",
"fr"). The question's own language is left out, so that a library in the asker's language costs
nothing; each translation is one short prompt to the generator, kept in a cache for the session. A
translation that does not read as one (empty, several lines of explanation, far longer than the
question) is dropped, and the trace says so; one that is the question itself is not searched twice.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from ..languages import NAMES, UNDETERMINED, language_name
from ..protocols import Generator

AUTO = "auto"
# For searching, the question's likeliest language is left out whatever its probability: a wrong
# guess only costs the translation into that one language (languages.QUESTION_LANGUAGE_CONFIDENCE).
AUTO_MIN_SHARE = 0.1  # "auto": a language of at least this share of the documents (a misdetected file
AUTO_MAX_LANGUAGES = 3  # of code or numbers should not make every question wait for a translation)
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
    for those (the most common first) that the answer model writes (`languages.NAMES`): a library
    whose table of prices was read as Volapuk (before 0.16.2) had every question translated into
    "vo". Codes listed explicitly are kept: the generator may still know them."""
    wanted: list[str] = []
    for code in configured:
        if code == AUTO:
            counts = Counter(v for v in library.values() if v in NAMES)
            ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
            floor = AUTO_MIN_SHARE * len(library)
            wanted += [c for c, n in ranked if n >= floor][:AUTO_MAX_LANGUAGES]
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
        own, _ = self.identify(question)
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
    return " ".join(re.findall(r"\w+", text.lower()))
