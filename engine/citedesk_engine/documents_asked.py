"""Which documents of a library the user means, from what they typed: a document id, a file's path,
or a folder (every document of the library under it). Used by a scoped question and by every command
that names one document."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .errors import DocumentNotFound
from .index.library import Library
from .ingest.pipeline import document_id


def resolve(library: Library, document: str | Path) -> str:
    """A document id from an id or a path, as typed by the user."""
    if library.manifest.document(str(document)) is not None:
        return str(document)
    candidate = document_id(Path(document).expanduser())
    if library.manifest.document(candidate) is None:
        raise DocumentNotFound(f"{document} is not in the library (see `citedesk status`).")
    return candidate


def scope(library: Library, items: Sequence[str | Path]) -> tuple[str, ...]:
    """The documents a question is asked in, from document ids, file paths or folders as the user
    typed them (a folder: every document of the library under it), without repeats."""
    wanted: list[str] = []
    for item in items:
        folder = Path(item).expanduser()
        if folder.is_dir():
            inside = library.documents_under(folder)
            if not inside:
                raise DocumentNotFound(f"No document of the library is in the folder {item}.")
            wanted += inside
        else:
            wanted.append(resolve(library, item))
    return tuple(dict.fromkeys(wanted))
