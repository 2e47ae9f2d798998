"""A function, option or file the question names by its code name, and a passage that never writes it.

"Which Python version added logging.getHandlerByName()?" was answered "3.2" from the logging HOWTO's
"In Python 3.2 and later, the behaviour is ...", a passage about what happens when no handler is
found, which never names getHandlerByName (the 3.11 HOWTO predates it). Every word of the answer is
the passage's and the verifier reads "3.2" as a fine answer to "which version". But a code name
picks out one thing exactly, as a named number does (named_numbers.py): a passage that never writes
it says nothing about it.

A code name is a word written as code, not as English: with a call's parentheses ("evalCpp()"), a
dot or underscore inside ("logging.lastResort", "raise_exceptions", "/etc/hosts" is a path and left
alone), or in camel case after a lower-case start of at least two letters ("getHandlerByName",
"evalCpp"; not "iPhone" or "eBay", which are names; not "e.g." or "U.S."). The passage must write
it as the question does, or its last part when that is code by itself ("getHandlerByName" for
"logging.getHandlerByName()"; "Rcpp.package.skeleton" whole), as written: code is case-sensitive.

A file type written as its extension (".xlsx", ".deb") is one too: "How do I read an Excel .xlsx
file?" was answered "csv.reader" from Python's csv reference, which never mentions xlsx, and shown as
verified. A passage writes it in any case, with or without its dot ("XLSX files").
"""

from __future__ import annotations

import re

from ..types import EvidenceUnit

# A dotted or underscored word, maybe ending in "()": "logging.getHandlerByName()", "raise_exceptions".
_CODE = re.compile(r"(?<![\w./-])[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*(?:\(\))?(?![\w/-])")
_CAMEL = re.compile(r"^[a-z]{2,}[a-z0-9]*[A-Z]\w*$")
# A file extension standing alone: ".xlsx", ".tar" (not the ".2" of "3.2", nor "file.txt"'s, a name).
_EXTENSION = re.compile(r"(?<![\w./-])\.([A-Za-z][A-Za-z0-9]{1,5})(?![\w/-]|\.\w)")


def code_names(question: str) -> list[str]:
    """The code names `question` asks about, as a passage must write them ("getHandlerByName")."""
    found = []
    for match in _CODE.finditer(question):
        bare = match.group().removesuffix("()")
        parts = bare.split(".")
        if any(len(part) < 2 for part in parts) or not (is_code(bare) or match.group().endswith("()")):
            continue  # "e.g.", "U.S."; an English word
        name = parts[-1] if len(parts) > 1 and is_code(parts[-1]) else bare
        if len(name) >= 3 and name not in found:
            found.append(name)
    found += [f".{m.group(1)}" for m in _EXTENSION.finditer(question) if f".{m.group(1)}" not in found]
    return found


def is_code(word: str) -> bool:
    """Whether a word is written as code: a dot or underscore inside, or camel case."""
    return "." in word or "_" in word.strip("_") or bool(_CAMEL.match(word))


def unwritten(question: str, passage: str) -> str:
    """What the guard says when the passage never writes a code name the question asks about; ""
    otherwise."""
    missing = [name for name in code_names(question) if not _written(name, passage)]
    if not missing:
        return ""
    it = "it" if len(missing) == 1 else "them"
    return f"the question asks about {', '.join(missing)}; the passage never mentions {it}"


def _written(name: str, passage: str) -> bool:
    if name.startswith("."):  # a file extension, in any case, with or without its dot
        return bool(re.search(rf"(?<![\w-]){re.escape(name[1:])}(?!\w)", passage, re.IGNORECASE))
    if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", passage):
        return True
    # A method written as a call in its class's section ("commit()" under "sqlite3.Connection", the
    # section's name first: under_its_name) is the question's "Connection.commit".
    qualifier, _, member = name.rpartition(".")
    heading = passage.lstrip().split("\n", 1)[0]
    return bool(
        qualifier
        and re.search(rf"(?<!\w){re.escape(qualifier)}(?!\w)", heading)
        and re.search(rf"(?<![\w.]){re.escape(member)}\(", passage)
    )


# An API object's name as a section's label ("sqlite3.Connection", html.py's definitions).
_API_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")


def under_its_name(unit: EvidenceUnit) -> str:
    """The text a claim about `unit` is checked against: a passage of an API object's section opens
    with the object's name, when its first line does not write it already. "What does
    Connection.commit do?" was refused though the passage says what "commit()" does: it stands in
    sqlite3.Connection's section, which its own words do not name."""
    text = unit.index_text
    if _API_NAME.fullmatch(unit.section) and unit.section not in text.lstrip().split("\n", 1)[0]:
        return f"{unit.section}\n{text}"
    return text
