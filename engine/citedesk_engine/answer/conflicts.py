"""The conflict scan: two passages (or two sentences of one) that state incompatible things about the
same matter.

A conflict is two statements about the same thing that cannot both be true: the same quantity with
different values ("handled 4.2 million containers" / "handled 3.1 million containers"), the same
statement with and without a negation, or with a word and its antonym. Two sentences are about the
same thing when most of their content words are shared. Numbers that only name or point at something
(section, figure, table, page and reference numbers, list markers, years cited beside an author) are
not quantities, and headings, captions and bibliography entries are not statements.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from ..types import Candidate, Conflict
from .asides import asserted
from .claims import sentences
from .printouts import FIGURE_TOKEN
from .table_rows import row_lines
from .text import ANTONYMS, DIGITS, NUMBER_WORDS, REFERENCE_TERM, content_stems, negated, shorten, stem, words

# Share of the smaller sentence's content words the other must hold for a number conflict (the
# numbers themselves differ, the rest must match), and of the union for negation and antonyms (the
# sentences must be the same statement but for the negation or the antonym).
SAME_MATTER = 0.6
SAME_STATEMENT = 0.7
MIN_CONTENT = 3

# Words after which a number names or points at something instead of measuring it.
_POINTERS = frozenset(
    """section sections sec § chapter chapters ch fig figs figure figures table tables tab page pages p pp
    eq eqs equation equations ref refs reference references appendix item items step steps version
    versions v no nos number line lines footnote note notes part parts article articles clause clauses
    paragraph paragraphs rule rules volume vol issue listing algorithm theorem lemma definition example
    exercise release""".split()
)
_SCALE = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
_UNITLESS = frozenset(["percent", "per", "cent", "%"])
_NUMBER = re.compile(rf"(?<![\w.]){DIGITS}(?:\.\d+)*%?(?![\w])")
# A statement is not: a heading, list item or caption ("3.2 Results", "5 Measure of selectivity",
# "Figure 5: ..."), a reference list entry ("[12] Smith J, ...", "12. Smith, J."), a question. A
# sentence that opens with a quantity ("4.2 million containers were ...") is one.
# A line of code typed at a prompt is none either (`_PROMPT` below): the xts FAQ's "> period.apply(x,
# endpoints(x, "hours", 6), mean)" and "> apply.daily(x['T06:00/T17:00',], mean)" were shown as a
# conflict, "6 against 00" (a window session).
_NOT_A_STATEMENT = re.compile(
    r"^\s*(?:\[\d+\]|\d+(?:\.\d+)*\.?\s+[A-Z]|(?i:fig(?:ure)?|table|tab|section|chapter|appendix)\.?\s*\d)"
)
# A bibliography entry's tail, wherever the entry's lines were cut: a DOI, or a journal's volume and
# pages ("Statistics in Medicine, 28, 476–493.", "Biometrika, 59(3), 539–549."); the salmon2016
# article's reference list gave seven "conflicts" between the pages of two articles.
# An ISBN marks an entry too: vcd's references gave "3 against 0" for two books' ISBNs.
_CITATION = re.compile(
    r"\bdoi(?::|\.org/)|\bISBN\b|\b\d+(?:\s*\(\d+\))?,\s*\d+\s*[–-]\s*\d+\.", re.IGNORECASE
)
# An item of a bulleted list ("• ...", "– ...", "- ...", "* ..."). Two items of one document's list
# are alternatives side by side, not two claims about one thing: Debian's reference lists "– use 3
# buttons (click)" and "– use 2 buttons (drag + click)", and "Reading a file changes the atime ..." /
# "Reading a file doesn't change the atime ..." for two mount options.
_LIST_ITEM = re.compile(r"^\s*[•◦▪‣·–—*+-]\s+\S")
# A line typed at an interactive prompt: Python's ">>>", IPython's "In [3]:", or R's ">", a shell's
# "$" and root's "#" (before a lower-case command: "# dd if=/dev/hda ...", not a heading "# Usage")
# before something that is not prose (a Markdown quote "> The harbour ..." is prose). The
# lines after it, up to a blank line or a line of prose, are what the session printed or its
# continuation lines ("...", "+"): Python's sorting HOW TO prints one list sorted two ways, "[('dave',
# 'B', 10), ..., ('john', 'A', 15)]" and "[('john', 'A', 15), ..., ('dave', 'B', 10)]", shown as a
# conflict "10 against 15" (a newcomer's window session).
_PROMPT = re.compile(r"^\s*(?:(?P<always>>>>|In \[\d*\]:)|[>$]|#(?=\s+[a-z]))(?:\s+|$)")
_NOT_A_UNIT = frozenset("([{=*/+-^<>")
# A number joined to another by a hyphen or dash, no space between: one part of a code or a range,
# not a value of its own ("ISBN 0-387-95457-0" measured a "URL" 0).
_JOINED = re.compile(r"\w[-–]$")
_JOINING = re.compile(r"[-–]\d")
# A line of code is no statement either: an assignment ("df <- 2 * ncol(y)", "x := 1", "n = 5" opening
# the line) or a line ending in a brace or semicolon. flexmix's M-step driver listed "df <- (3 *
# ncol(y) + ncol(y)^2)/2" and "df <- 2 * ncol(y)", shown as a conflict "3 against 2" (a window session).
# A printout's "name = value" line is none either, the name a call or hyphenated: vcd's vignette
# printed "f(x) = 1.7802, p-value = 0.1124" and "f(x) = 11.722, p-value = 0.069" for two tests of one
# data set, shown as a conflict "1.7802 against 11.722" (a window session).
_CODE_LINE = re.compile(r"<<?-|:=|[{};]\s*$|^\s*[\w.$@\[\]()-]+\s*[-+*/]?=(?!=)\s*\S")
# A line of prose: a capitalised word, three more, a full stop or colon at the end. R's printed
# "Residual standard error: 3.2 on 28 degrees of freedom" has none and stays printed output.
_PROSE_LINE = re.compile(r"^\s*[A-Z][a-z]+(?:\s+[\w’'.,:;%!-]+){3,}(?<=[.:!])\s*$")
# The term a reference entry describes (`REFERENCE_TERM`): its sentences speak of it. "Instructs
# writer objects to quote all fields." (csv.QUOTE_ALL) and "... to never quote fields." (QUOTE_NONE)
# were shown as a conflict (a window session on Python's csv reference).
_TERM = re.compile(REFERENCE_TERM)
# A year cited beside an author: "(Smith et al., 2019)", "Smith (2019)", "(2019a; ...)".
_CITED_YEAR = re.compile(r"(?:et al\.?,?\s*|\((?:[^()]*?,\s*)?)(1[6-9]\d\d|20\d\d)[a-z]?\s*[);,]")


@dataclass(frozen=True, slots=True)
class _Statement:
    text: str
    stems: frozenset[str]  # content stems, numbers left out
    sequence: tuple[str, ...]  # the same in the sentence's order
    quantities: dict[str, frozenset[float]]  # what is counted or measured -> the values stated
    written: dict[float, str]  # each value as the sentence writes it ("4.2 million")
    labels: dict[str, frozenset[str]]  # numbers that name the subject: "version" -> {"2"}, "<year>" -> ...
    negated: bool
    words: frozenset[str]
    item: bool  # an item of a bulleted list (`_LIST_ITEM`)


def find_conflicts(candidates: Sequence[Candidate]) -> list[Conflict]:
    """Pairs of passages (or two sentences of one) that say incompatible things about the same matter,
    at most one per pair."""
    statements = [_statements(c.unit.passage) for c in candidates]
    conflicts = []
    for i, first in enumerate(candidates):
        for j in range(i, len(candidates)):  # i == j: two sentences of one passage disagree
            # Within one passage only two figures for the same thing: its sentences with and without a
            # "not" are most often two rows of a table ("aptitude why" / "aptitude why-not": "... should
            # be installed" / "... can not be installed"), not a contradiction.
            conflict = _conflict(first, candidates[j], statements[i], statements[j], numbers_only=i == j)
            if conflict is not None:
                conflicts.append(conflict)
    return conflicts


def _conflict(
    first: Candidate,
    second: Candidate,
    ours: list[_Statement],
    theirs: list[_Statement],
    *,
    numbers_only: bool = False,
) -> Conflict | None:
    ids = (first.unit.unit_id, second.unit.unit_id)
    for a in ours:
        for b in theirs:
            if a.text == b.text or _different_subjects(a, b):
                continue  # the overlap two neighbouring units share; "version 1" / "version 2"
            if a.item and b.item and first.unit.document == second.unit.document:
                continue  # two items of one list: alternatives side by side
            shared = a.stems & b.stems
            smaller = min(len(a.stems), len(b.stems))
            if smaller < MIN_CONTENT or len(shared) / smaller < SAME_MATTER:
                continue
            quoted = f"“{shorten(a.text, 120)}” / “{shorten(b.text, 120)}”"
            for key in sorted(a.quantities.keys() & b.quantities.keys() if _same_quantity(a, b) else ()):
                if not a.quantities[key] & b.quantities[key]:
                    values = f"{_values(a, key)} against {_values(b, key)}"
                    return Conflict("number", ids, f"{values}: {quoted}")
            if numbers_only:
                continue
            if a.negated != b.negated and _same_statement(a.stems, b.stems):
                return Conflict("negation", ids, quoted)
            for x, y in ANTONYMS:
                if (x in a.words and y in b.words and y not in a.words) or (
                    y in a.words and x in b.words and x not in a.words
                ):
                    pair = {stem(x), stem(y)}
                    if _same_statement(a.stems - pair, b.stems - pair):
                        return Conflict("antonym", ids, f"{x}/{y}: {quoted}")
    return None


def _same_quantity(a: _Statement, b: _Statement) -> bool:
    """No word of one sentence stands where the other has another: "estimate of total amount of
    heterogeneity: 0.3132" and "estimate of residual amount of heterogeneity: 0.1446" measure two
    things. Words only one of them adds ("a record", "including its viaducts") change nothing."""
    matcher = SequenceMatcher(a=a.sequence, b=b.sequence, autojunk=False)
    return not any(tag == "replace" for tag, *_ in matcher.get_opcodes())


def _different_subjects(a: _Statement, b: _Statement) -> bool:
    """Both name their subject by a number of the same kind, and not the same one: "Debian Reference
    (version 1) ... 2001-2007" and "version 2 is released in 2008" speak of two things; so do two
    sentences about 2022 and 2023, and two describing different terms of a reference (`_TERM`)."""
    return any(not a.labels[kind] & b.labels[kind] for kind in a.labels.keys() & b.labels.keys())


def _same_statement(a: frozenset[str], b: frozenset[str]) -> bool:
    """The two sentences say the same but for what sets them apart (a negation, an antonym)."""
    return len(a | b) >= MIN_CONTENT and len(a & b) / len(a | b) >= SAME_STATEMENT


def _statements(passage: str) -> list[_Statement]:
    """The passage's statements: what it asserts (asides.py: not an instruction to an AI, a question,
    a supposition or a claim it attributes to someone), heading, captions and list entries left out,
    and the rows of a table: two rows give figures of two records ("102-Cap-Saint-Jacques,2525,..."
    and "63-Jacques-Bizard,518,...", two districts of an election, were seven conflict lines under
    one answer in a window session)."""
    out = []
    term = ""
    rows = row_lines(passage)
    for line in _without_transcripts(asserted(passage).split("\n")):
        if line.strip() in rows:
            continue
        entry = _TERM.fullmatch(line.strip())
        if entry:
            term = entry.group("term")
            continue
        if _CODE_LINE.search(line) or _printed_row(line):
            continue
        item = bool(_LIST_ITEM.match(line))
        for sentence in sentences(line):
            if (
                _NOT_A_STATEMENT.match(sentence)
                or _CITATION.search(sentence)
                or sentence.rstrip().endswith("?")
                or len(sentence.split())
                < MIN_CONTENT  # a record: "user1:x:1000:1000:User1 Name,,,:/home/user1"
            ):
                continue
            sequence = tuple(s for s in content_stems(sentence) if not any(ch.isdigit() for ch in s))
            quantities, written, labels = _quantities(sentence)
            if term:
                labels = {**labels, "<term>": frozenset([term])}
            out.append(
                _Statement(
                    sentence,
                    frozenset(sequence),
                    sequence,
                    quantities,
                    written,
                    labels,
                    negated(sentence),
                    frozenset(words(sentence)),
                    item,
                )
            )
    return out


def _printed_row(line: str) -> bool:
    """A row of a printed table: a label, then figures only ("factor(stage)2:factor(histol)2 -0.04743
    0.43432 -0.109 0.913"). Two coefficients' rows of survey's epi vignette were shown as a conflict,
    "2 against 3", under answers about other things (a newcomer's window session)."""
    tokens = line.split()
    return len(tokens) >= 3 and all(FIGURE_TOKEN.fullmatch(t) for t in tokens[1:])


def _without_transcripts(lines: list[str]) -> list[str]:
    """The lines, less those typed at an interactive prompt and what each printed (`_PROMPT`): a
    transcript runs from a prompt line to a blank line or a line of prose."""
    kept = []
    in_transcript = False
    for line in lines:
        prompt = _PROMPT.match(line)
        if prompt and (prompt.group("always") or not _PROSE_LINE.match(line[prompt.end() :])):
            in_transcript = True
        elif not line.strip() or _PROSE_LINE.match(line):
            in_transcript = False
        if not in_transcript:
            kept.append(line)
    return kept


def _quantities(
    sentence: str,
) -> tuple[dict[str, frozenset[float]], dict[float, str], dict[str, frozenset[str]]]:
    """The numbers that measure something, keyed by what they measure: the next word (a unit, a
    noun: "4.2 million containers" -> contain: 4200000), "%" for percentages; and the numbers that
    name the subject instead: after a pointer word ("version 2" -> version: 2) and bare years."""
    cited = {m.start(1) for m in _CITED_YEAR.finditer(sentence)}
    found: dict[str, set[float]] = {}
    written: dict[float, str] = {}
    labels: dict[str, set[str]] = {}
    for match in _NUMBER.finditer(sentence):
        token = match.group(0)
        if match.start() in cited or "." in token.rstrip("%").replace(".", "", 1):
            continue  # a year cited beside an author; a dotted section number ("3.2.1")
        if _JOINED.search(sentence[: match.start()]) or _JOINING.match(sentence, match.end()):
            continue  # a part of a code ("0-387-95457-0", "2020-06-30") or a range ("10-20 people")
        before = words(sentence[: match.start()])[-1:]
        if before and before[0] in _POINTERS:
            labels.setdefault(before[0], set()).add(token)
            continue
        if sentence[: match.start()].rstrip().endswith(("[", "#")):
            continue
        value = float(token.rstrip("%").replace(",", ""))
        # What a number measures is named right after it, not inside a bracket or after an operator:
        # R's "'log Lik.' -440.6424 (df=5)" measures no "df", nor "2 * ncol(y)" an "ncol".
        rest = sentence[match.end() :].lstrip()
        after = [] if rest[:1] in _NOT_A_UNIT else [w for w in words(rest)[:3]]
        percent = token.endswith("%") or sentence[match.end() :].lstrip().startswith("%")
        if percent or (after and after[0] in _UNITLESS):
            key = "%"
        else:
            if after and after[0] in _SCALE:
                token = f"{token} {after[0]}"
                value *= _SCALE[after.pop(0)]
            noun = next((w for w in after[:2] if w.isalpha() and w not in _STOP_AFTER), None)
            if token.isdigit() and 1600 <= value <= 2100 and (noun is None or noun in _MONTHS):
                labels.setdefault("<year>", set()).add(token)
                continue
            if noun is None:
                continue  # a number that measures nothing named: nothing to compare it with
            key = stem(noun)
        found.setdefault(key, set()).add(value)
        written[value] = token
    return (
        {key: frozenset(values) for key, values in found.items()},
        written,
        {kind: frozenset(values) for kind, values in labels.items()},
    )


_MONTHS = frozenset(
    "january february march april may june july august september october november december".split()
)
# Words after a number that say nothing of what it measures ("18 in 2022", "7 and").
_STOP_AFTER = frozenset(
    "a an and or the in on at of for to from by with than as is are was were be it its this that".split()
) | frozenset(NUMBER_WORDS)


def _values(statement: _Statement, key: str) -> str:
    return ", ".join(statement.written[v] for v in sorted(statement.quantities[key]))
