"""A cross-encoder folder as an ONNX file for onnxruntime, exported on the user's machine (never
downloaded) into the cache folder, optionally with its weights dynamically quantised to int8.

The file is keyed by the source weights' sha256 and `EXPORTER_VERSION`, written through a temporary
file renamed into place, and checked against a stamp (its size and sha256) before every load, so a
crash, a full disk or a damaged cache file is exported again instead of being run.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import warnings
from pathlib import Path
from typing import Any

from ..errors import ModelError
from .offline import forbid_hub

log = logging.getLogger(__name__)

# The recipe below (eager attention traced by torch.onnx, opset 17, onnxruntime's quantize_dynamic
# with per-channel QInt8 weights, the feed-forward outputs kept float32); bump it when the recipe
# changes, so that older files are made anew.
EXPORTER_VERSION = "1"
OPSET = 17
FP32 = "fp32"
INT8 = "int8"
INPUTS = ("input_ids", "attention_mask", "token_type_ids")
_CHUNK = 8 * 1024 * 1024


def cached_onnx(folder: Path, cache: Path, precision: str) -> Path:
    """The ONNX file of the cross-encoder in `folder` at `precision` (fp32 or int8): the cached one
    when its stamp matches, else exported now. Raises ModelError when it cannot be exported."""
    if precision not in (FP32, INT8):
        raise ValueError(f"unknown precision {precision!r}")
    weights = folder / "model.safetensors"
    if not weights.is_file():
        raise ModelError(f"No model.safetensors in {folder}: cannot export it to ONNX.")
    source = file_sha256(weights)
    target = onnx_path(cache, source, precision)
    if stamp_matches(target, source):
        return target
    if target.exists():
        log.warning("the cached ONNX model %s does not match its stamp: exporting it again", target)
    export(folder, target, source, precision)
    return target


def onnx_path(cache: Path, source_sha256: str, precision: str) -> Path:
    """Where the file for these weights, this precision and this recipe lives."""
    name = f"cross-encoder-{source_sha256[:16]}-{precision}-e{EXPORTER_VERSION}.onnx"
    return cache / "models" / "onnx" / name


def stamp_of(target: Path) -> Path:
    return target.with_name(target.name + ".verified")


def stamp_matches(target: Path, source_sha256: str) -> bool:
    """The file is whole and is what the export wrote: its size and sha256 as stamped, from these weights."""
    try:
        recorded = json.loads(stamp_of(target).read_text(encoding="utf-8"))
        size = target.stat().st_size
    except (OSError, ValueError):
        return False
    if not isinstance(recorded, dict):
        return False
    if recorded.get("source_sha256") != source_sha256 or recorded.get("exporter") != EXPORTER_VERSION:
        return False
    return recorded.get("size") == size and recorded.get("sha256") == file_sha256(target)


def export(folder: Path, target: Path, source_sha256: str, precision: str) -> None:
    """Export (and at int8, quantise) through temporary files; the result is renamed into place only
    whole, then stamped. Any failure is a ModelError (the caller may fall back to PyTorch)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    for stale in target.parent.glob(f"{target.name}.*.partial*"):
        stale.unlink(missing_ok=True)
    stamp_of(target).unlink(missing_ok=True)
    fp32 = target.with_name(f"{target.name}.{os.getpid()}.partial-fp32.onnx")
    final = target.with_name(f"{target.name}.{os.getpid()}.partial.onnx")
    try:
        _export_fp32(folder, fp32)
        if precision == INT8:
            _quantise(fp32, final, folder)
        else:
            os.replace(fp32, final)
        with final.open("rb+") as handle:
            os.fsync(handle.fileno())
        os.replace(final, target)
    except ModelError:
        raise
    except Exception as exc:  # the exporters raise anything: a missing package, an unsupported op
        why = f"{type(exc).__name__}: {exc}"
        raise ModelError(f"Cannot export the cross-encoder {folder} to ONNX: {why}") from exc
    finally:
        fp32.unlink(missing_ok=True)
        final.unlink(missing_ok=True)
    _write_stamp(target, source_sha256, precision)


def _export_fp32(folder: Path, out: Path) -> None:
    forbid_hub()
    import torch
    from transformers import AutoModelForSequenceClassification

    # Eager attention traces to plain MatMul/Softmax that onnxruntime runs well; the SDPA path traces
    # to a mask built with Where/IsNaN over every score (a quarter of the time of a head of 10).
    model = AutoModelForSequenceClassification.from_pretrained(
        str(folder), local_files_only=True, dtype=torch.float32, attn_implementation="eager"
    ).eval()

    class Logits(torch.nn.Module):
        def __init__(self, inner: torch.nn.Module) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, input_ids, attention_mask, token_type_ids):  # type: ignore[no-untyped-def]
            return self.inner(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).logits

    example = tuple(torch.ones(2, 8, dtype=torch.long) for _ in INPUTS)
    axes = {name: {0: "batch", 1: "sequence"} for name in INPUTS} | {"logits": {0: "batch"}}
    with warnings.catch_warnings(), torch.no_grad():
        warnings.simplefilter("ignore")  # tracer and deprecation warnings, not the user's business
        torch.onnx.export(
            Logits(model),
            example,
            str(out),
            input_names=list(INPUTS),
            output_names=["logits"],
            dynamic_axes=axes,
            opset_version=OPSET,
            dynamo=False,
        )


def _quantise(fp32: Path, out: Path, folder: Path) -> None:
    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic

    kept = _feed_forward_outputs(onnx.load(str(fp32), load_external_data=False), folder)
    quiet = _FromLibrary("onnxruntime")  # it logs each tensor on the root logger
    root = logging.getLogger()
    root.addFilter(quiet)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            quantize_dynamic(
                str(fp32),
                str(out),
                weight_type=QuantType.QInt8,
                per_channel=True,
                nodes_to_exclude=kept,
            )
    finally:
        root.removeFilter(quiet)


def _feed_forward_outputs(model: Any, folder: Path) -> list[str]:
    """The MatMuls that bring each layer's feed-forward back from intermediate_size to hidden_size.

    They stay float32: their input, after GELU, has outliers that one int8 scale per tensor (the
    activations are quantised per tensor however the weights are) flattens. Quantised, they cost the
    validation split's SQuAD-Shifts wiki questions 0.047 of Recall@1 (0.913 -> 0.867, batches of 16);
    kept, 0.007 (the model card of resources/models/reranker, section 5)."""
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    shape = [config["intermediate_size"], config["hidden_size"]]
    weights = {w.name for w in model.graph.initializer if list(w.dims) == shape}
    names = [n.name for n in model.graph.node if n.op_type == "MatMul" and weights & set(n.input)]
    if len(names) != config["num_hidden_layers"]:
        raise ModelError(
            f"Cannot find the feed-forward outputs of {folder} in its ONNX graph ({len(names)} found)."
        )
    return names


class _FromLibrary(logging.Filter):
    """Drops the records a library logs straight on the root logger."""

    def __init__(self, library: str) -> None:
        super().__init__()
        self._part = f"{os.sep}{library}{os.sep}"

    def filter(self, record: logging.LogRecord) -> bool:
        return self._part not in record.pathname


def _write_stamp(target: Path, source_sha256: str, precision: str) -> None:
    import onnxruntime
    import torch

    record = {
        "source_sha256": source_sha256,
        "exporter": EXPORTER_VERSION,
        "precision": precision,
        "size": target.stat().st_size,
        "sha256": file_sha256(target),
        "torch": torch.__version__,
        "onnxruntime": onnxruntime.__version__,
    }
    stamp = stamp_of(target)
    temporary = stamp.with_name(f"{stamp.name}.{os.getpid()}.partial")
    temporary.write_text(json.dumps(record), encoding="utf-8")
    os.replace(temporary, stamp)


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(_CHUNK):
            digest.update(block)
    return digest.hexdigest()
