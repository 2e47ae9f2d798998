"""Answers and conversations written out for people and for programs: Markdown with each citation's
supporting words quoted and its page named, JSON as `ask --json` gives each answer, and the documents
cited as a bibliography (CSL JSON, which Zotero and pandoc read)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .answer.claims import sentence_spans
from .answer.evidence_spans import spans_in_source
from .answer.text import SHORT_ANSWER_WORDS, answer_length, shorten, terms
from .index.table_keys import cell_separator
from .pages import page_words
from .serialize import plain
from .types import Answer, Claim, Decision, DocumentMeta, SourceRef

# The refusing stages in words, as the window's refusal card names them.
STAGE_WORDS = {
    "no_evidence": "No evidence",
    "script": "Unreadable script",
    "relevance": "Not relevant enough",
    "authority": "Below the authority floor",
    "generation": "No answer in the passages",
    "faithfulness": "Not supported by the passages",
    "conflict": "Conflicting sources",
}
# Why the gate removed a sentence, in a reader's words, by the check that decided (Claim.method's
# start; the figures stay in the method, for the details).
CHECK_WORDS: tuple[tuple[str, str | None], ...] = (
    ("guard: number slot", "it puts a number where the passage has another"),
    ("guard: number", "the passage does not give this number"),
    ("guard: count", "the passage gives another number for what was asked"),
    ("guard: name", "the passage does not name this"),
    ("guard: negation", "it adds or drops a negation"),
    ("guard: roles", "it swaps who does what to whom"),
    ("guard: exchanged", "it swaps two parts of what the passage says"),
    ("guard: opposite", "it turns a word of the passage into its opposite"),
    ("guard: ordinal", "it changes a place in an order"),
    ("guard: replaced", "it puts another word of the passage in place of one"),
    ("guard: table row", "the value is from another row of the table"),
    # These say what they found in words of their own: the words are what follows the check's name.
    ("guard: table column", None),
    ("guard: table position", None),
    ("guard: table extreme", None),
    ("guard: named number", None),
    ("guard: named row", None),
    ("guard: code name", None),
    ("guard: option", None),
    ("guard: answer type", None),
    ("guard: list item", None),
    ("guard: cited number", None),
    ("guard: items", None),
    ("guard: cited work", None),
    ("guard: subject", None),
    ("guard: not asserted", "the passage does not state it as a fact"),
    ("guard: a reference list entry", "it is taken from a list of references, which only names works"),
    ("answer not in passage", "the passage does not hold its words"),
    ("adds nothing", "it only repeats the question"),
    ("guard: pointer", "it points at what another sentence says and says nothing itself"),
    # "None", "the": no word that means something, and no value or count the passage states.
    ("empty claim", "it has no word to check, and the passage gives no such value"),
    ("not aligned", "most of its words are not in the passage"),
    ("a bare yes or no", "a bare yes or no says nothing to check"),
    ("reader", "the passage answers something else"),
    ("verifier", "the passage does not read as saying it"),
)


_CHECKED_IN = re.compile(r"^checked in (\w+) as “(.*?)”: ")
_NOT_TRANSLATED = re.compile(r"^could not be put into (\w+)")


def check_words(method: str) -> str:
    """Why a claim was not verified, in words ("the passage does not give this number"); the
    method itself when no check matches. A claim checked in the passage's language says so."""
    untranslated = _NOT_TRANSLATED.match(method)
    if untranslated:
        return f"it could not be translated into {untranslated.group(1)}, the passage's language, to check it"
    checked_in = _CHECKED_IN.match(method)
    rest = method[checked_in.end() :] if checked_in else method
    # The longest name that starts the method ("guard: named number" before "guard: name").
    start, words = max(
        ((start, words) for start, words in CHECK_WORDS if rest.startswith(start)),
        key=lambda item: len(item[0]),
        default=("", rest),
    )
    if words is None:
        words = rest[len(start) :].lstrip(": ")
    if start == "guard: number" and len(_values_listed(rest[len(start) :])) > 1:
        words = "the passage does not give these numbers"  # "162, 35" read "this number" (a window session)
    if checked_in:
        return f"{words} (checked in {checked_in.group(1)} as “{checked_in.group(2)}”)"
    return words


def verified_words(method: str) -> str:
    """How a claim was verified, in a reader's words ("the passage says this word for word"); the
    figures stay in the method, for the details. Issue 23: "aligned 1.00, verifier 0.73" meant
    nothing to a reader."""
    aligned = _ALIGNED.match(method)
    words = next((said for start, said in VERIFIED_WORDS if method.startswith(start)), "")
    if not words and aligned:
        share = float(aligned.group(1))
        words = (
            "the passage says this word for word"
            if share >= 0.995
            else "the passage says this almost word for word"
            if share >= 0.8
            else "the passage says this partly in other words"
        )
    if not words:
        return method
    if "(re-cited)" in method:
        words += " (the model had cited another passage)"
    return words


# A verified claim's method by how it opens: the check that verified it (verify.py).
VERIFIED_WORDS: tuple[tuple[str, str], ...] = (
    ("the passage's answer", "read with the question, the passage supports this answer"),
    ("one of the question's options", "the passage picks this of the question's options"),
    ("a name the passage gives", "the passage gives this name"),
    ("answer aligned", "every word of the answer stands in the passage"),
)
_ALIGNED = re.compile(r"aligned (\d\.\d+)")


def _values_listed(text: str) -> list[str]:
    """The values a guard's method lists first (" 162, 35, model's certainty 0.53": 162 and 35)."""
    values = []
    for item in text.strip().split(", "):
        if " " in item or not any(ch.isdigit() for ch in item):
            break
        values.append(item)
    return values


_QUOTE_LIMIT = 400  # characters of a passage quoted when no sentence of it is known to carry the claim
# A Markdown heading's or list item's mark opening a quoted sentence: "## 0.28.1 (6th December,
# 2024)" reads "0.28.1 (6th December, 2024)" (a window session on httpx's changelog).
_LINE_MARK = re.compile(r"^\s*(?:#{1,6}|[*+>-])\s+")
# A word a PDF page breaks over two lines with a hyphen: "proba-\nbilities" is quoted "probabilities"
# (PyMuPDF's dehyphenation does the same; a compound broken at its own hyphen loses it). After one
# letter it is a compound's ("t-\nprobabilities"), kept, with no space after it.
_BROKEN_WORD = re.compile(r"(?<=[a-z][a-z])-[ \t]*\n\s*(?=[a-z])")
_BROKEN_COMPOUND = re.compile(r"(?<=\w)-[ \t]*\n\s*(?=\w)")


def answer_json(answer: Answer) -> dict[str, Any]:
    """One answer as `citedesk ask --json` prints it (docs/cli.md)."""
    return {
        "question": answer.question,
        "searched": answer.searched,
        "decision": answer.decision.value,
        "answer": answer.text,
        "quote": answer.quote,
        "refusal": None
        if answer.refusal is None
        else {
            "stage": answer.refusal.stage.value,
            "reason": answer.refusal.reason,
            "details": plain(answer.refusal.details),
        },
        "claims": [
            {
                "text": c.text,
                "supported": c.supported,
                "sources": list(c.sources),
                "method": c.method,
                "score": c.score,
                "evidence": [list(e) for e in c.evidence],
                "caution": c.caution,
            }
            for c in answer.claims
        ],
        "sources": [source_json(s) for s in answer.sources],
        # A refusal's closest passages, for a reader to look at: no citation, not an answer.
        "considered": [source_json(s) for s in answer.considered],
        "conflicts": plain(answer.conflicts),
        "removed_claims": answer.removed_claims,
        "conversation": answer.conversation,
        # The documents the question was asked in (ids); empty: the whole library.
        "scope": list(answer.scope),
        "trace": plain(answer.trace),
    }


def source_json(s: SourceRef) -> dict[str, Any]:
    return {
        "unit_id": s.unit_id,
        "document": s.document,
        "path": s.path,
        "page": s.page,
        "passage": s.passage,
        "char_start": s.char_start,
        "char_end": s.char_end,
        "section": s.section,
        # The innermost heading of its document's outline it stands under ("": none).
        "heading": s.heading,
        "boxes": [b.as_row() for b in s.boxes],
        "ocr_confidence": s.ocr_confidence,
        # Its document's title, authors and year, where known (the file's own, or as the user wrote them).
        "about": meta_json(s.about),
    }


def meta_json(meta: DocumentMeta) -> dict[str, Any]:
    return {"title": meta.title, "authors": list(meta.authors), "year": meta.year, "source": meta.source}


def place(source: SourceRef) -> str:
    """Where a citation stands, as a reader looks it up: "paper.pdf, p. 4", "guide.html, Install", or
    by its authors when they are known ("Hutto and Gilbert 2014, p. 5")."""
    name = source.about.label or Path(source.path).name
    if source.page:
        return f"{name}, {_locator(source)}"
    if source.section and source.section != name:
        return f"{name}, {source.section}"
    return name


def _locator(source: SourceRef) -> str:
    """ "p. 4" for a page, "pp. 10–11" for a passage going on over a page break; a sheet or slide as
    the document calls it ("sheet mtCars Pivot"): a window session's export cited a workbook's sheets
    as "p. 4" and "pages 1, 4"."""
    where = page_place(source)
    if where.startswith("pages "):
        return "pp. " + where.removeprefix("pages ")
    return "p. " + where.removeprefix("page ") if where.startswith("page ") else where


def last_page(source: SourceRef) -> int:
    """The page a passage ends on: its page, or a later one when it goes on over a page break."""
    return max((box.page for box in source.boxes), default=source.page or 0)


def page_place(source: SourceRef) -> str:
    """Where a passage of a paged document is, in words: "page 4", "pages 10–11", "sheet quakes"."""
    page = source.page or 0
    where = page_words(source.path, page, source.section)
    last = last_page(source)
    return f"pages {page}–{last}" if where == f"page {page}" and last > page else where


def supporting_words(source: SourceRef, answer: Answer) -> str:
    """What of the passage the answer stands on: the sentences or table rows its verified claims
    were checked against (Claim.evidence), else the passage itself, shortened."""
    spans = spans_in_source(source, answer.claims)
    if spans:
        words = " … ".join(source.passage[s - source.char_start : e - source.char_start] for s, e in spans)
    else:
        words = shorten(source.passage, _QUOTE_LIMIT)
    return " ".join(words.split())


def claim_quote(claim: Claim, answer: Answer) -> str:
    """For a verified short answer ("12", "Rcpp::sourceCpp"), the passage's own sentence that says it,
    to show beneath it; "" for a sentence (it says itself) or where that sentence is not known."""
    if not claim.supported or answer_length(claim.text) > SHORT_ANSWER_WORDS:
        return ""
    checked = [
        (
            with_columns(source.passage[start - source.char_start : end - source.char_start], source.header),
            source,
        )
        for source in answer.sources
        for start, end in spans_in_source(source, (claim,))
    ]
    # Of the sentences checked, those that hold the answer's own words: a span of two sentences
    # quoted whole could be cut before the one that says it. A table's row is quoted whole: its cells
    # may hold sentences (readr's chickens.csv: Ginger's 12 eggs were quoted "... motto Listen.").
    wanted = terms(claim.text)
    sentences = [
        piece
        for part, source in checked
        for piece in (
            part.splitlines() if source.header.strip() else [part[a:b] for a, b in sentence_spans(part)]
        )
    ]
    saying = [t for t in sentences if wanted & terms(t)] or [part for part, _ in checked]
    quoted = " … ".join(
        _around(
            " ".join(_BROKEN_COMPOUND.sub("-", _BROKEN_WORD.sub("", _LINE_MARK.sub("", t))).split()),
            claim.text,
        )
        for t in saying
    )
    # A quote opens with no closing mark: a sentence split at a prompt's "..." began with the "]" that
    # closes a list ("] >>> sorted(student_tuples, ...)", a window session on Python's sorting HOW TO).
    return shorten(" ".join(quoted.split()).lstrip(_CLOSING_MARKS), _QUOTE_LIMIT)


_CLOSING_MARKS = ")]}”’»,; "  # not "." (".bashrc") nor ":" (":set")
_VALUE = re.compile(r"[-+]?\d[\d,.]*\d|\d|[^\W\d_]{4,}")  # numbers, and words long enough to tell
_AROUND = 160  # a quoted sentence longer than this is shown around the answer
_AROUND_SIDE = 70  # characters of it kept on each side of the answer


def _around(sentence: str, answer: str) -> str:
    """A long sentence cut to the words around the answer, "…" where it was cut: R's printed output
    of a table of standard errors was quoted as one 400-character "sentence" beginning mid-call,
    "“) R> se <- function(vcov) sapply(vcov, ... 0.2249894 0.6034277 ...", for the answer 0.0043029,
    with no sign of which number was the answer (a window session)."""
    said = answer.strip(" .")
    at = sentence.lower().find(said.lower()) if said else -1
    if at < 0 and len(sentence) > _AROUND:
        # An answer of several values ("22.377, 0.001034" from "BP = 22.377, df = 6, p-value =
        # 0.001034") stands in the sentence a value at a time: shown around the values found, the
        # first of them where they lie far apart. It was quoted from the sentence's start, the values
        # cut off (a window session on lmtest's vignette).
        found = sorted(
            (m.start(), m.end())
            for value in set(_VALUE.findall(said))
            for m in [re.search(rf"(?<!\w){re.escape(value)}(?!\w)", sentence, re.IGNORECASE)]
            if m
        )
        if found:
            at, last = found[0][0], max(end for _, end in found)
            said = (
                sentence[at:last] if last - at <= _AROUND - 2 * _AROUND_SIDE else sentence[at : found[0][1]]
            )
    if len(sentence) <= _AROUND or at < 0:
        return sentence
    start, end = max(0, at - _AROUND_SIDE), min(len(sentence), at + len(said) + _AROUND_SIDE)
    if start > 0:
        start = sentence.find(" ", start, at) + 1 or start  # at a word's start
    if end < len(sentence):
        end = sentence.rfind(" ", at + len(said), end) if " " in sentence[at + len(said) : end] else end
    return f"{'…' if start > 0 else ''}{sentence[start:end].strip()}{'…' if end < len(sentence) else ''}"


def with_columns(span: str, header: str) -> str:
    """A span of a table's rows with each cell named by its column ("3.0,Woody,woody" reads "version
    3.0; codename Woody; series woody"): a row quoted bare says nothing. Other spans as they are."""
    if not header.strip():
        return span
    separator = cell_separator(header)
    names = [name.strip() for name in header.split(separator)]
    rows = []
    for line in span.splitlines():
        cells = [cell.strip().strip('"') for cell in line.split(separator)]
        if line.strip() == header.strip() or not 1 < len(cells) <= len(names):
            rows.append(line)
            continue
        rows.append("; ".join(f"{name} {cell}" for name, cell in zip(names, cells, strict=False) if cell))
    return "\n".join(rows)


def scope_words(scope: Sequence[str]) -> str:
    """The documents a question was asked in, by file name ("a.pdf, b.docx"; the first 5, then a count)."""
    names = [Path(document).name for document in scope]
    shown = ", ".join(names[:5])
    return shown if len(names) <= 5 else f"{shown} and {len(names) - 5} more"


def answer_markdown(answer: Answer, number: int | None = None) -> str:
    """One question and its answer (or refusal), each citation quoted beneath it with its place."""
    heading = f"## {number}. {answer.question}" if number is not None else f"## {answer.question}"
    lines = [heading, ""]
    if answer.scope:
        lines += [f"*Asked in:* {scope_words(answer.scope)}", ""]
    if answer.searched and answer.searched != answer.question:
        lines += [f"*Searched as:* {answer.searched}", ""]
    if answer.decision is Decision.STOPPED:
        written = answer.text.strip() or "(nothing yet)"
        lines += [f"*Stopped before it was checked; not verified:* {written}", ""]
        return "\n".join(lines).rstrip() + "\n"
    if answer.decision is Decision.REFUSED:
        refusal = answer.refusal
        stage = STAGE_WORDS.get(refusal.stage.value, refusal.stage.value) if refusal else "Refused"
        reason = f" {refusal.reason}" if refusal is not None and refusal.reason else ""
        lines += [f"**Refused: {stage}.**{reason}", ""]
        if answer.considered:
            closest = "; ".join(place(s) for s in answer.considered)
            lines += [f"*Closest passages (not an answer):* {closest}", ""]
        return "\n".join(lines).rstrip() + "\n"
    lines += [answer.text.strip(), ""]
    lines += [f"*Unsure:* “{c.text}”: {c.caution}\n" for c in answer.claims if c.supported and c.caution]
    if answer.quote:
        lines += ["*The model found no answer; this is the passage's own sentence, quoted.*", ""]
    if answer.removed_claims:
        removed = answer.removed_claims
        lines += [f"*{removed} sentence{'s' if removed != 1 else ''} removed as not supported.*", ""]
    for index, source in enumerate(answer.sources, 1):
        lines += [f"> [{index}] “{supporting_words(source, answer)}”", f"> — {place(source)}", ""]
    for conflict in answer.conflicts:
        lines += [f"*Conflict ({conflict.kind}):* {conflict.detail}", ""]
    return "\n".join(lines).rstrip() + "\n"


def conversation_markdown(title: str, answers: Sequence[Answer]) -> str:
    """A conversation, its answers in order, and the documents it cites."""
    parts = [f"# {title}", ""]
    parts += [answer_markdown(answer, number) for number, answer in enumerate(answers, 1)]
    cited = bibliography(answers)
    if cited:
        parts += ["## Documents cited", ""]
        for item in cited:
            numbers = str(item.get("pages", ""))
            pages = f", {'pages' if ',' in numbers else 'page'} {numbers}" if numbers else ""
            if item.get("note"):
                pages = f", {item['note']}"  # sheets or slides
            authors = ", ".join(a["literal"] for a in item.get("author", []))
            year = item.get("issued", {}).get("date-parts", [[None]])[0][0]
            by = f"{authors}{f' ({year})' if year else ''}. " if authors else f"({year}) " if year else ""
            parts.append(f"- {by}{item['title']}{pages} ({item['path']})")
        parts.append("")
    quoted = " Each quoted passage is what the sentence above it was checked against." if cited else ""
    parts.append(f"*Exported from CiteDesk.{quoted}*")
    return "\n".join(parts).rstrip() + "\n"


def bibliography(answers: Sequence[Answer]) -> list[dict[str, Any]]:
    """Each cited document once, in order of first citation, as CSL JSON items: its title (the file
    name where none is known), its authors and year where known, its path, and the pages cited."""
    items: dict[str, dict[str, Any]] = {}
    pages: dict[str, set[int]] = {}
    others: dict[str, dict[str, None]] = {}  # a workbook's sheets, a deck's slides, in citation order
    for answer in answers:
        if answer.decision in (Decision.REFUSED, Decision.STOPPED):
            continue  # what a refusal considered is no citation
        for source in answer.sources:
            if source.document not in items:
                path = Path(source.path)
                about = source.about
                items[source.document] = {
                    "id": source.document,
                    "type": "document",
                    "title": about.title or path.name,
                    "path": str(path),
                    "URL": path.as_uri() if path.is_absolute() else str(path),
                }
                if about.authors:
                    items[source.document]["author"] = [{"literal": a} for a in about.authors]
                if about.year:
                    items[source.document]["issued"] = {"date-parts": [[about.year]]}
                pages[source.document], others[source.document] = set(), {}
            where = _locator(source) if source.page else ""
            if where.startswith("p. "):
                pages[source.document].add(source.page)
            elif where:
                others[source.document][where] = None
    for document, item in items.items():
        if pages[document]:
            item["pages"] = ", ".join(str(p) for p in sorted(pages[document]))
        if others[document]:
            item["note"] = ", ".join(others[document])  # CSL's free-text field: "sheet quakes, sheet iris"
    return list(items.values())


def conversation_json(conversation: str, title: str, answers: Sequence[Answer]) -> dict[str, Any]:
    return {
        "conversation": conversation,
        "title": title,
        "answers": [answer_json(a) for a in answers],
        "bibliography": bibliography(answers),
    }
