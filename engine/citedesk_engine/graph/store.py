"""The entity graph in the library's SQLite file: mentions per unit, and what is derived from them.

`graph_mentions` is the graph: a row per mention (version, unit, sentence, key, label, kind). An edge
is two nodes mentioned in the same sentence (strong) or the same unit, and the units that evidence
it are found by a join, so no edge can outlive its units: removing a version removes its mentions.
`graph_read` says how far each version's units have been read (resumable after a crash: a batch of
mentions and its progress are one transaction). Derived from the mentions, rebuilt when they changed
(`graph_state`: a change counter and the counter the derived tables were built from):
`graph_keys` maps every key to its node (aliases merged) and community, `graph_nodes` and
`graph_communities` label them, `graph_vectors` holds the embeddings of node labels. The library
wiki's pages live beside them (wiki_store.py) and go with the versions they were written from.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ..index.manifest import Transaction
from ..types import Mention
from .wiki_store import WikiStore

_SCHEMA = """
CREATE TABLE IF NOT EXISTS graph_mentions (
    version TEXT NOT NULL, unit_id TEXT NOT NULL, sentence INTEGER NOT NULL, node TEXT NOT NULL,
    label TEXT NOT NULL, kind TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS graph_mentions_node ON graph_mentions (node);
CREATE INDEX IF NOT EXISTS graph_mentions_unit ON graph_mentions (unit_id);
CREATE INDEX IF NOT EXISTS graph_mentions_version ON graph_mentions (version);
CREATE TABLE IF NOT EXISTS graph_read (
    version TEXT PRIMARY KEY, next_ordinal INTEGER NOT NULL, done INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS graph_keys (key TEXT PRIMARY KEY, node TEXT NOT NULL, community INTEGER);
CREATE INDEX IF NOT EXISTS graph_keys_node ON graph_keys (node);
CREATE INDEX IF NOT EXISTS graph_keys_community ON graph_keys (community);
CREATE TABLE IF NOT EXISTS graph_nodes (
    node TEXT PRIMARY KEY, label TEXT NOT NULL, kind TEXT NOT NULL, units INTEGER NOT NULL, community INTEGER
);
CREATE TABLE IF NOT EXISTS graph_communities (
    community INTEGER PRIMARY KEY, label TEXT NOT NULL, nodes INTEGER NOT NULL, units INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS graph_vectors (node TEXT PRIMARY KEY, vector BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS graph_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


@dataclass(frozen=True, slots=True)
class Node:
    node: str
    label: str
    kind: str
    units: int
    community: int | None


@dataclass(frozen=True, slots=True)
class Community:
    community: int
    label: str
    nodes: int
    units: int


class GraphStore:
    def __init__(self, path: Path) -> None:
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(_SCHEMA)
        self._vectors: tuple[list[str], npt.NDArray[np.float32]] | None = None
        self.wiki = WikiStore(self._db)  # the library wiki's pages (graph/wiki.py)

    def close(self) -> None:
        self._db.close()

    # -- reading progress -------------------------------------------------------------------------

    def progress(self) -> dict[str, tuple[int, bool]]:
        """{version: (next ordinal to read, done)} of every version begun."""
        rows = self._db.execute("SELECT version, next_ordinal, done FROM graph_read").fetchall()
        return {version: (ordinal, bool(done)) for version, ordinal, done in rows}

    def write(
        self, version: str, mentions: Sequence[tuple[str, Sequence[Mention]]], next_ordinal: int, done: bool
    ) -> None:
        """The mentions of a batch of units and how far the version is read, in one transaction."""
        rows = [
            (version, unit_id, m.sentence, m.node, m.label, m.kind)
            for unit_id, found in mentions
            for m in found
        ]
        with Transaction(self._db):
            self._db.executemany("INSERT INTO graph_mentions VALUES (?, ?, ?, ?, ?, ?)", rows)
            self._db.execute(
                "INSERT OR REPLACE INTO graph_read VALUES (?, ?, ?)", (version, next_ordinal, int(done))
            )
            self._changed()

    def delete_versions(self, versions: Iterable[str]) -> None:
        """Every mention and the reading progress of these versions (removed or replaced documents)."""
        versions = list(versions)
        if not versions:
            return
        with Transaction(self._db):
            for version in versions:
                self._db.execute("DELETE FROM graph_mentions WHERE version = ?", (version,))
                self._db.execute("DELETE FROM graph_read WHERE version = ?", (version,))
            self.wiki.delete_versions(versions)
            self._changed()

    def versions(self) -> set[str]:
        return {v for (v,) in self._db.execute("SELECT version FROM graph_read").fetchall()}

    def _changed(self) -> None:
        self._db.execute(
            "INSERT INTO graph_state VALUES ('changes', '1') "
            "ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1"
        )

    def changes(self) -> int:
        row = self._db.execute("SELECT value FROM graph_state WHERE key = 'changes'").fetchone()
        return int(row[0]) if row else 0

    def derived_from(self) -> int:
        row = self._db.execute("SELECT value FROM graph_state WHERE key = 'derived'").fetchone()
        return int(row[0]) if row else 0

    # -- derived tables ---------------------------------------------------------------------------

    def key_counts(self) -> list[tuple[str, str, str, int]]:
        """(key, its commonest label, its commonest kind, units mentioning it) of every key."""
        rows = self._db.execute(
            "SELECT node, label, kind, COUNT(*) AS n FROM graph_mentions GROUP BY node, label, kind"
        ).fetchall()
        units = dict(
            self._db.execute("SELECT node, COUNT(DISTINCT unit_id) FROM graph_mentions GROUP BY node")
        )
        best: dict[str, tuple[int, int, str, str]] = {}
        for key, label, kind, count in rows:
            rank = (int(kind != "NP"), count)  # an entity type wins over NP, then the commonest label
            if key not in best or rank > best[key][:2]:
                best[key] = (*rank, label, kind)
        return [(key, label, kind, units[key]) for key, (_, _, label, kind) in best.items()]

    def co_mentions(self) -> Iterable[tuple[str, int, str]]:
        """(unit_id, sentence, key) of every mention: what the communities are built from."""
        return self._db.execute("SELECT unit_id, sentence, node FROM graph_mentions")

    def key_documents(self) -> Iterable[tuple[str, str, str]]:
        """(version, key, kind) once each: for aliases that hold within one document (surnames)."""
        return self._db.execute("SELECT DISTINCT version, node, kind FROM graph_mentions")

    def write_derived(
        self,
        keys: dict[str, str],
        nodes: Sequence[Node],
        communities: Sequence[Community],
        changes: int,
    ) -> None:
        """Replace the derived tables in one transaction; they are current for `changes`."""
        community_of = {n.node: n.community for n in nodes}
        with Transaction(self._db):
            for table in ("graph_keys", "graph_nodes", "graph_communities"):
                self._db.execute(f"DELETE FROM {table}")
            self._db.executemany(
                "INSERT INTO graph_keys VALUES (?, ?, ?)",
                ((key, node, community_of.get(node)) for key, node in keys.items()),
            )
            self._db.executemany(
                "INSERT INTO graph_nodes VALUES (?, ?, ?, ?, ?)",
                ((n.node, n.label, n.kind, n.units, n.community) for n in nodes),
            )
            self._db.executemany(
                "INSERT INTO graph_communities VALUES (?, ?, ?, ?)",
                ((c.community, c.label, c.nodes, c.units) for c in communities),
            )
            live = {n.node for n in nodes}
            stale = [n for (n,) in self._db.execute("SELECT node FROM graph_vectors") if n not in live]
            self._db.executemany("DELETE FROM graph_vectors WHERE node = ?", ((n,) for n in stale))
            self._db.execute("INSERT OR REPLACE INTO graph_state VALUES ('derived', ?)", (str(changes),))
        self._vectors = None

    def nodes_without_vectors(self, embedder: str, min_units: int) -> list[tuple[str, str]]:
        """(node, label) of the entities (not noun phrases) mentioned in at least `min_units` units
        that have no label embedding of `embedder` (all of them when the embedder changed)."""
        row = self._db.execute("SELECT value FROM graph_state WHERE key = 'vectors'").fetchone()
        if row is None or row[0] != embedder:
            with Transaction(self._db):
                self._db.execute("DELETE FROM graph_vectors")
                self._db.execute("INSERT OR REPLACE INTO graph_state VALUES ('vectors', ?)", (embedder,))
            self._vectors = None
        return self._db.execute(
            "SELECT n.node, n.label FROM graph_nodes n LEFT JOIN graph_vectors v ON v.node = n.node "
            "WHERE v.node IS NULL AND n.units >= ? AND n.kind != 'NP' ORDER BY n.node",
            (min_units,),
        ).fetchall()

    def write_vectors(self, nodes: Sequence[str], vectors: npt.NDArray[np.float32]) -> None:
        with Transaction(self._db):
            self._db.executemany(
                "INSERT OR REPLACE INTO graph_vectors VALUES (?, ?)",
                ((node, vectors[i].astype(np.float32).tobytes()) for i, node in enumerate(nodes)),
            )
        self._vectors = None

    def label_vectors(self) -> tuple[list[str], npt.NDArray[np.float32]]:
        """Every node with a label embedding and the embeddings as one matrix (cached until a change)."""
        if self._vectors is None:
            rows = self._db.execute("SELECT node, vector FROM graph_vectors ORDER BY node").fetchall()
            names = [node for node, _ in rows]
            matrix = (
                np.vstack([np.frombuffer(blob, dtype=np.float32) for _, blob in rows])
                if rows
                else np.zeros((0, 0), dtype=np.float32)
            )
            self._vectors = (names, matrix)
        return self._vectors

    # -- queries ----------------------------------------------------------------------------------

    def nodes_of_keys(self, keys: Sequence[str]) -> dict[str, str]:
        """{key: node} for those keys that are in the graph."""
        found: dict[str, str] = {}
        for chunk in _chunks(list(keys)):
            found.update(
                self._db.execute(
                    f"SELECT key, node FROM graph_keys WHERE key IN ({_marks(chunk)})", chunk
                ).fetchall()
            )
        return found

    def has_nodes(self) -> bool:
        return self._db.execute("SELECT 1 FROM graph_keys LIMIT 1").fetchone() is not None

    def node_info(self, nodes: Sequence[str]) -> dict[str, Node]:
        found: dict[str, Node] = {}
        for chunk in _chunks(list(nodes)):
            for row in self._db.execute(
                "SELECT node, label, kind, units, community FROM graph_nodes "
                f"WHERE node IN ({_marks(chunk)})",
                chunk,
            ):
                found[row[0]] = Node(*row)
        return found

    def mentions_of(self, nodes: Sequence[str]) -> list[tuple[str, int, str]]:
        """(unit_id, sentence, node) of every mention of these nodes, through any of their keys."""
        found: list[tuple[str, int, str]] = []
        for chunk in _chunks(list(nodes)):
            found += self._db.execute(
                "SELECT m.unit_id, m.sentence, k.node FROM graph_keys k "
                f"JOIN graph_mentions m ON m.node = k.key WHERE k.node IN ({_marks(chunk)})",
                chunk,
            ).fetchall()
        return found

    def nodes_in_units(self, unit_ids: Sequence[str]) -> list[tuple[str, int, str]]:
        """(unit_id, sentence, node) of every mention in these units."""
        found: list[tuple[str, int, str]] = []
        for chunk in _chunks(list(unit_ids)):
            found += self._db.execute(
                "SELECT m.unit_id, m.sentence, k.node FROM graph_mentions m "
                f"JOIN graph_keys k ON k.key = m.node WHERE m.unit_id IN ({_marks(chunk)})",
                chunk,
            ).fetchall()
        return found

    def community_units(self, community: int, limit: int) -> list[tuple[str, int]]:
        """The units mentioning the most nodes of a community: (unit_id, nodes), most first."""
        return self._db.execute(
            "SELECT m.unit_id, COUNT(DISTINCT k.node) AS n FROM graph_keys k "
            "JOIN graph_mentions m ON m.node = k.key WHERE k.community = ? "
            "GROUP BY m.unit_id ORDER BY n DESC, m.unit_id LIMIT ?",
            (community, limit),
        ).fetchall()

    def communities(self) -> list[Community]:
        rows = self._db.execute(
            "SELECT community, label, nodes, units FROM graph_communities ORDER BY units DESC, community"
        ).fetchall()
        return [Community(*row) for row in rows]

    def counts(self) -> tuple[int, int, int]:
        """(nodes, communities, units with a mention)."""
        nodes = self._db.execute("SELECT COUNT(*) FROM graph_nodes").fetchone()[0]
        communities = self._db.execute("SELECT COUNT(*) FROM graph_communities").fetchone()[0]
        units = self._db.execute("SELECT COUNT(DISTINCT unit_id) FROM graph_mentions").fetchone()[0]
        return int(nodes), int(communities), int(units)

    def search_nodes(self, words: str, topic: int | None = None, limit: int = 100) -> list[Node]:
        """Nodes whose key holds `words` (any case; all when empty), of one topic or all, entities
        before noun phrases, most mentioned first: the Explore view's list."""
        pattern = (
            "%" + words.lower().strip().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        )
        rows = self._db.execute(
            "SELECT node, label, kind, units, community FROM graph_nodes WHERE node LIKE ? ESCAPE '\\' "
            "AND (? IS NULL OR community = ?) ORDER BY kind = 'NP', units DESC, node LIMIT ?",
            (pattern, topic, topic, limit),
        ).fetchall()
        return [Node(*row) for row in rows]


def _chunks(items: list[str], size: int = 500) -> Iterable[list[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _marks(chunk: Sequence[object]) -> str:
    return ", ".join("?" * len(chunk))
