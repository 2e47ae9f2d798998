"""`citedesk --self-test` on the real models, from outside the source tree, as a user would run it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.models


def test_self_test_passes_from_another_folder(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "citedesk_desktop", "--self-test"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[-1] == "self-test passed"
    # embedder, generator, reranker, verifier, reader
    assert sum(line.startswith("ok   model") for line in lines) == 5
    assert any(line.startswith("ok   answer") for line in lines)
    assert any("refused at relevance" in line for line in lines)
    assert not any(line.startswith("FAIL") for line in lines)
