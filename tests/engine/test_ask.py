"""The ask pipeline on the real models: answers with correct citations, and every refusal stage fires."""

from __future__ import annotations

import threading
from pathlib import Path

import factories
import pytest
from citedesk_engine import Engine, TokenDelta
from citedesk_engine.answer.verify import ClaimVerifier
from citedesk_engine.config import VerifyConfig
from citedesk_engine.types import Decision, Stage

pytestmark = pytest.mark.models

DOCS = {
    "alpha.txt": "Alpha particles consist of two protons and two neutrons bound together. They are emitted "
    "in the radioactive decay of heavy elements such as uranium and radium.",
    "bridge.txt": "The Vasco da Gama Bridge crosses the Tagus river near Lisbon. It was opened to traffic in "
    "March 1998, in time for Expo 98. The bridge is 12.3 kilometres long.",
    "bridge_old.txt": "An older survey says the Vasco da Gama Bridge is 17.2 kilometres long, "
    "including its viaducts.",
    "museum.md": "# Visiting hours\n\nThe city museum opens at nine in the morning and closes at five in the "
    "afternoon. Entry is free on Sundays.\n",
}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("ask")
    docs = root / "docs"
    docs.mkdir()
    for name, text in DOCS.items():
        (docs / name).write_text(text, encoding="utf-8")
    factories.pdf(
        docs / "report.pdf",
        [
            "Annual report of the harbour authority. " + factories.LOREM,
            "The harbour handled 4.2 million containers in 2023, a record for the port.",
            "The new lighthouse on the northern pier was painted red and white.",
        ],
    )
    with Engine.open(root / "library") as engine:
        report = engine.ingest([docs])
        assert all(f.status.value == "ingested" for f in report.files)
        yield engine


def test_answer_cites_the_right_pdf_page(engine: Engine) -> None:
    answer = engine.ask("How many containers did the harbour handle in 2023?")
    assert answer.decision is Decision.ANSWERED, answer.refusal
    assert "4.2 million" in answer.text
    (source,) = answer.sources
    assert source.page == 2 and source.path.endswith("report.pdf") and source.boxes
    assert engine.text(source.document)[source.char_start : source.char_end] == source.passage
    assert all(c.supported and c.sources == (source.unit_id,) for c in answer.claims)
    assert [t.stage for t in answer.trace][-3:] == ["conflict", "generate", "verify"]


def test_tokens_stream_and_the_conversation_is_kept(engine: Engine) -> None:
    tokens: list[str] = []
    first = engine.ask(
        "When was the Vasco da Gama Bridge opened?",
        on_event=lambda e: tokens.append(e.text) if isinstance(e, TokenDelta) else None,
    )
    assert first.decision is Decision.ANSWERED and "1998" in first.text
    assert "".join(tokens).strip()
    # The model says how sure it was of each token it wrote: they make the text it streamed, and a
    # short answer's method says the least sure of its words (answer/certainty.py).
    written = next(t for t in first.trace if t.stage == "generate").details["tokens"]
    assert "".join(text for text, _ in written).strip() == "".join(tokens).strip()
    assert all(0.0 < p <= 1.0 for _, p in written)
    if len(first.claims[0].text.split()) <= 5:
        assert "model's certainty" in first.claims[0].method
    follow_up = engine.ask("Which river does it cross?", conversation=first.conversation)
    assert follow_up.decision is Decision.ANSWERED, follow_up.refusal
    assert "Tagus" in follow_up.text
    # The pronoun was resolved from the first turn by the generator, and that question was searched.
    assert follow_up.trace[0].stage == "follow-up" and follow_up.trace[0].details["how"] == "rewritten"
    assert "Vasco da Gama" in follow_up.searched and "cross" in follow_up.searched
    standalone = engine.ask("When does the city museum close?", conversation=first.conversation)
    assert standalone.searched == "" and standalone.trace[0].details["how"] == "as asked"
    turns = engine.conversation(first.conversation)
    assert [t.question for t in turns] == [
        "When was the Vasco da Gama Bridge opened?",
        "Which river does it cross?",
        "When does the city museum close?",
    ]
    assert turns[1].answer["decision"] == "answered"
    # Reopened from storage, the answers are the ones returned: citations, scores and trace included.
    assert engine.answers(first.conversation) == [first, follow_up, standalone]
    source = first.sources[0]
    assert source.fused is not None and source.ranks and set(source.ranks) <= set(source.scores)


def test_normal_mode_answers_and_lists_the_conflict(engine: Engine) -> None:
    answer = engine.ask("How long is the Vasco da Gama Bridge?")
    assert answer.decision is not Decision.REFUSED, answer.refusal
    assert any(c.kind == "number" for c in answer.conflicts)


def test_a_question_asked_in_one_document_is_answered_from_it_alone(engine: Engine) -> None:
    """Two documents disagree on the bridge's length: asked in the older survey only, the answer is
    its figure, cites only it, and finds no conflict (the other document was not searched)."""
    old = next(d for d in engine.documents() if d.source_path.endswith("bridge_old.txt"))
    answer = engine.ask("How long is the Vasco da Gama Bridge?", documents=[old.source_path])
    assert answer.decision is Decision.ANSWERED, answer.refusal
    assert "17.2" in answer.text and "12.3" not in answer.text
    assert {s.document for s in answer.sources} == {old.document} and not answer.conflicts
    assert answer.scope == (old.document,)
    assert engine.answers(answer.conversation)[0].scope == (old.document,)  # stored with the turn
    # Asked in a document that does not hold the answer: refused, nothing from the others cited.
    museum = next(d for d in engine.documents() if d.source_path.endswith("museum.md"))
    elsewhere = engine.ask("When was the Vasco da Gama Bridge opened?", documents=[museum.document])
    assert elsewhere.decision is Decision.REFUSED and not elsewhere.sources
    assert elsewhere.refusal is not None and elsewhere.refusal.stage is Stage.RELEVANCE
    assert elsewhere.refusal.reason == "Nothing in museum.md is relevant enough to this question."
    assert all(s.document == museum.document for s in elsewhere.considered)


def test_no_evidence_on_an_empty_library(tmp_path: Path) -> None:
    with Engine.open(tmp_path / "empty") as empty:
        answer = empty.ask("What is anything?")
        assert answer.refusal is not None and answer.refusal.stage is Stage.NO_EVIDENCE
        assert empty.conversation(answer.conversation)[0].answer["refusal"]["stage"] == "no_evidence"
        assert empty.answers(answer.conversation) == [answer]


def test_script_refusal(engine: Engine) -> None:
    answer = engine.ask("ភាសាខ្មែរ គឺជាអ្វី?")
    assert answer.refusal is not None and answer.refusal.stage is Stage.SCRIPT
    assert answer.refusal.details["unsupported_scripts"] == ["khmer"]


def test_relevance_refusal_gamma_is_not_alpha(engine: Engine) -> None:
    answer = engine.ask("What about gamma rays?")
    assert answer.refusal is not None and answer.refusal.stage is Stage.RELEVANCE
    assert answer.refusal.details["best"]  # what was considered, with its figures
    assert not any(t.stage == "generate" for t in answer.trace)  # the gate refused, not the model


def test_a_name_the_library_never_writes_is_refused_before_the_model_reads(engine: Engine) -> None:
    answer = engine.ask("When does the Rijksmuseum close on Sundays?")
    assert answer.refusal is not None and answer.refusal.stage is Stage.RELEVANCE
    assert answer.refusal.details["unknown_terms"] == ["Rijksmuseum"]
    assert "never write “Rijksmuseum”" in answer.refusal.reason
    assert answer.considered  # the passages retrieval found, for the reader to look at
    assert not any(t.stage == "generate" for t in answer.trace)
    # a name misspelt is still found: the check lets the question on
    misspelt = engine.ask("How long is the Vasko da Gama Bridge?")
    assert misspelt.refusal is None or "unknown_terms" not in misspelt.refusal.details
    assert any(t.stage == "generate" for t in misspelt.trace)


def test_authority_refusal_in_strict_mode(engine: Engine) -> None:
    answer = engine.ask("When does the museum close?", mode="strict")
    assert answer.refusal is not None and answer.refusal.stage is Stage.AUTHORITY


def test_faithfulness_refusal_when_the_model_invents(engine: Engine) -> None:
    answer = engine.ask("Who built the Vasco da Gama Bridge?")
    assert answer.refusal is not None and answer.refusal.stage in (Stage.FAITHFULNESS, Stage.GENERATION)
    if answer.refusal.stage is Stage.FAITHFULNESS:
        assert answer.removed_claims >= 1 and all(not c.supported for c in answer.claims)


def test_conflict_refusal_in_strict_mode(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for name in ("bridge.txt", "bridge_old.txt"):
        (docs / name).write_text(DOCS[name], encoding="utf-8")
    with Engine.open(tmp_path / "lib") as strict:
        strict.ingest([docs], authority=2)
        answer = strict.ask("How long is the Vasco da Gama Bridge?", mode="strict")
        assert answer.refusal is not None and answer.refusal.stage is Stage.CONFLICT
        assert answer.refusal.details["conflicts"]


def test_cancel_during_generation(engine: Engine) -> None:
    cancel = threading.Event()
    answer = engine.ask(
        "What are alpha particles made of?",
        cancel=cancel,
        on_event=lambda e: cancel.set() if isinstance(e, TokenDelta) else None,
    )
    assert answer.decision is Decision.STOPPED and answer.text and not answer.claims
    assert engine.answers(answer.conversation)[-1].decision is Decision.STOPPED


def test_paraphrase_passes_the_semantic_check(engine: Engine) -> None:
    verifier = ClaimVerifier(VerifyConfig(), engine.embedder)
    passage = DOCS["alpha.txt"]
    verdict = verifier.check("Alpha particles are made of two protons and two neutrons.", [passage])
    assert verdict.supported and "semantic" in verdict.method
    assert not verifier.check(
        "Alpha particles are made of three protons and two neutrons.", [passage]
    ).supported
    assert not verifier.check("Alpha particles are not made of protons.", [passage]).supported


def test_a_value_from_a_pdf_table_is_cited_on_its_row(tmp_path: Path) -> None:
    # A table drawn with rules is read row by row: the answer comes from the row asked about, and
    # its boxes mark that row on the page (a table read a cell a line gave lme4's wrong function).
    docs = tmp_path / "docs"
    docs.mkdir()
    rows = [
        (112, ["Module", "R function", "Description"]),
        (132, ["Formula module", "lFormula", "Parses the model formula"]),
        (148, ["Objective module", "mkLmerDevfun", "Returns the deviance function"]),
        (164, ["Optimization module", "optimizeLmer", "Optimizes the deviance"]),
        (180, ["Output module", "mkMerMod", "Packages the results"]),
    ]
    factories.ruled_table_pdf(
        docs / "modules.pdf",
        rows,
        columns=[72, 200, 320],
        before="Table 1: The four modules of the fitting code and the R function of each.",
        after="Each module is described in its own section below.",
    )
    with Engine.open(tmp_path / "library") as engine:
        engine.ingest([docs])
        answer = engine.ask("Which R function implements the optimization module?")
        text = engine.text(answer.sources[0].document) if answer.sources else ""
    assert answer.decision is Decision.ANSWERED, answer.refusal
    assert "optimizeLmer" in answer.text
    (source,) = answer.sources
    assert source.page == 1 and source.header == "Module | R function | Description"
    (claim,) = answer.claims
    marked = [text[start:end] for _, start, end in claim.evidence]
    assert marked == ["Optimization module | optimizeLmer | Optimizes the deviance"]  # its row, marked
    row = [box for box in source.boxes if box.y0 <= 164 <= box.y1 + 2]
    assert row and row[0].x0 < 80 and row[0].x1 > 320  # the row's box on the page spans its cells
