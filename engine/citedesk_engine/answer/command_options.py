"""A command-line option the answer puts beside a word the passage never puts it beside.

"How do I parse YAML in Python?" was answered "python -m yaml" from Python's json reference, whose
passage runs "python -m json.tool" and, two paragraphs on, "JSON is a subset of YAML 1.2". Every word
the answer adds to the question ("-m") is the passage's, and the verifier read it as supported
(0.91): a command built of a command the passage gives and a word of the question. But an option
means something only with the program it is given to and the value it is given: "-m yaml" runs a
module the passage never names.

So each option of the answer (a word starting with one or two hyphens and a letter: "-m",
"--user") must stand beside the same neighbours in the passage, where those belong to the command:
the word before it when it is code ("archive.tar.xz", a path) or a program the passage runs with
options ("python", "journalctl"; not "needs" in "needs --force"), and the word after it when it is
code or a word of the question ("yaml"; not "option" or "shows"). A passage that gives the option a
placeholder ("-n NUM", "--output <file>", "-o FILE") lets the answer fill it in. Words are compared
ignoring case and the quotes around them; a comma or full stop ends a command ("With --user,
journalctl ...").
"""

from __future__ import annotations

import re
from itertools import pairwise

from .text import STOPWORDS

_OPTION = re.compile(r"--?[A-Za-z][\w-]*")
# Words that stand beside an option in English, not in a command: "the -b option", "-m or -c".
_PROSE = STOPWORDS | {
    "option",
    "options",
    "flag",
    "flags",
    "switch",
    "argument",
    "arguments",
    "parameter",
    "command",
    "use",
    "using",
    "run",
    "pass",
    "add",
    "give",
    "type",
    "call",
    "invoke",
    "then",
}
# A value left for the user to fill: "NUM", "<file>", "{name}", "[PATTERN]", "FILE...".
_PLACEHOLDER = re.compile(r"^(?:[A-Z][A-Z_]*(?:\.\.\.)?|<[^>]+>|\{[^}]+\}|\[[^\]]+\])$")
_QUOTES = "`'\"“”‘’"
_ENDS = ",;:.!?"
_EDGE = _QUOTES + _ENDS + "()"
_CODE = re.compile(r"\w[._/=]\w|^[~/$]\w")


def unpaired_option(claim: str, passage: str, question: str = "") -> str:
    """What the guard says when an option of `claim` stands beside a word that the passage never
    puts beside it ("the passage never writes “-m yaml”"); "" otherwise."""
    said = _words(claim)
    if not any(_OPTION.fullmatch(word) for word, _ in said):
        return ""
    written = [word for word, _ in _words(passage)]
    filled = {before.lower() for before, after in pairwise(written) if _PLACEHOLDER.match(after)}
    written = [word.lower() for word in written]
    pairs = set(pairwise(written))
    programs = {before for before, after in pairs if _OPTION.fullmatch(after)} - _PROSE
    asked = {word.lower() for word, _ in _words(question)} - _PROSE
    for at, (word, ended) in enumerate(said):
        if not _OPTION.fullmatch(word):
            continue
        before = said[at - 1] if at > 0 and not said[at - 1][1] else ("", True)
        after = said[at + 1][0] if at + 1 < len(said) and not ended else ""
        option, before, after = word.lower(), before[0].lower(), after.lower()
        if (before in programs or _code(before)) and (before, option) not in pairs:
            return f"the passage never writes “{said[at - 1][0]} {word}”"
        if (after in asked or _code(after)) and (option, after) not in pairs and option not in filled:
            return f"the passage never writes “{word} {said[at + 1][0]}”"
    return ""


def _words(text: str) -> list[tuple[str, bool]]:
    """The words of `text` without the quotes and brackets around them, each with whether a comma,
    full stop or the like ends it."""
    found = []
    for raw in text.split():
        word = raw.strip(_EDGE)
        if word:
            found.append((word, raw.rstrip(_QUOTES)[-1] in _ENDS))
    return found


def _code(word: str) -> bool:
    """Written as code, not as English: a dot, underscore, slash or equals sign inside."""
    return bool(_CODE.search(word))
