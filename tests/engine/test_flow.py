"""The ask flow after retrieval on fakes: follow-up questions, the generation stage and its quote,
the language note of a relevance refusal. The real models run the same paths in test_ask.py."""

from __future__ import annotations

import dataclasses
import threading
from pathlib import Path

import factories
import pytest
from citedesk_engine import Engine
from citedesk_engine.answer.cautions import UNSURE
from citedesk_engine.answer.declined import declines
from citedesk_engine.answer.flow import AnswerFlow
from citedesk_engine.answer.followup import REWRITE_SYSTEM, EarlierTurn, depends_on_conversation, resolve
from citedesk_engine.answer.prompts import NOT_FOUND, POLAR
from citedesk_engine.answer.verify import ClaimVerifier
from citedesk_engine.config import AnswerConfig, Config, ModelsConfig, VerifyConfig
from citedesk_engine.errors import GeneratorError
from citedesk_engine.events import TokenDelta
from citedesk_engine.export import answer_json
from citedesk_engine.languages import identify
from citedesk_engine.retrieve.reformulate import Reformulation
from citedesk_engine.serialize import answer_from_plain, plain
from citedesk_engine.testing import HashEmbedder, ScriptedGenerator
from citedesk_engine.types import Candidate, Decision, EvidenceUnit, Retrieval, Stage

PASSAGES = {
    "rules": "Opening hours are posted at the entrance. Visitors may not bring pets into the reading room. "
    "Bags are left in the lockers.",
    "curie": "Marie Curie discovered polonium and radium. She studied at the University of Paris, where she "
    "later taught physics.",
}

PETS = "Can visitors bring pets into the reading room?"


class Replies:
    """A generator that answers each prompt with the next scripted reply and keeps the prompts."""

    def __init__(self, *replies: str) -> None:
        self.replies = list(replies)
        self.prompts: list[list[dict[str, str]]] = []

    def generate(self, messages, *, max_tokens, on_token=None, cancel=None):  # type: ignore[no-untyped-def]
        self.prompts.append(list(messages))
        return self.replies.pop(0)


def make_flow(
    generator: Replies,
    rerank: float,
    searched: list[str],
    verify: VerifyConfig | None = None,
    passages: dict[str, str] = PASSAGES,
) -> AnswerFlow:
    embedder = HashEmbedder()
    units = [
        EvidenceUnit(f"v-{i:05d}", f"/docs/{name}.txt", "v", i, text, 0, len(text))
        for i, (name, text) in enumerate(passages.items())
    ]
    vectors = dict(zip([u.unit_id for u in units], embedder.embed([u.passage for u in units]), strict=True))

    def retrieve(query: str, k: int, asked: str, variants: dict[str, str]) -> Retrieval:
        searched.append(query)
        words = set(query.lower().split())
        ranked = sorted(units, key=lambda u: -len(words & set(u.passage.lower().split())))
        return Retrieval(query, tuple(Candidate(u, {}, {}, 1.0, rerank) for u in ranked[:k]), ())

    return AnswerFlow(
        retrieve=retrieve,
        embed_query=lambda text: embedder.embed([text])[0],
        stored_vectors=lambda ids: {i: vectors[i] for i in ids},
        generator=lambda: generator,
        verifier=ClaimVerifier(verify or VerifyConfig()),
        config=AnswerConfig(),
        tiers=dict,
        paths=dict,
        library_empty=lambda: False,
        calibrated_rerank=True,
        identify_language=identify,
        document_languages=lambda: {u.document: "en" for u in units},
    )


def test_a_declining_model_over_a_passage_judged_to_answer_gives_its_sentence_as_a_quote() -> None:
    searched: list[str] = []
    flow = make_flow(Replies("NOT IN PASSAGES"), rerank=0.95, searched=searched)
    answer = flow.ask("Can visitors bring pets into the reading room?", k=2)
    assert answer.decision is Decision.ANSWERED and answer.quote, answer.refusal
    assert answer.text.startswith("Visitors may not bring pets into the reading room.")
    (claim,) = answer.claims
    assert claim.supported and claim.sources == ("v-00000",)
    generate = next(t for t in answer.trace if t.stage == "generate")
    assert generate.details["declined"] is True and generate.details["quote"] == "v-00000"


def test_a_declining_model_without_a_confident_passage_refuses_at_the_generation_stage() -> None:
    flow = make_flow(Replies("NOT IN PASSAGES"), rerank=0.2, searched=[])
    answer = flow.ask("Can visitors bring pets into the reading room?", k=2)
    assert answer.refusal is not None and answer.refusal.stage is Stage.GENERATION
    assert "found no answer" in answer.refusal.reason and not answer.quote
    assert [r["document"] for r in answer.refusal.details["read"]][0] == "/docs/rules.txt"
    assert answer.refusal.details["generated"] == "NOT IN PASSAGES"


@pytest.mark.parametrize("reply", ["Passage 1", "See passage 2.", "[1]", "Passages 1 and 2 [1]"])
def test_an_answer_that_only_points_at_a_passage_is_a_declined_answer(reply: str) -> None:
    # The 1.5B wrote "Passage 1" for "How do I create a virtual environment?": the gate refused it as
    # "the passage does not give this number". It says nothing; it is read as the model declining.
    answer = make_flow(Replies(reply), rerank=0.2, searched=[]).ask(
        "Can visitors bring pets into the reading room?", k=2
    )
    assert answer.refusal is not None and answer.refusal.stage is Stage.GENERATION
    assert "found no answer" in answer.refusal.reason
    quoted = make_flow(Replies(reply), rerank=0.95, searched=[]).ask(
        "Can visitors bring pets into the reading room?", k=2
    )
    assert quoted.decision is Decision.ANSWERED and quoted.quote, quoted.refusal


def test_an_answer_naming_a_passage_among_its_words_is_not_declined() -> None:
    assert not declines("Passage 1 says visitors may not bring pets [1].")
    assert not declines("1 [1]") and not declines("20 [1].")
    assert declines("NOT IN PASSAGES") and declines("  ")


def test_a_yes_no_answer_keeps_its_no_when_it_follows_from_its_verified_sentence() -> None:
    generator = Replies("No, visitors may not bring pets into the reading room [1].")
    answer = make_flow(generator, rerank=0.95, searched=[]).ask(
        "Can visitors bring pets into the reading room?", k=2
    )
    assert generator.prompts[0][0]["content"] == POLAR
    assert answer.decision is Decision.ANSWERED, answer.refusal
    assert answer.text == "No, visitors may not bring pets into the reading room. [1]"
    (claim,) = answer.claims
    assert claim.supported and "'no' follows from the sentence" in claim.method


def test_a_yes_no_answer_its_sentence_contradicts_is_shown_as_the_sentence_alone() -> None:
    generator = Replies("Yes, visitors may not bring pets into the reading room [1].")
    answer = make_flow(generator, rerank=0.95, searched=[]).ask(
        "Can visitors bring pets into the reading room?", k=2
    )
    assert answer.decision is Decision.ANSWERED, answer.refusal
    assert answer.text == "Visitors may not bring pets into the reading room. [1]"
    assert "'yes' left out" in answer.claims[0].method


def test_a_bare_yes_is_refused_and_a_sentence_the_passage_does_not_state_loses_its_yes_too() -> None:
    answer = make_flow(Replies("YES [1]"), rerank=0.95, searched=[]).ask(PETS, k=2)
    assert answer.refusal is not None and answer.refusal.stage is Stage.FAITHFULNESS
    assert "a bare yes or no" in answer.claims[0].method
    answer = make_flow(
        Replies("Yes, visitors may bring pets into the reading room [1]."), rerank=0.95, searched=[]
    ).ask("Can visitors bring pets into the reading room?", k=2)
    assert answer.refusal is not None and answer.refusal.stage is Stage.FAITHFULNESS


def test_a_follow_up_with_a_pronoun_is_rewritten_and_searched_as_rewritten() -> None:
    searched: list[str] = []
    generator = Replies("Where did Marie Curie study?", "the University of Paris [1]")
    flow = make_flow(generator, rerank=0.95, searched=searched)
    earlier = [EarlierTurn("Who discovered polonium?", "Marie Curie")]
    answer = flow.ask("Where did she study?", k=2, earlier=earlier)
    assert generator.prompts[0][0]["content"] == REWRITE_SYSTEM
    assert "Answer: Marie Curie" in generator.prompts[0][1]["content"]
    assert searched == ["Where did Marie Curie study?"]
    assert answer.searched == "Where did Marie Curie study?"
    assert "Question: Where did Marie Curie study?" in generator.prompts[1][1]["content"]
    assert answer.decision is Decision.ANSWERED and "University of Paris" in answer.text
    follow_up = answer.trace[0]
    assert follow_up.stage == "follow-up" and follow_up.details["how"] == "rewritten"


def test_a_rewrite_that_is_not_the_same_question_falls_back_to_folding_and_says_so() -> None:
    searched: list[str] = []
    generator = Replies("NOT IN PASSAGES", "the University of Paris [1]")
    flow = make_flow(generator, rerank=0.95, searched=searched)
    answer = flow.ask("Where did she study?", k=2, earlier=[EarlierTurn("Who discovered polonium?")])
    assert searched == ["Where did she study? Who discovered polonium?"]
    assert answer.searched == searched[0] and answer.trace[0].details["how"] == "folded"


def test_a_folded_follow_up_has_its_passages_judged_against_both_questions() -> None:
    """A window session on itertools: "In which version was it added?" after "Are tee iterators
    threadsafe?" was folded (the rewrite dropped "version"), and the reranker, reading the bare
    follow-up, judged accumulate's "Changed in version 3.8: Added ..." relevant: "3.8" was shown as
    verified. A rewritten follow-up is judged as rewritten."""
    for replies, judged_as in (
        (("NOT IN PASSAGES", "3.8 [1]"), "In which version was it added? Are tee iterators threadsafe?"),
        (("In which version was tee added?", "3.8 [1]"), "In which version was tee added?"),
    ):
        flow = make_flow(Replies(*replies), rerank=0.95, searched=[])
        judged: list[str] = []
        inner = flow.retrieve

        def retrieve(query: str, k: int, asked: str, variants: dict[str, str], inner=inner, judged=judged):  # type: ignore[no-untyped-def]
            judged.append(asked)
            return inner(query, k, asked, variants)

        flow = dataclasses.replace(flow, retrieve=retrieve)
        flow.ask(
            "In which version was it added?", k=2, earlier=[EarlierTurn("Are tee iterators threadsafe?")]
        )
        assert judged == [judged_as]


def test_a_question_that_names_its_subject_is_searched_as_asked_in_a_conversation() -> None:
    searched: list[str] = []
    generator = Replies("the University of Paris [1]")
    flow = make_flow(generator, rerank=0.95, searched=searched)
    flow.ask("Where did Marie Curie study?", k=2, earlier=[EarlierTurn("What are the opening hours?")])
    assert searched == ["Where did Marie Curie study?"] and len(generator.prompts) == 1


@pytest.mark.parametrize(
    ("question", "depends"),
    [
        ("Where did she study?", True),
        ("And in 2022?", True),
        ("What about gamma rays?", True),
        ("Why?", True),
        ("How does that work?", True),
        ("What did they find?", True),
        ("What was the main conclusion of the study?", False),
        ("What is this study about?", False),
        ("What is the file that is read first?", False),
        ("Which group can read that file?", True),
        ("Were those results significant?", True),
        ("Is there a way that I can change it later?", True),
        ("Is there a way that I can change the editor?", False),
        ("What do these figures show?", False),
        ("Is there a way to change the default editor?", False),
        ("What does apt-get autoremove do?", False),
        ("When was Debian 10 released?", False),
        ("Which handler rotates log files once they reach a maximum size?", False),
        ("What happens to the backups when they expire?", False),
        ("What did they find when they tested it?", True),
        ("When did she move to Paris?", True),
        ("How do I restore it if it breaks?", True),
        # a pronoun after a name the question gives is the name's (a window session merged the first
        # with the previous, unrelated question)
        ("In what year did Terry Therneau receive his PhD?", False),
        ("How old was Prince when he died?", False),
        ("How old was he when he died?", True),
        ("He studied what in Paris?", True),
        ("What is his PhD year?", True),
    ],
)
def test_which_questions_depend_on_the_conversation(question: str, depends: bool) -> None:
    assert depends_on_conversation(question) is depends


def test_a_relevance_refusal_of_a_question_in_another_language_says_so() -> None:
    flow = make_flow(Replies(), rerank=0.01, searched=[])
    answer = flow.ask("Wie ändere ich den Standard-Editor des Systems?", k=2)
    assert answer.refusal is not None and answer.refusal.stage is Stage.RELEVANCE
    assert "German" in answer.refusal.reason and "English" in answer.refusal.reason
    assert answer.refusal.details["question_language"] == "de"


def test_a_relevance_refusal_in_the_library_language_has_no_language_note() -> None:
    flow = make_flow(Replies(), rerank=0.01, searched=[])
    answer = flow.ask("What is the boiling point of liquid nitrogen at sea level?", k=2)
    assert answer.refusal is not None and answer.refusal.stage is Stage.RELEVANCE
    assert "language" not in answer.refusal.reason and "question_language" not in answer.refusal.details


def test_a_stopped_question_is_kept_in_its_conversation_with_what_the_model_wrote(
    tmp_path: Path,
) -> None:
    config = Config(models=ModelsConfig(reranker="none", verifier="none"))
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "rules.txt").write_text(PASSAGES["rules"], encoding="utf-8")
    cancel = threading.Event()
    generator = ScriptedGenerator("Visitors may not bring pets [1].")
    with Engine.open(tmp_path / "lib", config, embedder=HashEmbedder(), generator=generator) as engine:
        engine.ingest([docs])
        question = "Can visitors bring pets into the reading room?"
        # Stopped after the model's second word: the answer says so, with those words, unverified.
        tokens: list[str] = []

        def stop_after_two(event: object) -> None:
            if isinstance(event, TokenDelta):
                tokens.append(event.text)
                if len(tokens) == 2:
                    cancel.set()

        stopped = engine.ask(question, cancel=cancel, on_event=stop_after_two)
        assert stopped.decision is Decision.STOPPED and stopped.text == "Visitors may"
        assert stopped.claims == () and stopped.sources == () and stopped.refusal is None
        # Its trace holds the stages it went through, the last the one it was stopped in (a window
        # session's stopped question showed "0 stages, 0 ms").
        stages = [t.stage for t in stopped.trace]
        assert "retrieve" in stages[0] and "relevance" in stages and stages[-1] == "generate"
        assert stopped.trace[-1].details == {"stopped": True}
        # Kept in a conversation of its own, which reopens with it; the next question follows it.
        assert [c.id for c in engine.conversations()] == [stopped.conversation]
        assert engine.conversations()[0].turns == 1
        cancel.clear()
        answer = engine.ask(question, conversation=stopped.conversation)
        reopened = engine.answers(stopped.conversation)
        assert [a.decision for a in reopened] == [Decision.STOPPED, answer.decision]
        assert reopened[0].text == "Visitors may" and reopened[0].question == question
        # Stopped before the model wrote anything: the question alone is kept.
        cancel.set()
        early = engine.ask("Are bags allowed?", cancel=cancel)
        assert early.decision is Decision.STOPPED and early.text == ""
        assert len(engine.conversations()) == 2


class ServerGoneMidAnswer(ScriptedGenerator):
    """Streams two words, then fails as the HTTP generator does when its server is killed."""

    def generate(self, messages, *, max_tokens, on_token=None, cancel=None):  # type: ignore[no-untyped-def]
        self.prompts.append(list(messages))
        for piece in self.answer.split(" ")[:2]:
            if on_token is not None:
                on_token(piece + " ")
        raise GeneratorError("The server at http://127.0.0.1:8089/v1/chat/completions stopped mid-answer.")


def test_a_question_whose_server_failed_mid_answer_is_kept_then_the_error_is_raised(tmp_path: Path) -> None:
    """A window session lost such questions: the conversation reopened without them."""
    config = Config(models=ModelsConfig(reranker="none", verifier="none"))
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "rules.txt").write_text(PASSAGES["rules"], encoding="utf-8")
    generator = ServerGoneMidAnswer("Visitors may not bring pets [1].")
    with Engine.open(tmp_path / "lib", config, embedder=HashEmbedder(), generator=generator) as engine:
        engine.ingest([docs])
        question = "Can visitors bring pets into the reading room?"
        with pytest.raises(GeneratorError, match="stopped mid-answer"):
            engine.ask(question)
        (kept,) = engine.conversations()
        (answer,) = engine.answers(kept.id)
        assert answer.decision is Decision.STOPPED and answer.question == question
        assert answer.text == "Visitors may" and answer.claims == ()


def test_a_rewrite_spelling_a_hyphenated_word_as_one_is_trusted() -> None:
    """The real session: "What is his e-mail address?" rewritten "... email address?" shared no word
    with the question, was not trusted, and the previous question was folded in instead."""
    generator = Replies("What is `Wolfgang Viechtbauer`'s email address?")  # Markdown from the model
    resolved = resolve(
        "What is his e-mail address?", [EarlierTurn("Who wrote metafor?", "Wolfgang")], generator
    )
    assert (
        resolved.how == "rewritten" and resolved.searched == "What is Wolfgang Viechtbauer's email address?"
    )


def test_a_rewrite_that_drops_a_word_of_the_question_is_not_trusted() -> None:
    # A window session: "How old was he when he died?" rewritten "When did Prince die?"
    earlier = [EarlierTurn("Who was younger when they died, David Bowie or Prince?", "Prince")]
    resolved = resolve("How old was he when he died?", earlier, Replies("When did Prince die?"))
    assert resolved.how == "folded" and resolved.rewrite == "When did Prince die?"
    kept = resolve("How old was he when he died?", earlier, Replies("How old was Prince when he died?"))
    assert kept.how == "rewritten" and kept.searched == "How old was Prince when he died?"


def test_an_answers_claims_carry_where_they_stand_and_keep_it_when_stored() -> None:
    flow = make_flow(Replies("The University of Paris [1]."), 0.95, [])
    answer = flow.ask("Where did Marie Curie study?", k=2)
    (claim,) = answer.claims
    assert claim.supported
    ((unit_id, a, b),) = claim.evidence
    passage = next(s.passage for s in answer.sources if s.unit_id == unit_id)
    assert passage[a:b] == "She studied at the University of Paris, where she later taught physics."
    assert answer_from_plain(plain(answer)).claims == answer.claims


def test_a_refusal_keeps_its_closest_passages_as_no_citation_and_they_survive_storage() -> None:
    relevance = make_flow(Replies(), rerank=0.01, searched=[]).ask(
        "What is the boiling point of liquid nitrogen at sea level?", k=2
    )
    assert relevance.refusal is not None and relevance.refusal.stage is Stage.RELEVANCE
    assert relevance.sources == () and len(relevance.considered) == 2  # both passages, closest first
    assert {s.unit_id for s in relevance.considered} == {"v-00000", "v-00001"}
    generation = make_flow(Replies("NOT IN PASSAGES"), rerank=0.2, searched=[]).ask(PETS, k=2)
    assert generation.refusal is not None and generation.refusal.stage is Stage.GENERATION
    assert generation.sources == () and generation.considered[0].document == "/docs/rules.txt"
    assert generation.considered[0].passage.startswith("Opening hours")
    assert answer_from_plain(plain(generation)).considered == generation.considered
    # an answer shows its citations, and nothing as merely considered
    answered = make_flow(Replies("NOT IN PASSAGES"), rerank=0.95, searched=[]).ask(PETS, k=2)
    assert answered.sources and answered.considered == ()
    # a conversation stored before 0.6 has no such field: it opens with none
    old = plain(generation)
    del old["considered"]
    assert answer_from_plain(old).considered == ()


def test_the_reformulations_searched_are_in_the_trace_and_reach_retrieval() -> None:
    received: list[dict[str, str]] = []
    flow = make_flow(Replies("NOT IN PASSAGES"), rerank=0.95, searched=[])
    plain_retrieve = flow.retrieve

    def retrieve(query: str, k: int, asked: str, variants: dict[str, str]) -> Retrieval:
        received.append(variants)
        return plain_retrieve(query, k, asked, variants)

    translated = {"de": "Dürfen Besucher Haustiere in den Lesesaal mitbringen?"}
    flow.retrieve = retrieve
    flow.reformulate = lambda question, cancel: Reformulation(translated, {"fr": "not a translation"}, "en")
    answer = flow.ask(PETS, k=2)
    assert received == [translated]
    stage = next(t for t in answer.trace if t.stage == "reformulate")
    assert stage.details["variants"] == translated and stage.details["question_language"] == "en"
    assert stage.details["dropped"] == {"fr": "not a translation"}
    assert [t.stage for t in answer.trace].index("reformulate") < [t.stage for t in answer.trace].index(
        "relevance"
    )


CURIE = "Where did Marie Curie study?"


def test_a_short_answer_says_how_sure_the_model_was_of_its_least_sure_word() -> None:
    generator = ScriptedGenerator("University of Paris [1]", sure={"Paris": 0.9, "of": 0.7})
    answer = make_flow(generator, rerank=0.95, searched=[]).ask(CURIE, k=2)  # type: ignore[arg-type]
    assert answer.decision is Decision.ANSWERED, answer.refusal
    (claim,) = answer.claims
    assert claim.supported and claim.method.endswith("model's certainty 0.70")
    assert next(t for t in answer.trace if t.stage == "generate").details["tokens"][1] == [" of", 0.7]


def test_a_short_answer_the_model_was_unsure_of_is_shown_with_a_caution_not_refused() -> None:
    unsure = ScriptedGenerator("University of Paris [1]", sure={"Paris": 0.9, "of": 0.3})
    answer = make_flow(unsure, rerank=0.95, searched=[]).ask(CURIE, k=2)  # type: ignore[arg-type]
    assert answer.decision is Decision.ANSWERED, answer.refusal
    (claim,) = answer.claims
    assert claim.supported and claim.caution == UNSURE
    sure = ScriptedGenerator("University of Paris [1]", sure={"Paris": 0.9, "of": 0.7})
    assert make_flow(sure, rerank=0.95, searched=[]).ask(CURIE, k=2).claims[0].caution == ""  # type: ignore[arg-type]
    # 0 turns the caution off; a sentence carries no certainty, so no caution either.
    off = make_flow(unsure, rerank=0.95, searched=[], verify=VerifyConfig(caution_below_certainty=0.0))  # type: ignore[arg-type]
    assert off.ask(CURIE, k=2).claims[0].caution == ""
    sentence = ScriptedGenerator("Marie Curie studied at the University of Paris [1].", sure={"Paris": 0.1})
    assert make_flow(sentence, rerank=0.95, searched=[]).ask(CURIE, k=2).claims[0].caution == ""  # type: ignore[arg-type]


def test_a_sentence_carries_no_certainty_and_neither_does_a_generator_that_cannot_say() -> None:
    generator = ScriptedGenerator("Marie Curie studied at the University of Paris [1].", sure={"Paris": 0.1})
    answer = make_flow(generator, rerank=0.95, searched=[]).ask(CURIE, k=2)  # type: ignore[arg-type]
    assert answer.decision is Decision.ANSWERED, answer.refusal
    assert "certainty" not in answer.claims[0].method
    silent = make_flow(ScriptedGenerator("University of Paris [1]"), rerank=0.95, searched=[])  # type: ignore[arg-type]
    assert "certainty" not in silent.ask(CURIE, k=2).claims[0].method


def test_cited_and_considered_passages_carry_the_heading_they_stand_under(tmp_path: Path) -> None:
    config = Config(models=ModelsConfig(reranker="none", verifier="none"))
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "guide.md").write_text(
        "# Library guide\n\nThe guide of the city library.\n\n"
        "## Borrowing rules\n\nMembers may borrow up to twelve books at a time.\n\n"
        "## Opening hours\n\nThe library opens at nine on weekdays.\n",
        encoding="utf-8",
    )
    generator = ScriptedGenerator("Members may borrow up to twelve books at a time [1].")
    with Engine.open(tmp_path / "lib", config, embedder=HashEmbedder(), generator=generator) as engine:
        engine.ingest([docs])
        answer = engine.ask("How many books may members borrow at a time?")
        assert answer.sources and answer.sources[0].heading == "Borrowing rules"
        assert answer_json(answer)["sources"][0]["heading"] == "Borrowing rules"
        generator.answer = "NOT IN PASSAGES"
        refused = engine.ask("How many books may members borrow at a time?")
        assert refused.refusal is not None and refused.considered
        assert {s.heading for s in refused.considered} <= {
            "Borrowing rules",
            "Opening hours",
            "Library guide",
        }
        assert "Borrowing rules" in {s.heading for s in refused.considered}
        # Stored with the turn: the conversation reopens with it.
        assert engine.answers(answer.conversation)[0].sources[0].heading == "Borrowing rules"


def test_a_refusals_closest_passages_are_ordered_by_the_reranker_where_it_read_them() -> None:
    from citedesk_engine.answer.gates import Relevance, closest_first

    def judged(unit: str, similarity: float, rerank: float | None) -> Relevance:
        passage = EvidenceUnit(unit, "d", "v", 0, "text", 0, 4)
        return Relevance(Candidate(passage, {}, {}, 0.0), 0.5, similarity, False, rerank)

    # Taken in turn from the reranker's order and the similarity's: the acknowledgements passage (the
    # reranker's first) and the quakes rows (similarity's first) are both shown (window sessions).
    ranked = closest_first(
        [
            judged("howto", 0.30, 0.02),
            judged("thanks", 0.22, 0.37),
            judged("quakes", 0.41, 0.1),
            judged("p261", 0.25, 0.2),
        ]
    )
    assert [r.candidate.unit.unit_id for r in ranked][:3] == ["thanks", "quakes", "p261"]
    assert len(ranked) == 4
    unranked = closest_first([judged("a", 0.2, None), judged("b", 0.4, None)])  # no reranker: by meaning
    assert [r.candidate.unit.unit_id for r in unranked] == ["b", "a"]


def test_only_an_english_question_is_checked_for_names_the_library_never_writes() -> None:
    looked_up: list[str] = []

    def never_written(question: str) -> list[str]:
        looked_up.append(question)
        return ["Curie"]

    flow = dataclasses.replace(make_flow(Replies(NOT_FOUND), 0.9, []), unknown_terms=never_written)
    answer = flow.ask("Where did Marie Curie study?", k=2)
    assert answer.refusal is not None and answer.refusal.stage is Stage.RELEVANCE
    assert answer.refusal.details == {"unknown_terms": ["Curie"]}
    assert [t.details.get("unknown_terms") for t in answer.trace if t.stage == "relevance"] == [["Curie"]]
    # a question in another language: its words are no English words, a translation may find them
    german = "Wo hat Marie Curie studiert und welche Fächer hat sie später an der Universität unterrichtet?"
    flow.ask(german, k=2)
    assert looked_up == ["Where did Marie Curie study?"]


def test_an_answer_another_passage_read_gives_for_the_other_case_is_refused() -> None:
    # sandwich's vignette in a window session: "HC0", cited to a table of settings, was shown as
    # verified; the passage the model read first gives HC1 for lm objects and HC0 otherwise.
    passages = {
        "vignette": 'The HC bias correction is specified via type with the default to use "HC1" for lm '
        'objects and "HC0" otherwise.',
        "settings": 'The HC type of each model: CL-0 uses vcovCL with type "HC0"; CL-1 uses type "HC1".',
    }
    question = "Which HC type does vcovCL use by default for lm objects?"
    flow = make_flow(Replies("HC0 [2]"), 0.9, [], passages=passages)
    answer = flow.ask(question, k=2)
    assert answer.decision is Decision.REFUSED
    (claim,) = answer.claims
    assert not claim.supported
    assert claim.method.startswith('guard: condition: the passage gives "HC1" for lm objects')
    # the value given for the case asked about stands
    right = make_flow(Replies("HC1 [1]"), 0.9, [], passages=passages).ask(question, k=2)
    assert [c.supported for c in right.claims] == [True]


def test_the_trace_says_where_each_passage_weighed_and_read_is() -> None:
    # A window session's trace named the passages the model read by unit id only.
    answer = make_flow(Replies("They may not [1]."), 0.9, []).ask(PETS, k=2)
    (relevance,) = [t for t in answer.trace if t.stage == "relevance"]
    assert {s["unit_id"]: s["where"] for s in relevance.details["scores"]} == {  # type: ignore[union-attr]
        "v-00000": "rules.txt",
        "v-00001": "curie.txt",
    }
    (generate,) = [t for t in answer.trace if t.stage == "generate"]
    read = generate.details["read"]
    assert generate.details["where"] == {
        unit: {"v-00000": "rules.txt", "v-00001": "curie.txt"}[unit] for unit in read
    }  # type: ignore[union-attr]


def test_a_passages_place_is_named_as_its_document_names_its_pages() -> None:
    from citedesk_engine.answer.question_run import place

    def unit(document: str, page: int | None, section: str = "") -> EvidenceUnit:
        return EvidenceUnit("u", document, "v", 0, "text", 0, 4, page=page, section=section)

    paths = {"d1": "/docs/sandwich-CL.pdf"}
    assert place(unit("d1", 12), paths) == "sandwich-CL.pdf, page 12"
    # a window session's trace said "deaths.xlsx, page 1" where the answer said "sheet arts"
    assert place(unit("/docs/deaths.xlsx", 1, "arts"), {}) == "deaths.xlsx, sheet arts"
    assert place(unit("/docs/talk.pptx", 4, "Risks"), {}) == "talk.pptx, slide 4"
    assert place(unit("/docs/logging.html", None, "Logging Levels"), {}) == "logging.html, Logging Levels"


# survival's concordance vignette (Debian's r-cran-survival, LGPL-2+): its first passage.
CONCORDANCE = (
    "Concordance\n\nTerry Therneau, Elizabeth Atkinson\n\nFebruary 6, 2023\n\n1\nThe concordance statistic"
    "\n\n1.1\nOverview\n\nLet (xi, yi) be paired data values, say two measurements on a set of subjects."
)


def test_an_answer_naming_one_author_of_a_byline_names_them_all() -> None:
    # A window session: "Who wrote the Concordance vignette?" answered "Terry Therneau", one of two.
    passages = {"concordance": CONCORDANCE, "curie": PASSAGES["curie"]}
    question = "Who wrote the Concordance vignette?"
    answer = make_flow(Replies("Terry Therneau [1]"), 0.9, [], passages=passages).ask(question, k=2)
    assert answer.text == "Terry Therneau and Elizabeth Atkinson [1]", answer.refusal
    (claim,) = answer.claims
    assert claim.supported and "other names added to the model's 'Terry Therneau'" in claim.method
    start = CONCORDANCE.index("Terry")
    byline = (start, start + len("Terry Therneau, Elizabeth Atkinson"))
    assert [(s, e) for _, s, e in claim.evidence] == [byline]
    # an answer naming both, another kind of question, a sentence: as the model wrote them
    both = make_flow(Replies("Terry Therneau and Elizabeth Atkinson [1]"), 0.9, [], passages=passages)
    assert both.ask(question, k=2).text == "Terry Therneau and Elizabeth Atkinson [1]"
    other = make_flow(Replies("Terry Therneau [1]"), 0.9, [], passages=passages)
    defined = other.ask("Who defined the concordance statistic in this overview?", k=2)
    assert defined.text == "Terry Therneau [1]"


def test_a_cited_passage_spanning_two_sections_is_shown_under_the_heading_of_what_it_was_cited_for(
    tmp_path: Path,
) -> None:
    """A window session on lmtest's vignette: "158 fetuses" was shown under "U.S. macroeconomic data",
    the section whose last sentence opens the passage, not "The mandible data", where it stands."""
    config = Config(models=ModelsConfig(reranker="none", verifier="none"))
    page = (
        "U.S. macroeconomic data\nThe series were taken from the monthly survey of the central bank.\n"
        "The mandible data\nThe data comprises measurements of mandible length in 158 fetuses."
    )
    paper = factories.pdf(
        tmp_path / "paper.pdf", [page], toc=[(1, "U.S. macroeconomic data", 1), (1, "The mandible data", 1)]
    )
    generator = ScriptedGenerator("158 [1]")
    with Engine.open(tmp_path / "lib", config, embedder=HashEmbedder(), generator=generator) as engine:
        engine.ingest([paper])
        answer = engine.ask("How many fetuses are in the mandible data?")
        assert answer.decision is Decision.ANSWERED, answer.refusal
        (source,) = answer.sources
        assert source.passage.startswith("U.S. macroeconomic data")  # one passage holds both
        assert source.heading == "The mandible data"
        generator.answer = "NOT IN PASSAGES"
        refused = engine.ask("How many fetuses are in the mandible data?")
        assert refused.considered[0].heading == "U.S. macroeconomic data"  # nothing cited: its start


def test_a_claim_the_cited_passage_contradicts_is_not_re_cited_to_another() -> None:
    """q034 of the real-document set: refused against the passage it cited ("substantially slower"),
    the claim was re-cited to another passage holding its words and shown as verified."""
    passages = {
        "slow": "Still, monitoring with boda is substantially slower than using the Farrington procedures.",
        "merits": "Boda is quicker to run than many older methods, and it is used beside the Farrington "
        "procedures.",
    }
    generator = Replies("Boda is quicker to run than the Farrington procedures [1].")
    flow = make_flow(generator, rerank=0.95, searched=[], passages=passages)
    answer = flow.ask("How does boda compare in speed with the Farrington procedures?", k=2)
    assert answer.decision is Decision.REFUSED
    assert [c.method for c in answer.claims] == ["guard: opposite: slower / quicker"]


def test_one_short_answer_to_a_question_asking_two_things_is_shown_with_a_caution() -> None:
    from citedesk_engine.answer.cautions import ONE_PART, answers_one_part

    question = "When was the Math Guide published, and which LibreOffice version does it describe?"
    assert answers_one_part("2011–2013", question)
    assert not answers_one_part("3 July 2013, version 4.0.4", question)
    assert not answers_one_part("2011–2013", "When was the Math Guide published?")
    assert not answers_one_part("243, 4.9", "What were the depth and magnitude of the first earthquake?")
    two = "Where did Marie Curie study, and who taught her?"
    answer = make_flow(ScriptedGenerator("University of Paris [1]"), rerank=0.95, searched=[]).ask(two, k=2)  # type: ignore[arg-type]
    assert answer.decision is Decision.ANSWERED, answer.refusal
    assert answer.claims[0].supported and answer.claims[0].caution == ONE_PART
    # Both at once, when the model was unsure too.
    unsure = ScriptedGenerator("University of Paris [1]", sure={"Paris": 0.9, "of": 0.3})
    both = make_flow(unsure, rerank=0.95, searched=[]).ask(two, k=2)  # type: ignore[arg-type]
    assert both.claims[0].caution == f"{UNSURE} {ONE_PART}"
