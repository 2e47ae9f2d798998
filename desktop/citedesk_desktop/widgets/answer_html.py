"""An answer as the conversation shows it, in HTML: verified sentences with their marks and citation
links, what was removed and why, a refusal card with what was considered, a stopped answer."""

from __future__ import annotations

import html
import re
from pathlib import Path

from citedesk_engine.answer.cautions import UNSURE
from citedesk_engine.answer.evidence_spans import spans_in_source
from citedesk_engine.answer.text import shorten
from citedesk_engine.export import (
    STAGE_WORDS,
    check_words,
    claim_quote,
    page_place,
    scope_words,
    with_columns,
)
from citedesk_engine.types import Answer, Claim, Decision, SourceRef, Stage


def answer_html(answer: Answer, number: int, *, show_removed: bool = False) -> str:
    verdict = _verdict_html(answer, number, show_removed=show_removed)
    return _scope_html(answer) + _searched_html(answer, number) + verdict


def _scope_html(answer: Answer) -> str:
    """A question asked in some documents says which, above its answer."""
    if not answer.scope:
        return ""
    return f"<p class='muted'><small>Asked in: {html.escape(scope_words(answer.scope))}</small></p>"


def _searched_html(answer: Answer, number: int) -> str:
    """A follow-up searched as another question says what was searched, and offers it as typed."""
    if not answer.searched:
        return ""
    return (
        f"<p class='muted'><small>Searched as: “{html.escape(answer.searched)}” · "
        f"<a href='astyped:{number}'>ask as typed, without the conversation</a></small></p>"
    )


def stopped_html(written: str) -> str:
    if not written:
        return "<p class='error'>Stopped before the model had written anything.</p>"
    return (
        "<p class='error'>Stopped. The model had written (not verified, not cited):</p>"
        f"<blockquote class='muted'><i>{html.escape(written)}</i></blockquote>"
    )


# The mark of a verified sentence: checked against the passage it cites.
_VERIFIED = " <span class='ok' title='verified against its passage'>✓</span>"


def _unsure_mark(claim: Claim) -> str:
    """Beside the verified mark of a claim shown with a caution: a word that says which ("unsure" when
    the answer model was unsure of it, "one part" when it answers one of a question's two parts)."""
    if not claim.caution:
        return ""
    why = html.escape(claim.caution, quote=True)
    word = "unsure" if UNSURE in claim.caution else "one part"
    return f" <span class='warn' title='{why}'><small>{word}</small></span>"


def _verdict_html(answer: Answer, number: int, *, show_removed: bool = False) -> str:
    if answer.decision is Decision.STOPPED:
        return stopped_html(answer.text)
    if answer.refusal is not None:
        stage = answer.refusal.stage.value
        considered = ""
        best = answer.refusal.details.get("best") if isinstance(answer.refusal.details, dict) else None
        # The passages kept (Answer.considered) open in the viewer as no answer: by their place in
        # the list of what was considered, or in a line of their own where the stage lists none.
        near = {s.unit_id: f"near:{number}.{i}" for i, s in enumerate(answer.considered, 1)}
        if isinstance(best, list) and best:
            # Named as the closest passages are, so that two passages of one page are told apart
            # (a window session listed "hutto2014..., page 6" twice).
            kept = {s.unit_id: s for s in answer.considered}
            rows = "".join(
                _considered(
                    b, near.get(str(b.get("unit_id"))), kept.get(str(b.get("unit_id"))), answer.considered
                )
                for b in best
            )
            considered = (
                "<p>Considered (click one to read it; <b>not an answer</b>: no answer drawn from them "
                "could be verified):</p>"
                f"<ul>{rows}</ul>"
            )
            listed = {str(b.get("unit_id")) for b in best}
        else:
            listed = set()
        read = answer.refusal.details.get("read")
        if isinstance(read, list) and read and not answer.considered:  # else linked below
            rows = "".join(f"<li>{_place(r)}</li>" for r in read)
            considered += f"<p>The model read:</p><ul>{rows}</ul>"
        generated = (
            answer.refusal.details.get("generated") if isinstance(answer.refusal.details, dict) else None
        )
        if generated and answer.refusal.stage is not Stage.GENERATION:  # that one's reason says it all
            considered += f"<p>The model wrote: <i>{html.escape(str(generated))}</i></p>"
        removed = [c for c in answer.claims if not c.supported]
        if removed and answer.refusal.stage is Stage.FAITHFULNESS:
            # Why each sentence was refused, in words: the reason was only in the trace (window session).
            rows = "".join(
                f"<li>{html.escape(c.text)} — {html.escape(check_words(c.method))}</li>" for c in removed
            )
            considered += f"<p>Why:</p><ul>{rows}</ul>"
        # The reranker's order, most likely to answer first: in retrieval's order the passage that
        # answered argparse's store_true question (0.994) came third (a window session).
        others = sorted(
            (s for s in answer.considered if s.unit_id not in listed),
            key=lambda s: -s.rerank if s.rerank is not None else 0.0,
        )
        if others:
            links = " · ".join(f"<a href='{near[s.unit_id]}'>{_told_apart(s, others)}</a>" for s in others)
            considered += (
                "<p>See the closest passages anyway (<b>not an answer</b>: no answer drawn from them "
                f"could be verified): {links}</p>"
            )
        # Not after a relevance refusal: no passage was judged close, their headings are of other things.
        headings = _headings(answer) if stage != Stage.RELEVANCE else []
        if headings:
            # The document's own words for what the question may be about: one click puts the
            # question, worded with that heading and asked in its document only, in the question box.
            links = " · ".join(f"<a href='rephrase:{number}.{i}'>{html.escape(h)}</a>" for i, h in headings)
            considered += f"<p>Rephrase with a heading near your question: {links}</p>"
        documents = asked_in_alone(answer)
        if documents:
            links = " · ".join(
                f"<a href='askin:{number}.{i}'>{html.escape(Path(d).name)}</a>"
                for i, d in enumerate(documents, 1)
            )
            considered += f"<p>Ask again in one document only: {links}</p>"
        return (
            # The card's colours come from the transcript's style sheet (text_colours.py): light on a
            # light theme, dark on a dark one.
            "<table width='100%' class='card' cellpadding='8'>"
            "<tr><td>"
            f"<b class='head'>Refused · {STAGE_WORDS.get(stage, stage)}</b> "
            f"<span class='muted'>(stage: {stage})</span><br>{html.escape(answer.refusal.reason)}"
            f"{considered}</td></tr></table><br>"
        )
    order = {s.unit_id: i + 1 for i, s in enumerate(answer.sources)}
    sentences = []
    for claim in answer.claims:
        if not claim.supported:
            continue
        marks = "".join(
            f" <a href='cite:{number}.{order[u]}'>[{order[u]}]</a>" for u in claim.sources if u in order
        )
        # A short answer is shown with the passage's sentence that says it ("12, 'Members may borrow
        # up to twelve books at a time.'"), so it reads without a click.
        said = claim_quote(claim, answer)
        quoted = f" <span class='muted'>— “{html.escape(said)}”</span>" if said else ""
        sentences.append(f"{html.escape(claim.text)}{_VERIFIED}{_unsure_mark(claim)}{marks}{quoted}")
    if answer.quote:
        parts = [
            # "found no answer in its own words" read as a contradiction beside a verified mark
            # (a window session): what is shown is the passage's sentence, word for word.
            "<p><b>CiteDesk:</b> the answer model wrote no answer; this sentence of your documents, "
            f"word for word, answers the question:</p><blockquote>“{' '.join(sentences)}”</blockquote>"
        ]
    else:
        parts = [f"<p><b>CiteDesk:</b> {' '.join(sentences)}</p>"]
    for claim in answer.claims:
        if claim.supported and claim.caution:
            # Verified, and still wrong about three times as often as the others (config.py):
            # the reader is told so beside the answer, not only in a figure of the details.
            parts.append(
                f"<p class='warn'><small>“{html.escape(shorten(claim.text, 80))}”: "
                f"{html.escape(claim.caution)}</small></p>"
            )
    removed = [c for c in answer.claims if not c.supported]
    if removed and show_removed:
        rows = "".join(
            f"<li><s>{html.escape(c.text)}</s> — {html.escape(check_words(c.method))} "
            f"<small class='muted'>({html.escape(c.method)})</small></li>"
            for c in removed
        )
        parts.append(
            f"<p class='muted'>Removed as not supported by their passages "
            f"(<a href='removed:{number}'>hide</a>):</p><ul class='muted'>{rows}</ul>"
        )
    elif removed:
        count = f"{len(removed)} unsupported sentence{'s' if len(removed) != 1 else ''}"
        parts.append(f"<p class='muted'>{count} removed · <a href='removed:{number}'>show why</a></p>")
    for conflict in answer.conflicts:
        parts.append(f"<p class='warn'>Conflict ({conflict.kind}): {html.escape(conflict.detail)}</p>")
    parts.append(
        "<ol>"
        + "".join(
            f"<li><a href='cite:{number}.{i}'>{_where(s)}</a></li>" for i, s in enumerate(answer.sources, 1)
        )
        + "</ol>"
    )
    return "".join(parts)


def citation_card(source: SourceRef, answer: Answer, *, closest: bool = False) -> str:
    """A citation's hover card: where its passage is, and what of it verified the answer (the
    sentences or table rows its verified claims stand on; the passage's opening when none is known).
    `closest`: one of a refusal's closest passages, said to be no answer."""
    spans = () if closest else spans_in_source(source, answer.claims)
    said = " … ".join(
        with_columns(source.passage[a - source.char_start : b - source.char_start], source.header)
        for a, b in spans
    )
    said = said or with_columns(source.passage, source.header)
    # A passage that opens or ends with its own quotation marks is not quoted twice ("““Rcpp…").
    said = shorten(" ".join(said.split()), _CARD_CHARACTERS).strip(_QUOTES)
    # Said of what was checked, not of the passage: a refused answer's closest passage may well hold
    # the answer the model missed ("restricted maximum likelihood (REML)" for "What does REML stand
    # for?", answered "REML"), and "CiteDesk found no answer in it" was false (a window session).
    note = (
        "<br><i>Closest passage, not an answer: no answer drawn from it could be verified.</i>"
        if closest
        else ""
    )
    where = _where(source)
    named = source.heading and html.escape(source.heading) not in where  # "page.html, Useful Handlers"
    heading = f"<br><i>{html.escape(source.heading)}</i>" if named else ""
    return f"<b>{where}</b>{heading}<br>“{html.escape(said)}”{note}"


def _headings(answer: Answer) -> list[tuple[int, str]]:
    """The headings a refusal's closest passages stand under, each once, with the (1-based) place of
    the first passage under it; not a document's title (the whole document is under it), nor one the
    question was already worded with (the suggestion would go round in a circle)."""
    found: dict[str, tuple[int, str]] = {}  # by the heading in lower case
    asked = answer.question.lower()
    asked_words = set(_WORD.findall(asked))
    for i, source in enumerate(answer.considered, 1):
        heading = " ".join(source.heading.split())
        key = heading.lower()
        # Nor one whose every word the question says: "random.gauss" offered to "Is random.gauss()
        # thread-safe?" (a window session).
        said = set(_WORD.findall(key)) <= asked_words
        if key and key != source.about.title.strip().lower() and f"“{key}”" not in asked and not said:
            found.setdefault(key, (i, heading))
    return list(found.values())[:_HEADINGS]


_HEADINGS = 3
_WORD = re.compile(r"[^\W_]+")


def rephrased(question: str, heading: str) -> str:
    """The question worded with a heading of the document ("In the section “Locale”, how do I ...?"):
    its words join the search, and the model reads what the question is about in the document's terms."""
    first, _, rest = question.strip().partition(" ")
    if first[:1].isupper() and first[1:].islower():  # "How", not "VADER" or "Rcpp"
        first = first.lower()
    return f"In the section “{heading}”, {first} {rest}".rstrip()


_QUOTES = "\"'“”‘’„ "


_CARD_CHARACTERS = 300  # about four lines of a tooltip: the sentence, not the whole passage


def _place(passage: dict[str, object]) -> str:
    """A passage of a refusal's details as a reader names it: the document's file name and page."""
    name = Path(str(passage.get("document") or "")).name or str(passage.get("unit_id"))
    page = f", page {passage['page']}" if passage.get("page") else ""
    return f"{html.escape(name)}{page}"


# At most this many documents are offered to ask again in alone.
ASK_AGAIN_DOCUMENTS = 3


def asked_in_alone(answer: Answer) -> list[str]:
    """The documents a refused question is offered to be asked again in alone, closest first: those
    of its closest passages. Asked in the whole library (or in several documents), the passage that
    answers may stand in a document the others crowd out; the closest passage's document alone is not
    enough (a window session was offered the manual for a question the release table answers, its
    passages second). None where every passage weighed is from one document (asked there alone, the
    same passages come back), where the question was asked in that one already, or after a relevance
    refusal (no passage anywhere was judged to answer: an off-document question)."""
    if answer.refusal is None or answer.refusal.stage is Stage.RELEVANCE:
        return []
    documents = list(dict.fromkeys(s.document for s in answer.considered))
    if len(documents) < 2:
        return []
    return [d for d in documents if (d,) != tuple(answer.scope)][:ASK_AGAIN_DOCUMENTS]


def _considered(
    best: dict[str, object],
    link: str | None = None,
    source: SourceRef | None = None,
    among: tuple[SourceRef, ...] = (),
) -> str:
    """One candidate the relevance gate weighed, in words a reader understands; its place a link to
    the passage when it was kept, told apart from the others' as the closest passages are."""
    coverage = round(100 * float(best.get("coverage", 0) or 0))  # type: ignore[arg-type]
    where = _told_apart(source, list(among)) if source is not None else _place(best)
    place = f"<a href='{link}'>{where}</a>" if link else where
    similarity = float(best.get("similarity", 0) or 0)  # type: ignore[arg-type]
    rerank = best.get("rerank")
    said = [f"holds {coverage}% of the question's words", _in_words(similarity, _MEANING)]
    figures = [f"similarity {similarity}"]
    if rerank is not None:
        said.append(_in_words(float(rerank), _RERANKER))  # type: ignore[arg-type]
        figures.append(f"reranker {rerank}")
    return f"<li>{place}: {', '.join(said)} <small class='muted'>({', '.join(figures)})</small></li>"


# The relevance figures in words (a window session's reader: "meaning similarity -0.016, reranker
# 0.01" says nothing to a non-engineer), the figures beside them. Bands of the packaged models'
# scores: the gate's own thresholds are 0.4 and 0.55 for similarity, 0.7 for the reranker.
_MEANING = (
    (0.55, "very close in meaning"),
    (0.4, "close in meaning"),
    (0.2, "loosely related"),
    (-1.0, "about something else"),
)
_RERANKER = (
    (0.7, "judged likely to answer it"),
    (0.3, "judged unlikely to answer it"),
    (-1.0, "judged not to answer it"),
)


def _in_words(score: float, bands: tuple[tuple[float, str], ...]) -> str:
    return next((words for floor, words in bands if score >= floor), bands[-1][1])


def _told_apart(source: SourceRef, among: list[SourceRef]) -> str:
    """Where a passage is, with its first words when another of `among` is at the same place (three
    passages of one page read "page 5", "page 5", "page 5" otherwise)."""
    where = _where(source)
    if sum(1 for other in among if _where(other) == where) < 2:
        return where
    # A table row named by its columns; other text from its first word with a letter: a passage that
    # opens with a figure's axis ticks was named "page 13 (“800…”)" (a window session).
    words = (
        with_columns(source.passage.split("\n", 1)[0], source.header).split()
        if source.header
        else source.passage.split()
    )
    first = next((i for i, word in enumerate(words) if any(c.isalpha() for c in word)), 0)
    opening = " ".join(words[first : first + 5])
    return f"{where} (“{html.escape(opening)}…”)"


def _where(source: SourceRef) -> str:
    """ "paper.pdf, page 4", or by its authors when they are known ("Hutto and Gilbert 2014, page 5")."""
    name = source.about.label or Path(source.path).name
    if source.page:
        place = f", {html.escape(page_place(source))}"
    elif source.section and source.section != name:  # a CSV's table is titled by its file name
        place = f", {html.escape(source.section)}"
    else:
        place = ""
    return f"{html.escape(name)}{place}"
