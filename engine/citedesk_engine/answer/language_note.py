"""A relevance refusal of a question in another language than the passages says so: the retrievers and
the gate match words and meaning within one language."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..languages import UNDETERMINED, language_name
from ..types import Candidate, Refusal

# py3langid's probability for a question's language to be named in a refusal ("Wie ändere ich den
# Standard-Editor?" 0.98; short English questions score 0.6-0.95, so only a confident guess is said).
QUESTION_LANGUAGE_PROBABILITY = 0.9


def with_language_note(
    refusal: Refusal,
    question: str,
    candidates: Sequence[Candidate],
    identify_language: Callable[[str], tuple[str, float]] | None,
    document_languages: Callable[[], dict[str, str]],
) -> Refusal:
    """The refusal, with a note when the question seems to be in another language than the passages
    considered (`identify_language`: the question's language and its probability)."""
    if identify_language is None:
        return refusal
    code, probability = identify_language(question)
    languages = document_languages()
    found = {languages.get(c.unit.document, UNDETERMINED) for c in candidates} - {UNDETERMINED}
    if probability < QUESTION_LANGUAGE_PROBABILITY or not found or code in found:
        return refusal
    theirs = ", ".join(sorted(language_name(f) for f in found))
    note = (
        f" The question seems to be in {language_name(code)}, the passages considered are in {theirs}: "
        f"words and meaning are matched best within one language, so asking in {theirs}, or choosing "
        "the multilingual embedder (Settings > Models), may find them."
    )
    return Refusal(refusal.stage, refusal.reason + note, {**refusal.details, "question_language": code})
