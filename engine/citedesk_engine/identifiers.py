"""Versions, dates and dotted names a text writes ("0.28.1", "2024-08-14", "json.loads"): what a
question names most precisely, and what the word index and the relevance gate look for whole. The
tokenizers split them into parts that are common on their own ("0", "28", "1")."""

from __future__ import annotations

import re

# A name made of parts joined by dots, hyphens, colons or slashes, with a digit or a dot in it: a
# version ("0.28.1"), a date ("2024-08-14"), a dotted name ("json.loads"), a code ("ISO-8859-1").
# Plain hyphenated words ("well-known") are not names, nor abbreviations of letters and dots ("U.S.",
# "e.g.", "Ph.D."), which questions write as words (3 of squad-dev's 500 questions write "U.S.").
_IDENTIFIER = re.compile(r"(?<![\w.\-:/])\w+(?:[.\-:/]\w+)+")
_PARTS = re.compile(r"[.\-:/]")


def identifiers(text: str) -> set[str]:
    """The versions, dates and dotted names a text writes, lower-cased (`_IDENTIFIER`)."""
    found = (m.group(0).lower() for m in _IDENTIFIER.finditer(text))
    return {
        name[1:] if name[:1] == "v" and name[1:2].isdigit() else name  # "v0.28.1" is "0.28.1"
        for name in found
        if any(ch.isdigit() for ch in name) or ("." in name and max(map(len, _PARTS.split(name))) > 2)
    }
