"""The library's rows as the list shows them, prepared without Qt.

A listing of 10,000 documents is 10,000 rows, each ordered by its name and given the text the filter
box matches: about 100 ms of Python. Done on the window's thread when a listing arrived, it froze the
window that long after every ingest (benchmarks/ui_stall.py on a 10,000-document library: 128 ms when
the library opened, 145 ms after an ingest); the engine's thread prepares it now (runner.py), and the
window only swaps it in.
"""

from __future__ import annotations

import bisect
import os
from collections.abc import Iterable
from dataclasses import dataclass, field

from citedesk_engine import FileStatus
from citedesk_engine.languages import UNDETERMINED
from citedesk_engine.types import DocumentMeta, DocumentRecord

TIERS = {
    0: "Tier 0: not rated (default)",
    1: "Tier 1: reviewed",
    2: "Tier 2: authoritative",
    3: "Tier 3: primary source",
}
STATE_TEXT = {
    FileStatus.INGESTED: "indexed",
    FileStatus.UNCHANGED: "unchanged",
    FileStatus.FAILED: "failed",
    FileStatus.CANCELLED: "cancelled",
}


@dataclass
class Row:
    document: str
    kind: str = ""
    units: int | None = None
    language: str = ""
    state: str = "indexed"
    reason: str = ""
    authority: int | None = None
    source_path: str = ""
    warnings: tuple[str, ...] = ()  # hidden text left out, text addressed to an AI (engine.warnings)
    about: DocumentMeta = DocumentMeta()  # title, authors, year (engine.metadata)

    @property
    def name(self) -> str:
        # os.path, not Path: a listing of 10,000 documents asks for every name twice, on the GUI thread
        return os.path.basename(self.document)

    def order(self) -> tuple[str, str]:
        """Where the row stands in the list: by name, ignoring case (then by path)."""
        return self.name.lower(), self.document

    def haystack(self) -> str:
        """What the filter box matches: the name, title, authors and year, in lower case."""
        about = self.about
        return " ".join((self.name, about.title, *about.authors, str(about.year or ""))).lower()

    @property
    def state_text(self) -> str:
        state = self.state if not self.reason else f"{self.state}: {self.reason}"
        return f"⚠ {state}" if self.warnings else state  # the warnings: under the table, in the tooltip

    def cells(self) -> tuple[str, ...]:
        return (
            self.name,
            self.kind,
            "" if self.units is None else f"{self.units:,}",
            "?" if self.language == UNDETERMINED else self.language,
            "" if self.authority is None else str(self.authority),
            self.state_text,
        )

    def tooltip(self) -> str:
        language = "" if self.language in ("", UNDETERMINED) else f"language {self.language}"
        units = "" if self.units is None else f"{self.units:,} passages"
        # "pdf · language en · 64 passages": the columns hidden by default
        facts = " · ".join(fact for fact in (self.kind, language, units) if fact)
        return (
            f"{self.document}\n{self.state_text}"
            + (f"\n{facts}" if facts else "")
            + about_lines(self.about)
            + ("" if self.authority is None else f"\n{TIERS.get(self.authority, self.authority)}")
            + "".join(f"\n⚠ {w}" for w in self.warnings)
        )


def about_lines(about: DocumentMeta) -> str:
    lines = [about.title, "; ".join(about.authors), str(about.year or "")]
    shown = "\n".join(line for line in lines if line)
    if not shown:
        return ""
    where = "as you wrote it" if about.source == "you" else "from the file"
    return f"\n{shown}\n({where}; cited as {about.label or 'its name'})"


@dataclass
class Listing:
    """Rows keyed by document and, in step, their keys, orders and filter texts in name order."""

    rows: dict[str, Row] = field(default_factory=dict)
    keys: list[str] = field(default_factory=list)
    orders: list[tuple[str, str]] = field(default_factory=list)  # each row's Row.order()
    haystacks: list[str] = field(default_factory=list)  # each row's Row.haystack()
    # each committed document's file name (the question box's @-completion); not a failed file's
    names: dict[str, str] = field(default_factory=dict)

    def place(self, row: Row) -> int:
        """Where the row's name puts it."""
        return bisect.bisect(self.orders, row.order())

    def insert(self, at: int, row: Row) -> None:
        """Put a row (of a document not listed) at `at`, its `place`."""
        self.keys.insert(at, row.document)
        self.orders.insert(at, row.order())
        self.haystacks.insert(at, row.haystack())
        self.rows[row.document] = row


def listing_of(rows: Iterable[Row]) -> Listing:
    """The rows in name order."""
    ordered = sorted((row.order(), row) for row in rows)
    return Listing(
        {row.document: row for _, row in ordered},
        [row.document for _, row in ordered],
        [order for order, _ in ordered],
        [row.haystack() for _, row in ordered],
    )


def library_listing(
    documents: Iterable[DocumentRecord],
    warnings: dict[str, tuple[str, ...]] | None = None,
    metadata: dict[str, DocumentMeta] | None = None,
) -> Listing:
    """The committed documents as rows, with their warnings and title, authors and year."""
    warnings = warnings or {}
    metadata = metadata or {}
    documents = list(documents)
    listing = listing_of(
        Row(
            d.document,
            d.kind,
            d.units,
            d.language,
            authority=d.authority,
            source_path=d.source_path,
            warnings=warnings.get(d.document, ()),
            about=metadata.get(d.document, DocumentMeta()),
        )
        for d in documents
    )
    listing.names = {d.document: os.path.basename(d.source_path) for d in documents}
    return listing
