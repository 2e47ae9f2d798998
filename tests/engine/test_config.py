from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from citedesk_engine.config import AnswerConfig, Config, load_config, save_config, thread_count
from citedesk_engine.errors import ConfigError


def test_missing_file_gives_defaults(tmp_path: Path) -> None:
    assert load_config(tmp_path / "none.toml") == Config()


def test_values_are_read_and_validated(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('[models]\ngenerator = "/m/x.gguf"\nthreads = 3\n[ingest]\nchunk_tokens = 150\n')
    config = load_config(path)
    assert config.models.generator == "/m/x.gguf" and thread_count(config.models) == 3
    assert (
        config.ingest.chunk_tokens == 150 and config.ingest.overlap_tokens == Config().ingest.overlap_tokens
    )


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("[ingest]\nchunk_tokens = 'big'\n", "chunk_tokens must be int"),
        ("[ingest]\nchunk_size = 10\n", "Unknown settings.*chunk_size"),
        ("[colours]\nx = 1\n", "Unknown sections.*colours"),
        ("[ingest]\nembed_batch = -1\n", "must not be negative"),
        ("[ingest\n", "Cannot read the configuration"),
        ("models = 3\n", r"\[models\].*must be a table"),
    ],
)
def test_bad_configuration_is_a_clear_error(tmp_path: Path, body: str, message: str) -> None:
    path = tmp_path / "c.toml"
    path.write_text(body)
    with pytest.raises(ConfigError, match=message):
        load_config(path)


def test_saved_settings_round_trip_and_keep_the_users_comments(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("# my notes\n[answer]\n# stricter for audits\ntrust_mode = 'strict'\nmin_relevant = 2\n")
    before = load_config(path)
    changed = before.with_changes(
        models=dataclasses.replace(before.models, threads=1, reranker="embedding"),
        retrieval=dataclasses.replace(before.retrieval, top_k=8, signals=("lexical", "vector")),
        answer=dataclasses.replace(before.answer, min_relevant=AnswerConfig().min_relevant),
    )
    save_config(path, changed)
    assert load_config(path) == changed
    text = path.read_text()
    assert "# my notes" in text and "# stricter for audits" in text and "trust_mode" in text
    assert "min_relevant" not in text, "a setting back at its default is removed"
    save_config(path, Config())
    assert load_config(path) == Config() and not list(tmp_path.glob("*.partial"))
