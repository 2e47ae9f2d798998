"""Progress of the long verbs in a log: a line per tenth of each stage, not one per item."""

from __future__ import annotations

import pytest
from citedesk_engine.progress_line import ProgressLine


def test_in_a_log_progress_prints_a_line_per_tenth(capsys: pytest.CaptureFixture[str]) -> None:
    progress = ProgressLine(terminal=False)
    for done in range(1, 501):
        progress("questions", done, 500)
    for done in range(1, 4):
        progress("ingest", done, 3)
    progress.end()
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "questions: 50/500"
    assert lines[9] == "questions: 500/500"
    assert lines[10:] == ["ingest: 1/3", "ingest: 2/3", "ingest: 3/3"]
    assert len(lines) == 13


def test_in_a_terminal_one_line_is_rewritten(capsys: pytest.CaptureFixture[str]) -> None:
    progress = ProgressLine(terminal=True)
    for done in range(1, 4):
        progress("claims", done, 3)
    progress.end()
    assert capsys.readouterr().err == "\rclaims: 1/3   \rclaims: 2/3   \rclaims: 3/3   \n"


def test_json_output_prints_no_progress(capsys: pytest.CaptureFixture[str]) -> None:
    progress = ProgressLine(enabled=False, terminal=False)
    progress("claims", 3, 3)
    progress.end()
    assert capsys.readouterr().err == ""
