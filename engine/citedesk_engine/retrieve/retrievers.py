"""The retrievers. Each returns its own ranked pool of (unit_id, score), best first."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt

from ..index.library import Library
from ..index.table_keys import positions, question_keys, row_match

_WORD = re.compile(r"\w+", re.UNICODE)
# Words that say nothing about which section is meant.
_STOP = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "can",
        "do",
        "does",
        "for",
        "from",
        "has",
        "have",
        "how",
        "in",
        "into",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "that",
        "the",
        "their",
        "then",
        "there",
        "these",
        "this",
        "to",
        "was",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "about",
        "after",
        "before",
        "under",
        "over",
        "between",
    ]
)


class Retriever(Protocol):
    name: str

    def search(
        self, query: str, limit: int, versions: frozenset[str] | None = None
    ) -> list[tuple[str, float]]:
        """Best first; with `versions`, only units of those document versions (a scoped question)."""
        ...


@dataclass
class VectorRetriever:
    """Nearest units by cosine similarity of normalised embeddings (score = similarity)."""

    library: Library
    embed_query: Callable[[str], npt.NDArray[np.float32]]
    name: str = "vector"

    def search(
        self, query: str, limit: int, versions: frozenset[str] | None = None
    ) -> list[tuple[str, float]]:
        vector = self.embed_query(query)
        found = self.library.vectors.search(vector, limit, versions)
        return [(uid, 1.0 - distance) for uid, _, distance in found]


@dataclass
class LexicalRetriever:
    """BM25 over the persistent tantivy index (score = BM25), stemmed in each language the library holds."""

    library: Library
    name: str = "lexical"

    def search(
        self, query: str, limit: int, versions: frozenset[str] | None = None
    ) -> list[tuple[str, float]]:
        return self.library.lexical.search(query, limit, versions, self.library.languages())


@dataclass
class StructureRetriever:
    """Query words matched to heading, slide, sheet and symbol labels; returns the section's units.

    A label scores by the share of its content words the query contains (so "budget sheet" finds the
    sheet "Budget"), and the units of the text it governs come back in reading order, body included.
    """

    library: Library
    name: str = "structure"

    def search(
        self, query: str, limit: int, versions: frozenset[str] | None = None
    ) -> list[tuple[str, float]]:
        words = {w for w in (t.lower() for t in _WORD.findall(query)) if w not in _STOP}
        if not words:
            return []
        manifest = self.library.manifest
        shares: dict[int, float] = {}
        for rowid, label in manifest.structure_labels(words):  # those sharing a word with the query
            # Every word of the label counts: in "Section A" the "a" is what tells it from "Section B".
            label_words = {t.lower() for t in _WORD.findall(label)}
            share = len(label_words & words) / len(label_words) if label_words else 0.0
            if share >= 0.5:
                shares[rowid] = share
        matches = sorted(
            (shares[rowid], level, rowid, document, start, end)
            for rowid, (document, version, level, start, end) in manifest.structure_spans(shares).items()
            if versions is None or version in versions
        )
        # The best share first; deeper (more specific) sections first among equal matches.
        matches.sort(key=lambda m: (-m[0], -m[1], m[2]))
        found: list[tuple[str, float]] = []
        seen: set[str] = set()
        for share, _, _, document, start, end in matches:
            for unit in manifest.units_in_span(document, start, end):
                if unit.unit_id not in seen:
                    seen.add(unit.unit_id)
                    found.append((unit.unit_id, share))
                if len(found) >= limit:
                    return found
        return found


@dataclass
class TableRowRetriever:
    """Table units holding a row whose first cell the query writes ("Debian 12" finds the row
    "12,Bookworm,..."; index/table_keys.py says why). A unit scores by how many of the query's words
    and phrases key one of its rows; the longest key first among equals ("mazda rx4" before "rx4").
    A query naming a table (a sheet's name, a CSV file's) and a position in it ("the first earthquake
    listed in the quakes sheet", "the last row of debian.csv") finds the table's first or last unit,
    first of all: no word of such a question is in that row."""

    library: Library
    name: str = "rows"

    def search(
        self, query: str, limit: int, versions: frozenset[str] | None = None
    ) -> list[tuple[str, float]]:
        keys = question_keys(query)
        keyed = self.library.manifest.units_with_row_keys(keys)
        placed = positions(query)
        if placed:
            for first, last in self.library.manifest.table_ends(keys):
                for unit_id in ([first] if "first" in placed else []) + ([last] if "last" in placed else []):
                    keyed.setdefault(unit_id, set()).add(_POSITION_KEY)
        # The keyed units are read once: for the scope, and to order those keyed alike by the row
        # holding most of the question's words ("IBM" keys every block of IBM's prices; the question
        # names one month of one year). Beyond _READ_ROWS_OF unscoped units, keys alone order them.
        units = (
            self.library.manifest.units_by_id(list(keyed))
            if versions is not None or len(keyed) <= _READ_ROWS_OF
            else {}
        )
        if versions is not None:
            keyed = {
                uid: keys for uid, keys in keyed.items() if uid in units and units[uid].version in versions
            }
        matched = {uid: row_match(units[uid], query) for uid in keyed if uid in units}
        ranked = sorted(
            keyed.items(),
            key=lambda item: (
                _POSITION_KEY not in item[1],
                -len(item[1]),
                -matched.get(item[0], 0),
                -max(map(len, item[1])),
                item[0],
            ),
        )
        best = max((len(keys) for keys in keyed.values()), default=0)
        most = max(matched.values(), default=0)
        return [
            (
                uid,
                float(best + 1 if _POSITION_KEY in keys else len(keys))
                + (matched.get(uid, 0) / (most + 1) if most else 0.0),
            )
            for uid, keys in ranked[:limit]
        ]


_POSITION_KEY = "\x00position"  # no cell is keyed so
# Keyed units whose rows are read to order them; beyond this many (a key repeated across a huge
# table) they keep the order of their keys alone, and reading stays a bounded cost.
_READ_ROWS_OF = 500
