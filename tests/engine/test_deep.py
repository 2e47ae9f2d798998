"""strategy "deep" on fakes: the generator asks for lookups under a budget, each hop's passages are
judged against its own search, and the answer passes the same gates. The real models: test_graph_real.py."""

from __future__ import annotations

import pytest
from citedesk_engine.answer.deep import Budget, DeepSearch, parse_lookup
from citedesk_engine.answer.flow import AnswerFlow
from citedesk_engine.answer.verify import ClaimVerifier
from citedesk_engine.config import AnswerConfig, VerifyConfig
from citedesk_engine.errors import ConfigError
from citedesk_engine.events import StageStarted
from citedesk_engine.testing import HashEmbedder
from citedesk_engine.types import Candidate, Decision, EvidenceUnit, Retrieval

PASSAGES = {
    "titanic": "Titanic is a 1997 film directed by James Cameron.",
    "cameron": "James Cameron was born in Kapuskasing, Ontario, in 1954.",
    "apples": "Apple trees are grown in orchards across the world.",
}
QUESTION = "In which town was the director of Titanic raised?"


class Replies:
    def __init__(self, *replies: str) -> None:
        self.replies = list(replies)
        self.prompts: list[list[dict[str, str]]] = []

    def generate(self, messages, *, max_tokens, on_token=None, cancel=None):  # type: ignore[no-untyped-def]
        self.prompts.append(list(messages))
        return self.replies.pop(0)


UNITS = [
    EvidenceUnit(f"v{i}-00000", f"/docs/{name}.txt", f"v{i}", 0, text, 0, len(text))
    for i, (name, text) in enumerate(PASSAGES.items())
]


def make_flow(generator: Replies, budget: Budget, searched: list[str]) -> AnswerFlow:
    def retrieve(query: str) -> Retrieval:
        """Only passages sharing a word of four letters or more with the search, best first."""
        searched.append(query)
        words = {w.strip("?,.").lower() for w in query.split() if len(w) >= 4}
        scored = [(len(words & {w.strip(",.").lower() for w in u.passage.split()}), u) for u in UNITS]
        ranked = [u for n, u in sorted(scored, key=lambda x: -x[0]) if n > 0]
        return Retrieval(query, tuple(Candidate(u, {}, {}, 1.0, 0.95) for u in ranked), ())

    return build_flow(generator, budget, retrieve)


def build_flow(generator: Replies, budget: Budget, retrieve, linked=None) -> AnswerFlow:  # type: ignore[no-untyped-def]
    embedder = HashEmbedder()
    vectors = {u.unit_id: embedder.embed([u.passage])[0] for u in UNITS}
    deep = DeepSearch(retrieve, lambda: generator, budget)
    if linked is not None:
        deep.linked = linked
    return AnswerFlow(
        retrieve=lambda query, k, asked, variants: retrieve(query),
        deep=deep,
        embed_query=lambda text: embedder.embed([text])[0],
        stored_vectors=lambda ids: {i: vectors[i] for i in ids},
        generator=lambda: generator,
        verifier=ClaimVerifier(VerifyConfig()),
        config=AnswerConfig(),
        tiers=dict,
        paths=dict,
        library_empty=lambda: False,
        calibrated_rerank=True,
    )


def test_the_generator_asks_for_the_missing_fact_and_the_answer_cites_the_passage_that_gave_it() -> None:
    searched: list[str] = []
    generator = Replies("Search: James Cameron born", "DONE", "Kapuskasing, Ontario [2]")
    events: list[object] = []
    flow = make_flow(generator, Budget(hops=3, lookups=2, seconds=60), searched)
    answer = flow.ask(QUESTION, k=3, strategy="deep", on_event=events.append)
    assert searched == [QUESTION, "James Cameron born"]
    assert StageStarted("lookup", "James Cameron born") in events
    assert "Titanic" in generator.prompts[0][1]["content"]  # the lookup prompt reads what was found
    assert answer.decision is Decision.ANSWERED, answer.refusal
    assert [s.document for s in answer.sources] == ["/docs/cameron.txt"]
    deep = next(t for t in answer.trace if t.stage == "deep")
    assert [h["search"] for h in deep.details["hops"]] == [QUESTION, "James Cameron born"]
    assert deep.details["stopped"] == "the generator had what it needed"
    assert deep.details["left"]["hops"] == 1 and deep.details["left"]["lookups"] == 0


def test_the_standard_strategy_never_asks_for_a_lookup() -> None:
    searched: list[str] = []
    generator = Replies("Kapuskasing [1]")
    answer = make_flow(generator, Budget(3, 2, 60), searched).ask(QUESTION, k=3)
    assert searched == [QUESTION] and len(generator.prompts) == 1
    assert not any(t.stage == "deep" for t in answer.trace)
    # Only the Titanic passage was found, and it does not say Kapuskasing: refused, not invented.
    assert answer.decision is Decision.REFUSED


@pytest.mark.parametrize(
    ("budget", "replies", "stopped", "searches"),
    [
        (Budget(hops=1, lookups=2, seconds=60), [], "hop budget spent", 1),
        (Budget(hops=3, lookups=0, seconds=60), [], "lookup budget spent", 1),
        (Budget(hops=3, lookups=2, seconds=0), [], "time budget spent", 1),
        (
            Budget(hops=5, lookups=5, seconds=60),
            ["James Cameron born", "james cameron  born"],
            "asked again",
            2,
        ),
        (Budget(hops=3, lookups=2, seconds=60), ["a b c d e f g h i j k l m n"], "reply is no search", 1),
    ],
)
def test_lookups_stop_at_the_budget_or_when_nothing_new_is_asked(
    budget: Budget, replies: list[str], stopped: str, searches: int
) -> None:
    searched: list[str] = []
    flow = make_flow(Replies(*replies, "NOT IN PASSAGES"), budget, searched)
    answer = flow.ask(QUESTION, k=3, strategy="deep")
    deep = next(t for t in answer.trace if t.stage == "deep")
    assert stopped in deep.details["stopped"] and len(searched) == searches


def test_an_unknown_strategy_is_refused_in_words() -> None:
    with pytest.raises(ConfigError, match="choose standard or deep"):
        make_flow(Replies(), Budget(3, 2, 60), []).ask(QUESTION, k=3, strategy="wide")


def test_lookup_replies_are_read_leniently_and_done_means_done() -> None:
    assert parse_lookup("Search: James Cameron birthplace.") == "James Cameron birthplace"
    assert parse_lookup('\n"Kapuskasing population"\nbecause ...') == "Kapuskasing population"
    assert parse_lookup("DONE") is None and parse_lookup("done.") is None and parse_lookup("  ") is None


def test_a_passage_linked_by_an_entity_to_a_relevant_one_is_read_even_without_the_questions_words() -> None:
    rerank = {"v0-00000": 0.95, "v1-00000": 0.01, "v2-00000": 0.01}  # only Titanic's looks relevant
    found = Retrieval(QUESTION, tuple(Candidate(u, {}, {}, 1.0, rerank[u.unit_id]) for u in UNITS), ())
    asked: list[tuple[list[str], list[str]]] = []

    def linked(anchors: list[str], others: list[str]) -> set[str]:
        asked.append((anchors, others))
        return {"v1-00000"}  # Cameron's passage names James Cameron, as Titanic's does

    generator = Replies("DONE", "Kapuskasing, Ontario [2]")
    flow = build_flow(generator, Budget(3, 2, 60), lambda search: found, linked)
    answer = flow.ask(QUESTION, k=3, strategy="deep")
    assert asked == [(["v0-00000"], ["v1-00000", "v2-00000"])]
    relevance = next(t for t in answer.trace if t.stage == "relevance")
    assert relevance.details["linked"] == ["v1-00000"]
    generate = next(t for t in answer.trace if t.stage == "generate")
    assert generate.details["read"] == ["v0-00000", "v1-00000"]  # not the apples
    assert answer.decision is Decision.ANSWERED and [s.document for s in answer.sources] == [
        "/docs/cameron.txt"
    ]
