"""The model-backed rerankers on real weights: a CrossEncoder folder and the yes/no GGUF judge."""

from __future__ import annotations

from pathlib import Path

import pytest
from citedesk_engine import Engine
from citedesk_engine.config import Config, ModelsConfig, RetrievalConfig, cache_dir
from citedesk_engine.models.llm import GgufYesNoReranker, LocalGenerator, LocalLLM
from citedesk_engine.models.registry import ModelRegistry
from citedesk_engine.types import Passage

pytestmark = pytest.mark.models

PASSAGES = [
    Passage("a", "The central bank raised interest rates by half a point to fight inflation."),
    Passage("b", "Emperor penguins eat mostly fish, squid and krill caught in the Southern Ocean."),
    Passage("c", "The museum opens at nine and closes at five, except on public holidays."),
]


def test_gguf_yes_no_reranker_prefers_the_answering_passage() -> None:
    registry = ModelRegistry(ModelsConfig(), cache_dir())  # the session's shared cache: no second 1 GB copy
    reranker = GgufYesNoReranker(LocalLLM(registry.generator_path(), threads=1, context=1024))
    scores = reranker.score("What do emperor penguins eat?", PASSAGES)
    assert all(0.0 <= s <= 1.0 for s in scores)
    assert scores[1] == max(scores) and scores[1] > 0.5
    # Logits at temperature 0 from a fresh state: the same question scores the same every time.
    assert reranker.score("What do emperor penguins eat?", PASSAGES) == scores
    # A small generator is a weak judge beyond such clear cases (issue 6 measured the 0.5B near chance
    # on harder data) and a slow one (a generation a passage): an option, not the default.


def test_the_generator_answers_a_prompt_alike_whatever_was_asked_before() -> None:
    # llama.cpp's prefix cache read the rest of a prompt in other batches: the real-document set's
    # q020 got "Eigen decomposition" after q019 and "Cholesky decomposition" asked again.
    registry = ModelRegistry(ModelsConfig(), cache_dir())
    generator = LocalGenerator(LocalLLM(registry.generator_path(), threads=1, context=1024))
    system = {"role": "system", "content": "Answer from the passage only, in a few words."}
    asked = [
        system,
        {
            "role": "user",
            "content": f"Passage: {PASSAGES[1].text}\n\nQuestion: What do emperor penguins eat?",
        },
    ]
    other = [
        system,
        {"role": "user", "content": f"Passage: {PASSAGES[0].text}\n\nQuestion: Who raised rates?"},
    ]
    first = generator.generate(asked, max_tokens=24)
    first_tokens = generator.last_tokens()
    generator.generate(other, max_tokens=24)
    assert generator.generate(asked, max_tokens=24) == first and generator.last_tokens() == first_tokens
    assert generator.generate(asked, max_tokens=24) == first and generator.last_tokens() == first_tokens


def test_cross_encoder_folder_is_loaded_and_used(tmp_path: Path) -> None:
    """No cross-encoder weights ship on any registry; a CrossEncoder made from the packaged MiniLM
    (with a fresh scoring head) exercises the same loading and scoring path a user's folder takes."""
    from sentence_transformers import CrossEncoder

    folder = tmp_path / "cross-encoder"
    embedder_folder = ModelRegistry(ModelsConfig(), tmp_path / "cache").embedder_path()
    CrossEncoder(str(embedder_folder), num_labels=1, device="cpu").save(str(folder))
    docs = tmp_path / "docs"
    docs.mkdir()
    for p in PASSAGES:
        (docs / f"{p.unit_id}.txt").write_text(p.text, encoding="utf-8")
    config = Config(
        models=ModelsConfig(reranker="cross-encoder", reranker_path=str(folder)),
        retrieval=RetrievalConfig(rerank_mode="replace"),  # the order is the reranker's alone
    )
    with Engine.open(tmp_path / "lib", config) as engine:
        engine.ingest([docs])
        found = engine.retrieve("penguins fish", k=3).candidates
    assert len(found) == 3
    scores = [c.rerank for c in found]
    assert all(isinstance(s, float) for s in scores) and scores == sorted(scores, reverse=True)


def test_packaged_reranker_is_verified_and_reads_the_passage(
    tmp_path: Path, monkeypatch, damaged_copy
) -> None:
    from citedesk_engine.errors import ModelError
    from citedesk_engine.models import registry as registry_module
    from citedesk_engine.retrieve.rerank import CrossEncoderReranker

    registry = ModelRegistry(ModelsConfig(), tmp_path / "cache")  # reranker = default
    info = registry.describe(verify=True)[2]
    assert info.slot == "reranker" and info.source == "packaged" and info.verified, info.detail
    reranker = CrossEncoderReranker(str(registry.reranker_path()))
    scores = reranker.score("What do emperor penguins eat?", PASSAGES)
    assert all(0.0 < s < 1.0 for s in scores)  # probabilities
    assert scores[1] == max(scores)
    assert reranker.score("When does the museum open?", PASSAGES)[2] == max(
        reranker.score("When does the museum open?", PASSAGES)
    )

    damaged = damaged_copy(registry.reranker_path(), "reranker")
    monkeypatch.setattr(registry_module, "packaged_reranker_folder", lambda: damaged)
    with pytest.raises(ModelError, match="damaged"):
        registry.reranker_path()
    assert not registry.describe(verify=True)[2].verified
    (damaged / "model.safetensors").unlink()
    with pytest.raises(ModelError, match="missing"):
        registry.reranker_path()
