"""The ask pipeline after retrieval: gates, generation, claims, per-claim verification -> Answer.

no_evidence -> script -> relevance -> authority -> conflict scan -> generate (the model may find no
answer: the generation stage refuses) -> split claims ->
per-claim gate (unsupported claims dropped and counted; none left: refuse) -> strict mode and a
conflict touching a cited passage: refuse. Every stage leaves a StageTrace.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from ..config import AnswerConfig
from ..errors import Cancelled, ConfigError
from ..events import EventCallback, TokenDelta, emit
from ..languages import QUESTION_LANGUAGE_CONFIDENCE, UNDETERMINED, language_name
from ..protocols import Generator
from ..retrieve.reformulate import Reformulation
from ..types import (
    Answer,
    Candidate,
    Claim,
    GeneratedToken,
    Refusal,
    Retrieval,
    Stage,
)
from .about_document import TITLE_PAGE, asks_who_wrote, whole_byline
from .asides import AsideKind, asides
from .cautions import caution_for
from .certainty import answer_certainty, generated_tokens
from .claims import split_claims
from .code_names import under_its_name
from .conditions import other_condition
from .conflicts import find_conflicts
from .crosslingual import ClaimLanguages, InLanguage
from .declined import declined_quote, declines
from .deep import DEEP, STANDARD, STRATEGIES, DeepSearch, Hop, interleave
from .evidence_spans import unit_spans
from .followup import EarlierTurn, resolve
from .gates import TRUST_MODES, authority_gate, closest_first, relevance_gate, script_gate
from .language_note import with_language_note
from .polar import polar_answer
from .prompts import best_blocks, build_messages
from .question_run import QuestionRun, place, source_ref
from .row_comparisons import not_the_compared, not_the_extreme
from .table_rows import wrong_position
from .unknown_terms import unknown_reason
from .verify import ClaimVerifier, Verdict, contradicts


@dataclass
class AnswerFlow:
    # (retrieval query, k, question as asked, the query in other languages {code: text})
    retrieve: Callable[[str, int, str, dict[str, str]], Retrieval]
    embed_query: Callable[[str], npt.NDArray[np.float32]]
    stored_vectors: Callable[[list[str]], dict[str, npt.NDArray[np.float32]]]
    generator: Callable[[], Generator]
    verifier: ClaimVerifier
    config: AnswerConfig
    tiers: Callable[[], dict[str, int]]
    paths: Callable[[], dict[str, str]]
    library_empty: Callable[[], bool]  # nothing to search (in the documents asked about)
    calibrated_rerank: bool = False  # rerank scores are the packaged reranker's probabilities
    calibrated_similarity: bool = True  # the relevance thresholds were chosen for this embedder
    identify_language: Callable[[str], tuple[str, float]] | None = None  # (code, probability)
    document_languages: Callable[[], dict[str, str]] = dict
    # The retrieval query translated into the library's other languages (retrieve/reformulate.py).
    reformulate: Callable[[str, threading.Event | None], Reformulation] | None = None
    # Text translated into a language (code) by the generator, None when its reply is no translation:
    # a claim citing a passage in another language than the question's is checked in the passage's.
    translate: Callable[[str, str, threading.Event | None], str | None] | None = None
    deep: DeepSearch | None = None  # strategy "deep" (answer/deep.py); None: not offered
    empty_reason: str = "The library is empty: add documents first."
    searched_in: str = "the library"  # what was searched, in a refusal's words ("debian.csv")
    # The question's words the library never writes (answer/unknown_terms.py); None: not checked.
    unknown_terms: Callable[[str], list[str]] | None = None
    # A document's authors as its metadata names them (the file's properties, or the user's).
    authors: Callable[[str], Sequence[str]] = lambda document: ()

    def ask(
        self,
        question: str,
        *,
        k: int,
        mode: str | None = None,
        strategy: str = STANDARD,
        earlier: Sequence[EarlierTurn] = (),
        on_event: EventCallback | None = None,
        cancel: threading.Event | None = None,
    ) -> Answer:
        mode = mode or self.config.trust_mode
        if mode not in TRUST_MODES:
            raise ConfigError(f"Unknown trust mode {mode!r}: choose strict, normal or exploratory.")
        if strategy not in STRATEGIES or (strategy == DEEP and self.deep is None):
            raise ConfigError(f"Unknown strategy {strategy!r}: choose {' or '.join(STRATEGIES)}.")
        run = QuestionRun(question, on_event, cancel)
        try:
            return self._ask(run, question, k, mode, strategy, earlier, on_event, cancel)
        except Cancelled as stopped:
            stopped.trace = run.stopped()
            raise

    def _ask(
        self,
        run: QuestionRun,
        question: str,
        k: int,
        mode: str,
        strategy: str,
        earlier: Sequence[EarlierTurn],
        on_event: EventCallback | None,
        cancel: threading.Event | None,
    ) -> Answer:
        if self.library_empty():
            return run.refuse(Refusal(Stage.NO_EVIDENCE, self.empty_reason))
        asked = question
        if earlier:
            # A follow-up that cannot stand alone ("Where did she study?") is rewritten into one
            # that does; retrieval, the gates and the generator read that (followup.py).
            run.stage("follow-up")
            resolved = resolve(question, earlier, self.generator(), cancel=cancel)
            run.record(
                "follow-up", 1, 1, how=resolved.how, searched=resolved.searched, rewrite=resolved.rewrite
            )
            run.searched = resolved.searched if resolved.how != "as asked" else ""
            query = resolved.searched
            if resolved.how == "rewritten":
                question = resolved.searched
            # The reranker judges the passages against the question, or, for a follow-up folded with
            # the previous question (no standalone rewrite could be trusted), against both: alone,
            # "In which version was it added?" after "Are tee iterators threadsafe?" found
            # accumulate's "Changed in version 3.8: Added ..." relevant (0.80), "3.8" shown verified.
            judged_against = query if resolved.how == "folded" else question
        else:
            query = judged_against = question
        variants: dict[str, str] = {}
        if self.reformulate is not None:
            run.stage("reformulate")
            found = self.reformulate(query, cancel)
            variants = found.variants
            if variants or found.dropped:  # a library all in the question's language: nothing to say
                run.record(
                    "reformulate",
                    1,
                    len(variants),
                    question_language=found.question_language,
                    variants=variants,
                    **({"dropped": found.dropped} if found.dropped else {}),
                )
        run.stage("retrieve")
        retrieval = self.retrieve(query, k, judged_against, variants)
        run.trace.extend(retrieval.trace)
        hops = [Hop(query, retrieval)]
        if strategy == DEEP and self.deep is not None:
            run.stage("deep")
            hops, details = self.deep.gather(question, hops[0], on_event, cancel)
            run.record("deep", 1, len(hops), **details)
        candidates = interleave([h.retrieval.candidates for h in hops])
        if not candidates:
            return run.refuse(Refusal(Stage.NO_EVIDENCE, "Retrieval found no passage for this question."))

        run.stage("script")
        refusal = script_gate(asked)
        run.record("script", len(candidates), 0 if refusal else len(candidates))
        if refusal:
            return run.refuse(refusal)

        run.stage("relevance")
        paths = self.paths()
        unknown = self._unknown_terms(question)
        if unknown:
            run.record("relevance", len(candidates), 0, unknown_terms=unknown)
            return run.refuse(
                Refusal(Stage.RELEVANCE, unknown_reason(unknown), {"unknown_terms": unknown}),
                considered=[source_ref(c, paths) for c in candidates[:3]],  # as retrieval ranked them
            )
        languages = self.document_languages() if variants and query == question else {}
        judged_hops = []
        for number, hop in enumerate(hops):
            # A later hop's passages are judged against the search that found them.
            asked_here = question if number == 0 else hop.query
            judged_hops.append(
                relevance_gate(
                    asked_here,
                    self.embed_query(asked_here),
                    hop.retrieval.candidates,
                    self.stored_vectors,
                    self.config,
                    calibrated_rerank=self.calibrated_rerank,
                    searched_in=self.searched_in,
                    translated={code: (text, self.embed_query(text)) for code, text in variants.items()}
                    if languages and number == 0
                    else None,
                    language_of=lambda document: languages.get(document, ""),
                    calibrated_similarity=self.calibrated_similarity,
                )
            )
        judged = [r for found, _ in judged_hops for r in found]
        refusal = judged_hops[0][1] if not any(r.relevant for r in judged) else None
        relevant = interleave([[r.candidate for r in found if r.relevant] for found, _ in judged_hops])
        links: set[str] = set()
        if strategy == DEEP and self.deep is not None and relevant:
            chosen = {c.unit.unit_id for c in relevant}
            others = [r.candidate.unit.unit_id for r in judged if not r.relevant]
            links = self.deep.linked(sorted(chosen), others) - chosen
            relevant += interleave([[r.candidate for r in judged if r.candidate.unit.unit_id in links]])
        run.record(
            "relevance",
            len(candidates),
            len(relevant),
            scores=[
                {
                    "unit_id": r.candidate.unit.unit_id,
                    "where": place(r.candidate.unit, paths),
                    "coverage": round(r.coverage, 3),
                    "similarity": round(r.similarity, 3),
                    "rerank": None if r.rerank is None else round(r.rerank, 3),
                    "relevant": r.relevant,
                }
                for r in judged
            ],
            min_coverage=self.config.min_coverage,
            min_similarity=self.config.min_similarity if self.calibrated_similarity else None,
            high_similarity=self.config.high_similarity if self.calibrated_similarity else None,
            min_rerank=self.config.min_rerank if self.calibrated_rerank else None,
            **({"linked": sorted(links)} if links else {}),
        )
        if refusal:
            # The closest passages, by meaning, for the reader to look at (marked as no answer).
            closest = closest_first(judged)[:3]
            return run.refuse(
                with_language_note(
                    refusal, question, candidates, self.identify_language, self.document_languages
                ),
                considered=[source_ref(r.candidate, paths) for r in closest],
            )

        run.stage("authority")
        tiers = self.tiers()
        ranked, refusal = authority_gate(relevant, tiers, mode, self.config.authority_floor)
        run.record("authority", len(relevant), len(ranked), mode=mode, floor=self.config.authority_floor)
        if refusal:
            return run.refuse(refusal, considered=[source_ref(c, paths) for c in relevant[:3]])

        context = ranked[: self.config.context_passages + len(hops) - 1]  # a passage more a lookup
        shown = {u.unit_id for u in best_blocks([c.unit for c in context], question)}
        context = [c for c in context if c.unit.unit_id in shown]
        run.stage("conflict")
        conflicts = find_conflicts(ranked[: max(5, self.config.context_passages)])
        run.record("conflict", len(ranked), len(ranked), conflicts=len(conflicts))

        run.stage("generate")
        asker = self._asker_language(question)
        messages = build_messages(
            question,
            [c.unit for c in context],
            max_chars=self.config.max_passage_chars,
            translated=variants if languages else None,
            language_of=lambda document: languages.get(document, ""),
            answer_language="" if asker in ("en", UNDETERMINED) else asker,
            title_pages=frozenset(c.unit.unit_id for c in context if TITLE_PAGE in c.ranks),
        )
        text = self.generator().generate(
            messages,
            max_tokens=self.config.max_answer_tokens,
            on_token=lambda piece: emit(on_event, TokenDelta(piece)),
            cancel=cancel,
        )
        tokens = generated_tokens(self.generator())
        declined = declines(text)
        quote = None
        if declined:
            quote = declined_quote(question, judged, context, self.config, self.calibrated_rerank)
        run.record(
            "generate",
            len(context),
            len(context),
            characters=len(text),
            declined=declined,
            read=[c.unit.unit_id for c in context],
            where={c.unit.unit_id: place(c.unit, paths) for c in context},
            quote=quote[1].unit.unit_id if quote else None,
            # How sure the model was of each token it wrote (where it can say): certainty.py.
            tokens=[[t.text, round(t.probability, 4)] for t in tokens],
            # Passages read by OCR, with the recogniser's mean confidence for their lines.
            read_by_ocr=[
                {"unit_id": c.unit.unit_id, "confidence": round(confidence, 3)}
                for c in context
                if (confidence := c.unit.ocr_confidence) is not None
            ],
            # Passages holding text addressed to an AI: the model read them without it (asides.py).
            instructions_left_out=[
                {"unit_id": c.unit.unit_id, "text": a.text[:200]}
                for c in context
                for a in asides(c.unit.index_text)
                if a.kind is AsideKind.INSTRUCTION
            ],
        )
        if declined and quote is None:
            return run.refuse(
                Refusal(
                    Stage.GENERATION,
                    "The model read the passages that came closest to the question and found no answer in "
                    "them.",
                    {
                        "read": [
                            {"unit_id": c.unit.unit_id, "document": c.unit.document, "page": c.unit.page}
                            for c in context
                        ]
                    },
                ),
                text=text,
                considered=[source_ref(c, paths) for c in context],
            )

        run.stage("verify")
        if quote is not None:
            # The model declined, but a passage judged to answer holds a sentence with the question's
            # words: that sentence, verbatim, is the answer, marked as a quote. It is verified as what
            # it is, a statement of the passage (guards, alignment, verifier), not as a short answer
            # that must add words to the question: "Visitors may not bring pets." adds only "not".
            sentence, source = quote
            languages = self._claim_languages(asker, variants if query == question else {}, cancel)
            claims, removed, checked_in = self._verify("", f"{sentence} [1]", [source], languages)
            context = [source]
            run.quote = True
        else:
            languages = self._claim_languages(asker, variants if query == question else {}, cancel)
            claims, removed, checked_in = self._verify(question, text, context, languages, tokens)
        supported = [c for c in claims if c.supported]
        run.record(
            "verify",
            len(claims),
            len(supported),
            removed=removed,
            claims=[
                {"text": c.text, "supported": c.supported, "method": c.method, **how}
                for c, how in zip(claims, checked_in, strict=True)
            ],
        )
        if not supported:
            return run.refuse(
                Refusal(
                    Stage.FAITHFULNESS,
                    "No sentence of the generated answer is supported by the passages.",
                    {"removed": removed, "answer": text},
                ),
                text=text,
                claims=claims,
                considered=[source_ref(c, paths) for c in context],
            )
        cited = {uid for c in supported for uid in c.sources}
        touching = [c for c in conflicts if set(c.unit_ids) & cited]
        if mode == "strict" and touching:
            return run.refuse(
                Refusal(
                    Stage.CONFLICT,
                    "The cited passages contradict other passages; strict mode does not answer.",
                    {"conflicts": [c.detail for c in touching]},
                ),
                text=text,
                claims=claims,
                conflicts=conflicts,
                considered=[source_ref(c, paths) for c in context],
            )
        return run.answer(supported, claims, context, conflicts, removed, paths)

    def _unknown_terms(self, question: str) -> list[str]:
        """Names of the question the library never writes; none for a question in another language
        than English (its words are no English words, and a passage in another language may answer
        it: the reformulation's variants search there)."""
        if self.unknown_terms is None:
            return []
        if self._asker_language(question) not in ("en", UNDETERMINED):
            return []
        return self.unknown_terms(question)

    def _asker_language(self, question: str) -> str:
        """The question's language when identified with confidence, else UNDETERMINED."""
        if self.identify_language is None:
            return UNDETERMINED
        code, probability = self.identify_language(question)
        return code if probability >= QUESTION_LANGUAGE_CONFIDENCE else UNDETERMINED

    def _claim_languages(
        self, asker: str, variants: dict[str, str], cancel: threading.Event | None
    ) -> ClaimLanguages | None:
        if self.translate is None:
            return None
        return ClaimLanguages(asker, self.document_languages(), self.translate, variants, cancel)

    def _check(
        self,
        claim: str,
        cited: Sequence[Candidate],
        question: str,
        languages: ClaimLanguages | None,
        certainty: float | None = None,
    ) -> tuple[Verdict, list[Candidate], InLanguage]:
        """The claim against the cited passages, those of each language with the claim in that
        language (crosslingual.py); the first language that supports it decides, else the best."""
        as_written = InLanguage(UNDETERMINED, claim, question, translated=False)
        if languages is None or not cited:
            verdict = self.verifier.check(
                claim, [under_its_name(c.unit) for c in cited], question, certainty=certainty
            )
            return _placed(verdict, cited, claim, question), list(cited), as_written
        groups: dict[str, list[Candidate]] = {}
        for candidate in cited:
            groups.setdefault(languages.language_of(candidate.unit.document), []).append(candidate)
        best: tuple[Verdict, list[Candidate], InLanguage] | None = None
        for language, group in groups.items():
            how = languages.claim_in(claim, question, language)
            if how is None:
                name = language_name(language)
                verdict = Verdict(False, f"could not be put into {name} to check it", 0.0, -1, "translation")
                found = (verdict, group, as_written)
            else:
                texts = [under_its_name(c.unit) for c in group]
                verdict = self.verifier.check(how.claim, texts, how.question, language, certainty)
                verdict = _placed(verdict, group, how.claim, how.question)
                found = (replace(verdict, method=how.note() + verdict.method), group, how)
            if verdict.supported:
                return found
            if best is None or verdict.score > best[0].score:
                best = found
        assert best is not None
        return best

    def _verify(
        self,
        question: str,
        text: str,
        context: Sequence[Candidate],
        languages: ClaimLanguages | None,
        tokens: Sequence[GeneratedToken] = (),
    ) -> tuple[list[Claim], int, list[dict[str, object]]]:
        """The claims of `text`, each checked against its cited passages (in their language), and for
        the trace how each was checked: in which language, and which checks could not read it. A
        short answer carries how sure the model was of it (`tokens`, where the generator can say;
        certainty.py), and the answer reader reads it when the model hesitated."""
        claims = []
        checked_in: list[dict[str, object]] = []
        units = {c.unit.unit_id: c.unit for c in context}
        for raw in split_claims(text, len(context)):
            shown, checked, asked, polarity = raw.text, raw.text, question, ""
            polar = polar_answer(question, raw.text)
            if polar is not None and polar.sentence:
                # "No, VADER does not need training data": the sentence is checked as a statement of
                # the passage; the "no" stays only when it follows from it (polar.py).
                checked, asked = polar.sentence, ""
                if polar.follows:
                    polarity = f"; '{polar.said}' follows from the sentence"
                else:
                    shown = polar.sentence
                    polarity = f"; '{polar.said}' left out: it does not follow from the sentence"
            cited = [context[n - 1] for n in raw.citations if 1 <= n <= len(context)]
            certainty = answer_certainty(checked, tokens, raw.start, raw.end) if asked else None
            verdict, group, how = self._check(checked, cited, asked, languages, certainty)
            sources = tuple(c.unit.unit_id for c in group) if verdict.supported else ()
            if not verdict.supported and not contradicts(verdict):
                # Uncited, or cited wrongly (small models miscount): the claim may still stand on
                # another passage; it is then cited with that one, the passage that was checked. Not
                # when the passage cited says the opposite (verify.contradicts).
                others = [c for c in context if c not in cited]
                retry, group, retried = self._check(checked, others, asked, languages, certainty)
                if retry.supported:
                    verdict = replace(retry, method=f"{retry.method} (re-cited)" if cited else retry.method)
                    sources = (group[retry.passage].unit.unit_id,)
                    how = retried
                elif not cited:
                    verdict, how = retry, retried  # the only check there was: its reason is the one to show
            otherwise = (
                other_condition(checked, [c.unit.passage for c in context], asked)
                if verdict.supported and asked
                else ""
            )
            if otherwise:
                # Another passage the model read gives another value for the case asked about.
                verdict = replace(
                    verdict, supported=False, method=f"guard: {otherwise}", check="guard: condition"
                )
                sources = ()
            if verdict.supported and asked and asks_who_wrote(asked):
                fuller = self._whole_byline(checked, context, sources, languages, asked)
                if fuller is not None:
                    shown = checked = fuller.claim
                    verdict, how, sources, certainty = fuller.verdict, fuller.how, fuller.sources, None
            method = verdict.method + (polarity if verdict.supported else "")
            if certainty is not None:
                method += f", model's certainty {certainty:.2f}"
            evidence = tuple(
                (unit_id, start, end)
                for unit_id in sources
                for start, end in unit_spans(how.claim, units[unit_id], how.question)
            )
            below = self.verifier.config.caution_below_certainty
            caution = caution_for(shown, asked, certainty, below) if verdict.supported else ""
            claims.append(Claim(shown, verdict.supported, sources, method, verdict.score, evidence, caution))
            unread = how.unread_checks()
            checked_in.append(
                {"language": how.language, **({"checks_that_could_not_read_it": unread} if unread else {})}
            )
        removed = sum(1 for c in claims if not c.supported)
        return claims, removed, checked_in

    def _whole_byline(
        self,
        claim: str,
        context: Sequence[Candidate],
        sources: tuple[str, ...],
        languages: ClaimLanguages | None,
        question: str,
    ) -> _Checked | None:
        """A "who wrote it?" answer naming some of the authors its passage names, with them all
        (about_document.py), the fuller answer checked again like any claim; None where there is none."""
        for candidate in (c for c in context if c.unit.unit_id in sources):
            byline = whole_byline(claim, candidate.unit.passage, self.authors(candidate.unit.document))
            if not byline:
                continue
            verdict, _, how = self._check(byline, [candidate], question, languages)
            if verdict.supported:
                note = f"; the byline's other names added to the model's '{claim}'"
                found = replace(verdict, method=verdict.method + note)
                return _Checked(byline, found, how, (candidate.unit.unit_id,))
        return None


@dataclass(frozen=True, slots=True)
class _Checked:
    """A claim as checked: its text, the verdict, in which language, the passages that support it."""

    claim: str
    verdict: Verdict
    how: InLanguage
    sources: tuple[str, ...]


def _placed(verdict: Verdict, cited: Sequence[Candidate], claim: str, question: str) -> Verdict:
    """A supported verdict refused when its passage is not the table row asked for by position (only
    here is the passage's unit, so its place in its table, known), or when another row of the passage
    has the higher or lower value the question asks for, or the other of two rows compared the larger
    or smaller (table_rows.py)."""
    wrong = ""
    if verdict.supported:
        unit = cited[verdict.passage].unit
        wrong = (
            wrong_position(claim, unit, question)
            or not_the_extreme(claim, unit, question)
            or not_the_compared(claim, unit, question)
        )
    if wrong:
        verdict = replace(
            verdict, supported=False, method=f"guard: {wrong}", check=f"guard: {wrong.split(':')[0]}"
        )
    return verdict
