"""What a short answer adds to its question: a choice among the alternatives the question offers, a
name or term the passage gives, a call or code name the passage writes, a count or a value the passage
states; or nothing, when it only repeats the question. The verifier (verify.py) reads an answer made
of the question's words only when it adds one of these."""

from __future__ import annotations

import re

from .code_names import code_names, is_code
from .text import NUMBER_WORDS, SHORT_ANSWER_WORDS, STOPWORDS, content_stems, words

# Where a question offers alternatives: the clause holding "A or B", or "between A and B" up to a
# question word ("Between Bob Fosse and Emile Ardolino who has worked more recently?").
_OFFERED = re.compile(
    r"[^,;:?]*\bor\b[^,;:?]*|\bbetween\b.*?(?=\b(?:who|which|what|when|where|how)\b|[,;:?]|$)",
    re.IGNORECASE,
)
# The name just before "or", when the question runs into it without a comma ("Which opera was
# performed first The Midsummer Marriage or The Beggar's Opera?"): the alternative is the name, not the
# whole clause (whose words "performed first" would make any comparison sentence an option).
_NAME_BEFORE_OR = re.compile(
    r"[A-Z0-9][\w'’.&-]*(?:\s+(?:(?:of|the|for|and|in|on|a|an|de|la|le|von|van|der)\s+)*[A-Z0-9][\w'’.&-]*)*\s*$"
)
_OR = re.compile(r"\bor\b", re.IGNORECASE)
# Two names joined by "and" after "of" or "to" ("Who was born first out of Ash Lieb and Robert
# Frost?", "In regards to Mervyn Peake and Robert Erskine Childers, whose works ..."): case matters.
_NAMED_PAIR = re.compile(r"\b(?:of|to)\s+([A-Z0-9\"'][^,;:?]*?\band\s+[A-Z0-9\"'][^,;:?]*)")


def added_stems(claim: str, question: str) -> set[str]:
    """The content words of the answer that the question does not write. A name the question writes
    as code (`code_names`) gives its words only to an answer that writes the name: "True" adds a word
    to "What is args.verbose set to with action store_true?" (Python's argparse tutorial: the right
    "True" was refused as repeating the question), "store_true" adds none."""
    asked = question
    written = set(content_stems(claim))
    for name in code_names(question):
        if re.search(rf"(?<![\w.]){re.escape(name)}(?![\w])", claim, re.IGNORECASE):
            continue
        if set(content_stems(name.replace("_", " ").replace(".", " "))) <= written:
            continue  # every part written apart: "keep weights." for keep_weights gives the name back
        asked = asked.replace(name, " ")
    return set(content_stems(claim)) - set(content_stems(asked))


# An answer that only points at what another sentence says: "For this reason.", "Therefore.", "In
# this way.". Its words stand in the passage, and the verifier read "For this reason." as the answer
# to "Why is the CsparseMatrix class the principal class ...?" (0.88; a newcomer's window session).
_POINTING = r"(?:this|that|these|those|such|the above|the same)"
_POINTED = r"(?:reason|reasons|result|results|purpose|cause|causes|case|way|means|fact)"
# A demonstrative alone may be the answer ("this", the keyword): only with its noun or after a
# preposition does it point.
_POINTER = re.compile(
    rf"^\W*(?:(?:for|because of|as a result of|due to|owing to|in|by)\s+{_POINTING}(?:\s+{_POINTED})?"
    rf"|{_POINTING}\s+{_POINTED}|hence|thus|therefore|consequently|accordingly)\W*$",
    re.IGNORECASE,
)


def points_elsewhere(claim: str) -> bool:
    """The answer only points at what another sentence says ("For this reason."), saying nothing."""
    return _POINTER.match(claim) is not None


def adds_nothing(claim: str, claim_stems: set[str], passage: str, question: str) -> bool:
    """Every word of the answer is the question's, and they make no choice among the question's
    alternatives, no name of the passage's, no call the passage writes: it repeats the question."""
    if added_stems(claim, question):
        return False
    return not (
        names_an_option(claim_stems, question)
        or names_new_phrase(claim, passage, question)
        or names_a_call(claim, passage, question)
    )


def names_an_option(claim_stems: set[str], question: str) -> bool:
    """The question offers alternatives ("A or B", "between A and B", "of A and B") and the answer
    names some of them, not all, and nothing else."""
    clauses = [_offered(m.group(0)) for m in _OFFERED.finditer(question)]
    clauses += [m.group(1) for m in _NAMED_PAIR.finditer(question)]
    offered = set(content_stems(" ".join(clauses)))
    return bool(claim_stems) and claim_stems < offered


def names_new_phrase(claim: str, passage: str, question: str) -> bool:
    """A short answer whose words all come from the question but stand together, in this order, only
    in the passage: the name or term the passage gives ("Nobel Peace Prize Concert",
    "Rcpp.package.skeleton" for "Which Rcpp function creates the skeleton of a new package?"). Words
    are compared as written, a possessive aside ("Maëlle Salmon" is the question's "Maëlle Salmon's")."""
    written = _plain_words(claim)
    if written[:1] and written[0] in ("the", "a", "an"):
        written = written[1:]
    if not written or len(written) > SHORT_ANSWER_WORDS or all(w in STOPWORDS for w in written):
        return False
    phrase = f" {' '.join(written)} "
    return (
        phrase in f" {' '.join(_plain_words(passage))} "
        and phrase not in f" {' '.join(_plain_words(question))} "
    )


def names_a_call(claim: str, passage: str, question: str) -> bool:
    """A one-word answer that the passage writes as a function or method ("exception(msg, *args)"),
    or as any other code name ("SECRET_KEY"), and the question does not: "Which Logger method logs a
    message with level ERROR and adds exception information?" - "exception" names the method, though
    the question says "exception" (a window session on Python's logging reference refused it as
    repeating the question); "Which config key sets the secret key?" - "SECRET_KEY" names the key."""
    name = claim.strip().strip("`").removesuffix("()").rstrip(".")
    if not re.fullmatch(r"[A-Za-z_][\w.]*", name):
        return False
    call = re.compile(rf"(?<![\w.]){re.escape(name)}\(")
    if call.search(passage) and not call.search(question):
        return True
    written = re.compile(rf"(?<![\w.]){re.escape(name)}(?![\w])")
    return is_code(name) and bool(written.search(passage)) and not written.search(question)


def _plain_words(text: str) -> list[str]:
    return [w.removesuffix("'s") for w in words(text)]


def _offered(clause: str) -> str:
    """The alternatives of an "A or B" clause: A starts at the name before "or" when the clause has
    lowercase words before that name (no comma set the alternatives apart)."""
    split = _OR.search(clause)
    if split is None:
        return clause
    left = clause[: split.start()]
    name = _NAME_BEFORE_OR.search(left)
    if name and any(word[:1].islower() for word in left[: name.start()].split()):
        return clause[name.start() :]
    return clause


def _count_in(claim: str, passage: str) -> bool:
    """The claim is only a number ("one", "1,200") and the passage writes it the same way."""
    said = words(claim)
    counts = all(t in NUMBER_WORDS or t.replace(",", "").isdigit() for t in said)
    return bool(said) and counts and set(said) <= set(words(passage))


def stated_value(claim: str, passage: str) -> str:
    """What a claim without content words is, when the passage states it: a count or an empty value."""
    if _count_in(claim, passage):
        return "a number the passage states"
    if _null_value_in(claim, passage):
        return "a value the passage gives"
    if _quoted_symbol_in(claim, passage):
        return "a symbol the passage quotes"
    return ""


def _quoted_symbol_in(claim: str, passage: str) -> bool:
    """The claim is only a symbol of up to four characters ("#", "<-", "%%") and the passage writes
    it quoted or as code: "In R, what character starts a comment?" - "#", from "starting with a
    hashmark ('#')" (R's manual), was taken for no answer at all."""
    value = claim.strip()
    if not value or len(value) > 4 or any(ch.isalnum() for ch in value):
        return False
    return bool(re.search(rf"[`'\"‘“(]\s*{re.escape(value)}\s*[`'\"’”)]", passage))


_NULL = ("None", "null", "NULL", "nil")


def _null_value_in(claim: str, passage: str) -> bool:
    """The claim is only an empty value ("None", "null") and the passage gives it as a value:
    after a colon or an equals sign ("Default: None", "timeout=None"), after "is", "to", "given",
    "gets" or "returns", or before "value" ("the None value", "None as a value"); written as code, in
    its case. "What is the default value of MAX_CONTENT_LENGTH?" -
    "None" was refused as an empty claim (Flask's configuration reference)."""
    value = claim.strip().strip("`'\"").rstrip(".")
    if value not in _NULL:
        return False
    given = r"\b(?:is|to|given|gets?|returns?|becomes?|set to)\s+(?:the\s+)?"
    return bool(
        re.search(rf"(?:[:=]\s*|{given})[`'\"]?{value}(?![\w-])", passage)
        # "is given None as a value", "it gets the None value" (Python's argparse tutorial)
        or re.search(rf"(?<![\w-]){value}[`'\"]?\s+(?:value\b|as\s+(?:a|its|the)\s+value\b)", passage)
    )
