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

A labelled list is the other kind: settings, fields or steps one per line, each opening with its
label and a colon ("– minsplit: ... The default is 20.", "– minbucket: ... This defaults to
minsplit/3."). "What does minbucket default to?" was answered "20" and shown as verified (0.95): the
value a question asks of the item it names must stand in that item, not only in another.

A sentence that quotes terms for different things is the third: 'the name is pronounced "deck" and
is short for "double-ended queue"'. "What is the name deque short for?" was answered "deck" and shown
as verified (0.97). A quoted answer must be the term the question's words lead to (`other_quote`).
"""

from __future__ import annotations

import re

from .claims import sentences
from .printouts import FIGURE_TOKEN
from .text import content_stems, numbers

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


# An item of a labelled list: a line opening with an optional bullet or number, then a label of one
# to four words and a colon ("– minsplit: The minimum number ...", "Pin-Priority: 500", "2. Stage
# 3: ..."). The item runs to the next item's line.
_LABELLED = re.compile(
    r"(?m)^[ \t]*(?:[-–—•*·▪◦]|\d+[.)])?[ \t]*[`'\"]?"
    r"(?P<label>[A-Za-z_][\w.\-]*(?: [\w.\-]+){0,3}?)[`'\"]?[ \t]*:[ \t]+(?=\S)"
)


def other_label(claim: str, passage: str, question: str) -> str:
    """What the guard says when `claim` is a value the passage writes only in items of a labelled list
    other than the ones `question` names ("the passage gives 20 for minsplit, not for minbucket");
    "" otherwise: no such list, the question names none of its labels, or the answer stands in a
    named item (or in no item, or only as a label)."""
    answer = claim.strip().strip("`'\"").rstrip(".").strip()
    if not answer:
        return ""
    starts = list(_LABELLED.finditer(passage))
    if len(starts) < 2:  # one "label: value" line is a sentence, two or more a list
        return ""
    asked = _label_key(question)
    items = [
        (opened.group("label"), opened.end(), starts[n + 1].start() if n + 1 < len(starts) else len(passage))
        for n, opened in enumerate(starts)
    ]
    named = {_label_key(label) for label, _, _ in items if f" {_label_key(label)} " in f" {asked} "}
    # "pin priority" names Pin-Priority, not Pin as well
    named = {key for key in named if not any(key != other and f" {key} " in f" {other} " for other in named)}
    if not named:
        return ""
    found = re.compile(rf"(?<![\w.]){re.escape(answer)}(?![\w])", re.IGNORECASE)
    holders = [label for label, start, end in items if found.search(passage, start, end)]
    wanted = dict.fromkeys(label for label, _, _ in items if _label_key(label) in named)
    if not holders:
        return _named_value(answer, passage, items, named)
    if {_label_key(label) for label in holders} & named:
        return ""
    given = " and ".join(dict.fromkeys(holders))
    return f"the passage gives {answer} for {given}, not for {' or '.join(wanted)}"


def _named_value(answer: str, passage: str, items: list[tuple[str, int, int]], named: set[str]) -> str:
    """What the guard says when a number the question asks of a named item stands in the passage
    outside every item, and each item named gives a number of its own: summary(m1) in flexmix's
    vignette prints "'log Lik.' -642.5451 (df=9)", then "AIC: 1303.09" and "BIC: 1332.775"; "What is
    the BIC of model m1?" was answered "-642.5451" and shown as verified (0.77). "" otherwise (a
    number the passage does not write is the number guard's)."""
    if not numbers(answer) or not re.search(rf"(?<![\w.]){re.escape(answer)}(?![\w])", passage):
        return ""
    given = [
        (label, FIGURE_TOKEN.search(passage, start, end))
        for label, start, end in items
        if _label_key(label) in named
    ]
    if not given or not all(value for _, value in given):
        return ""
    label, value = given[0]
    assert value is not None
    return f"the passage gives {value.group(0).rstrip('*')} for {label}, not {answer}"


def _label_key(text: str) -> str:
    """Lower case, words only: "Pin-Priority" and "pin priority" are one label."""
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


# A term in double quotes, straight or curly; single quotes are apostrophes too often to pair.
_QUOTED = re.compile(r"[\"“”]([^\"“”\n]{1,80})[\"“”]")
_CLAUSE_MARK = re.compile(r"[;:]")
_LEAD_WORDS = 4  # the words before a quote that say what it is ("is short for", "is pronounced")


def other_quote(claim: str, passage: str, question: str) -> str:
    """What the guard says when `claim` is a term a sentence of the passage quotes for something the
    question does not ask, and the same sentence quotes another term after words the question writes
    ("the passage quotes 'double-ended queue' after 'short for', 'deck' after 'is pronounced'"); ""
    otherwise. What a quote is for is read from the words before it (`_lead`): "pronounced" leads
    "deck", "short for" leads "double-ended queue"."""
    answer = _label_key(claim.strip().strip("`'\"“”").rstrip("."))
    asked = set(content_stems(question))
    if not answer:
        return ""
    for sentence in sentences(passage):
        quotes = list(_QUOTED.finditer(sentence))
        if len(quotes) < 2:
            continue
        leads = [_lead(sentence, quotes, n) for n in range(len(quotes))]
        stems = [set(content_stems(lead)) for lead in leads]
        mine = [n for n, quote in enumerate(quotes) if _label_key(quote.group(1)) == answer]
        # Quotes of one clause only: 'CL-0 uses type "HC0"; CL-1 uses type "HC1"' are two settings.
        led = [
            n
            for n, lead in enumerate(stems)
            if lead
            and lead <= asked
            and n not in mine
            and not any(
                _CLAUSE_MARK.search(sentence, *sorted((quotes[n].end(), quotes[m].start()))) for m in mine
            )
        ]
        if mine and led and all(stems[n] - asked for n in mine):
            wanted, given = led[0], mine[0]
            return (
                f"the passage quotes {quotes[wanted].group(1)!r} after {leads[wanted]!r}, "
                f"{quotes[given].group(1)!r} after {leads[given]!r}"
            )
    return ""


def _lead(sentence: str, quotes: list[re.Match[str]], n: int) -> str:
    """The words before the `n`th quote of a sentence that say what it is: back to the quote before
    it, an opening bracket or a clause mark, at most four, less a leading "and" ("is short for")."""
    before = sentence[quotes[n - 1].end() if n else 0 : quotes[n].start()]
    words = re.split(r"[(;:,\[]", before)[-1].split()[-_LEAD_WORDS:]
    return " ".join(words[1:] if words[:1] in (["and"], ["or"]) else words)
