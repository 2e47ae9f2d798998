"""A value the passage gives for the other case: "the default to use "HC1" for ‘lm’ objects and "HC0"
otherwise" (sandwich's vignette) answers "HC1" to a question about lm objects, and "HC0" only to one
about other objects. A window session asked "Which HC bias-correction type does vcovCL() use by
default for lm objects?" and was shown "HC0" as verified (0.95), cited to a table of simulation
settings that writes type = "HC0" among other types; the sentence the model read first gave HC1 for
lm objects.

The check reads every passage the model read, not only the cited one: a passage that gives the
answer's value for "otherwise", and another value for the case the question names, says the answer
is not the one asked for, wherever the answer was cited.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .text import content_stems

# A value: a word or code, quoted or not, or a number with its unit ("30 seconds").
_VALUE = r"(?:\d[\w.,+-]*(?:\s+[A-Za-z%]+)?|[\"“‘'`]?[\w.+-]+[\"”’'`]?)"
_OTHERWISE = re.compile(
    rf"(?P<first>{_VALUE})\s+(?:for|with|on|when|if|in)\s+(?P<condition>[^,;.:\"“”]{{2,60}}?),?\s+"
    rf"(?:and|but|or|while|else)\s+(?P<second>{_VALUE})\s+"
    r"(?:otherwise|else|for (?:all )?others?|in (?:all )?other cases)\b",
    re.IGNORECASE,
)
_QUOTES = "\"“”‘’'`.,;:()"


def other_condition(answer: str, passages: Sequence[str], question: str) -> str:
    """What the gate says when `answer` holds the value a passage gives "otherwise", and not the
    value it gives for the case the question names (every content word of that case is the
    question's): "condition: the passage gives "HC1" for ‘lm’ objects, "HC0" otherwise"; "" when no
    passage says so."""
    said = {_bare(token) for token in answer.split()}
    asked = set(content_stems(question))
    for passage in passages:
        for found in _OTHERWISE.finditer(" ".join(passage.split())):
            first, second = (_bare(found.group(value).split()[0]) for value in ("first", "second"))
            condition = set(content_stems(found.group("condition")))
            if first != second and second in said and first not in said and condition and condition <= asked:
                return (
                    f"condition: the passage gives {found.group('first')} for {found.group('condition')}, "
                    f"{found.group('second')} otherwise"
                )
    return ""


def _bare(token: str) -> str:
    return token.strip(_QUOTES).lower()
