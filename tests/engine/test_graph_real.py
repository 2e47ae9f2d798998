"""The entity graph and strategy "deep" on the real models: spaCy's English pipeline reads the
mentions, the packaged embedder, reranker, generator and verifier answer."""

from __future__ import annotations

from pathlib import Path

import pytest
from citedesk_engine import Engine
from citedesk_engine.answer.verify import ClaimVerifier
from citedesk_engine.graph.wiki import entity_subject, topic_subject
from citedesk_engine.models.spacy_mentions import SpacyMentionReader
from citedesk_engine.resources import samples_dir
from citedesk_engine.types import Decision

pytestmark = pytest.mark.models

FILMS = {
    "titanic.txt": "Titanic (1997 film)\nTitanic is a 1997 American epic romance and disaster film directed, "
    "written and produced by James Cameron. It stars Leonardo DiCaprio and Kate Winslet.",
    "cameron.txt": "James Cameron\nJames Francis Cameron (born August 16, 1954) is a Canadian filmmaker. "
    "Cameron was born in Kapuskasing, Ontario, and moved to the United States in 1971.",
    "ipcc.txt": "IPCC\nThe Intergovernmental Panel on Climate Change (IPCC) is a body of the United Nations. "
    "Bert Bolin was its first chair. The IPCC publishes assessment reports.",
    "apples.txt": "Apples\nThe apple is the fruit of the apple tree. Apple trees are cultivated worldwide.",
}


@pytest.fixture(scope="module")
def films(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("films")
    for name, text in FILMS.items():
        (root / name).write_text(text, encoding="utf-8")
    with Engine.open(root / "library") as engine:
        engine.ingest([root])
        assert engine.build_graph().current
        yield engine


def test_spacy_reads_entities_and_phrases_and_survives_hostile_text() -> None:
    reader = SpacyMentionReader()
    found = reader.read(
        [
            FILMS["ipcc.txt"],
            "",
            "\x00\ufffd\ufffd %%% ]]] " * 50,
            "Der Bundestag beschließt die Gesetze.",
            "word " * 20_000,
            "See Section 2.7.3 and Table 1.12 in Chapter 2 on the Advanced Packaging Tool.",
            "The list con.farrington holds the options of the Farrington method.",
            "Zeileis and Grothendieck provide vcovCL with type HC0 for Newey and West estimators.",
            "Comma Separated Values files are common.",
        ]
    )
    ipcc = {m.node: m.kind for m in found[0]}
    assert ipcc["intergovernmental panel on climate change"] != "NP"  # an entity (its type varies)
    assert ipcc["bert bolin"] == "PERSON" and ipcc["assessment report"] == "NP"
    assert found[1] == [] and len(found) == 9
    # A document's own furniture is no entity: a manual names its sections everywhere.
    assert {m.node for m in found[5]} == {"advanced packaging tool"}
    # Nor is a name of code ("con.farrington", an R list of the article's code).
    assert not any("." in m.node for m in found[6]) and "farrington method" in {m.node for m in found[6]}
    # A name of code is a key phrase, whatever the recogniser called it (the Explore view of a window
    # session showed "HC0 · place", "vcovCL · organisation").
    sandwich = {m.node: m.kind for m in found[7]}
    assert sandwich["zeileis"] == "PERSON" and sandwich["hc0"] == "NP" and sandwich["vcovcl"] == "NP"
    # nor is a name made with a verb and a noun ("Comma Separated Values" was a person)
    assert {m.node: m.kind for m in found[8]}.get("comma separated value") == "NP"


def test_an_isolated_reader_reads_in_its_worker_only_and_reads_the_same() -> None:
    # The window's reader (Engine.open(interactive=True)): spaCy never runs in this process, whose
    # engine thread then waits without the interpreter lock (issue 23: the window's stalls).
    texts = [FILMS["ipcc.txt"], FILMS["cameron.txt"], ""]
    isolated = SpacyMentionReader(processes=1, isolated=True)
    try:
        assert isolated.read([]) == []  # starts the worker and loads its pipeline
        found = isolated.read(texts)
        keys = isolated.keys("Who chaired the Intergovernmental Panel on Climate Change?")
        assert isolated._nlp is None  # never loaded here
    finally:
        isolated.close()
    here = SpacyMentionReader()
    assert found == here.read(texts)
    assert keys == here.keys("Who chaired the Intergovernmental Panel on Climate Change?")
    assert ("intergovernmental panel on climate change", "Intergovernmental Panel on Climate Change") in keys


def test_aliases_and_topics_on_real_text(films: Engine) -> None:
    graph = films.library.graph
    assert graph.nodes_of_keys(["ipcc", "cameron"]) == {
        "ipcc": "intergovernmental panel on climate change",
        "cameron": "james cameron",
    }
    page = films.entity("james cameron")
    assert {Path(s.path).name for s in page.passages} == {"titanic.txt", "cameron.txt"}
    assert films.topics() and films.entities("cameron")[0].node == "james cameron"


def test_the_graph_walk_brings_the_bridge_passage_into_the_pool(films: Engine) -> None:
    question = "In which town did the director of Titanic grow up?"
    found = films.retrieve(question, k=5, signals=["graph"], rerank=False)
    # Titanic's passage names the film; Cameron's is one hop on, through "James Cameron".
    assert [Path(c.unit.document).name for c in found.candidates] == ["titanic.txt", "cameron.txt"]


def test_deep_answers_a_question_whose_facts_are_in_two_documents(films: Engine) -> None:
    question = "In which town did the director of Titanic grow up?"
    answer = films.ask(question, strategy="deep")
    assert answer.decision is Decision.ANSWERED, answer.refusal
    assert "Kapuskasing" in answer.text
    assert [Path(s.path).name for s in answer.sources] == ["cameron.txt"]
    deep = next(t for t in answer.trace if t.stage == "deep")
    assert deep.details["left"]["hops"] >= 0 and deep.details["hops"][0]["search"] == question


def test_deep_still_refuses_what_no_document_says(films: Engine) -> None:
    answer = films.ask("What is the boiling point of liquid nitrogen?", strategy="deep")
    assert answer.decision is Decision.REFUSED


def test_every_wiki_sentence_written_for_the_sample_documents_passes_the_per_claim_gate(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """The library wiki's pages of the sample documents (every topic, every entity named in two
    passages or more), written by the real generator, then each kept sentence checked again by the
    gate against the passage it cites, as a reader would check it."""
    with Engine.open(tmp_path_factory.mktemp("wiki") / "library") as engine:
        engine.ingest([samples_dir()])
        assert engine.build_graph().current
        subjects = [topic_subject(t.label) for t in engine.topics()]
        subjects += [entity_subject(n.node) for n in engine.entities() if n.units >= 2 and n.kind != "NP"]
        assert len(subjects) >= 3
        gate = ClaimVerifier(engine.config.verify, engine.embedder, engine.claim_judge, engine.answer_reader)
        kept = 0
        for subject in subjects:
            page = engine.wiki(subject)
            assert page.sources and engine.wiki(subject) == page  # cached
            for claim in page.claims:
                (unit,) = engine.library.manifest.units_by_id(list(claim.sources)).values()
                assert gate.check(claim.text, [unit.index_text]).supported, (page.title, claim.text)
                kept += 1
        assert kept >= 2
        assert engine.graph_status().pages == len(subjects)
