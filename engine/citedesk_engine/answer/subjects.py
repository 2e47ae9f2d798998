"""A claim that gives one sentence's description to another sentence's subject.

"Farrington is a Bayesian counterpart to the methods introduced by Farrington, Andrews, Beale, and
Catchpole (1996)" stood on two sentences of the surveillance paper: "First we describe the
Farrington method introduced by Farrington, Andrews, Beale, and Catchpole (1996) ..." and "As a
Bayesian counterpart to these methods we present the BODA method ...". Every word is the passage's
(aligned 1.00) and the verifier, reading both sentences, agreed (0.80); but the Bayesian counterpart
is BODA (issue 20, stop 40's wiki session). A claim of the form "X is (a) P" is checked here: the
sentence of the window that says P must say it of X, refer to something with a pronoun ("It is a
Bayesian counterpart"), or name nothing else; when it names another thing and not X, P is that
thing's.
"""

from __future__ import annotations

import re

from .claims import sentences
from .text import NEGATIONS, STOPWORDS, content_stems, shorten, stem, tokens

# "X is/are/was/were [a|an|the] P": the subject at most six words, before the first copula.
_COPULAR = re.compile(
    r"^\s*(?P<subject>(?:\S+\s+){0,5}?\S+)\s+(?:is|are|was|were)\s+(?:not\s+)?(?P<predicate>.+)$",
    re.IGNORECASE | re.DOTALL,
)
# Pronouns that may stand for X in the sentence that says P ("It is a Bayesian method"); not "this" or
# "these", which mostly point at something else ("a Bayesian counterpart to these methods").
_PRONOUNS = frozenset({"it", "they", "he", "she"})
_HEAD_WORDS = 2  # the predicate's first content words that say what X is ("Bayesian counterpart")


def subject_moved(claim: str, window: str) -> str:
    """Why the window says the claim's description of its subject of something else, or ""."""
    parts = sentences(window)
    match = _COPULAR.match(claim)
    if len(parts) < 2 or match is None:
        return ""
    subject = set(content_stems(match.group("subject")))
    said = [w for w in tokens(match.group("predicate")) if w.lower() not in STOPWORDS | NEGATIONS]
    head = [stem(w.lower()) for w in said[:_HEAD_WORDS]]
    if not subject or not head or not subject & set(content_stems(window)):
        return ""  # no subject to find, or the name guard's business
    saying = [p for p in parts if set(head) <= set(content_stems(p))]
    if not saying:
        return ""
    claim_words = {stem(w.lower()) for w in tokens(claim)}
    for sentence in saying:
        written = tokens(sentence)
        if subject & set(content_stems(sentence)) or _PRONOUNS & {w.lower() for w in written}:
            return ""
    sentence = saying[0]
    written = tokens(sentence)
    others = [
        w
        for w in written
        if w[:1].isupper() and w.lower() not in STOPWORDS and stem(w.lower()) not in claim_words
    ]
    if not others:
        return ""
    what, whose = " ".join(said[:_HEAD_WORDS]), " ".join(dict.fromkeys(others[:3]))
    return f"subject: the passage says {what!r} of {whose!r}, not of {shorten(match.group('subject'), 40)!r}"
