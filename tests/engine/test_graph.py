"""The entity graph (the slow path): built after ingest, resumable, never stale, walked by two retrievers.

Mentions come from a fake reader (capitalised words) so each module is tested on its own; the real
spaCy reader and the real models are in test_graph_real.py."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
from citedesk_engine import Engine
from citedesk_engine.config import Config, RetrievalConfig
from citedesk_engine.errors import Cancelled
from citedesk_engine.events import Progress
from citedesk_engine.graph import build
from citedesk_engine.graph.derive import aliases
from citedesk_engine.graph.retrievers import linked_units
from citedesk_engine.testing import CapitalisedMentionReader, HashEmbedder


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def films(tmp_path: Path):
    docs = tmp_path / "docs"
    write(
        docs,
        "titanic.txt",
        "Titanic is a film of 1997. Titanic was directed by James Cameron and starred Kate Winslet.",
    )
    write(docs, "cameron.txt", "James Cameron grew up in Kapuskasing. Kapuskasing lies in Ontario.")
    write(docs, "apples.txt", "Apples grow on trees in many orchards. Orchards need rain.")
    reader = CapitalisedMentionReader()
    engine = Engine.open(tmp_path / "lib", embedder=HashEmbedder(), mention_reader=reader)
    engine.ingest([docs])
    yield engine, docs, reader
    engine.close()


def mention_rows(engine: Engine) -> list[tuple]:
    db = sqlite3.connect(engine.library.folder / "library.sqlite")
    try:
        return db.execute(
            "SELECT version, unit_id, sentence, node FROM graph_mentions ORDER BY 1, 2, 3, 4"
        ).fetchall()
    finally:
        db.close()


def test_ingest_leaves_the_graph_to_the_slow_path_which_reads_every_document_once(films) -> None:
    engine, _, reader = films
    assert reader.read_texts == []  # ingest never waits for the graph
    before = engine.graph_status()
    assert (before.documents, before.pending, before.current) == (0, 3, False)
    status = engine.build_graph()
    assert (status.documents, status.pending, status.current) == (3, 0, True)
    assert status.nodes >= 5 and status.communities >= 1
    read = len(reader.read_texts)
    assert engine.build_graph().current and len(reader.read_texts) == read  # nothing read twice
    assert engine.status().graph == engine.graph_status()


def test_the_walk_finds_the_passage_that_links_what_the_question_names(films) -> None:
    engine, _, _ = films
    engine.build_graph()
    # "Kapuskasing" and "grew up" are nowhere in the question: the director's passage is reached
    # through Titanic -> James Cameron, named in the same sentence.
    question = "In which town was the director of Titanic raised?"
    found = engine.retrieve(question, k=5, signals=["graph"], rerank=False).candidates
    names = [Path(c.unit.document).name for c in found]
    assert names[:2] == ["titanic.txt", "cameron.txt"]
    assert "apples.txt" not in names


def test_without_hops_only_the_named_things_passages_come_back(films, tmp_path: Path) -> None:
    _, docs, _ = films
    config = Config(retrieval=RetrievalConfig(graph_hops=0))
    reader = CapitalisedMentionReader()
    with Engine.open(tmp_path / "flat", config, embedder=HashEmbedder(), mention_reader=reader) as engine:
        engine.ingest([docs])
        engine.build_graph()
        found = engine.retrieve("What is Titanic?", k=5, signals=["graph"], rerank=False).candidates
        assert [Path(c.unit.document).name for c in found] == ["titanic.txt"]


def test_a_scoped_question_walks_only_its_documents(films) -> None:
    engine, docs, _ = films
    engine.build_graph()
    found = engine.retrieve(
        "Where did the director of Titanic grow up?",
        k=5,
        signals=["graph"],
        rerank=False,
        documents=[docs / "cameron.txt"],
    ).candidates
    assert {Path(c.unit.document).name for c in found} == {"cameron.txt"}


def test_the_community_retriever_returns_the_passages_of_the_questions_topic(films) -> None:
    engine, _, _ = films
    status = engine.build_graph()
    assert status.communities >= 1
    topics = engine.library.graph.communities()
    assert any("Cameron" in t.label or "Titanic" in t.label for t in topics)
    found = engine.retrieve("Which films did Kate Winslet make?", k=5, signals=["community"], rerank=False)
    # By the retriever's own ranks: its fusion weight is 0 by default (traced, not counted).
    ranked = sorted(found.candidates, key=lambda c: c.ranks["community"])
    assert [Path(c.unit.document).name for c in ranked][:1] == ["titanic.txt"]
    assert "apples.txt" not in {Path(c.unit.document).name for c in found.candidates}


def test_removing_or_changing_a_document_leaves_no_stale_node(films) -> None:
    engine, docs, _ = films
    engine.build_graph()
    assert "kapuskasing" in engine.library.graph.nodes_of_keys(["kapuskasing"])
    engine.delete(docs / "cameron.txt")
    (docs / "cameron.txt").unlink()
    assert not any("cameron.txt" in row[1] for row in mention_rows(engine))
    assert not engine.graph_status().current  # derived tables are behind until the next step
    engine.build_graph()
    assert engine.library.graph.nodes_of_keys(["kapuskasing"]) == {}

    write(docs, "titanic.txt", "Titanic sank in the North Atlantic.")
    engine.ingest([docs])
    status = engine.build_graph()
    assert status.current and status.documents == 2
    versions = {row[0] for row in mention_rows(engine)}
    assert versions <= set(engine.library.manifest.live_versions().values())
    assert engine.library.graph.nodes_of_keys(["north atlantic", "james cameron"]) == {
        "north atlantic": "north atlantic"
    }


def test_stopped_mid_document_it_goes_on_from_the_next_passage(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(build, "BATCH_UNITS", 2)
    docs = tmp_path / "docs"
    text = "\n\n".join(f"Section {i} names Person{i} Smith and Town{i}." * 30 for i in range(8))
    write(docs, "long.txt", text)
    reader = CapitalisedMentionReader()
    with Engine.open(tmp_path / "lib", embedder=HashEmbedder(), mention_reader=reader) as engine:
        engine.ingest([docs])
        units = engine.documents()[0].units
        assert units > 10
        cancel = threading.Event()

        def stop_after_first_batch(event: object) -> None:
            if isinstance(event, Progress) and event.stage == "graph":
                cancel.set()

        with pytest.raises(Cancelled):
            engine.build_graph(on_event=stop_after_first_batch, cancel=cancel)
        assert engine.graph_status().pending == 1
        assert len(reader.read_texts) == 8  # a build without a time limit reads 4 batches at a time
        done = engine.build_graph(seconds=0)  # a window's step: one batch, then the time is up
        assert done.pending == 1 and len(reader.read_texts) == 10
        engine.build_graph()
        assert len(reader.read_texts) == units  # every passage read exactly once
        straight = mention_rows(engine)
    with Engine.open(
        tmp_path / "again", embedder=HashEmbedder(), mention_reader=CapitalisedMentionReader()
    ) as e:
        e.ingest([docs])
        e.build_graph()
        assert len(mention_rows(e)) == len(straight)


def test_a_reader_failing_mid_way_writes_nothing_of_that_batch(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(build, "BATCH_UNITS", 1)
    docs = tmp_path / "docs"
    write(docs, "a.txt", "Alpha Centauri is a star. " * 200)

    class Failing(CapitalisedMentionReader):
        def read(self, texts):  # type: ignore[no-untyped-def]
            if len(self.read_texts) >= 1:
                raise RuntimeError("the reader fell over")
            return super().read(texts)

    with Engine.open(tmp_path / "lib", embedder=HashEmbedder(), mention_reader=Failing()) as engine:
        engine.ingest([docs])
        with pytest.raises(RuntimeError):
            engine.build_graph()
        rows = mention_rows(engine)
        first_batch = engine.units(engine.documents()[0].document)[:4]  # 4 x BATCH_UNITS
        assert {r[1] for r in rows} == {u.unit_id for u in first_batch}
    with Engine.open(
        tmp_path / "lib", embedder=HashEmbedder(), mention_reader=CapitalisedMentionReader()
    ) as engine:
        assert engine.build_graph().current
        assert len({r[1] for r in mention_rows(engine)}) == engine.documents()[0].units


def test_signals_without_graph_skip_the_slow_path(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    write(docs, "a.txt", "Ada Lovelace wrote about the Analytical Engine.")
    reader = CapitalisedMentionReader()
    config = Config(retrieval=RetrievalConfig(signals=("vector", "lexical")))
    with Engine.open(tmp_path / "lib", config, embedder=HashEmbedder(), mention_reader=reader) as engine:
        engine.ingest([docs])
        status = engine.build_graph()
        assert not status.enabled and status.documents == 0 and reader.read_texts == []


def test_documents_in_a_language_the_reader_cannot_read_are_marked_read_with_no_entities(
    tmp_path: Path,
) -> None:
    docs = tmp_path / "docs"
    write(
        docs,
        "de.txt",
        "Der Bundestag ist das Parlament der Bundesrepublik Deutschland. Er wird vom Volk gewählt und "
        "beschließt die Gesetze des Bundes, die der Bundesrat oft mitbestimmt.",
    )
    reader = CapitalisedMentionReader()
    with Engine.open(tmp_path / "lib", embedder=HashEmbedder(), mention_reader=reader) as engine:
        engine.ingest([docs])
        assert engine.documents()[0].language == "de"
        status = engine.build_graph()
        assert status.current and status.documents == 1 and status.nodes == 0 and reader.read_texts == []


def test_aliases_merge_acronyms_and_surnames_only_when_they_are_unambiguous() -> None:
    keys = [
        ("intergovernmental panel on climate change", "Intergovernmental Panel on Climate Change", "ORG", 3),
        ("ipcc", "IPCC", "ORG", 5),
        ("bert bolin", "Bert Bolin", "PERSON", 2),
        ("bolin", "Bolin", "PERSON", 1),
        ("james francis cameron", "James Francis Cameron", "PERSON", 1),
        ("james cameron", "James Cameron", "PERSON", 2),
        ("smith", "Smith", "PERSON", 2),
        ("anna smith", "Anna Smith", "PERSON", 1),
        ("john smith", "John Smith", "PERSON", 1),
        ("nasa", "NASA", "ORG", 2),
        ("peter f. paul", "Peter F. Paul", "PERSON", 1),
        ("peter franklin paul", "Peter Franklin Paul", "PERSON", 1),
    ]
    documents = [
        ("v1", "ipcc", "ORG"),
        ("v1", "bert bolin", "PERSON"),
        ("v1", "bolin", "PERSON"),
        ("v2", "james francis cameron", "PERSON"),
        ("v2", "james cameron", "PERSON"),
        ("v3", "smith", "PERSON"),
        ("v3", "anna smith", "PERSON"),
        ("v4", "john smith", "PERSON"),
        ("v5", "peter f. paul", "PERSON"),
        ("v6", "peter franklin paul", "PERSON"),
    ]
    merged = aliases(keys, documents)
    assert merged["ipcc"] == "intergovernmental panel on climate change"
    assert merged["bolin"] == "bert bolin"
    assert merged["james francis cameron"] == "james cameron"
    assert merged["smith"] == "smith"  # two Smiths in the library: left alone
    assert merged["nasa"] == "nasa"  # no full name spelled by it
    assert merged["peter f. paul"] == "peter franklin paul"  # across documents: one such name


def test_deep_links_reach_passages_naming_what_a_relevant_passage_names_rarest_first(films) -> None:
    engine, docs, _ = films
    engine.build_graph()
    unit = {Path(d.source_path).name: engine.units(d.document)[0].unit_id for d in engine.documents()}
    linked = linked_units(engine.library, [unit["titanic.txt"]], [unit["cameron.txt"], unit["apples.txt"]])
    assert linked == {unit["cameron.txt"]}  # through James Cameron; the apples name nothing of it
    assert linked_units(engine.library, [unit["titanic.txt"]], [unit["cameron.txt"]], most=0) == set()
