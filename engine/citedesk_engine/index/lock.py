"""One process at a time writes a library: an OS file lock, released by the OS if the process dies."""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO

from ..errors import LibraryError


class LibraryLock:
    def __init__(self, path: Path) -> None:
        self._handle: IO[str] | None = None
        handle = path.open("a+")
        try:
            _lock(handle)
        except OSError as exc:
            handle.close()
            raise LibraryError(
                f"The library {path.parent} is in use by another CiteDesk process; close it and try again."
            ) from exc
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        self._handle = handle

    def release(self) -> None:
        if self._handle is not None:
            _unlock(self._handle)
            self._handle.close()
            self._handle = None


if os.name == "nt":  # pragma: no cover - exercised on Windows only
    import msvcrt

    def _lock(handle: IO[str]) -> None:
        msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)

    def _unlock(handle: IO[str]) -> None:
        handle.seek(0)
        msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _lock(handle: IO[str]) -> None:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)

    def _unlock(handle: IO[str]) -> None:
        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
