"""Claims checked in the language of the passage they cite.

An answer is written in the asker's language; the passage it cites may be in another (a German
manual asked in English). The per-claim gate compares words, numbers and meaning within one
language, so such a claim is first translated by the generator into the passage's language, and
that translation is what the gate checks, and highlights, against the passage. The claim's method
says so ("checked in German as ..."), and what the English-only checks cannot read is listed in the
trace: in a claim in another language than English they find nothing to veto, which is not the same
as having found nothing wrong.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..languages import UNDETERMINED, language_name
from .verify import NOUNS_CAPITALISED

# The checks of verify.py that read English words only (word lists and English word order), and the
# verifier model trained on English; a claim checked in another language passes the first unread.
# Negations are listed in English, German, French and Spanish (text.py), yes/no answers read in
# English, German and French (polar.py), numbers written with digits in every language.
ENGLISH_ONLY_CHECKS = (
    "antonyms (an inverted comparison or change)",
    "roles (participants swapped)",
    "number words",
    "the claim verifier (trained on English pairs: it reads other languages, less reliably)",
)
NEGATION_LANGUAGES = frozenset({"en", "de", "fr", "es"})
YES_NO_LANGUAGES = frozenset({"en", "de", "fr"})


@dataclass(frozen=True, slots=True)
class InLanguage:
    """A claim as it is checked against passages of one language."""

    language: str
    claim: str  # the claim, translated when the language is not the asker's
    question: str  # the question in that language ("" when the claim is checked on its own)
    translated: bool

    def note(self) -> str:
        return f"checked in {language_name(self.language)} as “{self.claim}”: " if self.translated else ""

    def unread_checks(self) -> list[str]:
        """The checks that could not read this claim (empty for English)."""
        if self.language in ("en", UNDETERMINED):
            return []
        unread = list(ENGLISH_ONLY_CHECKS)
        if self.language in NOUNS_CAPITALISED:
            unread.append("names (every noun is capitalised)")
        if self.language not in NEGATION_LANGUAGES:
            unread.append("negation words")
        if self.language not in YES_NO_LANGUAGES:
            unread.append("yes/no answers")
        return unread


@dataclass
class ClaimLanguages:
    """Which language the asker wrote in, which each document is in, and how to translate."""

    asker: str  # ISO 639-1 code of the question, UNDETERMINED when not identified with confidence
    documents: Mapping[str, str]  # document id -> language code
    translate: Callable[[str, str, threading.Event | None], str | None]
    questions: Mapping[str, str]  # the question already translated (reformulation), by language
    cancel: threading.Event | None = None

    def language_of(self, document: str) -> str:
        return self.documents.get(document, UNDETERMINED) or UNDETERMINED

    def claim_in(self, claim: str, question: str, language: str) -> InLanguage | None:
        """The claim (and its question) to check against passages in `language`: as written when
        that is the asker's language or either is unknown, else translated; None when the generator's
        reply was no translation."""
        if UNDETERMINED in (language, self.asker) or language == self.asker:
            return InLanguage(language, claim, question, translated=False)
        translated = self.translate(claim, language, self.cancel)
        if translated is None:
            return None
        asked = ""
        if question:
            asked = self.questions.get(language) or self.translate(question, language, self.cancel) or ""
        return InLanguage(language, translated, asked, translated=True)
