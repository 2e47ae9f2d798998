"""Follow-up questions: which depend on the conversation, and how they become standalone questions.

A question that names what it asks about ("What was the main conclusion of the study?") is searched
as asked, whatever came before it. One that cannot be understood alone (a pronoun: "Where did she
study?"; an ellipsis: "And in 2022?", "What about gamma rays?", "Why?") is rewritten by the generator
from the previous turn into a question that stands alone ("Where did Marie Curie study?"); retrieval,
every gate and the generator then read that question, and the answer says what was searched. A
rewrite that does not read as the same question (empty, far longer, the model's refusal phrase, none
of the follow-up's own words) is not trusted: the previous question is folded into the search
instead, and the answer says so.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass

from ..protocols import Generator
from .prompts import NOT_FOUND
from .text import content_stems, words

# Words that point back at something the question does not name (English; a question in another
# language is searched as asked unless it is an ellipsis).
_PRONOUNS = frozenset(
    """he she him her his hers they them their theirs it its itself himself herself themselves
    former latter""".split()
)
# "this", "that": a pointer when it stands for the subject ("What is this?", "How does that work?"),
# not when it opens a relative clause ("the file that is read first"): the word before it is no
# noun, and a verb or the end follows it. "that" and "those" before a noun point back too ("Which
# group can read that file?", "those results"); "this study", "these figures" name the documents at
# hand and are searched as asked.
# A pronoun in a clause these open refers to something the question named before it ("Which handler
# rotates log files once they reach a maximum size?": they, the log files; a window session saw it
# rewritten from the previous question), unless nothing was named before ("When did she ...?").
_CLAUSE_OPENERS = frozenset("once when whenever if because after before until while since unless".split())
_DEMONSTRATIVES = frozenset("this that these those".split())
_POINTING_BACK = frozenset("that those".split())
_BEFORE_POINTER = frozenset(
    """what who which why how when where is was are were does did do can could will would about of in
    for from with after before on to""".split()
)
_AFTER_POINTER = frozenset(
    """is was are were does did do mean means work works happen happened used called cost costs take true
    right correct possible""".split()
)
_ELLIPSIS = re.compile(
    r"^\s*(?:and|but|or|also|what about|how about|and what about|what else|anything else|same for)\b",
    re.IGNORECASE,
)
_QUESTION_WORDS = frozenset("what who whom whose which when where why how".split())
MAX_REWRITE_WORDS = 40

REWRITE_SYSTEM = (
    "Rewrite the follow-up question so that it can be understood without the conversation: replace "
    "pronouns and references with what they refer to, and keep every other word. Write only the "
    "rewritten question."
)


@dataclass(frozen=True, slots=True)
class EarlierTurn:
    """What a follow-up may refer to: an earlier question and the answer it got ("" if refused)."""

    question: str
    answer: str = ""

    @classmethod
    def stored(cls, question: str, answer: dict[str, object]) -> EarlierTurn:
        """A turn as the conversation store keeps it: the answer's text without its citations."""
        text = answer.get("text", "") if answer.get("decision") != "refused" else ""
        return cls(question, re.sub(r"\s*\[\d+\]", "", str(text)))


@dataclass(frozen=True, slots=True)
class Resolved:
    """The question as searched, and how it came from the question as asked."""

    searched: str
    how: str  # "as asked" | "rewritten" | "folded" (the previous question added to the search)
    rewrite: str = ""  # what the generator wrote, when it was asked


def depends_on_conversation(question: str) -> bool:
    """The question points back at an earlier turn and cannot be searched on its own."""
    said = words(question)
    if not said:
        return False
    if _ELLIPSIS.match(question):
        return True
    opened = False  # in a clause opened after something was named
    named = _named_before_pronoun(question)
    for index, word in enumerate(said):
        if word in _CLAUSE_OPENERS and index and content_stems(" ".join(said[:index])):
            opened = True
        if word in _PRONOUNS and not opened and not named:
            return True
        if word in _DEMONSTRATIVES:
            before = said[index - 1] if index else ""
            after = said[index + 1] if index + 1 < len(said) else ""
            if (not before or before in _BEFORE_POINTER) and (not after or after in _AFTER_POINTER):
                return True
            if word in _POINTING_BACK and after and not _function_word(after):
                return True
    # "Why?", "When exactly?", "How many?": a question word and little else.
    return len(content_stems(question)) == 0 and said[0] in _QUESTION_WORDS


def _named_before_pronoun(question: str) -> bool:
    """A name (a capitalised word after the question's first) stands before its first pronoun, which
    is then the name's: "In what year did Terry Therneau receive his PhD?" was searched together with
    the previous, unrelated question in a window session."""
    for index, token in enumerate(re.findall(r"[\w’'-]+", question)):
        if token.lower() in _PRONOUNS:
            return False
        if index and token[:1].isupper() and any(c.islower() for c in token[1:]):
            return True
    return False


def resolve(
    question: str,
    earlier: Sequence[EarlierTurn],
    generator: Generator | None,
    *,
    cancel: threading.Event | None = None,
) -> Resolved:
    """The standalone question to search for `question`, asked after `earlier` turns."""
    if not earlier or not depends_on_conversation(question):
        return Resolved(question, "as asked")
    previous = earlier[-1]
    folded = Resolved(f"{question} {previous.question}", "folded")
    if generator is None:
        return folded
    conversation = f"Question: {previous.question}\n" + (
        f"Answer: {previous.answer}\n" if previous.answer else ""
    )
    messages = [
        {"role": "system", "content": REWRITE_SYSTEM},
        {"role": "user", "content": f"{conversation}Follow-up question: {question}\nRewritten question:"},
    ]
    rewrite = " ".join(generator.generate(messages, max_tokens=60, cancel=cancel).split())
    rewrite = rewrite.removeprefix("Rewritten question:").strip().strip('"“”').strip().replace("`", "")
    if not _trustworthy(rewrite, question):
        return Resolved(folded.searched, "folded", rewrite)
    if not rewrite.endswith("?"):
        rewrite = rewrite.rstrip(".") + "?"
    return Resolved(rewrite, "rewritten", rewrite)


def _function_word(word: str) -> bool:
    return word in _AFTER_POINTER or not content_stems(word)


def _stems(text: str) -> set[str]:
    """Content stems, a hyphenated word counted both ways ("e-mail" matches "email")."""
    return set(content_stems(text)) | set(content_stems(text.replace("-", "")))


def _trustworthy(rewrite: str, question: str) -> bool:
    if not rewrite or NOT_FOUND.lower() in rewrite.lower() or "\n" in rewrite:
        return False
    if len(words(rewrite)) > max(MAX_REWRITE_WORDS, 3 * len(words(question))):
        return False
    # Every content word of the question stays, in some form: "How old was he when he died?" was
    # rewritten "When did Prince die?" (a window session), and "old" was never searched.
    kept = _stems(rewrite)
    return all(_stems(word) & kept for word in re.findall(r"[\w’'-]+", question) if _stems(word))
