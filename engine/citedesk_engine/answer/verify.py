"""The per-claim gate: does a passage support a claim?

One method, in this order:
0. only what the passage asserts counts (asides.py): an instruction to an AI or a question supports
   nothing, a supposition or an attributed claim only a claim that keeps it so;
1. deterministic guards veto a claim that the passage's own words do not bear out: a number, name or
   negation the passage does not have there, a command-line option beside a word the passage never
   puts beside it (command_options.py), two names in the opposite order around their relation,
   a description ("X is a P") that the window's sentence gives another thing than X (subjects.py),
   and a claim that says its window again but for an edit that changes what it states (two spans
   exchanged, a word turned into its opposite or another place in an order, a number put where the
   window has another between the same two words, a name, number or word of the passage swapped in:
   one alignment of the two word sequences, restated.rewritten); a reference-list entry supports nothing
   but who wrote the work it names; an
   answer taken from another row of a table than the one the question names (table_rows.py), or
   naming fewer things than the question asks for (counts.py); a
   short answer to "who" made of names the passage gives only as a cited work's authors, when the
   question is not about that work (cited_works.py);
2. lexical alignment: the share of the claim's content words found in the best-matching window of
   one to three sentences of the passage (stems, so "grew"/"growing" match);
3. a semantic check: the packaged claim verifier (a cross-encoder trained on fact-checking data,
   training/verifier) reads the claim and that window and gives the probability that the window
   supports it, so an honest paraphrase passes and a claim the passage does not bear out is refused
   (it still passes many contradictions built of the passage's words and other spans of the right
   passage: see its model card; the guards are there for those). Without it (verifier = none) the
   cosine similarity of claim and window embeddings stands in, for partly aligned claims.
A claim is supported when no guard vetoes it, it is aligned enough, and the semantic check agrees
(a fully aligned claim needs less of the verifier's confidence than a partly aligned one). Judged as
the answer to a question, a claim must add something to the question; a short answer (a name, a
date, a count, one of the alternatives the question offers, a name the passage gives made of the
question's words) is read by the verifier with its question and the whole passage once every word it
adds is found in the passage; with the optional answer reader on (answer_span.py, off by default) a
short answer must also be the passage's answer, not just some span of it: the reader must put enough
of its belief on spans that name what the answer names (not for one of the question's alternatives);
a bare "yes" or "no" is refused (nothing in it can be checked); a sentence is checked like any claim.
Thresholds live in VerifyConfig with how they were chosen.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from ..config import VerifyConfig
from ..protocols import ClaimJudge, Embedder, SpanReader
from .about_document import names_no_one
from .answer_adds import (
    added_stems,
    adds_nothing,
    names_a_call,
    names_an_option,
    names_new_phrase,
    points_elsewhere,
    stated_value,
)
from .answer_span import agreement, best_other
from .asides import AsideKind, asides, asserted, condition
from .cited_works import bibliographic_only, cited_elsewhere, in_reference_entry, names_cited_work
from .claims import sentences
from .code_names import unwritten
from .command_options import unpaired_option
from .counts import counted_elsewhere, too_few_items, wrong_answer_type
from .list_items import other_item, other_label, other_quote
from .named_numbers import unmentioned
from .negations import negation_changed
from .polar import is_polar
from .printouts import other_printed
from .restated import inverted_comparison, rewritten, roles_swapped
from .subjects import subject_moved
from .table_rows import name_in_no_row, wrong_cell
from .text import (
    NUMBER_WORDS,
    SHORT_ANSWER_WORDS,
    answer_length,
    content_stems,
    names,
    negated,
    numbers,
    stem,
    words,
)

# A bound written with digits or as a number word ("more than 8 million", "less than seven reviews").
_BOUND = r"\s+\$?\s*([\d][\d,]*(?:\.\d+)?|" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r")\b"
_MORE = re.compile(r"\b(?:more than|over|above|at least|greater than|exceed(?:s|ed)?)" + _BOUND)
_LESS = re.compile(r"\b(?:less than|under|below|fewer than|at most)" + _BOUND)
# Languages that capitalise every noun: a capital there is no sign of a name.
NOUNS_CAPITALISED = frozenset({"de", "lb"})
_YES_NO = re.compile(r"^\s*(?:yes|no|ja|nein|oui|non)\W*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Verdict:
    supported: bool
    method: str  # the check that decided, for the trace and `citedesk verify`
    score: float  # alignment (0..1) of the best window
    passage: int  # index of the passage that decided (-1: none)
    check: str  # which check decided, without figures ("guard: number", "verifier", ...)


@dataclass
class ClaimVerifier:
    config: VerifyConfig
    embedder: Callable[[], Embedder] | None = None
    judge: Callable[[], ClaimJudge | None] | None = None
    reader: Callable[[], SpanReader | None] | None = None
    # The most sentences of a passage one claim may stand on together (its best window). The library
    # wiki asks for one (graph/wiki.py): a sentence it writes must be one sentence of the passage.
    max_window: int = 3

    def check(
        self,
        claim: str,
        passages: Sequence[str],
        question: str = "",
        language: str = "",
        certainty: float | None = None,
    ) -> Verdict:
        """Judge `claim` against each passage; the best supporting one decides: the first that holds
        every word of it, else the supporting one that holds most (a partly aligned passage read
        before one that says the claim whole is not the evidence to show). `language` is the ISO
        639-1 code of the claim and passages when known: in German, where every noun is capitalised,
        capitals name nothing and the name guard is not run (crosslingual.py lists it as unread).
        `certainty` is how sure the answer model was of the claim's least sure word (certainty.py):
        a short answer it hesitated over is read by the answer reader, when one is on."""
        judge = self.judge() if self.judge is not None else None
        best: Verdict | None = None
        supporting: Verdict | None = None
        contradicting: Verdict | None = None
        for index, passage in enumerate(passages):
            # Only what the passage asserts: an instruction to an AI, a question, a supposition or a
            # claim it attributes to someone supports nothing but a claim that keeps it what it is.
            stated = asserted(passage, claim, question)
            verdict = (
                self._check_one(claim, stated, question, index, judge, language, certainty)
                if stated
                else None
            )
            if stated != passage and question and (verdict is None or not verdict.supported):
                verdict = (
                    _under_condition(
                        claim,
                        passage,
                        question,
                        stated,
                        lambda text, at=index: self._check_one(
                            claim, text, question, at, judge, language, certainty
                        ),
                    )
                    or verdict
                )
            if verdict is None or (not verdict.supported and stated != passage):
                verdict = _not_asserted(claim, passage, index, verdict)
            if verdict.supported and verdict.score >= self.config.full_alignment:
                return verdict
            if verdict.supported and (supporting is None or verdict.score > supporting.score):
                supporting = verdict
            if best is None or verdict.score > best.score:
                best = verdict
            if contradicting is None and contradicts(verdict):
                contradicting = verdict
        # A passage that says the opposite outweighs one that only partly says the claim: "boda is
        # quicker than the Farrington procedures" stood on a passage about boda's merits (aligned
        # 0.60) though another says it "is substantially slower" (the real-document set's q034).
        return contradicting or supporting or best or Verdict(False, "no passage", 0.0, -1, "no passage")

    def _check_one(
        self,
        claim: str,
        passage: str,
        question: str,
        index: int,
        judge: ClaimJudge | None,
        language: str = "",
        certainty: float | None = None,
    ) -> Verdict:
        if question and _YES_NO.match(claim) and is_polar(question):
            # A bare "yes" or "no" has no words to align, and the verifier scores both alike
            # (polar.py): nothing can tell a right one from a wrong one.
            return Verdict(
                False,
                "a bare yes or no: nothing in it can be checked against the passage",
                0.0,
                index,
                "bare yes or no",
            )
        # A thing the question names exactly, by a number ("Debian 16": "Duke" was Debian 15's
        # codename) or a code name ("getHandlerByName()"), that the passage never writes; a number of
        # the claim that the passage gives only as a cited work's volume or pages.
        for what, why in (
            ("named number", unmentioned(question, passage) if question else ""),
            ("named row", name_in_no_row(question, passage)),
            ("code name", unwritten(question, passage) if question else ""),
            ("cited number", bibliographic_only(claim, passage, question)),
        ):
            if why:
                return Verdict(False, f"guard: {what}: {why}", 0.0, index, f"guard: {what}")
        claim_stems = set(content_stems(claim))
        if not claim_stems and question:
            # "one" (Super Bowl): a count the passage states; "None": the value it gives a setting
            # ("Default: None"), not the English word. The verifier reads either with its question.
            stated = stated_value(claim, passage)
            if stated:
                return self._judge_answer(
                    judge, claim, passage, question, index, 0.0, stated, span=True, certainty=certainty
                )
        if not claim_stems:
            return Verdict(False, "empty claim", 0.0, index, "empty claim")
        window, coverage = self._best_window(claim_stems, passage, question)
        # A number the question states is the user's, not a claim of the answer ("the late 80's").
        missing_numbers = _unsupported_numbers(claim, passage) - numbers(question)
        if missing_numbers:
            return Verdict(
                False, f"guard: number {', '.join(sorted(missing_numbers))}", coverage, index, "guard: number"
            )
        missing_names = set() if language in NOUNS_CAPITALISED else _missing_names(claim, passage, question)
        if missing_names:
            return Verdict(
                False, f"guard: name {', '.join(sorted(missing_names))}", coverage, index, "guard: name"
            )
        if question and names_no_one(claim, question):
            return Verdict(
                False,
                "guard: answer type: the question asks who wrote it, the answer names no one",
                coverage,
                index,
                "guard: answer type",
            )
        option = unpaired_option(claim, passage, question)
        if option:
            # "python -m yaml" from "python -m json.tool": an option means something only with the
            # program and the value the passage gives it.
            return Verdict(False, f"guard: option: {option}", coverage, index, "guard: option")
        if question and points_elsewhere(claim):  # "For this reason." for "Why is ...?" (a window session)
            return Verdict(
                False, "guard: pointer: it names no more than 'this'", coverage, index, "guard: pointer"
            )
        if (
            question
            and negated(claim) == negated(question)
            and adds_nothing(claim, claim_stems, passage, question)
        ):
            # Decided before the word-order guards: a restated question is refused for that, not for a
            # negation or a role its restating happens to move ("indent" for a question about
            # json.dumps's indent was refused as dropping the "non" of "non-negative"). A "not" of
            # its own ("Columbus is not a county") is what it adds: the negation guard says so.
            return Verdict(
                False, "adds nothing to the question", coverage, index, "adds nothing to the question"
            )
        if negation_changed(claim, window, question, judged=judge is not None):
            return Verdict(False, "guard: negation", coverage, index, "guard: negation")
        if roles_swapped(claim, window):
            return Verdict(False, "guard: roles", coverage, index, "guard: roles")
        moved = subject_moved(claim, window)
        if moved:
            return Verdict(False, f"guard: {moved}", coverage, index, "guard: subject")
        rewritten_as = rewritten(claim, window, passage) or inverted_comparison(claim, window)
        if rewritten_as and not (question and answer_length(claim) <= SHORT_ANSWER_WORDS):
            what = rewritten_as.split(":")[0]
            return Verdict(False, f"guard: {rewritten_as}", coverage, index, f"guard: {what}")
        if in_reference_entry(window, passage) and not (
            question
            and answer_length(claim) <= SHORT_ANSWER_WORDS
            and names_cited_work(claim, passage, question)
        ):
            # "Knoth S (2016). spc: ... R package version 0.5.3": an entry of a reference list says
            # that a work exists, not what it claims; its words fit many claims ("SaTScan is an R
            # package" stood on the entry of an R package interfacing with SaTScan). It does say who
            # wrote the work its title names: a short answer to "who" about that work stands on it.
            return Verdict(False, "guard: a reference list entry", coverage, index, "guard: reference")
        cell = wrong_cell(claim, passage, question)
        if cell:
            # Every cell is the passage's word: an answer from the row below the one the question
            # names, or from the column beside the one it asks for, passes every other check.
            return Verdict(False, f"guard: {cell}", coverage, index, f"guard: {cell.split(':')[0]}")
        if question:
            # Judged as the answer to the question: what it adds to the question is the answer
            # (restating the question proves nothing).
            answer_stems = added_stems(claim, question)
            short = answer_length(claim) <= SHORT_ANSWER_WORDS
            if not answer_stems and names_an_option(claim_stems, question):
                # "Which came first, A or B?" - "B": the answer names one of the alternatives the
                # question offers (however long the name) and nothing else; the verifier decides. A
                # sentence built of the question's words ("B came first") is refused as adding nothing: the
                # verifier cannot judge comparisons (either option gets 0.9+; HaluEval 0.933 -> 0.918
                # when such sentences went to it), and refusing a right one beats passing a wrong
                # one. Naming the question's subject ("Who were the Semuren?" - "The Semuren") picks
                # nothing and adds nothing.
                return self._judge_answer(
                    judge, claim, passage, question, index, coverage, "one of the question's options"
                )
            if not answer_stems and (
                names_new_phrase(claim, passage, question) or names_a_call(claim, passage, question)
            ):
                # "What concert held at Oslo Spektrum honors Nobel Peace Prize laureates?" - "Nobel
                # Peace Prize Concert": every word is the question's, but the name they make is the
                # passage's, not the question's; the verifier reads it with its question.
                return self._judge_answer(
                    judge, claim, passage, question, index, coverage, "a name the passage gives"
                )
            if short or judge is None:
                # Every word of the answer must stand in the passage.
                passage_stems, stated = set(content_stems(passage)), numbers(passage)
                # A number counts however it is written ("4" for "four", "two" for "2").
                novel = sorted(
                    s for s in answer_stems if not _matches(s, passage_stems) and _as_number(s) not in stated
                )
                if novel:
                    return Verdict(
                        False,
                        f"answer not in passage: {', '.join(novel[:3])}",
                        coverage,
                        index,
                        "answer not in passage",
                    )
                other = counted_elsewhere(claim, passage, question)
                if other:
                    # "How many raters ...?" - "90,000+": a number of the passage, but the count of
                    # the ratings; the passage puts "ten" before the raters.
                    return Verdict(False, f"guard: count: {other}", coverage, index, "guard: count")
                fewer = too_few_items(claim, question)
                if fewer:
                    # "What are the five heuristics ...?" - "grammatical and syntactical conventions".
                    return Verdict(False, f"guard: items: {fewer}", coverage, index, "guard: items")
                wrong_type = wrong_answer_type(answer_stems, question)
                if wrong_type:
                    # "Where were the ratings obtained?" - "90,000+ ratings": a count answers no
                    # "where" or "who"; "What does sort_keys do?" - "True" says no action.
                    return Verdict(
                        False, f"guard: answer type: {wrong_type}", coverage, index, "guard: answer type"
                    )
                item = other_item(claim, passage, question)
                if item:
                    # "Which handler rotates log files once they reach a maximum size?" -
                    # "TimedRotatingFileHandler": a name opening another item of the passage's list.
                    return Verdict(False, f"guard: list item: {item}", coverage, index, "guard: list item")
                item = other_label(claim, passage, question)
                if item:
                    # "What does minbucket default to?" - "20": rpart's list of settings gives 20 as
                    # minsplit's default, in the item above minbucket's.
                    return Verdict(False, f"guard: list item: {item}", coverage, index, "guard: list item")
                item = other_printed(claim, passage, question)
                if item:
                    # "What is the estimated coefficient of x1?" - "0.00": a figure of x2's and
                    # error's rows of a correlation matrix printed above the model's summary.
                    return Verdict(False, f"guard: list item: {item}", coverage, index, "guard: list item")
                quoted = other_quote(claim, passage, question)
                if quoted:
                    # "What is the name deque short for?" - "deck": quoted in the right sentence,
                    # after "is pronounced"; "double-ended queue" stands after "is short for".
                    return Verdict(
                        False, f"guard: quoted term: {quoted}", coverage, index, "guard: quoted term"
                    )
                cited = cited_elsewhere(claim, passage, question)
                if cited:
                    # "Who are the authors of the Rcpp introduction paper?" - "Eddelbuettel and
                    # Horner", from "The littler package (Eddelbuettel and Horner, 2021)".
                    return Verdict(False, f"guard: cited work: {cited}", coverage, index, "guard: cited work")
                if judge is None:
                    return Verdict(True, f"answer aligned {coverage:.2f}", coverage, index, "answer aligned")
                # A short answer means nothing without its question: the verifier reads both.
                return self._judge_answer(
                    judge,
                    claim,
                    passage,
                    question,
                    index,
                    coverage,
                    "the passage's answer",
                    span=True,
                    certainty=certainty,
                )
            # A sentence says what it claims: aligned and read by the verifier like any claim, on
            # its own (the verifier's question-form training pairs short right answers with sentence
            # hallucinations, HaluEval, and form must never decide).
        if coverage < self.config.min_alignment:
            return Verdict(False, f"not aligned {coverage:.2f}", coverage, index, "not aligned")
        if judge is not None:
            # The verifier reads the window that carries the claim's words, not the whole passage:
            # trained on one-sentence evidence (VitaminC), it doubts what a longer text states word
            # for word ("Doctor Who was voted the 3rd greatest show of the 2000s by Channel 4": 0.79
            # against its sentence, 0.12 with the two sentences around it, 0.03 against the unit).
            support = judge.supported(window, claim)
            aligned = coverage >= self.config.full_alignment
            needed = self.config.min_support_aligned if aligned else self.config.min_support
            if support >= needed:
                return Verdict(
                    True, f"aligned {coverage:.2f}, verifier {support:.2f}", coverage, index, "verifier"
                )
            return Verdict(
                False,
                f"verifier: not supported ({support:.2f}, aligned {coverage:.2f})",
                coverage,
                index,
                "verifier",
            )
        if coverage >= self.config.full_alignment:
            return Verdict(True, f"aligned {coverage:.2f}", coverage, index, "aligned")
        if self.embedder is None:
            return Verdict(
                False,
                f"partly aligned {coverage:.2f}, no semantic check",
                coverage,
                index,
                "no semantic check",
            )
        similarity = self._similarity(claim, window)
        if similarity >= self.config.min_similarity:
            return Verdict(
                True, f"aligned {coverage:.2f}, semantic {similarity:.2f}", coverage, index, "semantic"
            )
        return Verdict(
            False, f"aligned {coverage:.2f}, semantic {similarity:.2f} too low", coverage, index, "semantic"
        )

    def _judge_answer(
        self,
        judge: ClaimJudge | None,
        claim: str,
        passage: str,
        question: str,
        index: int,
        coverage: float,
        what: str,
        *,
        span: bool = False,
        certainty: float | None = None,
    ) -> Verdict:
        """The verifier reads a short answer with its question; an answer that is a span or a count of
        the passage (`span`; not one of the question's own options or a name made of its words: the
        reader picks spans, not alternatives) is first read by the answer reader, when it is on and
        the answer model hesitated over it (`certainty`, see `_doubted`)."""
        if judge is None:
            return Verdict(False, f"{what}: no verifier to judge it", coverage, index, "no semantic check")
        doubted = span and self._doubted(certainty)
        reader = self.reader() if self.reader is not None and doubted else None
        read = ""
        if reader is not None:
            # Is it the passage's answer, or another span of it? The reader says where in the passage
            # the answer to the question lies (answer/answer_span.py).
            spans = reader.spans(question, passage)
            share = agreement(claim, question, spans)
            if share < self.config.min_reader_agreement:
                other = best_other(claim, question, spans)
                said = f"the passage answers {other.text!r} ({other.probability:.2f})" if other else "no span"
                return Verdict(False, f"reader: {said}, not this ({share:.2f})", coverage, index, "reader")
            read = f", reader {share:.2f}"
        support = judge.supported(passage, claim, question)
        if support >= self.config.min_support_answer:
            return Verdict(True, f"{what}, verifier {support:.2f}{read}", coverage, index, "verifier")
        return Verdict(False, f"verifier: not {what} ({support:.2f})", coverage, index, "verifier")

    def _doubted(self, certainty: float | None) -> bool:
        """Whether the answer model hesitated over a short answer: its least sure word below
        `reader_below_certainty`. Unknown (a server, `citedesk verify`) counts as doubted only when
        that is 1.0, which has the reader read every short answer."""
        limit = self.config.reader_below_certainty
        return limit >= 1.0 if certainty is None else certainty < limit

    def _best_window(self, claim_stems: set[str], passage: str, question: str) -> tuple[str, float]:
        """The window holding the largest share of the claim's words; of windows holding as much,
        the one with the fewest other words, the one most about the claim (the first of those).
        "A library should attach its own handlers to its loggers" holds as much of "Logging to the
        root logger will make it difficult ... to configure the ... handlers of your library" as of
        "It is strongly advised that you do not add any handlers ... to your library's loggers"; the
        second says it (with a "not"), the first only shares its words."""
        parts = sentences(passage) or [passage]
        best_text, best_coverage, best_size = passage, -1.0, 0
        for size in range(1, self.max_window + 1):
            for start in range(0, max(1, len(parts) - size + 1)):
                text = " ".join(parts[start : start + size])
                stems = set(content_stems(text))
                coverage = sum(1 for s in claim_stems if _matches(s, stems)) / len(claim_stems)
                if coverage > best_coverage + 1e-9 or (
                    coverage > best_coverage - 1e-9 and len(stems) < best_size
                ):
                    best_text, best_coverage, best_size = text, coverage, len(stems)
        return best_text, max(0.0, best_coverage)

    def _similarity(self, claim: str, window: str) -> float:
        assert self.embedder is not None
        vectors = self.embedder().embed([claim, window])
        return float(np.dot(vectors[0], vectors[1]))


def contradicts(verdict: Verdict) -> bool:
    """Whether the passage that decided says the opposite of the claim (a word or a comparison turned
    the other way), rather than only not saying it: no other passage's partial support stands then."""
    return verdict.check == "guard: opposite"


def _under_condition(
    claim: str, passage: str, question: str, stated: str, check: Callable[[str], Verdict]
) -> Verdict | None:
    """A short answer that stands on what the passage says happens under a condition: "What exception
    does json.loads raise?" - "JSONDecodeError", from "If the data being deserialized is not a valid
    JSON document, a JSONDecodeError will be raised." (a window session refused it as supposed). The
    question asks what happens, the passage says when; the verdict names the condition, so the reader
    sees it with the answer. A statement is not given its condition back: "Viber deletes the address
    book" drops the "if you deactivate your account" that the passage sets. `stated` is what the
    passage asserts without its conditions, `check` judges the claim against a text. None when the
    conditions do not make it stand."""
    if answer_length(claim) > SHORT_ANSWER_WORDS:
        return None
    conditional = asserted(passage, claim, question, conditions=True)
    if conditional == stated:
        return None
    verdict = check(conditional)
    if not verdict.supported:
        return None
    claim_stems = set(content_stems(claim))
    stated_under = max(
        (a for a in asides(passage) if condition(a)),
        key=lambda a: sum(1 for s in claim_stems if _matches(s, set(content_stems(a.text)))),
    )
    return replace(verdict, method=f"{verdict.method}; the passage says so when: “{condition(stated_under)}”")


def _not_asserted(claim: str, passage: str, index: int, otherwise: Verdict | None = None) -> Verdict:
    """The claim's words stand in what the passage does not assert (half of them or more in one
    aside, and more than in the asserted text's best window): say so, naming what it is; else the
    verdict the asserted text gave (a claim refused there for a dropped negation is not refused
    because a supposition beside it shares two of its words)."""
    claim_stems = set(content_stems(claim))
    asserted_share = otherwise.score if otherwise is not None else 0.0
    for aside in asides(passage):
        stems = set(content_stems(aside.text))
        share = sum(1 for s in claim_stems if _matches(s, stems)) / len(claim_stems) if claim_stems else 0.0
        if share >= 0.5 and share > asserted_share + 1e-9:
            what = _ASIDE_NAMES[aside.kind]
            return Verdict(False, f"guard: not asserted: {what}", 0.0, index, "guard: not asserted")
    return otherwise or Verdict(False, "guard: not asserted", 0.0, index, "guard: not asserted")


_ASIDE_NAMES = {
    AsideKind.INSTRUCTION: "the passage's words are an instruction to an AI",
    AsideKind.QUESTION: "the passage asks it",
    AsideKind.SUPPOSITION: "the passage supposes it",
    AsideKind.ATTRIBUTED: "the passage attributes it to someone",
}


def _as_number(word: str) -> str:
    """A number word or a digit string as `numbers` normalises it ("two" -> "2", "1,200" -> "1200")."""
    return NUMBER_WORDS.get(word, word.replace(",", ""))


def _missing_names(claim: str, passage: str, question: str) -> set[str]:
    """Names of the claim that neither the passage nor the question mentions. A name matches a longer
    or shorter form of itself ("Egypt"/"Egyptian"), and a capitalised first word that reads as an
    ordinary word ("According", "Recently", "Released", "Yes") is not taken for a name."""
    known = set(content_stems(passage)) | {stem(w) for w in words(question)}
    first = words(claim)[:1]
    # "Yes, both are magazines." answers a yes/no question: "Yes" names nothing.
    ordinary = {stem(w) for w in first if w.endswith(("ing", "ly", "ed")) or w == "yes"}
    return {
        name
        for name in names(claim) - known - ordinary
        if not any(_same_family(name, other) for other in known)
    }


def _same_family(a: str, b: str) -> bool:
    short, long_ = sorted((a, b), key=len)
    return len(short) >= 5 and long_.startswith(short)


def _matches(stem_: str, stems: set[str]) -> bool:
    if stem_ in stems:
        return True
    # Long words sharing a 6-letter prefix are usually one family ("organis"/"organiz").
    return len(stem_) >= 7 and any(len(s) >= 7 and s[:6] == stem_[:6] for s in stems)


def _unsupported_numbers(claim: str, passage: str) -> set[str]:
    """Numbers of the claim absent from the passage, except comparisons the passage bears out."""
    in_passage = numbers(passage)
    missing = numbers(claim) - in_passage
    values = [_value(n) for n in in_passage]
    for pattern, holds in ((_MORE, lambda v, bound: v > bound), (_LESS, lambda v, bound: v < bound)):
        for match in pattern.finditer(claim.lower()):
            token = NUMBER_WORDS.get(match.group(1), match.group(1).replace(",", ""))
            token = token.rstrip("0").rstrip(".") if "." in token else token
            bound = _value(token)
            if token in missing and any(
                v is not None and bound is not None and holds(v, bound) for v in values
            ):
                missing.discard(token)
    return missing


def _value(token: str) -> float | None:
    try:
        return float(token.replace(",", ""))
    except ValueError:
        return None
