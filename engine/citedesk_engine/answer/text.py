"""Word-level analysis shared by the gates and the verifier: content words, numbers, negations, names."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

import snowballstemmer

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)
# A comma joins digits only as a thousands separator ("1,200"): in "2013-05-04,2015-04-26", a CSV row of
# dates, it separates two numbers ("04,2015" read as 42015 refused every date answered from a table).
DIGITS = r"(?:\d{1,3}(?:,\d{3}(?!\d))+|\d+)"
# A version or section number ("3.7.0", "12.3.3") is one number: "3.7.0" was read as "3.7", so an answer
# "3.7.0" passed as the passage's "Python 3.7" (a window session on httpx's changelog).
_NUMBER = re.compile(rf"(?<![\w.])[-+]?{DIGITS}(?:\.\d+)*(?![\w])|\b\d+(?:\.\d+)?(?=%)")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")

STOPWORDS = frozenset(
    """a about above after again against all also am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further had has
    have having he her here hers herself him himself his how i if in into is it its itself just me more
    most my myself of off on once only or other our ours ourselves out over own same she should so some
    such than that the their theirs them themselves then there these they this those through to too
    under until up very was we were what when where which while who whom why will with would you your
    yours yourself yourselves one ones many much may might must shall us s t""".split()
)
NEGATIONS = frozenset(
    """not no never none nobody nothing neither nor nowhere cannot without n't isn't aren't wasn't weren't
    don't doesn't didn't won't wouldn't can't couldn't shouldn't hasn't haven't hadn't lack lacks
    lacked""".split()
    # German, French and Spanish, for claims checked in those languages (crosslingual.py). Words that
    # are also English ("sin", "sans", "ni", "ne") are left out: an English "sin" is no negation.
    + """nicht kein keine keinen keinem keiner keines nie niemals niemand nichts ohne weder
    pas jamais rien aucun aucune aucunement nullement guère
    nunca jamás nadie nada ningún ninguno ninguna tampoco""".split()
)
# Words whose exchange turns a statement into its opposite: a conflict between two passages
# (conflicts.py), an inverted claim (verify.py). Verbs of change, comparatives and their opposites.
ANTONYMS = (
    ("increase", "decrease"),
    ("increased", "decreased"),
    ("rose", "fell"),
    ("rise", "fall"),
    ("higher", "lower"),
    ("more", "less"),
    ("allowed", "prohibited"),
    ("permitted", "forbidden"),
    ("true", "false"),
    ("before", "after"),
    ("won", "lost"),
    ("approved", "rejected"),
    ("accepted", "rejected"),
    ("open", "closed"),
    ("required", "optional"),
    ("legal", "illegal"),
    ("above", "below"),
    ("maximum", "minimum"),
    ("gain", "loss"),
    ("profit", "loss"),
    ("greater", "smaller"),
    ("larger", "smaller"),
    ("bigger", "smaller"),
    ("better", "worse"),
    ("faster", "slower"),
    ("quicker", "slower"),
    ("easier", "harder"),
    ("longer", "shorter"),
    ("earlier", "later"),
    ("older", "younger"),
    ("stronger", "weaker"),
    ("harder", "softer"),
    ("fewer", "more"),
    ("most", "least"),
    ("best", "worst"),
    ("highest", "lowest"),
    ("largest", "smallest"),
    ("increases", "decreases"),
    ("increasing", "decreasing"),
    ("improved", "worsened"),
    ("positive", "negative"),
    ("include", "exclude"),
    ("includes", "excludes"),
    ("included", "excluded"),
    ("inside", "outside"),
    ("left", "right"),
    ("minor", "major"),
    ("success", "failure"),
    ("successful", "unsuccessful"),
)

NUMBER_WORDS = {
    "zero": "0",
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
    "eleven": "11",
    "twelve": "12",
    "thirteen": "13",
    "fourteen": "14",
    "fifteen": "15",
    "sixteen": "16",
    "seventeen": "17",
    "eighteen": "18",
    "nineteen": "19",
    "twenty": "20",
    "thirty": "30",
    "forty": "40",
    "fifty": "50",
    "sixty": "60",
    "seventy": "70",
    "eighty": "80",
    "ninety": "90",
    "hundred": "100",
    "thousand": "1000",
    "million": "1000000",
    "billion": "1000000000",
    "first": "1",
    "second": "2",
    "third": "3",
}

_stemmer = snowballstemmer.stemmer("english")


def tokens(text: str) -> list[str]:
    """The words of `text` as written (case kept, CJK not split)."""
    return _WORD.findall(text)


def words(text: str) -> list[str]:
    """Lower-cased words; CJK characters count one each (they are not space-separated)."""
    out: list[str] = []
    for token in _WORD.findall(text):
        lowered = token.lower().replace("’", "'")
        if _CJK.search(lowered):
            out.extend(ch for ch in lowered if not ch.isspace())
        else:
            out.append(lowered)
    return out


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    return _stemmer.stemWord(word.removesuffix("'s"))


# A date, time, version or other figure written as digit groups ("2023-02-04", "11:59:01", "4.0.4"),
# and of those the dates and times (not decimals or thousands: "1.2", "1,200").
_FIGURE = re.compile(r"\d+(?:[-:/.,]\d+)+")
# A reference entry's term alone on its line, above its description: "csv.QUOTE_ALL",
# "raise_exceptions", "exception csv.Error", "executemany(sql, parameters, /)"; the name is the group
# "term". A dot, an underscore or a call sets a term apart from a heading ("Results"). The conflict
# scan reads the description as about its term, and a quote takes the description with the term.
REFERENCE_TERM = (
    r"(?:(?:class|exception|method|function|attribute|data|property|classmethod|staticmethod|"
    r"abstractmethod|async|coroutine|decorator)[ \t]+)?"
    r"(?P<term>(?=[\w.]*[._])[A-Za-z_][\w.]*|[A-Za-z_][\w.]*\([^\n]*\))(?:[ \t]*(?:->|:)[^\n]*)?[ \t]*"
)
DATE_OR_TIME = re.compile(r"\d+(?:[-:/]\d+)+")  # 1993-08-16, 11:59:01, 06/30/2025


SHORT_ANSWER_WORDS = 5  # "Tony Martin", "born December 13, 1925", "The Beggar's Opera"


def answer_length(text: str) -> int:
    """How many words an answer has, a figure written as digit groups counting as one: "2023-02-04
    11:59:01 UTC" is three words (a date, a time, a zone), not seven."""
    return len(words(_FIGURE.sub("0", text)))


def answer_items(answer: str) -> list[str]:
    """The things a short answer names, split where it lists them ("yval, dev and wt", "A or B")."""
    return [item for item in _ITEM_BREAK.split(answer.strip().rstrip(".")) if item.strip(" .")]


_ITEM_BREAK = re.compile(r"\s*(?:[,;/&]|\band\b|\bor\b)\s*", re.IGNORECASE)


def terms(text: str) -> set[str]:
    """What a text names, for comparing it with another: its content stems and its numbers."""
    return set(content_stems(text)) | numbers(text)


def shorten(text: str, limit: int) -> str:
    """`text` cut to `limit` characters with an ellipsis, for a message or a trace line."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def content_stems(text: str) -> list[str]:
    """Stems of the words that carry meaning (no stopwords, no negations)."""
    return [stem(w) for w in words(text) if w not in STOPWORDS and w not in NEGATIONS]


def numbers(text: str) -> set[str]:
    """Numbers written with digits or as common number words, normalised ("1,200" -> "1200")."""
    found = {_normal_number(m.group(0)) for m in _NUMBER.finditer(text)}
    found |= {NUMBER_WORDS[w] for w in words(text) if w in NUMBER_WORDS and w not in ("one", "second")}
    return found


def _normal_number(written: str) -> str:
    number = written.replace(",", "").lstrip("+")
    return number.rstrip("0").rstrip(".") if number.count(".") == 1 else number


# A section or version number ("12.3.3") is one number here, not "12.3" and a stray "3".
_SLOT_TOKEN = re.compile(rf"(?P<number>{DIGITS}(?:\.\d+)*)|(?P<word>[^\W\d_]+)")


def _number_tokens(text: str) -> list[tuple[str, str]]:
    """The words and numbers of `text` in order: ("n", normalised number) or ("w", lower-cased word);
    number words count as numbers but for "one" and "second"."""
    found: list[tuple[str, str]] = []
    for match in _SLOT_TOKEN.finditer(text):
        if match.group("number"):
            found.append(("n", _normal_number(match.group("number"))))
            continue
        word = match.group("word").lower()
        if word in NUMBER_WORDS and word not in ("one", "second"):
            found.append(("n", NUMBER_WORDS[word]))
        else:
            found.append(("w", word))
    return found


def number_slots(text: str) -> list[tuple[str, tuple[str, str]]]:
    """Each number of `text` (normalised as `numbers` does) with its slot: the lower-cased words on
    either side of it ("^"/"$" at the ends). "Section 6.5) as described in apt.conf(5)" ->
    ("6.5", ("section", "as")), ("5", ("conf", "and"))."""
    found = _number_tokens(text)
    slots = []
    for i, (kind, value) in enumerate(found):
        if kind != "n":
            continue
        before = next((v for k, v in reversed(found[:i]) if k == "w"), "^")
        after = next((v for k, v in found[i + 1 :] if k == "w"), "$")
        slots.append((value, (before, after)))
    return slots


def counted(text: str, span: int = 4) -> list[tuple[str, set[str]]]:
    """Each number of `text` with the stems of the content words of the `span` words after it, up to
    the next number: what it counts ("ten independent human raters" -> ("10", {independ, human,
    rater})). Sentences are the caller's to split."""
    found = _number_tokens(text)
    out = []
    for i, (kind, value) in enumerate(found):
        if kind != "n":
            continue
        after: set[str] = set()
        for k, word in found[i + 1 : i + 1 + span]:
            if k == "n":
                break
            if word not in STOPWORDS:
                after.add(stem(word))
        out.append((value, after))
    return out


# "Not only X but also Y", "not just", "not merely": X is asserted, not denied.
_ADDITIVE = frozenset({"only", "just", "merely"})


def negation_count(forms: Sequence[str]) -> int:
    """How many negations a sequence of lower-cased words holds. The "not" of "not only" does not
    count: "This not only compiles, links and loads the code" and "it can be compiled, linked and
    loaded" made a negation conflict under a right answer."""
    return sum(
        1
        for i, w in enumerate(forms)
        if (w in NEGATIONS or w.endswith("n't"))
        and not (w == "not" and i + 1 < len(forms) and forms[i + 1] in _ADDITIVE)
    )


def negated(text: str) -> bool:
    return negation_count(words(text)) > 0


def names(text: str) -> set[str]:
    """Capitalised words as stems: the names a claim depends on."""
    return set(name_sequence(text))


def name_sequence(text: str) -> list[str]:
    """Stems of capitalised words in order of appearance. A sentence-initial word counts too (it may
    be "France"); the guards only ask whether a claim's names occur in the passage at all, so a
    capitalised ordinary word that the passage also uses costs nothing."""
    found = []
    for token in tokens(text):
        if token[:1].isupper() and token.lower() not in STOPWORDS and token.lower() not in NEGATIONS:
            found.append(stem(token.lower()))
    return found


STOP_STEMS = frozenset(stem(w) for w in STOPWORDS)  # the stopwords as `stem` writes them
