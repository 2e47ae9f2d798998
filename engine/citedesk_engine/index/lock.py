"""One process at a time opens a library: an OS file lock, released by the OS if the process dies.

The lock file also says who holds it (computer and process), so that a second CiteDesk is told where
the library is open. Across computers the lock holds where the network share honours file locks (NFS
does); two computers must not open one library folder at once (README, "Where one computer is not
enough")."""

from __future__ import annotations

import os
import socket
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
            holder = _holder(path)
            handle.close()
            raise LibraryError(
                f"The library {path.parent} is in use by another CiteDesk process{holder}; close it and "
                "try again."
            ) from exc
        handle.seek(0)
        handle.truncate()
        handle.write(f"{socket.gethostname()} {os.getpid()}")
        handle.flush()
        self._handle = handle

    def release(self) -> None:
        if self._handle is not None:
            _unlock(self._handle)
            self._handle.close()
            self._handle = None


def _holder(path: Path) -> str:
    """ " (on workstation-2, process 4242)", as the holder wrote it; "" when it cannot be read."""
    try:
        host, _, pid = path.read_text(encoding="utf-8").strip().rpartition(" ")
    except (OSError, UnicodeDecodeError):
        return ""
    if not pid.isdigit():
        return ""
    where = "on this computer" if host in ("", socket.gethostname()) else f"on {host}"
    return f" ({where}, process {pid})"


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
