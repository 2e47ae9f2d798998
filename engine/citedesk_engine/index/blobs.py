"""Content-addressed blob store: raw source bytes and extracted text, named by their sha256."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class BlobStore:
    def __init__(self, root: Path) -> None:
        self._root = root
        root.mkdir(parents=True, exist_ok=True)

    def put(self, data: bytes) -> str:
        """Store `data` (once: equal bytes share a file) and return its sha256."""
        digest = sha256_hex(data)
        path = self.path(digest)
        if path.exists():
            return digest
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f"{path.name}.{os.getpid()}.partial")
        with temporary.open("wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
        return digest

    def get(self, digest: str) -> bytes:
        return self.path(digest).read_bytes()

    def path(self, digest: str) -> Path:
        return self._root / digest[:2] / digest

    def keep_only(self, wanted: Iterable[str]) -> int:
        """Delete every blob not in `wanted` (and any half-written file); return how many went."""
        keep = set(wanted)
        removed = 0
        for path in self._root.glob("*/*"):
            if path.name not in keep:
                path.unlink(missing_ok=True)
                removed += 1
        return removed

    def size_bytes(self) -> int:
        return sum(p.stat().st_size for p in self._root.glob("*/*") if p.is_file())
