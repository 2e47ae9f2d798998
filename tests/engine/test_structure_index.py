"""The structure labels' word index: a question reads only the labels that share a word with it, finds
what reading every label finds, forgets the labels of replaced and removed documents, and is built for a
library made before it existed."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from citedesk_engine.index.manifest import Manifest
from citedesk_engine.retrieve.retrievers import _STOP, _WORD
from citedesk_engine.types import DocumentRecord, StructureNode

VOCABULARY = (
    "budget revenue harbour treaty appendix methods results discussion introduction sensor valve "
    "naïve_bayes max_length section a b c 2022 table figure summary risk audit findings"
).split()


def record(number: int) -> DocumentRecord:
    document = f"/docs/report-{number}.pdf"
    return DocumentRecord(document, document, "s", f"v{number}", 1, 0.0, "pdf", 1, 1, "en", 0, 0.0, "t")


def labels(seed: int, count: int) -> list[StructureNode]:
    rng = random.Random(seed)
    return [
        StructureNode(
            "heading",
            " ".join(rng.choice(VOCABULARY) for _ in range(rng.randint(1, 4))).title(),
            1,
            i,
            i + 1,
            1,
        )
        for i in range(count)
    ]


def reference(manifest: Manifest, question: str) -> set[tuple[str, str]]:
    """Every label read, as the retriever did before the index: (document, label) with share >= 0.5."""
    words = {w for w in (t.lower() for t in _WORD.findall(question)) if w not in _STOP}
    found = set()
    for document in (d.document for d in manifest.documents()):
        for node in manifest.structure(document):
            label_words = {t.lower() for t in _WORD.findall(node.label)}
            if label_words and len(label_words & words) / len(label_words) >= 0.5:
                found.add((document, node.label))
    return found


def indexed(manifest: Manifest, question: str) -> set[tuple[str, str]]:
    words = {w for w in (t.lower() for t in _WORD.findall(question)) if w not in _STOP}
    shares = {}
    for rowid, label in manifest.structure_labels(words):
        label_words = {t.lower() for t in _WORD.findall(label)}
        if label_words and len(label_words & words) / len(label_words) >= 0.5:
            shares[rowid] = label
    spans = manifest.structure_spans(shares)
    return {(spans[rowid][0], label) for rowid, label in shares.items()}


QUESTIONS = (
    "What does the budget section say about revenue?",
    "Which results are in table A?",
    "What does the naïve_bayes appendix give for max_length?",
    "Summary of the 2022 audit findings",
)


def test_the_index_finds_what_reading_every_label_finds(tmp_path: Path) -> None:
    manifest = Manifest(tmp_path / "library.sqlite")
    for number in range(30):
        manifest.commit_version(record(number), labels(number, 12))
    for question in QUESTIONS:
        assert indexed(manifest, question) == reference(manifest, question) != set()


def test_replaced_and_removed_documents_leave_no_labels(tmp_path: Path) -> None:
    manifest = Manifest(tmp_path / "library.sqlite")
    manifest.commit_version(record(1), [StructureNode("heading", "Harbour budget", 1, 0, 5, 1)])
    manifest.commit_version(record(2), [StructureNode("heading", "Treaty", 1, 0, 5, 1)])
    assert [label for _, label in manifest.structure_labels({"harbour"})] == ["Harbour budget"]
    newer = record(1)
    manifest.commit_version(
        DocumentRecord(
            *(newer.document, newer.source_path, "s2", "v1b", 1, 0.0, "pdf", 1, 1, "en", 0, 0.0, "t")
        ),
        [StructureNode("heading", "Sensor valve", 1, 0, 5, 1)],
    )
    assert manifest.structure_labels({"harbour"}) == []
    assert [label for _, label in manifest.structure_labels({"valve"})] == ["Sensor valve"]
    manifest.remove_document(record(2).document)
    assert manifest.structure_labels({"treaty"}) == []


def test_a_library_made_before_the_index_gets_it_when_opened(tmp_path: Path) -> None:
    path = tmp_path / "library.sqlite"
    manifest = Manifest(path)
    manifest.commit_version(record(1), [StructureNode("heading", "Harbour budget", 1, 0, 5, 1)])
    manifest.close()
    with sqlite3.connect(path) as db:  # as an earlier version left it: no word index, no triggers
        db.executescript(
            "DROP TRIGGER structure_words_insert; DROP TRIGGER structure_words_delete; "
            "DROP TABLE structure_words;"
        )
    again = Manifest(path)
    assert [label for _, label in again.structure_labels({"budget"})] == ["Harbour budget"]
    again.commit_version(record(2), [StructureNode("heading", "Budget appendix", 1, 0, 5, 1)])
    assert len(again.structure_labels({"budget"})) == 2
