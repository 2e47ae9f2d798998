"""Watched folders: files added, changed, moved and deleted reach the library through a queue that
survives a restart; a paused folder waits; a file that cannot be read is not read again until it
changes; nothing is read before the caller asks."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from citedesk_engine import Engine, EngineError
from citedesk_engine.testing import HashEmbedder
from citedesk_engine.watch import FolderWatch


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    docs = tmp_path / "notes"
    (docs / "sub").mkdir(parents=True)
    (docs / "tides.txt").write_text("Spring tides occur twice a month, at the new and the full moon.\n")
    (docs / "sub" / "moon.md").write_text("# The moon\n\nThe moon's orbit takes 27.3 days.\n")
    (docs / "picture.xcf").write_bytes(b"gimp")  # a file CiteDesk does not read: never queued
    (docs / ".hidden.txt").write_text("hidden files are never read")
    return docs


def _open(tmp_path: Path) -> Engine:
    return Engine.open(tmp_path / "lib", embedder=HashEmbedder())


def _sync(watch: FolderWatch) -> None:
    """Scan, then step until nothing waits (the window does this in short steps)."""
    watch.scan()
    for _ in range(20):
        if watch.apply(limit=2).waiting == 0:
            return
    raise AssertionError("the queue never emptied")


def _bump(path: Path) -> None:
    """A later modification time, whatever the file system's clock resolution."""
    later = time.time() + 5
    os.utime(path, (later, later))


def test_adding_a_folder_queues_its_files_and_reads_nothing_until_asked(tmp_path: Path, folder: Path) -> None:
    with _open(tmp_path) as engine:
        watch = FolderWatch(engine)
        watched, queued = watch.add(folder)
        assert watched == str(folder)
        assert sorted(Path(c.path).name for c in queued) == ["moon.md", "tides.txt"]
        assert {c.kind for c in queued} == {"added"}
        assert engine.documents() == []  # nothing read yet
        estimate = watch.estimate()
        assert estimate.files == 2 and estimate.bytes == sum(c.size for c in queued) and estimate.seconds > 0
        step = watch.apply(limit=1)
        assert len(step.read) == 1 and step.waiting == 1  # a short step: one file
        _sync(watch)
        assert sorted(Path(d.document).name for d in engine.documents()) == ["moon.md", "tides.txt"]
        assert watch.queued() == []
        assert [f.folder for f in watch.folders()] == [str(folder)]


def test_changed_moved_and_deleted_files_follow(tmp_path: Path, folder: Path) -> None:
    with _open(tmp_path) as engine:
        watch = FolderWatch(engine)
        watch.add(folder)
        _sync(watch)
        tides = folder / "tides.txt"
        tides.write_text("Neap tides occur at the first and third quarter moons.\n")
        _bump(tides)
        (folder / "sub" / "moon.md").rename(folder / "moon-orbit.md")  # moved
        (folder / "new.txt").write_text("A new file about eclipses.\n")
        queued = {Path(c.path).name: c.kind for c in watch.scan()}
        assert queued == {
            "tides.txt": "changed",
            "moon-orbit.md": "added",
            "moon.md": "removed",
            "new.txt": "added",
        }
        _sync(watch)
        names = sorted(Path(d.document).name for d in engine.documents())
        assert names == ["moon-orbit.md", "new.txt", "tides.txt"]
        assert "Neap" in engine.text(str(tides)) and "Spring" not in engine.text(str(tides))
        (folder / "new.txt").unlink()
        assert [(Path(c.path).name, c.kind) for c in watch.scan()] == [("new.txt", "removed")]
        _sync(watch)
        assert "new.txt" not in {Path(d.document).name for d in engine.documents()}


def test_a_touched_file_is_read_once_and_not_queued_again(tmp_path: Path, folder: Path) -> None:
    with _open(tmp_path) as engine:
        watch = FolderWatch(engine)
        watch.add(folder)
        _sync(watch)
        _bump(folder / "tides.txt")  # same bytes, later time
        assert [c.kind for c in watch.scan()] == ["changed"]
        _sync(watch)
        assert watch.scan() == []


def test_a_file_that_cannot_be_read_waits_with_its_reason_until_it_changes(
    tmp_path: Path, folder: Path
) -> None:
    bad = folder / "broken.pdf"
    bad.write_bytes(b"%PDF-1.4\n garbage \x00\x01")
    with _open(tmp_path) as engine:
        watch = FolderWatch(engine)
        watch.add(folder)
        _sync(watch)
        failed = [c for c in watch.queued() if c.reason]
        assert [Path(c.path).name for c in failed] == ["broken.pdf"] and "PDF" in failed[0].reason
        assert watch.scan() == failed  # not queued to be read again as it is
        assert watch.apply().read == ()
        bad.write_text("now a text file named .pdf? still not a PDF")
        _bump(bad)
        assert [c.reason for c in watch.scan()] == [""]  # changed: it will be tried again


def test_the_queue_survives_a_restart_and_a_paused_folder_waits(tmp_path: Path, folder: Path) -> None:
    with _open(tmp_path) as engine:
        watch = FolderWatch(engine)
        watch.add(folder)
        watch.pause(folder)
        assert watch.apply().read == ()
        assert watch.estimate().files == 0  # paused: nothing a step would do
    with _open(tmp_path) as engine:  # closed with two changes waiting: opened, they are there
        watch = FolderWatch(engine)
        assert len(watch.queued()) == 2 and watch.folders()[0].paused
        watch.pause(folder, paused=False)
        _sync(watch)
        assert len(engine.documents()) == 2


def test_unwatching_keeps_the_documents_and_drops_the_waiting_changes(tmp_path: Path, folder: Path) -> None:
    with _open(tmp_path) as engine:
        watch = FolderWatch(engine)
        watch.add(folder)
        watch.apply(limit=1)
        watch.remove(folder)
        assert watch.folders() == [] and watch.queued() == []
        assert len(engine.documents()) == 1
        with pytest.raises(EngineError, match="not a watched folder"):
            watch.pause(folder)
        with pytest.raises(EngineError, match="not a folder"):
            watch.add(folder / "tides.txt")


def test_a_missing_folder_removes_nothing(tmp_path: Path, folder: Path) -> None:
    with _open(tmp_path) as engine:
        watch = FolderWatch(engine)
        watch.add(folder)
        _sync(watch)
        folder.rename(tmp_path / "unplugged")  # a drive unplugged, a share gone
        assert watch.scan() == []
        assert len(engine.documents()) == 2


def test_many_files_found_at_once_pause_their_folder_until_asked(tmp_path: Path, folder: Path) -> None:
    with _open(tmp_path) as engine:
        watch = FolderWatch(engine)
        watch.add(folder)
        _sync(watch)
        assert watch.scan_holding(files=5, seconds=3600) == []  # nothing new
        for number in range(8):  # a batch dropped in
            (folder / f"drop{number}.txt").write_text(f"Dropped file number {number}.\n")
        held = watch.scan_holding(files=5, seconds=3600)
        assert [(Path(f).name, cost.files) for f, cost in held] == [("notes", 8)]
        assert watch.folders()[0].paused and watch.apply().read == ()
        assert watch.scan_holding(files=5, seconds=3600) == []  # found before: not asked again
        watch.pause(folder, paused=False)
        _sync(watch)
        assert len(engine.documents()) == 10
        (folder / "one-more.txt").write_text("A single new file is read without asking.\n")
        assert watch.scan_holding(files=5, seconds=3600) == [] and not watch.folders()[0].paused
