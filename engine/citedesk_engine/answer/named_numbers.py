"""A thing the question names by a number ("Debian 16"), and a passage that speaks of others.

"What is the codename of Debian 16?" was answered "Duke", Debian 15's codename, from the release
table's last row; "When was Debian 10 released?" got a date from a passage of the manual that names
Debian but no Debian version. Every word of such an answer is the passage's, so the word checks pass,
and the verifier reads a codename as an answer to "the codename of ...". But the question names one
thing by a number, and a passage that speaks of the name's other members, or a table that has no row
for the number, is not about it.

A named number is one written right after a name: a capitalised word that is not a stopword nor the
question's first word ("Debian 16", "Python 3.2+", "COVID-19", "LibreOffice 4.0"). A count or a
measure the question states ("Which 3 methods ...", "over 6 metres", "Name 3 rivers") is not one, nor
a date ("November 2006"); neither is a year, which questions mostly add as a description ("the 2005
documentary The Aristocrats": HaluEval's passages name the film and not the year). A claim is refused
by a passage that lacks the number when the passage writes the name (as written, capitalised:
"Flight 3701" is not refused by "a repositioning flight") or is a table (whose rows seldom repeat the
name). A passage that never writes the name may identify the thing otherwise (a multi-hop question's
description); the other checks judge it. A passage mentions the number when it writes it alone or as
the start of a longer version ("Debian 12" in "12.5"); a date's parts are not numbers ("16" is not in
1993-08-16).
"""

from __future__ import annotations

import re

from .table_rows import is_table
from .text import DATE_OR_TIME, STOPWORDS, numbers

# A capitalised word and the number right after it, by a space or a hyphen: "Debian 16", "Python
# 3.2", "COVID-19", "Windows 10".
_AFTER_NAME = re.compile(r"\b(?P<name>[A-Z][\w.+]*)[ -](?P<number>\d+(?:\.\d+)*)(?![\w-])")
# A month before a number makes a date ("November 2006", "July 4"), not a name.
_MONTHS = frozenset(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec".split()
)


def named_numbers(question: str) -> dict[str, str]:
    """The numbers `question` names a thing by, each with its name ({"16": "Debian"})."""
    question = question.strip()
    return {
        number: m.group("name")
        for m in _AFTER_NAME.finditer(question)
        # The question's first word is capitalised for its place ("Name 3 rivers"), not as a name.
        if m.start() > 0 and m.group("name").lower() not in STOPWORDS | _MONTHS
        for number in numbers(m.group("number"))  # written as the passage's are read ("4.0" is 4)
    }


def mentioned(number: str, passage: str) -> bool:
    """Whether `passage` writes `number`, alone or as the start of a longer version number."""
    stated = numbers(DATE_OR_TIME.sub(" ", passage))
    return number in stated or any(s.startswith(number + ".") for s in stated)


def unmentioned(question: str, passage: str) -> str:
    """What the guard says when `passage` speaks of the name of a thing the question names by a
    number (or is a table) and never writes that number; "" otherwise."""
    table = is_table(passage)
    missing = sorted(
        f"{name} {number}"
        for number, name in named_numbers(question).items()
        if not mentioned(number, passage) and (table or re.search(rf"\b{re.escape(name)}\b", passage))
    )
    if not missing:
        return ""
    # A table unit is a run of a table's rows, maybe not all of them: it says nothing of the others.
    where = "the rows cited hold none for" if table else "the passage never mentions"
    return f"the question asks about {', '.join(missing)}; {where} {'it' if len(missing) == 1 else 'them'}"
