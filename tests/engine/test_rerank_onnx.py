"""The packaged reranker exported to ONNX and quantised to int8 (models/onnx_export.py,
models/onnx_cross_encoder.py): its scores against the PyTorch path's, the cached export, a damaged
cache file, and the fall-back to PyTorch when no export can be made."""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import numpy as np
import pytest
from citedesk_engine import Config, Engine
from citedesk_engine.config import ModelsConfig
from citedesk_engine.errors import ConfigError, ModelError
from citedesk_engine.models import onnx_export
from citedesk_engine.models.cross_encoder import CrossEncoderScorer, resolve_runtime
from citedesk_engine.models.registry import packaged_reranker_folder
from citedesk_engine.testing import HashEmbedder, ScriptedRecogniser

# Written for these tests: ten passages of one field, three questions, each passage more or less on
# point for each question (a head of 10 as the fusion hands it to the reranker).
PASSAGES = [
    "The seasons are caused by the tilt of Earth's rotational axis, about 23.4 degrees from the plane "
    "of its orbit. When the Northern Hemisphere leans towards the Sun its days are longer and sunlight "
    "strikes it more directly, so it has summer while the Southern Hemisphere has winter.",
    "Earth's orbit is slightly elliptical: it is closest to the Sun in early January and farthest in "
    "early July. The difference in distance is only about three percent and changes the sunlight "
    "received by roughly seven percent, far too little to explain the seasons.",
    "The Moon shows phases because we see different parts of its sunlit half as it orbits Earth every "
    "29.5 days. A new moon lies between Earth and the Sun; a full moon lies on the far side.",
    "Ocean tides are raised mainly by the Moon's gravity, which pulls hardest on the side of Earth "
    "facing it. The Sun adds a smaller tide: when both line up at new and full moon, spring tides are "
    "highest, and at the quarter moons the weaker neap tides occur.",
    "At the June solstice the Sun stands overhead at the Tropic of Cancer and the Arctic has daylight "
    "around the clock. At the December solstice the Sun is overhead at the Tropic of Capricorn.",
    "A solar eclipse happens when the Moon passes between the Sun and Earth and its shadow falls on "
    "Earth. Because the Moon's orbit is tilted about five degrees, eclipses do not happen every month.",
    "Climate zones follow latitude: the tropics receive strong sunlight all year, the polar regions "
    "receive slanting light and long winter nights, and the temperate zones between them have the "
    "most marked seasons.",
    "Leap years exist because a year is about 365.24 days long. Adding a day every four years, but "
    "skipping century years not divisible by 400, keeps the calendar aligned with the equinoxes.",
    "Mars also has seasons, since its axis is tilted about 25 degrees, but each lasts nearly twice as "
    "long as on Earth and its eccentric orbit makes the southern summers shorter and hotter.",
    "The equinoxes in March and September are the two moments when the Sun crosses the celestial "
    "equator; day and night then last about twelve hours everywhere on Earth.",
]
QUESTIONS = [
    "Why does Earth have seasons?",
    "What causes spring tides?",
    "Why do we have leap years?",
]
# Measured (2026-12-02, this recipe, against PyTorch under bfloat16 autocast): the int8 scores lay
# within 0.13 of PyTorch's on these 30 pairs (the Mars passage for the leap years: 0.08 -> 0.21),
# Spearman 0.989 over them (0.87-0.96 within one question's ten, where the off-topic passages score
# alike, about 0.01: their order is noise). A broken export is off by far more.
TOLERANCE = 0.2


def spearman(a: list[float], b: list[float]) -> float:
    ra, rb = np.argsort(np.argsort(a)), np.argsort(np.argsort(b))
    return float(np.corrcoef(ra, rb)[0, 1])


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache folder holding the int8 export of the packaged reranker, made once for this module."""
    cache = tmp_path_factory.mktemp("onnx-cache")
    scorer = CrossEncoderScorer(packaged_reranker_folder(), runtime="onnx-int8", cache_dir=cache)
    assert scorer.load() == "onnx-int8"
    return cache


def onnx_files(cache: Path) -> list[Path]:
    return sorted((cache / "models" / "onnx").glob("*.onnx"))


def counting_exports(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    made: list[Path] = []
    real = onnx_export.export

    def spy(folder: Path, target: Path, source: str, precision: str) -> None:
        made.append(target)
        real(folder, target, source, precision)

    monkeypatch.setattr(onnx_export, "export", spy)
    return made


@pytest.mark.models
def test_int8_scores_agree_with_the_torch_path(exported: Path) -> None:
    folder = packaged_reranker_folder()
    torch_scorer = CrossEncoderScorer(folder, runtime="torch")
    int8 = CrossEncoderScorer(folder, runtime="onnx-int8", cache_dir=exported)
    every_expected, every_got = [], []
    for question in QUESTIONS:
        pairs = [(question, p) for p in PASSAGES]
        expected, got = torch_scorer.score(pairs), int8.score(pairs)
        assert int8.runtime == "onnx-int8"
        assert all(0.0 < s < 1.0 for s in got)
        assert int(np.argmax(got)) == int(np.argmax(expected)), question  # the same top passage
        assert max(abs(g - e) for g, e in zip(got, expected, strict=True)) <= TOLERANCE, (got, expected)
        every_expected += expected
        every_got += got
    assert spearman(every_got, every_expected) >= 0.95
    assert int(np.argmax(int8.score([(QUESTIONS[1], p) for p in PASSAGES]))) == 3  # the tides
    assert int(np.argmax(int8.score([(QUESTIONS[2], p) for p in PASSAGES]))) == 7  # the leap years
    assert int8.score([]) == []


@pytest.mark.models
def test_the_cached_export_is_reused(exported: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (onnx_file,) = onnx_files(exported)
    before = onnx_file.stat().st_mtime_ns
    made = counting_exports(monkeypatch)
    scorer = CrossEncoderScorer(packaged_reranker_folder(), runtime="onnx-int8", cache_dir=exported)
    assert scorer.load() == "onnx-int8"
    assert made == [] and onnx_file.stat().st_mtime_ns == before
    stamp = json.loads(onnx_export.stamp_of(onnx_file).read_text())
    assert stamp["exporter"] == onnx_export.EXPORTER_VERSION and stamp["precision"] == "int8"
    assert stamp["source_sha256"] == onnx_export.file_sha256(packaged_reranker_folder() / "model.safetensors")
    assert not list(onnx_file.parent.glob("*.partial*"))  # nothing half-written is left behind


@pytest.mark.models
@pytest.mark.parametrize("damage", ["truncated", "bytes changed", "no stamp", "garbage with its stamp"])
def test_a_damaged_cached_export_is_made_again(
    exported: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    cache = tmp_path / "cache"
    shutil.copytree(exported, cache)
    (onnx_file,) = onnx_files(cache)
    stamp = onnx_export.stamp_of(onnx_file)
    if damage == "truncated":  # a crash or a full disk
        onnx_file.write_bytes(onnx_file.read_bytes()[: onnx_file.stat().st_size // 2])
    elif damage == "bytes changed":
        with onnx_file.open("r+b") as handle:
            handle.seek(onnx_file.stat().st_size // 2)
            handle.write(b"\x00\x01\x02\x03")
    elif damage == "no stamp":  # renamed into place, then the process died before stamping it
        stamp.unlink()
    else:  # a file that matches its stamp yet is no model: onnxruntime refuses it, it is made again
        onnx_file.write_bytes(b"not an onnx model" * 100)
        record = json.loads(stamp.read_text())
        record |= {"size": onnx_file.stat().st_size, "sha256": onnx_export.file_sha256(onnx_file)}
        stamp.write_text(json.dumps(record))
    made = counting_exports(monkeypatch)
    scorer = CrossEncoderScorer(packaged_reranker_folder(), runtime="onnx-int8", cache_dir=cache)
    scores = scorer.score([(QUESTIONS[1], p) for p in PASSAGES])
    assert made == [onnx_file] and scorer.runtime == "onnx-int8"
    assert int(np.argmax(scores)) == 3
    assert onnx_export.stamp_matches(onnx_file, json.loads(stamp.read_text())["source_sha256"])


@pytest.mark.models
def test_retrieve_reranks_with_the_int8_model(tmp_path: Path, exported: Path, monkeypatch) -> None:
    monkeypatch.setenv("CITEDESK_CACHE_DIR", str(exported))
    docs = tmp_path / "docs"
    docs.mkdir()
    for i, text in enumerate(PASSAGES):
        (docs / f"p{i}.txt").write_text(text, encoding="utf-8")
    made = counting_exports(monkeypatch)
    config = Config(models=ModelsConfig(reranker_runtime="onnx-int8"))
    with Engine.open(
        tmp_path / "lib", config, embedder=HashEmbedder(), recogniser=ScriptedRecogniser()
    ) as engine:
        engine.ingest([docs])
        found = engine.retrieve("What causes spring tides when the Sun and Moon line up?", k=3).candidates
        assert engine.reranker().scorer.runtime == "onnx-int8"  # type: ignore[attr-defined]
    assert made == []  # the module's export, found in the cache folder
    assert "Ocean tides" in found[0].unit.index_text and found[0].rerank is not None


class FakeCrossEncoder:
    def predict(self, pairs: list[tuple[str, str]], **_: object) -> list[float]:
        return [0.5] * len(pairs)


def test_no_export_falls_back_to_torch_with_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    folder = tmp_path / "model"
    folder.mkdir()
    (folder / "model.safetensors").write_bytes(b"weights")

    def no_exporter(*_: object) -> None:
        raise ModelError(
            "Cannot export the cross-encoder to ONNX: ModuleNotFoundError: No module named 'onnx'"
        )

    monkeypatch.setattr(onnx_export, "export", no_exporter)
    monkeypatch.setattr(CrossEncoderScorer, "_load_torch", lambda self: FakeCrossEncoder())
    scorer = CrossEncoderScorer(folder, runtime="onnx-int8", cache_dir=tmp_path / "cache")
    with caplog.at_level(logging.WARNING):
        assert scorer.score([("q", "p"), ("q", "p2")]) == [0.5, 0.5]
    assert scorer.runtime == "torch"
    assert any("No module named 'onnx'" in r.message and "PyTorch" in r.message for r in caplog.records)
    assert not list((tmp_path / "cache").rglob("*.onnx*"))


def test_reranker_runtime_is_checked() -> None:
    assert ModelsConfig().reranker_runtime == "auto"
    assert resolve_runtime("torch") == "torch" and resolve_runtime("onnx-int8") == "onnx-int8"
    assert resolve_runtime("auto") in ("torch", "onnx-int8")
    with pytest.raises(ConfigError, match="reranker_runtime"):
        ModelsConfig(reranker_runtime="gpu")
    with pytest.raises(ValueError, match="cache folder"):
        CrossEncoderScorer(Path("x"), runtime="onnx-int8")
