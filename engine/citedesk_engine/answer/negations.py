"""A negation the claim adds to its passage or drops from it.

"Patients must be discharged without a follow-up appointment" says every word of "Patients must not
be discharged without a follow-up appointment" but one: said again word for word, every negation of
the stretch it says again must be said again. Otherwise the claim and its window must agree on being
negated, a negation the question states being the user's.
"""

from __future__ import annotations

from .claims import sentences
from .restated import participant_words
from .text import NEGATIONS, STOP_STEMS, negated, negation_count


def negation_changed(claim: str, window: str, question: str, *, judged: bool) -> bool:
    """The claim says "not" where the passage does not, or the other way round. Judged as an answer,
    a negation the question states is the user's; and with the verifier reading the answer, only an
    added negation is vetoed here (a short answer beside a "not" of its sentence is not a dropped one)."""
    said, found = negated(claim), negated(window)
    # Said again word for word, every negation of the stretch must be said again, question or not:
    # "must not be discharged without a follow-up" is not "must be discharged without a follow-up",
    # and a question that says "without" does not make the dropped "not" the user's.
    stretch = _covered_stretch(claim, window)
    if stretch is not None and negation_count(stretch) != negation_count(
        participant_words(claim, stemmed=False)
    ):
        return True
    if not question:
        return said != found
    if said == negated(question):
        return False
    return said != found and (said or not judged)


def _covered_stretch(claim: str, window: str) -> list[str] | None:
    """The words of the window from the first to the last of the claim's content words, when the claim
    holds every content word of that stretch and the stretch every one of the claim's: the claim says
    the stretch again, its words perhaps reordered and its negations perhaps dropped. The stretch takes
    in the stopwords and negations right before and after it within its sentence ("None of six
    dimensions displayed ..." / "... was displayed by none of six dimensions"). None otherwise."""
    claim_stems = participant_words(claim)
    content = set(claim_stems) - STOP_STEMS - NEGATIONS
    window_stems: list[str] = []
    window_words: list[str] = []
    for sentence in sentences(window) or [window]:
        window_stems += [*participant_words(sentence), _BOUNDARY]
        window_words += [*participant_words(sentence, stemmed=False), _BOUNDARY]
    found = [i for i, w in enumerate(window_stems) if w in content]
    if not found or not content <= set(window_stems):
        return None
    lo, hi = min(found), max(found) + 1
    if set(window_stems[lo:hi]) - STOP_STEMS - NEGATIONS - content - {_BOUNDARY}:
        return None
    edge = STOP_STEMS | NEGATIONS
    while lo > 0 and window_stems[lo - 1] in edge:
        lo -= 1
    while hi < len(window_stems) and window_stems[hi] in edge:
        hi += 1
    return [w for w in window_words[lo:hi] if w != _BOUNDARY]


_BOUNDARY = "<.>"  # between the window's sentences: a stretch takes in no word across it
