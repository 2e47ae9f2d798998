"""A process killed with SIGKILL at any moment of an ingest leaves a library that opens, holds only
whole documents, and completes on the next ingest."""

from __future__ import annotations

import hashlib
import signal
import subprocess
import sys
from pathlib import Path

import factories
import pytest
from citedesk_engine import Engine, FileStatus
from citedesk_engine.testing import HashEmbedder
from test_ingest_pipeline import assert_consistent

DRIVER = Path(__file__).with_name("crash_driver.py")


def corpus(root: Path, files: int = 12) -> list[Path]:
    root.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(files):
        path = root / f"doc {i}.txt"
        path.write_text("\n\n".join(f"Document {i} paragraph {j}. " + factories.LOREM for j in range(20)))
        paths.append(path)
    paths.append(factories.pdf(root / "paper.pdf", [factories.LOREM * 4] * 5))
    return paths


def run_driver(library: Path, mode: str, paths: list[Path], kill_at_line: int | None = None) -> int:
    child = subprocess.Popen(
        [sys.executable, str(DRIVER), str(library), mode, *map(str, paths)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    for number, _line in enumerate(child.stdout, start=1):
        if kill_at_line is not None and number >= kill_at_line:
            child.send_signal(signal.SIGKILL)
            break
    child.stdout.close()
    return child.wait(timeout=120)


class CountingEmbedder(HashEmbedder):
    """Counts the passages it is asked to embed."""

    def __init__(self) -> None:
        super().__init__()
        self.passages = 0

    def embed(self, texts):  # type: ignore[no-untyped-def]
        self.passages += len(texts)
        return super().embed(texts)


def reopen_and_check(library: Path, paths: list[Path]) -> None:
    """The library opens consistent and the same ingest finishes the job, embedding only the files that
    were not committed before the kill."""
    embedder = CountingEmbedder()
    with Engine.open(library, embedder=embedder) as engine:
        assert_consistent(engine)
        committed = {d.document: d.sha256 for d in engine.documents()}
        report = engine.ingest(paths)
        for result in report.files:
            current = hashlib.sha256(Path(result.path).read_bytes()).hexdigest()
            up_to_date = committed.get(result.document) == current
            expected = FileStatus.UNCHANGED if up_to_date else FileStatus.INGESTED
            assert result.status is expected, (result.path, result.status, result.reason)
        assert embedder.passages == sum(r.units for r in report.files if r.status is FileStatus.INGESTED)
        assert len(engine.documents()) == len(paths)
        assert_consistent(engine)


@pytest.mark.parametrize("mode", ["kill-before-commit", "kill-after-commit"])
def test_kill_at_the_commit_point(tmp_path: Path, mode: str) -> None:
    paths = corpus(tmp_path / "docs", files=4)
    library = tmp_path / "lib"
    if mode == "kill-after-commit":  # a re-ingest, so the commit leaves an old version behind
        assert run_driver(library, "run", paths) == 0
        for p in paths[:2]:
            p.write_text(p.read_text() + "\n\nAn added paragraph.")
    assert run_driver(library, mode, paths) == -signal.SIGKILL
    with Engine.open(library, embedder=HashEmbedder()) as engine:
        # recovery ran on open: nothing pending, nothing stale
        assert_consistent(engine)
        docs = engine.documents()
        assert len(docs) == (1 if mode == "kill-before-commit" else len(paths))
    reopen_and_check(library, paths)


@pytest.mark.parametrize("kill_at_line", [3, 9, 17, 26, 41, 58])
def test_kill_at_arbitrary_moments(tmp_path: Path, kill_at_line: int) -> None:
    paths = corpus(tmp_path / "docs")
    library = tmp_path / "lib"
    code = run_driver(library, "run", paths, kill_at_line=kill_at_line)
    assert code in (-signal.SIGKILL, 0)
    reopen_and_check(library, paths)
