"""Yes/no questions: how they are recognised, and when an answer's "yes" or "no" follows from its own
sentence.

The claim verifier cannot judge a bare "yes" or "no": it scores both alike (HaluEval's 21 yes/no
answers: "yes" and "no" within 0.002 of each other, about 0.98; BoolQ dev with the gold passage: within
a few hundredths; see docs/evaluation.md). So a yes/no question is answered with the yes or no and a
sentence that restates the question ("No, VADER does not need training data [1]", prompts.POLAR). The
sentence is verified as any statement of the passage; the yes or no is kept only when it follows from
that sentence: the sentence restates the question (holds every content word of it) and says "not"
where the question does not exactly when the answer is "no". Otherwise the sentence alone is the
answer, and the reader draws the conclusion.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .text import content_stems, negated

_AUXILIARY = "are|is|was|were|do|does|did|can|could|has|have|had|will|would|should|shall|may|might|must"
# A German yes/no question opens with its finite verb: the auxiliaries, the modals and the verbs
# most often asked with ("Gibt es ...?", "Gilt das ...?"). Forms that open English questions too
# ("War", "Bin", "Mag") are left out: "War broke out when?" is no yes/no question.
_GERMAN_VERBS = (
    "ist|sind|bist|waren|hat|habe|hast|haben|hatte|hatten|wird|werden|wurde|wurden|kann|können|konnte|"
    "konnten|darf|dürfen|durfte|soll|sollen|sollte|sollten|muss|müssen|musste|möchte|gibt|gilt|gelten|"
    "besteht|bestehen|braucht|brauchen|enthält|enthalten|unterstützt|funktioniert|läuft|stimmt"
)
# "Does it ...?", and a condition before it: "If I press Enter, does the formula continue ...?"
_POLAR = re.compile(rf"^\W*(?:[^,?]{{1,80}},\s*)?(?:{_AUXILIARY}|{_GERMAN_VERBS})\b", re.IGNORECASE)
# French: "Est-ce que ...?", or a verb joined to its subject pronoun ("Peut-on ...?", "Les auteurs
# sont-ils ...?", "Y a-t-il ...?"), the question not opening with a question word ("Sur quoi ...").
_FRENCH_POLAR = re.compile(
    r"^\W*(?:est-ce qu|(?!(?:\w+\s+)?(?:qui|que|qu'|quoi|quel|quelle|quels|quelles|où|quand|comment|"
    r"combien|pourquoi|lequel|laquelle)\b)[^?]{0,80}?\b\w+-(?:t-)?(?:il|elle|on|ils|elles|je|tu|nous|vous)\b)",
    re.IGNORECASE,
)
_ANSWER = re.compile(r"^\s*(yes|no|ja|nein|oui|non)\b[\s,.:;!-]*", re.IGNORECASE)
_NO = frozenset({"no", "nein", "non"})


def is_polar(question: str) -> bool:
    """A question answered by yes or no: it opens with an auxiliary verb (after a condition); in
    German with its finite verb, in French with "est-ce que" or a verb joined to its pronoun."""
    return bool(_POLAR.match(question) or _FRENCH_POLAR.match(question))


def asks_yes_or_no(question: str) -> bool:
    """Polar and offering no alternatives: "Is it A or B?" is answered by naming one."""
    lowered = f" {question.lower()} "
    return is_polar(question) and not any(f" {word} " in lowered for word in ("or", "oder", "ou"))


@dataclass(frozen=True, slots=True)
class PolarAnswer:
    """An answer to a yes/no question that opens with "yes" or "no"."""

    said: str  # "yes" | "no"
    sentence: str  # what follows it ("" for a bare yes or no)
    follows: bool  # the yes or no follows from the sentence


def polar_answer(question: str, claim: str) -> PolarAnswer | None:
    """The claim read as a yes/no answer to the question, or None when it is not one."""
    if not is_polar(question):
        return None
    match = _ANSWER.match(claim)
    if match is None:
        return None
    said = match.group(1).lower()
    sentence = claim[match.end() :].strip()
    sentence = sentence[:1].upper() + sentence[1:]
    wanted = set(content_stems(question))
    restates = bool(wanted) and wanted <= set(content_stems(sentence))
    turned = negated(sentence) != negated(question)
    return PolarAnswer(said, sentence, bool(sentence) and restates and turned == (said in _NO))
