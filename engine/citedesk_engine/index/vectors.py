"""Evidence units with their vectors in LanceDB (cosine on L2-normalised vectors).

Two ways to search, chosen by the table's size (`AnnPolicy`):
- exact, on an in-memory copy of the vectors (float32, 1.5 KB a unit): one matrix product, faster than
  anything else up to a few hundred thousand units;
- approximate, once the table holds `min_units` rows: LanceDB's IVF-RQ index (RaBitQ: a bit a
  dimension), built at the end of the ingest that crosses the size and kept up to date by each later
  ingest's `compact` (new rows are added to the index; until then LanceDB searches them exactly). The
  index's candidates are re-scored with the stored vectors (`refine_factor`), so distances are exact
  and only the recall is approximate (benchmarks/million/ann.py measures it against exact search: at
  1.5 million units RQ reached recall@10 0.95 in 8.8 ms where IVF-PQ and IVF-SQ, at the same
  partitions, needed more time for less, and it builds in a quarter of IVF-PQ's time). No vector
  matrix is held in memory then, and a stored vector is read by its unit id through a scalar index.
  The index's partitions are sized for the table it was built on: once the table has doubled since,
  the next compaction builds it again (new rows added to an old index only fill its partitions, and a
  search that reads `nprobes` of them reads ever more rows), and so does an index of another kind (an
  IVF-PQ index of an earlier version).
A scoped question (some documents only) is always searched exactly over those documents' rows.
"""

from __future__ import annotations

import json
import logging
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..types import EvidenceUnit

log = logging.getLogger(__name__)

TABLE = "units"
VECTOR_INDEX = "vector_idx"
INDEX_KIND = "IvfRq"  # the ANN index's type as LanceDB lists it
BUILT = "ANN_ROWS"  # beside the table: how many rows the index was built over
# LanceDB's caches, bounded: by default they grow with every version written (about 0.2 MB a document
# added, 2 GB over 10,000 documents). The index cache holds the ANN partitions searched (PQ codes: 48
# bytes a unit) and the scalar indexes; the metadata cache the table's manifests.
INDEX_CACHE_BYTES = 512 << 20
METADATA_CACHE_BYTES = 64 << 20


@dataclass(frozen=True, slots=True)
class AnnPolicy:
    """When the vector table gets an approximate index, and how that index is searched."""

    min_units: int = 200_000  # below: exact search on the in-memory matrix
    partition_rows: int = 4096  # rows per IVF partition when the index is built
    nprobes: int = 80  # IVF partitions searched per question
    refine_factor: int = 20  # candidates re-scored with the stored vectors: limit x this


def _quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _in(column: str, values: Sequence[str]) -> str:
    return f"{column} IN ({', '.join(_quote(v) for v in values)})"


class VectorStore:
    def __init__(self, folder: Path, policy: AnnPolicy | None = None) -> None:
        import lancedb
        import pyarrow as pa

        self._pa = pa
        self.policy = policy or AnnPolicy()
        session = lancedb.Session(
            index_cache_size_bytes=INDEX_CACHE_BYTES, metadata_cache_size_bytes=METADATA_CACHE_BYTES
        )
        self._db = lancedb.connect(str(folder), session=session)
        self._built = folder / BUILT
        self._table: Any = None
        self._indexed = False
        self._kind = ""  # the ANN index's type, once there is one
        if TABLE in self._db.list_tables().tables:
            self._table = self._db.open_table(TABLE)
            kinds = [i.index_type for i in self._table.list_indices() if i.name == VECTOR_INDEX]
            self._indexed, self._kind = bool(kinds), (kinds or [""])[0]
        # Exact search runs on an in-memory copy of the vectors (float32, 1.5 KB a unit): one matrix
        # product beats a scan through the table by an order of magnitude. Writes mark it stale.
        self._matrix: npt.NDArray[np.float32] | None = None
        self._ids: list[str] = []
        self._rows: dict[str, int] = {}
        self._versions: npt.NDArray[np.str_] = np.array([], dtype=str)

    def _schema(self, dimension: int) -> Any:
        pa = self._pa
        return pa.schema(
            [
                pa.field("unit_id", pa.string()),
                pa.field("document", pa.string()),
                pa.field("version", pa.string()),
                pa.field("ordinal", pa.int32()),
                pa.field("passage", pa.string()),
                pa.field("context", pa.string()),
                pa.field("section", pa.string()),
                pa.field("char_start", pa.int64()),
                pa.field("char_end", pa.int64()),
                pa.field("page", pa.int32()),
                pa.field("boxes", pa.string()),
                pa.field("scripts", pa.string()),
                pa.field("vector", pa.list_(pa.float32(), dimension)),
            ]
        )

    def add(self, units: Sequence[EvidenceUnit], vectors: npt.NDArray[np.float32]) -> None:
        if not units:
            return
        pa = self._pa
        dimension = int(vectors.shape[1])
        if self._table is None:
            self._table = self._db.create_table(TABLE, schema=self._schema(dimension))
        columns: dict[str, Any] = {
            "unit_id": [u.unit_id for u in units],
            "document": [u.document for u in units],
            "version": [u.version for u in units],
            "ordinal": [u.ordinal for u in units],
            "passage": [u.passage for u in units],
            "context": [u.context for u in units],
            "section": [u.section for u in units],
            "char_start": [u.char_start for u in units],
            "char_end": [u.char_end for u in units],
            "page": [u.page for u in units],
            "boxes": [json.dumps([b.as_row() for b in u.boxes]) for u in units],
            "scripts": [",".join(u.scripts) for u in units],
        }
        flat = pa.array(np.ascontiguousarray(vectors, dtype=np.float32).reshape(-1))
        columns["vector"] = pa.FixedSizeListArray.from_arrays(flat, dimension)
        self._table.add(pa.table(columns, schema=self._schema(dimension)))
        self._matrix = None

    def delete_version(self, version: str) -> None:
        if self._table is not None:
            self._table.delete(f"version = {_quote(version)}")
            self._matrix = None

    def count(self) -> int:
        return 0 if self._table is None else int(self._table.count_rows())

    @property
    def approximate(self) -> bool:
        """True once the table has its ANN index (searches are then approximate, see the module)."""
        return self._indexed

    def search(
        self, vector: npt.NDArray[np.float32], limit: int, versions: frozenset[str] | None = None
    ) -> list[tuple[str, str, float]]:
        """The nearest units by cosine distance: (unit_id, version, distance), closest first; with
        `versions`, only units of those document versions (a scoped question)."""
        if self._indexed:
            return self._search_table(vector, limit, versions)
        matrix = self._vectors()
        if matrix is None or not len(matrix) or limit <= 0:
            return []
        rows = None if versions is None else np.nonzero(np.isin(self._versions, list(versions)))[0]
        if rows is not None:
            if not len(rows):
                return []
            matrix = matrix[rows]
        similarity = matrix @ np.asarray(vector, dtype=np.float32)
        if limit < len(similarity):
            top = np.argpartition(-similarity, limit)[:limit]
        else:
            top = np.arange(len(similarity))
        top = top[np.argsort(-similarity[top], kind="stable")]
        ids = [self._ids[i] for i in (top if rows is None else rows[top])]
        return [(uid, uid.split("-")[0], float(1.0 - similarity[i])) for uid, i in zip(ids, top, strict=True)]

    def _built_rows(self) -> int:
        """Rows the index was built over (an index without the note: as many as the table has)."""
        try:
            return int(self._built.read_text(encoding="ascii"))
        except (OSError, ValueError):
            return max(1, self.count())

    def _search_table(
        self, vector: npt.NDArray[np.float32], limit: int, versions: frozenset[str] | None
    ) -> list[tuple[str, str, float]]:
        if limit <= 0 or versions is not None and not versions:
            return []
        query = self._table.search(np.asarray(vector, dtype=np.float32)).distance_type("cosine")
        if versions is None:
            query = query.nprobes(self.policy.nprobes).refine_factor(self.policy.refine_factor)
        else:  # exact over the scope's rows (found through the version column's scalar index)
            query = query.where(_in("version", sorted(versions)), prefilter=True).bypass_vector_index()
        found = query.limit(limit).select(["unit_id", "_distance"]).to_arrow()
        ids = found.column("unit_id").to_pylist()
        distances = found.column("_distance").to_pylist()
        return [(uid, uid.split("-")[0], float(d)) for uid, d in zip(ids, distances, strict=True)]

    def _vectors(self) -> npt.NDArray[np.float32] | None:
        if self._matrix is None and self._table is not None:
            table = self._table.search().select(["unit_id", "vector"]).limit(None).to_arrow()
            column = table.column("vector").combine_chunks()
            dimension = column.type.list_size
            self._matrix = np.ascontiguousarray(
                column.values.to_numpy().reshape(-1, dimension), dtype=np.float32
            )
            self._ids = table.column("unit_id").to_pylist()
            self._rows = {uid: row for row, uid in enumerate(self._ids)}
            # A unit id starts with its version: the rows' versions, for a scoped search.
            self._versions = np.array([uid.split("-")[0] for uid in self._ids])
        return self._matrix

    def vectors_by_id(self, unit_ids: Sequence[str]) -> dict[str, npt.NDArray[np.float32]]:
        """The stored vectors of these units (units not in the index are left out)."""
        if self._indexed:
            found: dict[str, npt.NDArray[np.float32]] = {}
            wanted = sorted(set(unit_ids))
            for start in range(0, len(wanted), 500):
                rows = (
                    self._table.search()
                    .where(_in("unit_id", wanted[start : start + 500]))
                    .select(["unit_id", "vector"])
                    .limit(None)
                    .to_arrow()
                )
                column = rows.column("vector").combine_chunks()
                matrix = column.values.to_numpy().reshape(-1, column.type.list_size)
                found.update(zip(rows.column("unit_id").to_pylist(), matrix, strict=True))
            return found
        matrix = self._vectors()
        if matrix is None:
            return {}
        return {uid: matrix[self._rows[uid]] for uid in unit_ids if uid in self._rows}

    def versions(self) -> set[str]:
        if self._table is None:
            return set()
        table = self._table.search().select(["version"]).limit(None).to_arrow()
        return set(table.column("version").unique().to_pylist())

    def compact(self) -> None:
        """Merge small fragments left by many per-document writes, add new rows to the ANN index, and
        build that index once the table reaches the policy's size. Safe at any time; the library's
        lock keeps other processes out, so replaced files are removed at once (they would otherwise
        stay on disk for a week)."""
        if self._table is None:
            return
        with warnings.catch_warnings():  # "any concurrent reader or writer will fail": none can exist
            warnings.filterwarnings("ignore", message="optimize.cleanup_older_than", category=UserWarning)
            self._table.optimize(cleanup_older_than=timedelta(0), delete_unverified=True)
        rows = self.count()
        if not self._indexed and rows >= self.policy.min_units:
            self.build_index()
        elif self._indexed and (rows >= 2 * self._built_rows() or self._kind != INDEX_KIND):
            self.build_index()  # doubled since (partitions for the table as it is now), or another kind

    def build_index(self) -> None:
        """The ANN index over every row, and scalar indexes on the unit id and the version (read by
        id, scoped search, delete). Minutes at a million units; the exact search works until then."""
        from lancedb.index import BTree, IvfRq

        rows = self.count()
        log.info("building the ANN index over %d vectors", rows)
        for column in ("unit_id", "version"):
            self._table.create_index(column, config=BTree(), replace=True)
        partitions = max(1, rows // self.policy.partition_rows)
        config = IvfRq(distance_type="cosine", num_partitions=partitions)
        self._table.create_index("vector", config=config, replace=True, name=VECTOR_INDEX)
        self._built.write_text(str(rows), encoding="ascii")
        self._indexed, self._kind = True, INDEX_KIND
        self._matrix, self._ids, self._rows = None, [], {}
        self._versions = np.array([], dtype=str)
