"""The library's size on disk, summed while its files come and go."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from citedesk_engine.index.library import Library


def test_a_file_deleted_while_the_size_is_summed_counts_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    library = Library(tmp_path / "library")
    (library.folder / "kept.bin").write_bytes(b"x" * 1000)
    (library.folder / "merged.fast").write_bytes(b"y" * 500)  # as a segment the index merges away
    before = library.size_bytes()
    assert before >= 1500
    real_stat = os.stat

    def gone_meanwhile(path, *args, **kwargs):  # type: ignore[no-untyped-def]
        if str(path).endswith("merged.fast"):
            raise FileNotFoundError(2, "No such file or directory", str(path))
        return real_stat(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", gone_meanwhile)
    try:
        assert library.size_bytes() == before - 500
    finally:
        monkeypatch.undo()
        library.close()
