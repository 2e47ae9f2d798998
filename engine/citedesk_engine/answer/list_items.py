"""An answer taken from the wrong item of a list the passage writes as parallel sentences.

Reference pages and manuals list things one sentence each, every sentence opening with the thing's
name and going on in the same words: "StreamHandler instances send messages to streams.",
"RotatingFileHandler instances send messages to disk files, with support for maximum log file
sizes ...", "TimedRotatingFileHandler instances send messages to disk files, rotating the log file at
certain timed intervals." Every name is the passage's, and the verifier reads any of them as a fine
answer to "Which handler rotates log files once they reach a maximum size?": the real-document set's
q074 was answered "TimedRotatingFileHandler" and shown as verified (0.90).

A one-word answer that opens one item of such a list (three items or more sharing the two words
after the name) must open the item that says most of what the question asks: when another item of
the list holds more of the question's content words, the passage says that of the other thing.
"""

from __future__ import annotations

import re

from .claims import sentences
from .text import content_stems

_MIN_ITEMS = 3  # two sentences opening alike are a coincidence; three are a list
_OPENING = re.compile(r"^\s*[`'\"]?([A-Za-z_][\w.]*(?:\(\))?)[`'\"]?\s+(\S+)\s+(\S+)")


def other_item(claim: str, passage: str, question: str) -> str:
    """What the guard says when `claim` names an item of a parallel list of `passage` and another item
    says more of `question` ("the passage says that of RotatingFileHandler"); "" otherwise."""
    answer = claim.strip().strip("`'\"").rstrip(".").removesuffix("()")
    if not answer or " " in answer:
        return ""
    items: dict[tuple[str, str], list[tuple[str, str]]] = {}  # the words after the name: (name, rest)
    for sentence in sentences(passage):
        opened = _OPENING.match(sentence)
        if opened:
            key = (opened.group(2).lower(), opened.group(3).lower())
            items.setdefault(key, []).append((opened.group(1).removesuffix("()"), sentence[opened.end(1) :]))
    asked = set(content_stems(question))
    for group in items.values():
        if len(group) < _MIN_ITEMS or answer not in {name for name, _ in group}:
            continue
        said = {name: len(asked & set(content_stems(rest))) for name, rest in group}
        best = max(said.values())
        if said[answer] < best:
            others = [name for name, n in said.items() if n == best]
            return f"the passage says that of {' or '.join(others)}, not of {answer}"
    return ""
