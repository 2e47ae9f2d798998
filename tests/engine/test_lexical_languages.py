"""The full-text index stems each document in its own language, and an index of an earlier CiteDesk
(one English field) or a rebuild cut short is built again from the manifest when the library opens."""

from __future__ import annotations

from pathlib import Path

import pytest
from citedesk_engine import Engine
from citedesk_engine.index.lexical import LexicalIndex, field_for
from citedesk_engine.testing import HashEmbedder
from citedesk_engine.types import EvidenceUnit


def unit(uid: str, text: str) -> EvidenceUnit:
    return EvidenceUnit(uid, "doc", uid.split("-")[0], 0, text, 0, len(text))


def test_a_german_unit_is_stemmed_in_german_and_found_through_its_language(tmp_path: Path) -> None:
    index = LexicalIndex(tmp_path / "lexical")
    index.add([unit("v1-0", "Alle Menschen sind frei und gleich an Würde und Rechten geboren.")], "de")
    index.add([unit("v2-0", "All human beings are born free and equal in dignity and rights.")], "en")
    # "Mensch" is the German stem of "Menschen"; the English stemmer leaves "menschen" whole.
    assert [u for u, _ in index.search("Mensch", 5, languages={"de", "en"})] == ["v1-0"]
    assert index.search("Mensch", 5, languages={"en"}) == []
    assert [u for u, _ in index.search("right", 5, languages={"de", "en"})] == ["v2-0"]
    index.close()


@pytest.mark.parametrize(
    ("language", "field"), [("de", "text_de"), ("en", "text"), ("und", "text"), ("ja", "text")]
)
def test_languages_without_a_stemmer_share_the_english_field(language: str, field: str) -> None:
    assert field_for(language) == field


def make_library(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "rechte.txt").write_text(
        "Alle Menschen sind frei und gleich an Würde und Rechten geboren. Sie sind mit Vernunft und "
        "Gewissen begabt und sollen einander im Geist der Brüderlichkeit begegnen.",
        encoding="utf-8",
    )
    (docs / "birds.txt").write_text("Penguins cannot fly but they swim very well.", encoding="utf-8")
    with Engine.open(tmp_path / "lib", embedder=HashEmbedder()) as engine:
        engine.ingest([docs])
    return tmp_path / "lib"


def found(folder: Path, query: str) -> list[str]:
    with Engine.open(folder, embedder=HashEmbedder()) as engine:
        hits = engine.retrieve(query, 3, signals=("lexical",), rerank=False).candidates
        return [c.unit.passage.split()[0] for c in hits]


def write_old_index(folder: Path) -> None:
    """The index as CiteDesk 0.8 wrote it: one English-stemmed field, here left empty."""
    import shutil

    import tantivy

    shutil.rmtree(folder)
    folder.mkdir()
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("unit_id", stored=True, tokenizer_name="raw")
    builder.add_text_field("document", stored=True, tokenizer_name="raw")
    builder.add_text_field("version", stored=False, tokenizer_name="raw")
    builder.add_text_field("text", stored=False, tokenizer_name="en_stem")
    index = tantivy.Index(builder.build(), path=str(folder), reuse=True)
    writer = index.writer(heap_size=15_000_000, num_threads=1)
    writer.commit()
    writer.wait_merging_threads()


def test_an_index_of_an_earlier_version_is_built_again_from_the_manifest(tmp_path: Path) -> None:
    library = make_library(tmp_path)
    write_old_index(library / "lexical")
    assert found(library, "Mensch") == ["Alle"]
    assert found(library, "penguins") == ["Penguins"]
    assert not (library / "lexical" / "REBUILDING").exists()


def test_a_rebuild_cut_short_starts_over_at_the_next_opening(tmp_path: Path) -> None:
    library = make_library(tmp_path)
    index = LexicalIndex(library / "lexical")
    index.rebuild([])  # as if a crash came after the index was emptied, before any unit was added
    index.close()
    (library / "lexical" / "REBUILDING").touch()
    assert found(library, "Mensch") == ["Alle"]
    assert not (library / "lexical" / "REBUILDING").exists()
