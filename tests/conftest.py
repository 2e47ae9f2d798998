from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from citedesk_engine import Engine  # noqa: E402
from citedesk_engine.testing import HashEmbedder, ScriptedRecogniser  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"  # committed test data (see each folder's NOTICE)
CONFORMANCE = DATA / "citenexus"  # the CiteNexus conformance vectors, vendored


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep tests away from the user's real data folder; share one model cache across the session."""
    cache = tmp_path_factory.getbasetemp() / "model-cache"
    monkeypatch.setenv("CITEDESK_CACHE_DIR", str(cache))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.getbasetemp() / "xdg-data"))


@pytest.fixture
def fake_engine(tmp_path: Path):
    """An engine on a fresh library with the hashing fake embedder and an OCR that finds no text (unit
    tests of the pipeline)."""
    engine = Engine.open(tmp_path / "library", embedder=HashEmbedder(), recogniser=ScriptedRecogniser())
    yield engine
    engine.close()


@pytest.fixture
def damaged_copy(tmp_path: Path):
    """A copy of a packaged model folder whose weights have four bytes changed."""

    def copy(folder: Path, name: str) -> Path:
        damaged = tmp_path / name
        damaged.mkdir()
        for file in folder.iterdir():
            (damaged / file.name).write_bytes(file.read_bytes())
        with (damaged / "model.safetensors").open("r+b") as handle:
            handle.seek(4096)
            handle.write(b"\x00\x01\x02\x03")
        return damaged

    return copy
