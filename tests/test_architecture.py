"""The dependency rules of DESIGN.md, enforced: layers, no Qt in the engine, heavy imports kept lazy."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_import_linter_contracts_are_kept() -> None:
    result = subprocess.run(
        [str(Path(sys.executable).with_name("lint-imports")), "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout[-3000:]
    assert "broken" in result.stdout and "0 broken" in result.stdout


def test_importing_the_engine_loads_no_qt_and_no_heavy_library() -> None:
    code = (
        "import sys, citedesk_engine, citedesk_engine.cli; "
        "bad = [m for m in ('PySide6', 'shiboken6', 'torch', 'sentence_transformers', 'llama_cpp', 'onnx') "
        "if m in sys.modules]; print(','.join(bad))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


def test_ruff_finds_nothing() -> None:
    result = subprocess.run(
        [str(Path(sys.executable).with_name("ruff")), "check", "engine", "desktop", "tests", "benchmarks"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout[-3000:]
