"""The ingest pipeline end to end on a real library, with the fake embedder (models: elsewhere)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import factories
import pytest
from citedesk_engine import Cancelled, Engine, FileFinished, FileStatus, Progress
from citedesk_engine.config import Config, IngestConfig
from citedesk_engine.errors import DocumentNotFound, LibraryError
from citedesk_engine.testing import HashEmbedder
from citedesk_engine.types import DriftKind


def by_name(report) -> dict:
    return {Path(f.path).name: f for f in report.files}


def assert_consistent(engine: Engine) -> None:
    """Every committed document is whole in every index, and nothing else is there."""
    docs = engine.documents()
    live = {d.version for d in docs}
    assert engine.library.vectors.versions() == live
    assert engine.library.vectors.count() == sum(d.units for d in docs)
    assert engine.library.lexical.count() == sum(d.units for d in docs)
    assert len(
        engine.library.manifest.units_by_id([f"{d.version}-{i:05d}" for d in docs for i in range(d.units)])
    ) == sum(d.units for d in docs)
    assert engine.library.manifest.pending() == [] and engine.library.manifest.garbage() == []
    for d in docs:
        units = engine.units(d.document)
        assert len(units) == d.units
        text = engine.text(d.document)
        for u in units:
            assert text[u.char_start : u.char_end] == u.passage


def test_mixed_folder_and_every_bad_input(fake_engine: Engine, tmp_path: Path) -> None:
    folder = tmp_path / "in put ünïcode"
    factories.mixed_folder(folder)
    bad = folder / "bad"
    bad.mkdir()
    factories.encrypted_pdf(bad / "locked.pdf")
    factories.scanned_pdf(bad / "scan.pdf")
    (bad / "corrupt.pdf").write_bytes(b"%PDF-1.4\n garbage \x00\x01")
    (bad / "empty.txt").write_bytes(b"")
    (bad / "binary.txt").write_bytes(bytes(range(256)) * 10)
    (bad / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 64)
    factories.zip_bomb(bad / "bomb.docx")
    (folder / ".hidden.txt").write_text("should be skipped")
    report = fake_engine.ingest([folder, tmp_path / "does-not-exist.txt"])
    files = by_name(report)
    good = [
        "report.pdf",
        "minutes.docx",
        "deck.pptx",
        "budget.xlsx",
        "page.html",
        "notes.md",
        "plain.txt",
        "table.csv",
        "tool.py",
    ]
    for name in good:
        assert files[name].status is FileStatus.INGESTED, (name, files[name].reason)
        assert files[name].units > 0
    reasons = {name: files[name].reason for name in files if files[name].status is FileStatus.FAILED}
    assert "password-protected" in reasons["locked.pdf"]
    assert "OCR recognised no text" in reasons["scan.pdf"]  # the fake OCR finds none
    assert "not a readable PDF" in reasons["corrupt.pdf"] or "damaged" in reasons["corrupt.pdf"]
    assert "empty" in reasons["empty.txt"]
    assert "binary" in reasons["binary.txt"]
    assert "picture is damaged" in reasons["image.png"] or "not a readable picture" in reasons["image.png"]
    assert "zip bomb" in reasons["bomb.docx"]
    assert "does not exist" in reasons["does-not-exist.txt"]
    assert ".hidden.txt" not in files
    assert files["report.pdf"].pages == 2
    assert_consistent(fake_engine)
    pdf_units = fake_engine.units(files["report.pdf"].document)
    assert {u.page for u in pdf_units} == {1, 2} and all(u.boxes for u in pdf_units)
    assert all(b.page == u.page for u in pdf_units for b in u.boxes)
    # Each line's box knows its characters (stored and read back), so a sentence can be marked.
    for unit in pdf_units:
        assert all(unit.char_start <= b.start < b.end <= unit.char_end for b in unit.boxes)
        assert [b.start for b in unit.boxes] == sorted(b.start for b in unit.boxes)
        assert unit.boxes[0].start == unit.char_start and unit.boxes[-1].end == unit.char_end
    assert fake_engine.structure(files["deck.pptx"].document)[0].label == "Roadmap"


def test_unchanged_files_are_skipped_and_changed_files_replaced(fake_engine: Engine, tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_text("The old fact about zebras.\n", encoding="utf-8")
    first = fake_engine.ingest([path])
    assert first.files[0].status is FileStatus.INGESTED
    old_version = fake_engine.documents()[0].version
    again = fake_engine.ingest([path])
    assert again.files[0].status is FileStatus.UNCHANGED and again.files[0].units == 1
    path.write_text("The new fact about giraffes.\n", encoding="utf-8")
    third = fake_engine.ingest([path])
    assert third.files[0].status is FileStatus.INGESTED
    assert_consistent(fake_engine)
    assert old_version not in fake_engine.library.vectors.versions()
    (unit,) = fake_engine.units(str(path))
    assert "giraffes" in unit.passage
    searcher = fake_engine.library.lexical
    assert searcher.count() == 1


def test_reindex_reads_an_unchanged_file_again_and_keeps_its_tier(
    fake_engine: Engine, tmp_path: Path
) -> None:
    path = tmp_path / "a.txt"
    path.write_text("The old fact about zebras.\n", encoding="utf-8")
    fake_engine.ingest([path])
    fake_engine.set_authority(str(path), 2)
    before = fake_engine.documents()[0]
    again = fake_engine.ingest([path], force=True)
    assert again.files[0].status is FileStatus.INGESTED
    after = fake_engine.documents()[0]
    assert after.version != before.version and after.authority == 2 and after.sha256 == before.sha256
    assert_consistent(fake_engine)
    assert before.version not in fake_engine.library.vectors.versions()


def test_same_name_in_two_folders_is_two_documents(fake_engine: Engine, tmp_path: Path) -> None:
    for sub in ("one", "two"):
        (tmp_path / sub).mkdir()
        (tmp_path / sub / "readme.txt").write_text(f"Readme of folder {sub}.", encoding="utf-8")
    report = fake_engine.ingest([tmp_path / "one", tmp_path / "two"])
    assert [f.status for f in report.files] == [FileStatus.INGESTED, FileStatus.INGESTED]
    assert len({f.document for f in report.files}) == 2
    assert len(fake_engine.documents()) == 2


def test_delete_removes_everything_and_reconcile_reports_drift(fake_engine: Engine, tmp_path: Path) -> None:
    keep, gone, edited = (tmp_path / n for n in ("keep.txt", "gone.txt", "edited.txt"))
    for p in (keep, gone, edited):
        p.write_text(f"Contents of {p.name}.", encoding="utf-8")
    fake_engine.ingest([keep, gone, edited])
    fake_engine.delete(str(keep))
    assert {d.document for d in fake_engine.documents()} == {str(edited), str(gone)}
    assert_consistent(fake_engine)
    blobs = fake_engine.library.blobs
    assert {p.name for p in (fake_engine.library.folder / "blobs").glob("*/*")} == set(
        fake_engine.library.manifest.referenced_blobs()
    )
    with pytest.raises(DocumentNotFound):
        fake_engine.delete(str(keep))
    gone.unlink()
    edited.write_text("Something else entirely.", encoding="utf-8")
    os.utime(edited, (1, 1))
    drift = {Path(d.document).name: d.kind for d in fake_engine.reconcile()}
    assert drift == {"gone.txt": DriftKind.MISSING, "edited.txt": DriftKind.CHANGED}
    assert blobs.size_bytes() > 0


def test_cancel_between_files_leaves_no_partial_document(fake_engine: Engine, tmp_path: Path) -> None:
    paths = []
    for i in range(5):
        p = tmp_path / f"f{i}.txt"
        p.write_text(f"File number {i} talks about topic {i}.", encoding="utf-8")
        paths.append(p)
    cancel = threading.Event()

    def on_event(event) -> None:
        if isinstance(event, FileFinished) and event.result.path.endswith("f1.txt"):
            cancel.set()

    report = fake_engine.ingest(paths, on_event=on_event, cancel=cancel)
    assert report.cancelled
    assert [f.status for f in report.files] == [FileStatus.INGESTED] * 2 + [FileStatus.CANCELLED] * 3
    assert len(fake_engine.documents()) == 2
    assert_consistent(fake_engine)


def test_cancel_during_the_last_embedding_batch_writes_nothing_of_that_file(tmp_path: Path) -> None:
    note = tmp_path / "note.txt"
    note.write_text("A short note about harbours and their cranes.", encoding="utf-8")
    cancel = threading.Event()

    class CancelledMeanwhile(HashEmbedder):
        def embed(self, texts):
            cancel.set()  # clicked while the one batch of this file is embedded
            return super().embed(texts)

    with Engine.open(tmp_path / "lib", embedder=CancelledMeanwhile()) as engine:
        report = engine.ingest([note], cancel=cancel)
        assert report.cancelled and report.files[0].status is FileStatus.CANCELLED
        assert engine.documents() == [] and engine.library.vectors.count() == 0


def test_cancel_during_embedding_writes_nothing_of_that_file(tmp_path: Path) -> None:
    config = Config(ingest=IngestConfig(embed_batch=2))
    engine = Engine.open(tmp_path / "lib", config, embedder=HashEmbedder())
    try:
        long = tmp_path / "long.txt"
        long.write_text(
            "\n\n".join(f"Paragraph {i}. " + factories.LOREM * 3 for i in range(30)), encoding="utf-8"
        )
        cancel = threading.Event()
        events = []

        def on_event(event) -> None:
            events.append(event)
            if isinstance(event, Progress) and event.stage == "embed" and event.done >= 4:
                cancel.set()

        report = engine.ingest([long], on_event=on_event, cancel=cancel)
        assert report.cancelled and report.files[0].status is FileStatus.CANCELLED
        assert engine.documents() == [] and engine.library.vectors.count() == 0
        assert_consistent(engine)
        progress = [e for e in events if isinstance(e, Progress) and e.stage == "embed"]
        assert progress and progress[0].total > 4
    finally:
        engine.close()


def test_file_that_disappears_mid_batch(fake_engine: Engine, tmp_path: Path) -> None:
    first, second, third = (tmp_path / f"{n}.txt" for n in ("a", "b", "c"))
    for p in (first, second, third):
        p.write_text(f"Text of {p.name}.", encoding="utf-8")

    def on_event(event) -> None:
        if isinstance(event, FileFinished) and event.result.path == str(first):
            second.unlink()

    report = fake_engine.ingest([first, second, third], on_event=on_event)
    statuses = [(Path(f.path).name, f.status) for f in report.files]
    assert statuses == [
        ("a.txt", FileStatus.INGESTED),
        ("b.txt", FileStatus.FAILED),
        ("c.txt", FileStatus.INGESTED),
    ]
    assert "does not exist" in report.files[1].reason


def test_unreadable_file_and_special_files(fake_engine: Engine, tmp_path: Path, monkeypatch) -> None:
    locked = tmp_path / "locked.txt"
    locked.write_text("secret", encoding="utf-8")
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    real_open = Path.open

    def deny(self: Path, *args, **kwargs):
        if self == locked:  # tests run as root here, where chmod 000 would not stop a read
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", deny)
    report = fake_engine.ingest([locked, fifo])
    reasons = [f.reason for f in report.files]
    assert "permission denied" in reasons[0] and "not a regular file" in reasons[1]


def test_too_large_file_is_refused(tmp_path: Path) -> None:
    engine = Engine.open(
        tmp_path / "lib", Config(ingest=IngestConfig(max_file_mb=1)), embedder=HashEmbedder()
    )
    try:
        big = tmp_path / "big.txt"
        big.write_bytes(b"word " * 300_000)
        report = engine.ingest([big])
        assert report.files[0].status is FileStatus.FAILED and "too large" in report.files[0].reason
    finally:
        engine.close()


def test_unsupported_script_is_ingested_and_its_script_recorded(fake_engine: Engine, tmp_path: Path) -> None:
    path = tmp_path / "khmer.txt"
    path.write_text("ភាសាខ្មែរ គឺជាភាសាផ្លូវការរបស់ប្រទេសកម្ពុជា។ " * 5, encoding="utf-8")
    report = fake_engine.ingest([path])
    assert report.files[0].status is FileStatus.INGESTED
    assert report.files[0].language == "km"
    assert fake_engine.units(str(path))[0].scripts == ("khmer",)


def test_authority_is_kept_across_reingest(fake_engine: Engine, tmp_path: Path) -> None:
    path = tmp_path / "law.txt"
    path.write_text("Article 1. Everyone has rights.", encoding="utf-8")
    fake_engine.ingest([path], authority=3)
    path.write_text("Article 1. Everyone has rights and duties.", encoding="utf-8")
    fake_engine.ingest([path])
    assert fake_engine.documents()[0].authority == 3
    fake_engine.set_authority(str(path), 1)
    assert fake_engine.documents()[0].authority == 1


def test_a_library_is_locked_and_keeps_its_embedder(tmp_path: Path) -> None:
    engine = Engine.open(tmp_path / "lib", embedder=HashEmbedder(64))
    try:
        with pytest.raises(LibraryError, match="in use"):
            Engine.open(tmp_path / "lib", embedder=HashEmbedder(64))
        (tmp_path / "a.txt").write_text("Some text.", encoding="utf-8")
        engine.ingest([tmp_path / "a.txt"])
    finally:
        engine.close()
    other = Engine.open(tmp_path / "lib", embedder=HashEmbedder(32))
    try:
        (tmp_path / "b.txt").write_text("Other text.", encoding="utf-8")
        with pytest.raises(LibraryError, match="indexed with the embedder hash-64"):
            other.ingest([tmp_path / "b.txt"])
    finally:
        other.close()


def test_the_in_use_error_names_the_computer_and_process_holding_the_library(tmp_path: Path) -> None:
    import os

    fcntl = pytest.importorskip("fcntl")  # the lock of a POSIX system, held by hand below
    engine = Engine.open(tmp_path / "lib", embedder=HashEmbedder(64))
    try:
        with pytest.raises(LibraryError, match=rf"on this computer, process {os.getpid()}\)"):
            Engine.open(tmp_path / "lib", embedder=HashEmbedder(64))
    finally:
        engine.close()
    # Held from another computer through a network share that honours locks, as its lock file says.
    lock = tmp_path / "lib" / "lock"
    with lock.open("a+") as handle:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        handle.seek(0)
        handle.truncate()
        handle.write("workstation-2 4242")
        handle.flush()
        with pytest.raises(
            LibraryError, match=r"in use by another CiteDesk process \(on workstation-2, process 4242\)"
        ):
            Engine.open(tmp_path / "lib", embedder=HashEmbedder(64))


def _two_documents(tmp_path: Path) -> list[Path]:
    a = tmp_path / "bridge.txt"
    a.write_text("The Vasco da Gama Bridge crosses the Tagus river near Lisbon.", encoding="utf-8")
    b = tmp_path / "museum.txt"
    b.write_text("The museum opens at ten on Sundays and closes at six.", encoding="utf-8")
    return [a, b]


def test_reembed_replaces_every_vector_with_the_new_model(tmp_path: Path) -> None:
    with Engine.open(tmp_path / "lib", embedder=HashEmbedder(64)) as engine:
        engine.ingest(_two_documents(tmp_path))
        units = sum(d.units for d in engine.documents())
    with Engine.open(tmp_path / "lib", embedder=HashEmbedder(32)) as engine:
        assert engine.needs_reembed()
        with pytest.raises(LibraryError, match="Re-index"):
            engine.retrieve("Which river does the bridge cross?")
        cancel = threading.Event()
        cancel.set()
        with pytest.raises(Cancelled):
            engine.reembed(cancel=cancel)
        assert engine.needs_reembed(), "a cancelled re-embed keeps the old vectors"
        progress = []
        assert engine.reembed(on_event=progress.append) == units
        assert any(isinstance(e, Progress) and e.done == e.total == units for e in progress)
        assert not engine.needs_reembed()
        hits = engine.retrieve("Which river does the bridge cross?", k=1, signals=["vector"])
        assert "Tagus" in hits.candidates[0].unit.passage
        assert (
            len(
                engine.library.vectors.vectors_by_id([hits.candidates[0].unit.unit_id])[
                    hits.candidates[0].unit.unit_id
                ]
            )
            == 32
        )
        assert (
            not (tmp_path / "lib" / "vectors.next").exists()
            and not (tmp_path / "lib" / "vectors.old").exists()
        )
    with Engine.open(tmp_path / "lib", embedder=HashEmbedder(32)) as engine:  # it sticks
        assert not engine.needs_reembed()
        assert engine.retrieve("museum Sundays", k=1).candidates


class CountingEmbedder(HashEmbedder):
    def __init__(self, dimension: int) -> None:
        super().__init__(dimension)
        self.passages = 0

    def embed(self, texts):  # type: ignore[no-untyped-def]
        self.passages += len(texts)
        return super().embed(texts)


def test_a_stopped_reembed_goes_on_from_the_documents_done(tmp_path: Path) -> None:
    """Cancelled after two documents, then the app closed: the table being built is kept, and the next
    re-embedding embeds only what was not done, leaving out a document removed in between."""
    paths = [*_two_documents(tmp_path)]
    for number in range(4):
        extra = tmp_path / f"note{number}.txt"
        extra.write_text(f"Note {number}: the archive holds {number + 3} boxes of letters.", encoding="utf-8")
        paths.append(extra)
    library = tmp_path / "lib"
    with Engine.open(library, embedder=HashEmbedder(64)) as engine:
        engine.ingest(paths)
        sizes = {d.document: d.units for d in engine.documents()}
    first = CountingEmbedder(32)
    with Engine.open(library, embedder=first) as engine:
        cancel = threading.Event()

        def stop_after_two(event: object) -> None:
            if isinstance(event, Progress) and event.stage == "embed" and event.done >= 2:
                cancel.set()

        with pytest.raises(Cancelled):
            engine.reembed(on_event=stop_after_two, cancel=cancel)
        assert engine.needs_reembed() and (library / "vectors.next").exists()
        done = first.passages
        assert 0 < done < sum(sizes.values())
        removed = next(d.document for d in engine.documents() if d.document.endswith("museum.txt"))
        engine.delete(removed)  # embedded already: its new vectors must go too
    again = CountingEmbedder(32)
    with Engine.open(library, embedder=again) as engine:  # the table being built survived the close
        assert engine.reembed() == sum(sizes.values()) - sizes[removed]
        assert again.passages == sum(sizes.values()) - done  # the museum was among the done ones
        assert not engine.needs_reembed() and not (library / "vectors.next").exists()
        assert engine.library.vectors.count() == sum(sizes.values()) - sizes[removed]
        assert engine.library.vectors.versions() == set(engine.library.manifest.live_versions().values())
        hits = engine.retrieve("Which river does the bridge cross?", k=1, signals=["vector"])
        assert "Tagus" in hits.candidates[0].unit.passage


def test_a_reembed_interrupted_by_a_crash_is_finished_or_rolled_back(tmp_path: Path) -> None:
    import shutil
    import sqlite3

    library = tmp_path / "lib"
    with Engine.open(library, embedder=HashEmbedder(64)) as engine:
        engine.ingest(_two_documents(tmp_path))
    with Engine.open(library, embedder=HashEmbedder(32)) as engine:
        engine.reembed()
    complete = tmp_path / "complete-vectors"
    shutil.copytree(library / "vectors", complete)

    # Crash while the new table was being written: the old vectors and signature stay.
    shutil.copytree(complete, library / "vectors.next")
    (library / "vectors.next" / "EMBEDDER").unlink()
    with Engine.open(library, embedder=HashEmbedder(32)) as engine:
        assert not (library / "vectors.next").exists()
        assert not engine.needs_reembed() and engine.retrieve("bridge", k=1).candidates

    # Crash between the two renames, before the manifest learnt the new signature: the complete new
    # table is moved into place on open and its own signature mark wins.
    with sqlite3.connect(library / "library.sqlite") as db:
        db.execute("UPDATE meta SET value = 'hash-64:64' WHERE key = 'embedder'")
    shutil.move(library / "vectors", library / "vectors.old")
    shutil.copytree(complete, library / "vectors.next")
    with Engine.open(library, embedder=HashEmbedder(32)) as engine:
        assert (library / "vectors").exists() and not (library / "vectors.old").exists()
        assert not engine.needs_reembed() and engine.retrieve("bridge", k=1, signals=["vector"]).candidates


def test_work_progress_moves_through_a_long_document_and_ends_whole(tmp_path: Path) -> None:
    """The bar of a batch counts bytes, the file being embedded by its passages: it moves during the
    embedding of one long file instead of sitting at 0% (or 50% of two files) until it ends."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "long.txt").write_text("\n\n".join(f"{factories.LOREM} {n}" for n in range(200)))
    (docs / "short.txt").write_text("A short note about the harbour.")
    events: list[Progress] = []
    config = Config(ingest=IngestConfig(embed_batch=4))
    with Engine.open(tmp_path / "lib", config, embedder=HashEmbedder()) as engine:
        engine.ingest([docs], on_event=lambda e: events.append(e) if isinstance(e, Progress) else None)
    work = [(e.done, e.total) for e in events if e.stage == "work"]
    total = sum(p.stat().st_size for p in docs.iterdir())
    assert work and all(t == total for _, t in work) and work[-1][0] == total
    assert [d for d, _ in work] == sorted(d for d, _ in work)  # never goes back
    long_size = (docs / "long.txt").stat().st_size
    during_long = [d for d, _ in work if 0 < d < long_size]
    assert len(during_long) >= 5  # many steps inside the long file, not one jump at its end


def test_a_long_batch_compacts_its_vectors_as_it_goes(
    fake_engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # LanceDB writes a version per document listing every fragment: 10,000 files in one batch grew
    # the vector folder to 5.1 GB before the batch's own compaction. Every COMPACT_EVERY documents.
    import citedesk_engine.ingest.pipeline as pipeline

    monkeypatch.setattr(pipeline, "COMPACT_EVERY", 2)
    vectors = fake_engine.library.vectors
    compactions: list[int] = []
    original = vectors.compact
    monkeypatch.setattr(vectors, "compact", lambda: (compactions.append(vectors.count()), original())[1])
    notes = tmp_path / "notes"
    notes.mkdir()
    for n in range(5):
        (notes / f"note-{n}.txt").write_text(
            f"Note {n}: the harbour handled {n} ships today.", encoding="utf-8"
        )
    (notes / "empty.txt").write_text("", encoding="utf-8")  # failed: not counted
    report = fake_engine.ingest([notes])
    assert sum(r.status is FileStatus.INGESTED for r in report.files) == 5
    assert compactions == [2, 4, 5]  # after the 2nd and 4th document, and at the batch's end
    assert len(fake_engine.retrieve("How many ships did the harbour handle?", 5).candidates) == 5


def test_a_table_of_contents_is_not_a_passage(tmp_path: Path) -> None:
    # It holds every heading's words and says nothing under them: retrieved first for a question worded
    # like a heading, it answered nothing (a window session).
    contents = "\n".join(
        f"{n}.{m} Backup topic {n}{m} . . . . . . . . . . . . . . . {10 * n + m}"
        for n in (1, 2)
        for m in (1, 2, 3)
    )
    path = factories.pdf(
        tmp_path / "manual.pdf",
        [
            f"Contents\n{contents}",
            "Backup and recovery policy\nDo not back up /proc and /sys: they are not files.",
        ],
    )
    # OCR off: this page's dot leaders read as a damaged text layer, which OCR would replace
    config = Config(ingest=IngestConfig(ocr="off"))
    with Engine.open(tmp_path / "library", config, embedder=HashEmbedder()) as engine:
        engine.ingest([path])
        units = engine.library.manifest.units_of(str(path))
        assert "Backup topic 11 . . . ." in engine.text(str(path))  # still in its text
    assert units and not any("Backup topic 11" in u.passage for u in units)
    assert any("Do not back up /proc" in u.passage for u in units)


def test_a_fee_schedule_set_with_dot_leaders_is_not_a_table_of_contents() -> None:
    from citedesk_engine.ingest.units import is_contents

    assert is_contents(
        "1.2.12 procfs and sysfs . . . . . 44\n1.2.13 tmpfs . . . . . 45\n1.3 Midnight Commander ..... 45"
    )
    # amounts, not pages: in no order
    assert not is_contents("Late fee ............ 25\nCopy, per page ........ 1\nReturned cheque ........ 30")
    assert not is_contents("Results ........ 12")  # one line: a heading with its page, among prose


@pytest.mark.parametrize("interactive", [False, True])
def test_a_long_pdf_reports_its_pages_read_and_is_cancelled_between_them(
    tmp_path: Path, interactive: bool
) -> None:
    """Debian's 261-page manual spent 20 s "reading text" with a bar that did not move and a Cancel
    that waited for the whole document: its pages are read a batch at a time (here, and in the
    worker process of an engine behind a window), each batch reported, a cancel heard between them."""
    from citedesk_engine.ingest.extract.pdf import PAGE_BATCH

    count = 2 * PAGE_BATCH + 3
    manual = factories.pdf(tmp_path / "manual.pdf", _pages(count, "harbour"))
    events: list[Progress] = []
    with Engine.open(tmp_path / "lib", embedder=HashEmbedder(), interactive=interactive) as engine:
        engine.ingest([manual], on_event=lambda e: events.append(e) if isinstance(e, Progress) else None)
        assert engine.documents()[0].pages == count
        read = [(e.done, e.total) for e in events if e.stage == "pages"]
        assert read == [(PAGE_BATCH, count), (2 * PAGE_BATCH, count), (count, count)]
        work = [e.done for e in events if e.stage == "work"]
        assert work == sorted(work) and len(set(work)) > 3  # the bar moves while pages are read

        again = factories.pdf(tmp_path / "again.pdf", _pages(count, "museum"))
        cancel = threading.Event()

        def stop_after_a_batch(event: object) -> None:
            if isinstance(event, Progress) and event.stage == "pages":
                cancel.set()

        report = engine.ingest([again], on_event=stop_after_a_batch, cancel=cancel)
        assert report.cancelled and report.files[0].status is FileStatus.CANCELLED
        assert [d.source_path for d in engine.documents()] == [str(manual)]
        assert_consistent(engine)


def _pages(count: int, subject: str) -> list[str]:
    """Pages of different text (a line on every page is a running header, left out)."""
    words = factories.LOREM.split()
    return [f"The {subject} {' '.join(words[n % len(words) :][:12])} on page {n}." for n in range(count)]
