#!/usr/bin/env python3
"""Fetch the real text behind the million-unit library into benchmarks/data/million/base/.

Every source is a Debian package of manuals (`apt-get download`, no root needed): the Python, Linux,
Perl, PostgreSQL, Django, Git, Octave and R manuals, and Debian's own handbook, policy and guides,
about 13 million words of English prose and reference text. Each package's documents are read with
CiteDesk's own extractors (HTML and PDF; reST, POD and plain text as they are) and written out as
plain-text "base documents" of about `--words` words each: consecutive small files of one package are
joined (each under a `== name ==` line), large ones are cut at a paragraph. benchmarks/million/build.py
makes the library from them.

    .venv/bin/python benchmarks/million/fetch.py [--words 13000]

The package versions fetched are whatever the mirror has (written to base/SOURCES.txt); the figures
this corpus gives are about scale, not about one text, so a newer manual does not invalidate them.
Used locally as benchmark data, never redistributed (each package's copyright file says its license).
"""

from __future__ import annotations

import argparse
import glob
import gzip
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from citedesk_engine.config import IngestConfig
from citedesk_engine.errors import ExtractionError
from citedesk_engine.ingest.extract import extract

HERE = Path(__file__).resolve().parent
BASE = HERE.parent / "data" / "million" / "base"

# (package, file patterns inside it): the English manuals only.
SOURCES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("python3.11-doc", ("usr/share/doc/python3.11/html/_sources/**/*.txt",)),
    ("linux-doc-6.1", ("usr/share/doc/linux-doc-6.1/html/_sources/**/*.txt",)),
    ("perl-doc", ("usr/share/perl/*/pod/*.pod",)),
    ("postgresql-doc-15", ("usr/share/doc/postgresql-doc-15/html/*.html",)),
    ("python-django-doc", ("usr/share/doc/python-django-doc/html/**/*.html",)),
    ("python-pandas-doc", ("usr/share/doc/python-pandas-doc/html/_sources/**/*.txt",)),
    ("python-scipy-doc", ("usr/share/doc/python-scipy-doc/html/**/*.html",)),
    ("python-sqlalchemy-doc", ("usr/share/doc/python-sqlalchemy-doc/html/**/*.html",)),
    ("nodejs-doc", ("usr/share/doc/nodejs/api/*.html",)),
    ("git-doc", ("usr/share/doc/git-doc/*.txt",)),
    ("octave-doc", ("usr/share/doc/octave/octave.pdf",)),
    ("r-doc-pdf", ("usr/share/R/doc/manual/R-*.pdf", "usr/share/R/doc/manual/refman.pdf")),
    ("debian-handbook", ("usr/share/doc/debian-handbook/html/en-US/*.html",)),
    (
        "debian-policy",
        ("usr/share/doc/debian-policy/*.html", "usr/share/doc/debian-policy/policy.html/*.html"),
    ),
    ("developers-reference", ("usr/share/developers-reference/*.html",)),
    ("maint-guide", ("usr/share/doc/maint-guide/html/*.en.html",)),
    ("debian-reference-en", ("usr/share/debian-reference/*.en.html",)),
)
_PARAGRAPH = re.compile(r"\n\s*\n")
# Generated pages that hold no prose: indexes, search pages, highlighted source code.
_NOT_PROSE = re.compile(r"/(_modules|_static|_images)/|/(genindex|search|py-modindex)[^/]*$")


def text_of(path: Path) -> str:
    """The file's text as CiteDesk reads it (HTML, PDF), or as it is (reST, POD, text)."""
    data = path.read_bytes()
    if path.suffix == ".gz":
        data, path = gzip.decompress(data), path.with_suffix("")
    if path.suffix in (".html", ".pdf"):
        try:
            return extract(data, path.suffix, IngestConfig(ocr="off")).text
        except ExtractionError as exc:
            print(f"  skipped {path.name}: {exc}", file=sys.stderr)
            return ""
    return data.decode("utf-8", errors="replace")


def pieces(name: str, text: str, words: int) -> list[tuple[str, str]]:
    """A long text cut into parts of about `words` words at paragraph ends."""
    if len(text.split()) <= 1.5 * words:
        return [(name, text)]
    out, current, count = [], [], 0
    for paragraph in _PARAGRAPH.split(text):
        current.append(paragraph)
        count += len(paragraph.split())
        if count >= words:
            out.append((f"{name} (part {len(out) + 1})", "\n\n".join(current)))
            current, count = [], 0
    if current:
        out.append((f"{name} (part {len(out) + 1})", "\n\n".join(current)))
    return out


def base_documents(package: str, files: list[Path], words: int) -> list[str]:
    """Consecutive files joined, long ones cut, into documents of about `words` words."""
    documents, current, count = [], [], 0
    for path in files:
        text = text_of(path).strip()
        if len(text.split()) < 20:
            continue
        for title, part in pieces(path.name, text, words):
            current.append(f"== {package}: {title} ==\n\n{part}\n")
            count += len(part.split())
            if count >= words:
                documents.append("\n".join(current))
                current, count = [], 0
    if current:
        documents.append("\n".join(current))
    return documents


def fetch(package: str, work: Path) -> tuple[Path, str]:
    result = subprocess.run(["apt-get", "download", package], cwd=work, capture_output=True, text=True)
    debs = sorted(work.glob(f"{package}_*.deb"))
    if result.returncode != 0 or not debs:
        raise SystemExit(f"apt-get download {package} failed: {result.stderr.strip()[-300:]}")
    folder = work / package
    subprocess.run(["dpkg-deb", "-x", str(debs[0]), str(folder)], check=True)
    return folder, debs[0].name


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--words", type=int, default=13_000, help="words per base document (about 100 units)")
    args = parser.parse_args()
    if shutil.which("apt-get") is None or shutil.which("dpkg-deb") is None:
        raise SystemExit("This needs Debian's apt-get and dpkg-deb.")
    shutil.rmtree(BASE, ignore_errors=True)
    BASE.mkdir(parents=True)
    fetched, total_words, total_documents = [], 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        for package, patterns in SOURCES:
            folder, deb = fetch(package, Path(tmp))
            files = sorted(
                {Path(p) for pattern in patterns for p in glob.glob(str(folder / pattern), recursive=True)}
            )
            files = sorted(f for f in files if f.is_file() and not _NOT_PROSE.search(str(f)))
            documents = base_documents(package, files, args.words)
            (BASE / package).mkdir()
            for number, text in enumerate(documents, start=1):
                (BASE / package / f"{package}-{number:04d}.txt").write_text(text, encoding="utf-8")
            words = sum(len(d.split()) for d in documents)
            total_words += words
            total_documents += len(documents)
            fetched.append(f"{deb}\t{len(files)} files\t{len(documents)} documents\t{words} words")
            print(f"{package:<22} {len(files):>5} files -> {len(documents):>4} documents, {words:>10,} words")
    (BASE / "SOURCES.txt").write_text("\n".join(fetched) + "\n", encoding="utf-8")
    print(f"{total_documents:,} base documents, {total_words:,} words in {BASE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
